#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
/* From <term.h>, whose macros would clash: reads a terminal type's terminfo entry, reporting
   through errret instead of printing and exiting (albums checks TERM before initscr). */
int setupterm(const char *term, int filedes, int *errret);
/* Frees the entry setupterm read, once checked (initscr reads its own). A function, because
   Swift 6 refuses to touch the global cur_term itself. */
struct term;
extern struct term *cur_term;
int del_curterm(struct term *oterm);
static inline void albums_free_checked_terminal(void) { del_curterm(cur_term); }
#endif
