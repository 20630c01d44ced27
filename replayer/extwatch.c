/* extwatch.c — whether the replay's clients ask for GLX (see extwatch.h).
 *
 * Start reading at extwatch_new(). As in the recorder's capture.c, the
 * data connection does nothing but receive the enabled context's data
 * (no XSync on it: it would wait behind the context's endless reply);
 * the control connection creates, disables and frees the context. The
 * data is queued by Xlib's handler and read in the main loop.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "extwatch.h"

#include <gio/gio.h>
#include <poll.h>
#include <string.h>

#include "xconn.h"

#include <X11/Xproto.h>
#include <X11/extensions/record.h>

/* How long the server gets to enable the context, and to send what it
 * recorded once the context is disabled. */
#define EXTWATCH_START_TIMEOUT_MS 5000
#define EXTWATCH_END_TIMEOUT_MS 1000

struct ExtWatch
{
  XConn *ctrl;               /* owned: creates, disables, frees the context */
  XConn *data;               /* owned: receives the recorded requests */
  XRecordContext context;
  GSource *source;           /* owned: reads the data in the main loop */
  GQueue queue;              /* XRecordInterceptData* (owned) not yet looked at */
  gboolean started;          /* StartOfData came */
  gboolean ended;            /* EndOfData came */
  gboolean finished;         /* extwatch_finish() ran */
  gboolean glx_asked;
};

/* Xlib's asynchronous handler: queue only (it runs inside Xlib). */
static void
on_intercept (XPointer closure, XRecordInterceptData *datum)
{
  ExtWatch *watch = (ExtWatch *) closure;

  g_queue_push_tail (&watch->queue, datum);
}

/* A recorded request: QueryExtension of GLX's names, or ListExtensions. */
static void
look_at_request (ExtWatch *watch, const XRecordInterceptData *datum)
{
  if (xconn_request_asks_glx (datum->data, (gsize) datum->data_len * 4, datum->client_swapped))
    watch->glx_asked = TRUE;
}

static void
take_queued (ExtWatch *watch)
{
  XRecordInterceptData *datum;

  while ((datum = g_queue_pop_head (&watch->queue)) != NULL)
    {
      switch (datum->category)
        {
        case XRecordStartOfData:
          watch->started = TRUE;
          break;
        case XRecordFromClient:
          look_at_request (watch, datum);
          break;
        case XRecordEndOfData:
          watch->ended = TRUE;
          break;
        default:
          break;
        }
      XRecordFreeData (datum);
    }
}

static XConnReady
on_ready (gpointer user_data)
{
  ExtWatch *watch = user_data;

  if (xconn_is_dead (watch->data))
    return XCONN_CLOSED;
  return g_queue_is_empty (&watch->queue) ? XCONN_IDLE : XCONN_READY;
}

static gboolean
on_data (Display *dpy, gpointer user_data)
{
  ExtWatch *watch = user_data;

  if (!xconn_is_dead (watch->data))
    XRecordProcessReplies (dpy);
  take_queued (watch);
  return xconn_is_dead (watch->data) || watch->ended ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

/* Reads the data connection until @done is set (or the connection dies),
 * for at most @timeout_ms; outside the main loop. */
static gboolean
read_until (ExtWatch *watch, const gboolean *done, guint timeout_ms)
{
  Display *dpy = xconn_get_display (watch->data);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  take_queued (watch);
  while (!*done && !xconn_is_dead (watch->data))
    {
      struct pollfd pfd = { .fd = ConnectionNumber (dpy), .events = POLLIN };
      gint64 left_ms = (deadline - g_get_monotonic_time ()) / 1000;

      if (left_ms <= 0)
        return FALSE;
      if (XPending (dpy) == 0 && g_queue_is_empty (&watch->queue))
        poll (&pfd, 1, (int) MIN (left_ms, 50));
      if (!xconn_is_dead (watch->data))
        XRecordProcessReplies (dpy);
      take_queued (watch);
    }
  return *done;
}

ExtWatch *
extwatch_new (const char *display, GError **error)
{
  g_autoptr (ExtWatch) watch = g_new0 (ExtWatch, 1);
  XRecordClientSpec clients = XRecordFutureClients;
  XRecordRange *range;
  Display *ctrl;
  int major = 0, minor = 0, failed;

  g_queue_init (&watch->queue);
  watch->ctrl = xconn_open (display, error);
  if (watch->ctrl == NULL)
    return NULL;
  watch->data = xconn_open (display, error);
  if (watch->data == NULL)
    return NULL;
  ctrl = xconn_get_display (watch->ctrl);
  if (!XRecordQueryVersion (ctrl, &major, &minor))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "the X server on '%s' has no RECORD extension", DisplayString (ctrl));
      return NULL;
    }
  range = XRecordAllocRange ();
  if (range == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "out of memory");
      return NULL;
    }
  range->core_requests.first = X_QueryExtension;
  range->core_requests.last = X_ListExtensions;
  xconn_trap (watch->ctrl);
  watch->context = XRecordCreateContext (ctrl, 0, &clients, 1, &range, 1);
  failed = xconn_untrap (watch->ctrl);
  XFree (range);
  if (watch->context == 0 || failed != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "cannot create a RECORD context (X error %d)", failed);
      watch->context = 0;
      return NULL;
    }
  if (!XRecordEnableContextAsync (xconn_get_display (watch->data), watch->context, on_intercept,
                                  (XPointer) watch))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           "cannot enable the RECORD context");
      return NULL;
    }
  /* Enabled once its data starts: a client that connects after that is
   * recorded from its first request. */
  if (!read_until (watch, &watch->started, EXTWATCH_START_TIMEOUT_MS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   "the X server on '%s' did not start recording within %u ms",
                   DisplayString (ctrl), EXTWATCH_START_TIMEOUT_MS);
      return NULL;
    }
  watch->source = xconn_source_new (xconn_get_display (watch->data), on_data, on_ready, watch,
                                    NULL);
  g_source_attach (watch->source, NULL);
  return g_steal_pointer (&watch);
}

void
extwatch_finish (ExtWatch *watch)
{
  if (watch == NULL || watch->finished)
    return;
  watch->finished = TRUE;
  if (watch->source != NULL)
    {
      g_source_destroy (watch->source);
      g_clear_pointer (&watch->source, g_source_unref);
    }
  if (watch->context == 0 || xconn_is_dead (watch->ctrl))
    return;
  /* Everything recorded before the disabling comes before EndOfData. */
  XRecordDisableContext (xconn_get_display (watch->ctrl), watch->context);
  if (xconn_sync (watch->ctrl) && watch->started)
    read_until (watch, &watch->ended, EXTWATCH_END_TIMEOUT_MS);
  if (!xconn_is_dead (watch->ctrl))
    {
      XRecordFreeContext (xconn_get_display (watch->ctrl), watch->context);
      xconn_sync (watch->ctrl);
    }
  watch->context = 0;
}

gboolean
extwatch_glx_asked (const ExtWatch *watch)
{
  return watch->glx_asked;
}

void
extwatch_free (ExtWatch *watch)
{
  XRecordInterceptData *datum;

  if (watch == NULL)
    return;
  if (watch->source != NULL)
    {
      g_source_destroy (watch->source);
      g_source_unref (watch->source);
    }
  while ((datum = g_queue_pop_head (&watch->queue)) != NULL)
    XRecordFreeData (datum);
  /* A context still enabled goes with its connections. */
  g_clear_pointer (&watch->data, xconn_free);
  g_clear_pointer (&watch->ctrl, xconn_free);
  g_free (watch);
}
