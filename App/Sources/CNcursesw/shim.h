#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
/* From <term.h>, whose macros would clash: reads a terminal type's terminfo entry, reporting
   through errret instead of printing and exiting (albums checks TERM before initscr). */
int setupterm(const char *term, int filedes, int *errret);
#endif
