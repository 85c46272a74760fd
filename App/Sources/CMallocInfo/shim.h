#ifndef CMALLOCINFO_SHIM_H
#define CMALLOCINFO_SHIM_H
// glibc's mallinfo2() for command-bench's heap-bytes lines, and mallopt() for albums under an
// address-space limit: <malloc.h> is not part of the Glibc module Swift imports. Elsewhere this
// header declares nothing.
#ifdef __linux__
#include <malloc.h>
#endif
#endif
