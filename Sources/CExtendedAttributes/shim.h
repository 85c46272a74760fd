#ifndef CEXTENDEDATTRIBUTES_SHIM_H
#define CEXTENDEDATTRIBUTES_SHIM_H
// glibc's getxattr() and setxattr() for AlbumLibrary's verification marker and SQLiteDatabase's mark
// on each write-ahead log: <sys/xattr.h> is not part of the Glibc module Swift imports. Declared, not
// looked up with dlsym: a statically linked albums (Scripts/install.sh) has no dynamic symbol table to
// look them up in. On Darwin the Darwin module declares them, and this header declares nothing.
#ifdef __linux__
#include <sys/xattr.h>
#endif
#endif
