/* xconn.h — the X connection in the GMainLoop, and X errors that are
 * survived: one layer for the recorder and the replayer.
 *
 * The source. Xlib reads ahead and buffers events (and asynchronous
 * replies, such as RECORD's data), so polling the socket is not enough:
 * prepare and check also ask XPending(), which reads what the socket holds
 * and runs Xlib's asynchronous handlers (i3's ev_prepare, for the same
 * reason). xconn_source_new() is that source over any Display; its
 * callback drains the connection. Asynchronous handlers that run inside
 * prepare or check may only queue, and say so through the XConnReadyFunc,
 * so that the callback runs in dispatch.
 *
 * Errors. X errors arrive asynchronously and Xlib's default handler exits.
 * Most are races (a window destroyed between a query and its use is
 * routine, above all when the app crashes): xconn_errors_install()
 * replaces the process-wide handler with one that counts them and never
 * exits; a trap brackets a request whose failure matters.
 *
 * The replayer's connection. xconn_open() opens the display (bounded in
 * time), checks for XTest and installs the handlers: an I/O error (the
 * server died) marks the connection dead instead of exiting the process,
 * and every later call here turns into a no-op; xconn_watch() reads its
 * events one by one. Start reading at xconn_source_new().
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* ---- the source, over any Display ---- */

/* Called when @dpy has something to read or queued; returns
 * G_SOURCE_CONTINUE or G_SOURCE_REMOVE. */
typedef gboolean (*XConnSourceFunc) (Display *dpy, gpointer user_data);

typedef enum
{
  XCONN_IDLE,                /* nothing beyond Xlib's queue: ask XPending() */
  XCONN_READY,               /* something is queued for the callback */
  XCONN_CLOSED,              /* do not touch the Display any more */
} XConnReady;

/* Asked before XPending() (CLOSED keeps it from being called on a dead
 * connection) and after it (its handlers may have queued something). */
typedef XConnReady (*XConnReadyFunc) (gpointer user_data);

/* A new source (not attached) watching @dpy; the caller keeps @dpy open
 * for the source's lifetime. @ready may be NULL. On a broken connection
 * (HUP) the callback runs once more, then the source goes. */
GSource *xconn_source_new (Display *dpy, XConnSourceFunc func, XConnReadyFunc ready,
                           gpointer user_data, GDestroyNotify notify);
/* A new source (not attached) that reads @dpy's events and drops them,
 * until *@gone (the caller's flag that the server is gone: a dead
 * connection is not read again). For a connection whose events are read
 * elsewhere: the recorder's tracker, whose events RECORD's stream holds
 * in order with the rest. */
GSource *xconn_discard_source_new (Display *dpy, const gboolean *gone);

/* ---- errors, on any Display ---- */

/* Process-wide (Xlib has one error handler per process): protocol errors
 * are counted for the Display they happened on, never fatal. */
void xconn_errors_install (void);
/* Starts collecting errors on @dpy (after an XSync: earlier requests'
 * errors are not ours). */
void xconn_trap_push (Display *dpy);
/* XSyncs @dpy and returns the first error code since the push (0:
 * Success, none). */
int xconn_trap_pop (Display *dpy);

/* ---- the replayer's connection ---- */

#define XCONN_ERROR (xconn_error_quark ())
GQuark xconn_error_quark (void);

typedef enum
{
  XCONN_ERROR_OPEN,          /* cannot open the display */
  XCONN_ERROR_NO_XTEST,      /* the server has no XTEST extension */
} XConnError;

typedef struct XConn XConn;

/* Called for every event read from the connection. */
typedef void (*XConnEventFunc) (XEvent *ev, gpointer user_data);
/* Called once, from the main loop, when the server connection is lost. */
typedef void (*XConnDeadFunc) (gpointer user_data);

/* How long the X server gets to answer a new connection. */
#define XCONN_OPEN_TIMEOUT_MS 10000

XConn *xconn_open (const char *display_name, GError **error);
Display *xconn_get_display (XConn *conn);
/* TRUE after an I/O error: the server is gone, do not touch @conn's
 * Display any more. */
gboolean xconn_is_dead (XConn *conn);

/* Attaches the event source to the thread-default main context. */
void xconn_watch (XConn *conn, XConnEventFunc on_event, XConnDeadFunc on_dead,
                  gpointer user_data);

/* XSync that notices a dead server: FALSE if the connection is dead. */
gboolean xconn_sync (XConn *conn);
/* The X server's pid, when it is local (a Unix socket: SO_PEERCRED) and in
 * our pid namespace; 0 otherwise (TCP, another namespace). */
pid_t xconn_server_pid (XConn *conn);

/* Protocol errors between xconn_trap() and xconn_untrap() (which syncs)
 * are collected: xconn_untrap() returns the first error code, or Success
 * (BadImplementation when the server died meanwhile). */
void xconn_trap (XConn *conn);
int xconn_untrap (XConn *conn);
/* The number of protocol errors ignored so far (outside traps too). */
guint xconn_get_n_errors (XConn *conn);

void xconn_free (XConn *conn);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XConn, xconn_free)

/* Does this request (@len bytes, as RECORD delivers a client's request;
 * @swapped: in the other byte order) ask the server for GLX: a
 * QueryExtension of "GLX" or "SGI-GLX", or ListExtensions (a client that
 * lists them may act on GLX being there)? The recorder notes it in the
 * session (`glx` footer), the replayer watches for it (extwatch.h). */
gboolean xconn_request_asks_glx (const guint8 *req, gsize len, gboolean swapped);

G_END_DECLS
