/* xconn.c — the X connection: the GSource, the error handlers, the
 * replayer's connection (see xconn.h).
 *
 * Start reading at xconn_source_new(). Xlib's protocol and I/O error
 * handlers are global and get no user data, so the Displays whose errors
 * are counted, and the XConn on each, are kept in a static list (the
 * replayer uses one connection, the recorder traps one request at a time;
 * tests may open more, on one thread).
 */
#define _GNU_SOURCE   /* struct ucred */
#define G_LOG_DOMAIN "xreduce-xapp"

#include "xconn.h"

#include <string.h>
#include <sys/socket.h>

#include <X11/Xproto.h>
#include <X11/extensions/XTest.h>

/* ---- the source ---- */

typedef struct
{
  GSource source;
  Display *dpy;            /* not owned */
  gpointer fd_tag;
  XConnReadyFunc ready;
  gpointer ready_data;
} XConnSource;

static gboolean
xconn_source_ready (XConnSource *xs, gboolean broken)
{
  XConnReady before = xs->ready != NULL ? xs->ready (xs->ready_data) : XCONN_IDLE;

  if (before == XCONN_CLOSED)
    return FALSE;
  if (before == XCONN_READY || broken)
    return TRUE;
  /* Flushes our requests and reads what has arrived: events already in
   * Xlib's queue would not wake the poll(); RECORD's data is queued by
   * the handlers XPending() runs. */
  return XPending (xs->dpy) > 0
         || (xs->ready != NULL && xs->ready (xs->ready_data) == XCONN_READY);
}

static gboolean
xconn_source_prepare (GSource *source, int *timeout)
{
  *timeout = -1;
  return xconn_source_ready ((XConnSource *) source, FALSE);
}

static gboolean
xconn_source_check (GSource *source)
{
  XConnSource *xs = (XConnSource *) source;

  return xconn_source_ready (xs, (g_source_query_unix_fd (source, xs->fd_tag)
                                  & (G_IO_HUP | G_IO_ERR)) != 0);
}

static gboolean
xconn_source_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  XConnSource *xs = (XConnSource *) source;
  XConnSourceFunc func = (XConnSourceFunc) (void (*) (void)) callback;
  gboolean broken = (g_source_query_unix_fd (source, xs->fd_tag)
                     & (G_IO_HUP | G_IO_ERR)) != 0;

  if (func == NULL)
    return G_SOURCE_REMOVE;
  /* On a broken connection the callback runs once more (Xlib's I/O error
   * handler tells it what happened), then the source goes: the fd would
   * stay readable for ever. */
  if (!func (xs->dpy, user_data) || broken)
    return G_SOURCE_REMOVE;
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs xconn_source_funcs = {
  .prepare = xconn_source_prepare,
  .check = xconn_source_check,
  .dispatch = xconn_source_dispatch,
};

GSource *
xconn_source_new (Display *dpy, XConnSourceFunc func, XConnReadyFunc ready,
                  gpointer user_data, GDestroyNotify notify)
{
  GSource *source = g_source_new (&xconn_source_funcs, sizeof (XConnSource));
  XConnSource *xs = (XConnSource *) source;

  xs->dpy = dpy;
  xs->ready = ready;
  xs->ready_data = user_data;
  xs->fd_tag = g_source_add_unix_fd (source, ConnectionNumber (dpy),
                                     G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (source, (GSourceFunc) (void (*) (void)) func,
                         user_data, notify);
  g_source_set_name (source, "X connection");
  return source;
}

static gboolean
xconn_discard (Display *dpy, gpointer user_data)
{
  const gboolean *gone = user_data;

  while (!*gone && XPending (dpy) > 0)
    {
      XEvent ev;

      XNextEvent (dpy, &ev);
    }
  return *gone ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

GSource *
xconn_discard_source_new (Display *dpy, const gboolean *gone)
{
  return xconn_source_new (dpy, xconn_discard, NULL, (gpointer) gone, NULL);
}

/* ---- errors ---- */

typedef struct
{
  Display *dpy;              /* not owned */
  guint holds;               /* an XConn, a trap */
  guint n_errors;
  gboolean trapping;
  int trapped_error;         /* first error code while trapping */
  XConn *conn;               /* the XConn on @dpy, or NULL; not owned */
} Errors;

static GPtrArray *watched;   /* of Errors*, owned; main thread only */

static Errors *
errors_lookup (Display *dpy)
{
  for (guint i = 0; watched != NULL && i < watched->len; i++)
    {
      Errors *e = g_ptr_array_index (watched, i);
      if (e->dpy == dpy)
        return e;
    }
  return NULL;
}

static Errors *
errors_hold (Display *dpy)
{
  Errors *e = errors_lookup (dpy);

  if (e == NULL)
    {
      e = g_new0 (Errors, 1);
      e->dpy = dpy;
      if (watched == NULL)
        watched = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (watched, e);
    }
  e->holds++;
  return e;
}

static void
errors_release (Errors *e)
{
  if (--e->holds > 0)
    return;
  g_ptr_array_remove (watched, e);
  if (watched->len == 0)
    g_clear_pointer (&watched, g_ptr_array_unref);
}

static int
on_x_error (Display *dpy, XErrorEvent *ev)
{
  Errors *e = errors_lookup (dpy);

  if (e != NULL)
    {
      e->n_errors++;
      if (e->trapping)
        {
          if (e->trapped_error == Success)
            e->trapped_error = ev->error_code;
          return 0;
        }
    }
  /* A window the app destroyed (or took with it when it crashed) between
   * our query and our use: routine, never fatal, not worth a word. */
  if (ev->error_code != BadWindow && ev->error_code != BadDrawable
      && ev->error_code != BadMatch)
    {
      char text[128];

      XGetErrorText (dpy, ev->error_code, text, sizeof text);
      g_debug ("X error ignored: %s (request %d.%d)", text, ev->request_code,
               ev->minor_code);
    }
  return 0;
}

void
xconn_errors_install (void)
{
  XSetErrorHandler (on_x_error);
}

static void
errors_trap (Errors *e)
{
  e->trapping = TRUE;
  e->trapped_error = Success;
}

static int
errors_untrap (Errors *e)
{
  e->trapping = FALSE;
  return e->trapped_error;
}

void
xconn_trap_push (Display *dpy)
{
  XSync (dpy, False);   /* errors of earlier requests are not ours */
  errors_trap (errors_hold (dpy));
}

int
xconn_trap_pop (Display *dpy)
{
  Errors *e = errors_lookup (dpy);
  int error;

  g_return_val_if_fail (e != NULL && e->trapping, Success);
  XSync (dpy, False);
  error = errors_untrap (e);
  errors_release (e);
  return error;
}

/* ---- the replayer's connection ---- */

struct XConn
{
  Display *dpy;              /* owned */
  gboolean dead;             /* an I/O error happened */
  gboolean dead_reported;
  Errors *errors;            /* held */

  GSource *source;           /* owned */
  XConnEventFunc on_event;
  XConnDeadFunc on_dead;
  gpointer user_data;
};

G_DEFINE_QUARK (xconn-error-quark, xconn_error)

static int
on_x_io_error (Display *dpy)
{
  Errors *e = errors_lookup (dpy);

  if (e != NULL && e->conn != NULL)
    e->conn->dead = TRUE;
  return 0;   /* Xlib then calls the exit handler below */
}

static void
on_x_io_error_exit (Display *dpy, void *user_data)
{
  XConn *conn = user_data;

  /* Instead of exit(): the caller reports an infrastructure error and
   * cleans up (kills the app) before main() returns. */
  conn->dead = TRUE;
}

/* XOpenDisplay() in a thread of its own, waited for at most @timeout_ms:
 * a server that accepts the connection but never answers (stopped with
 * SIGSTOP, stuck) would hold XOpenDisplay() forever. The thread touches
 * only the Display it opens; given up, it closes what it may still get. */
typedef struct
{
  GMutex lock;
  GCond cond;
  char *name;
  Display *dpy;
  gboolean done, abandoned;
  gint refs;
} Opening;

static void
opening_unref (Opening *o)
{
  if (!g_atomic_int_dec_and_test (&o->refs))
    return;
  g_mutex_clear (&o->lock);
  g_cond_clear (&o->cond);
  g_free (o->name);
  g_free (o);
}

static gpointer
opening_run (gpointer data)
{
  Opening *o = data;
  Display *dpy = XOpenDisplay (o->name);

  g_mutex_lock (&o->lock);
  if (o->abandoned && dpy != NULL)
    XCloseDisplay (dpy);
  else
    o->dpy = dpy;
  o->done = TRUE;
  g_cond_signal (&o->cond);
  g_mutex_unlock (&o->lock);
  opening_unref (o);
  return NULL;
}

static Display *
open_display_bounded (const char *display_name, guint timeout_ms, gboolean *timed_out)
{
  Opening *o = g_new0 (Opening, 1);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  Display *dpy;

  g_mutex_init (&o->lock);
  g_cond_init (&o->cond);
  o->name = g_strdup (display_name);
  o->refs = 2;
  g_thread_unref (g_thread_new ("xconn-open", opening_run, o));
  g_mutex_lock (&o->lock);
  while (!o->done)
    if (!g_cond_wait_until (&o->cond, &o->lock, deadline))
      break;
  *timed_out = !o->done;
  o->abandoned = !o->done;
  dpy = o->dpy;
  g_mutex_unlock (&o->lock);
  opening_unref (o);
  return dpy;
}

XConn *
xconn_open (const char *display_name, GError **error)
{
  g_autoptr (XConn) conn = g_new0 (XConn, 1);
  int event_base, error_base, major, minor;
  gboolean timed_out = FALSE;

  conn->dpy = open_display_bounded (display_name, XCONN_OPEN_TIMEOUT_MS, &timed_out);
  if (conn->dpy == NULL)
    {
      g_set_error (error, XCONN_ERROR, XCONN_ERROR_OPEN,
                   timed_out ? "the X server on '%s' did not answer within %u s (stopped?)"
                             : "cannot open display '%s'",
                   XDisplayName (display_name), XCONN_OPEN_TIMEOUT_MS / 1000);
      return NULL;
    }
  conn->errors = errors_hold (conn->dpy);
  conn->errors->conn = conn;
  xconn_errors_install ();
  XSetIOErrorHandler (on_x_io_error);
  XSetIOErrorExitHandler (conn->dpy, on_x_io_error_exit, conn);

  if (!XTestQueryExtension (conn->dpy, &event_base, &error_base, &major, &minor))
    {
      g_set_error (error, XCONN_ERROR, XCONN_ERROR_NO_XTEST,
                   "the X server on '%s' has no XTEST extension", XDisplayString (conn->dpy));
      return NULL;
    }
  /* XTest events must not be held back by a grab of another client. */
  XTestGrabControl (conn->dpy, True);
  return g_steal_pointer (&conn);
}

Display *
xconn_get_display (XConn *conn)
{
  return conn->dpy;
}

gboolean
xconn_is_dead (XConn *conn)
{
  return conn->dead;
}

static XConnReady
xconn_ready (gpointer user_data)
{
  XConn *conn = user_data;

  if (!conn->dead)
    return XCONN_IDLE;
  return conn->dead_reported ? XCONN_CLOSED : XCONN_READY;
}

static gboolean
xconn_drain (Display *dpy, gpointer user_data)
{
  XConn *conn = user_data;

  while (!conn->dead && XPending (conn->dpy) > 0 && !conn->dead)
    {
      XEvent ev;

      XNextEvent (conn->dpy, &ev);
      if (conn->on_event != NULL)
        conn->on_event (&ev, conn->user_data);
    }
  if (conn->dead && !conn->dead_reported)
    {
      conn->dead_reported = TRUE;
      if (conn->on_dead != NULL)
        conn->on_dead (conn->user_data);
    }
  return G_SOURCE_CONTINUE;
}

void
xconn_watch (XConn *conn, XConnEventFunc on_event, XConnDeadFunc on_dead,
             gpointer user_data)
{
  g_return_if_fail (conn->source == NULL);
  conn->on_event = on_event;
  conn->on_dead = on_dead;
  conn->user_data = user_data;
  conn->source = xconn_source_new (conn->dpy, xconn_drain, xconn_ready, conn, NULL);
  g_source_attach (conn->source, g_main_context_get_thread_default ());
}

gboolean
xconn_sync (XConn *conn)
{
  if (!conn->dead)
    XSync (conn->dpy, False);
  return !conn->dead;
}

void
xconn_trap (XConn *conn)
{
  if (!conn->dead)
    XSync (conn->dpy, False);   /* errors of earlier requests are not ours */
  errors_trap (conn->errors);
}

int
xconn_untrap (XConn *conn)
{
  int error;

  if (!conn->dead)
    XSync (conn->dpy, False);
  error = errors_untrap (conn->errors);
  return conn->dead ? BadImplementation : error;
}

guint
xconn_get_n_errors (XConn *conn)
{
  return conn->errors->n_errors;
}

void
xconn_free (XConn *conn)
{
  if (conn == NULL)
    return;
  if (conn->source != NULL)
    {
      g_source_destroy (conn->source);
      g_source_unref (conn->source);
    }
  if (conn->dpy != NULL)
    {
      /* Closing a dead connection only frees memory; it never blocks. */
      XCloseDisplay (conn->dpy);
    }
  if (conn->errors != NULL)
    {
      conn->errors->conn = NULL;
      errors_release (conn->errors);
    }
  g_free (conn);
}

pid_t
xconn_server_pid (XConn *conn)
{
  struct ucred cred = { 0 };
  socklen_t len = sizeof cred;
  Display *dpy = xconn_get_display (conn);

  if (dpy == NULL || getsockopt (ConnectionNumber (dpy), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0
      || len != sizeof cred)
    return 0;
  return cred.pid > 0 ? cred.pid : 0;
}

gboolean
xconn_request_asks_glx (const guint8 *req, gsize len, gboolean swapped)
{
  guint16 n;

  if (len < 4)
    return FALSE;
  if (req[0] == X_ListExtensions)
    return TRUE;
  if (req[0] != X_QueryExtension || len < sz_xQueryExtensionReq)
    return FALSE;
  /* The name's length, in the client's byte order. */
  memcpy (&n, req + 4, sizeof n);
  if (swapped)
    n = GUINT16_SWAP_LE_BE (n);
  if (sz_xQueryExtensionReq + (gsize) n > len)
    return FALSE;
  return (n == 3 && memcmp (req + sz_xQueryExtensionReq, "GLX", 3) == 0)
         || (n == 7 && memcmp (req + sz_xQueryExtensionReq, "SGI-GLX", 7) == 0);
}
