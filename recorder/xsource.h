/* xsource.h — a GSource that dispatches an X connection in the GMainLoop.
 *
 * Xlib reads ahead and buffers events (and asynchronous replies, such as
 * RECORD's data), so polling the socket is not enough: prepare and check
 * also ask XPending(), which reads what the socket holds and runs Xlib's
 * asynchronous handlers. The callback then drains the connection.
 *
 * Xlib's asynchronous handlers (RECORD's data arrives as replies) may run
 * inside prepare or check, where nothing may happen that the main loop
 * should notice: they should only queue, and report it through the
 * XSourceReadyFunc, so that the callback runs in dispatch.
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>

G_BEGIN_DECLS

/* Called when @dpy has something to read or queued; returns
 * G_SOURCE_CONTINUE or G_SOURCE_REMOVE. */
typedef gboolean (*XSourceFunc) (Display *dpy, gpointer user_data);

/* Something is queued for the callback beyond Xlib's event queue. */
typedef gboolean (*XSourceReadyFunc) (gpointer user_data);

/* A new source (not attached) watching @dpy; the caller keeps @dpy open
 * for the source's lifetime. @ready may be NULL. */
GSource *xsource_new (Display *dpy, XSourceFunc func, XSourceReadyFunc ready,
                      gpointer user_data, GDestroyNotify notify);

G_END_DECLS
