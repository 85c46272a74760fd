#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#endif
