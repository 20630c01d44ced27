/* xfault.c — libxfault.so, a library whose one function crashes
 * (SIGSEGV, a write through a null pointer), built with its debugging
 * information: the crash report tests (tests/x11/test-crashes.c) call it
 * from scripts, so that their report has a C frame with file:line. A
 * Python app calls xfault_crash() through ctypes; a Tcl app `load`s the
 * library, whose Xfault_Init (Tcl's entry point for "Xfault") crashes.
 */
#include <stddef.h>

int Xfault_Init (void *interp);
void xfault_crash (void);

static volatile int *nowhere;

__attribute__((noinline)) void
xfault_crash (void)
{
  nowhere[1] = 42;
}

int
Xfault_Init (void *interp)
{
  xfault_crash ();
  return 0;
}
