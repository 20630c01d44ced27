/* xconn.h — the replayer's connection to the X server, as a GSource.
 *
 * xconn_open() opens the display, checks for XTest and installs the error
 * handlers: protocol errors (a window that vanished between a query and
 * its use is routine when the app crashes) are counted, never fatal; an I/O
 * error (the server died) marks the connection dead instead of exiting the
 * process, and every later call here turns into a no-op. The GSource's
 * prepare and check call XPending(), because Xlib reads ahead and buffers
 * events the poll() on the socket would never announce.
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>

G_BEGIN_DECLS

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

/* Protocol errors between xconn_trap() and xconn_untrap() (which syncs)
 * are collected: xconn_untrap() returns the first error code, or Success. */
void xconn_trap (XConn *conn);
int xconn_untrap (XConn *conn);
/* The number of protocol errors ignored so far (outside traps too). */
guint xconn_get_n_errors (XConn *conn);

void xconn_free (XConn *conn);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XConn, xconn_free)

G_END_DECLS
