/* xerror.h — X protocol errors that xrecord expects and survives.
 *
 * X errors arrive asynchronously, and Xlib's default handler exits. Most of
 * ours are races: a window the model asks about was destroyed a moment
 * ago (BadWindow). xerror_install() replaces the handler with one that
 * ignores them; a trap brackets a request whose failure matters.
 */
#pragma once

#include <X11/Xlib.h>

/* Process-wide (Xlib has one error handler per process). */
void xerror_install (void);

/* Starts counting errors on @dpy. */
void xerror_trap_push (Display *dpy);
/* XSyncs @dpy and returns the first error code since the push (0: none). */
int xerror_trap_pop (Display *dpy);
