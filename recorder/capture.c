/* capture.c — the RECORD context (see capture.h).
 *
 * Start reading at capture_start(). The data connection is used for
 * nothing but the enabled context: while it is enabled it may not send
 * other requests, so every query goes through other connections.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "capture.h"

#include <string.h>
#include <X11/extensions/record.h>

#include "xconn.h"

G_DEFINE_QUARK (capture-error-quark, capture_error)

struct Capture
{
  Display *ctrl;           /* owned: creates, disables the context */
  Display *data;           /* owned: receives the recorded data */
  XRecordContext context;
  GSource *source;         /* owned: dispatches data */
  GQueue data_queue;       /* XRecordInterceptData* (owned) to hand on */
  gboolean running;        /* between StartOfData and EndOfData */
  gboolean stopping;
  gboolean broken;         /* a connection broke: the server is gone */
  XIOErrorExitHandler io_error_handler;
  void *io_error_data;

  /* Server time (32-bit ms, wraps after 49 days) to elapsed ms. */
  gboolean have_time;
  Time last_server_time;
  guint64 elapsed_ms;

  CaptureEventFunc event_func;
  CaptureRequestFunc request_func;
  CaptureStateFunc state_func;
  gpointer user_data;
  CaptureClientGoneFunc client_gone_func;
  gboolean all_clients;     /* capture_set_all_clients */
  gpointer client_gone_data;
};

static void
capture_io_error (Display *dpy, void *user_data)
{
  Capture *capture = user_data;

  capture->broken = TRUE;
  if (capture->io_error_handler != NULL)
    capture->io_error_handler (dpy, capture->io_error_data);
}

Capture *
capture_new (const char *display_name, GError **error)
{
  g_autoptr (Capture) capture = g_new0 (Capture, 1);
  int major = 0, minor = 0;

  capture->ctrl = XOpenDisplay (display_name);
  capture->data = capture->ctrl != NULL ? XOpenDisplay (display_name) : NULL;
  if (capture->data == NULL)
    {
      g_set_error (error, CAPTURE_ERROR, CAPTURE_ERROR_DISPLAY,
                   "cannot open display %s", XDisplayName (display_name));
      return NULL;
    }
  if (!XRecordQueryVersion (capture->ctrl, &major, &minor))
    {
      g_set_error (error, CAPTURE_ERROR, CAPTURE_ERROR_NO_RECORD,
                   "display %s has no RECORD extension (Xorg: load \"record\" "
                   "in the Module section; Xvfb and Xephyr have it)",
                   DisplayString (capture->ctrl));
      return NULL;
    }
  /* Instead of Xlib's exit(). */
  XSetIOErrorExitHandler (capture->ctrl, capture_io_error, capture);
  XSetIOErrorExitHandler (capture->data, capture_io_error, capture);
  g_debug ("RECORD %d.%d on %s", major, minor, DisplayString (capture->ctrl));
  return g_steal_pointer (&capture);
}

void
capture_free (Capture *capture)
{
  if (capture == NULL)
    return;
  if (capture->source != NULL)
    {
      g_source_destroy (capture->source);
      g_source_unref (capture->source);
    }
  if (capture->context != 0 && capture->ctrl != NULL && !capture->broken)
    {
      if (capture->running)
        XRecordDisableContext (capture->ctrl, capture->context);
      XRecordFreeContext (capture->ctrl, capture->context);
      XSync (capture->ctrl, False);
    }
  g_queue_clear_full (&capture->data_queue, (GDestroyNotify) XRecordFreeData);
  /* (On a broken connection, Xlib only frees.) */
  if (capture->data != NULL)
    XCloseDisplay (capture->data);
  if (capture->ctrl != NULL)
    XCloseDisplay (capture->ctrl);
  g_free (capture);
}

void
capture_set_io_error_handler (Capture *capture, XIOErrorExitHandler handler,
                              void *user_data)
{
  capture->io_error_handler = handler;
  capture->io_error_data = user_data;
}

static guint64
capture_elapsed (Capture *capture, Time server_time)
{
  if (!capture->have_time)
    {
      capture->have_time = TRUE;
      capture->last_server_time = server_time;
    }
  else
    {
      guint32 delta = (guint32) (server_time - capture->last_server_time);

      /* A datum stamped a little earlier than the one before it (device
       * events are stamped when the device produced them) keeps the
       * clock where it is: times never decrease. */
      if (delta < 0x80000000u)
        {
          capture->elapsed_ms += delta;
          capture->last_server_time = server_time;
        }
    }
  return capture->elapsed_ms;
}

/* Runs inside Xlib's reply handling on the data connection (which is
 * locked), possibly in the source's prepare: only queues. */
static void
capture_intercept (XPointer closure, XRecordInterceptData *datum)
{
  Capture *capture = (Capture *) closure;

  g_queue_push_tail (&capture->data_queue, datum);
}

static XConnReady
capture_ready (gpointer user_data)
{
  Capture *capture = user_data;

  return g_queue_is_empty (&capture->data_queue) ? XCONN_IDLE : XCONN_READY;
}

static void
capture_handle (Capture *capture, XRecordInterceptData *datum)
{
  switch (datum->category)
    {
    case XRecordStartOfData:
      capture->running = TRUE;
      capture_elapsed (capture, datum->server_time);
      if (capture->state_func != NULL)
        capture->state_func (TRUE, capture->user_data);
      break;
    case XRecordFromServer:
      {
        guint64 ms = capture_elapsed (capture, datum->server_time);
        gsize len = (gsize) datum->data_len * 4;

        /* Delivered events may come several to a datum (an Expose
         * series); each is 32 bytes (no GenericEvents are recorded). */
        for (gsize off = 0; off + sizeof (xEvent) <= len; off += sizeof (xEvent))
          {
            xEvent ev;

            memcpy (&ev, datum->data + off, sizeof ev);
            if (capture->event_func != NULL && !datum->client_swapped)
              capture->event_func (&ev, datum->id_base, ms, capture->user_data);
          }
      }
      break;
    case XRecordFromClient:
      {
        guint64 ms = capture_elapsed (capture, datum->server_time);

        if (capture->request_func != NULL && !datum->client_swapped)
          capture->request_func (datum->data, (gsize) datum->data_len * 4,
                                 datum->id_base, ms, capture->user_data);
      }
      break;
    case XRecordEndOfData:
      capture->running = FALSE;
      if (capture->state_func != NULL)
        capture->state_func (FALSE, capture->user_data);
      break;
    case XRecordClientDied:
      if (capture->client_gone_func != NULL)
        capture->client_gone_func (datum->id_base, capture->client_gone_data);
      break;
    case XRecordClientStarted:
    default:
      break;
    }
  XRecordFreeData (datum);
}

static gboolean
capture_dispatch (Display *dpy, gpointer user_data)
{
  Capture *capture = user_data;
  XRecordInterceptData *datum;

  if (!capture->broken)
    XRecordProcessReplies (dpy);
  while ((datum = g_queue_pop_head (&capture->data_queue)) != NULL)
    capture_handle (capture, datum);
  if (capture->broken)
    {
      /* No EndOfData will come. */
      if (capture->running && capture->state_func != NULL)
        {
          capture->running = FALSE;
          capture->state_func (FALSE, capture->user_data);
        }
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

gboolean
capture_start (Capture *capture, XID client, CaptureEventFunc event_func,
               CaptureRequestFunc request_func, CaptureStateFunc state_func,
               gpointer user_data, GError **error)
{
  XRecordClientSpec clients[2] = { XRecordFutureClients, client };
  XRecordRange *ranges[4];
  XRecordRange *range, *paste, *asks, *closing = NULL;
  int n_clients = client != None ? 2 : 1, n_ranges = 2;
  int failed;

  capture->event_func = event_func;
  capture->request_func = request_func;
  capture->state_func = state_func;
  capture->user_data = user_data;

  range = XRecordAllocRange ();
  paste = XRecordAllocRange ();
  asks = XRecordAllocRange ();
  if (range == NULL || paste == NULL || asks == NULL)
    {
      g_set_error (error, CAPTURE_ERROR, CAPTURE_ERROR_CONTEXT, "out of memory");
      if (range != NULL)
        XFree (range);
      if (paste != NULL)
        XFree (paste);
      if (asks != NULL)
        XFree (asks);
      return FALSE;
    }
  /* What the user did, and what the server told the clients. */
  range->device_events.first = KeyPress;
  range->device_events.last = MotionNotify;
  range->delivered_events.first = EnterNotify;
  range->delivered_events.last = MappingNotify;
  /* Properties set and deleted: the windows' names, and GTK's frame
   * extents (toplevels.c). */
  range->core_requests.first = X_ChangeProperty;
  range->core_requests.last = X_DeleteProperty;
  /* A client's resource base is reused once it leaves. */
  range->client_died = True;
  /* The app asking for a selection (pastes.h): a range of its own, not
   * the six requests between. */
  paste->core_requests.first = X_ConvertSelection;
  paste->core_requests.last = X_ConvertSelection;
  /* The app asking for an extension (QueryExtension, ListExtensions):
   * whether it asks for GLX (the session's `glx` footer); and a client
   * binding keys (ChangeKeyboardMapping: what the keys typed after it
   * produce, translator_keymap_request()). */
  asks->core_requests.first = X_QueryExtension;
  asks->core_requests.last = X_ChangeKeyboardMapping;
  ranges[0] = range;
  ranges[1] = paste;
  ranges[n_ranges++] = asks;
  if (capture->all_clients)
    {
      /* Every client, and whether it takes its windows down itself
       * (DestroyWindow, DestroySubwindows ... MapWindow, UnmapWindow). */
      clients[0] = XRecordAllClients;
      n_clients = 1;
      closing = XRecordAllocRange ();
      if (closing != NULL)
        {
          closing->core_requests.first = X_DestroyWindow;
          closing->core_requests.last = X_UnmapWindow;
          ranges[n_ranges++] = closing;
        }
    }

  xconn_trap_push (capture->ctrl);
  capture->context = XRecordCreateContext (capture->ctrl, XRecordFromServerTime,
                                           clients, n_clients, ranges, n_ranges);
  failed = xconn_trap_pop (capture->ctrl);
  XFree (range);
  XFree (paste);
  XFree (asks);
  if (closing != NULL)
    XFree (closing);
  if (capture->context == 0 || failed != 0)
    {
      g_set_error (error, CAPTURE_ERROR, CAPTURE_ERROR_CONTEXT,
                   "cannot create a RECORD context (X error %d)", failed);
      capture->context = 0;
      return FALSE;
    }
  if (!XRecordEnableContextAsync (capture->data, capture->context,
                                  capture_intercept, (XPointer) capture))
    {
      g_set_error (error, CAPTURE_ERROR, CAPTURE_ERROR_CONTEXT,
                   "cannot enable the RECORD context");
      return FALSE;
    }
  capture->source = xconn_source_new (capture->data, capture_dispatch, capture_ready, capture, NULL);
  /* Before the tracker's and the app's sources: their events are in the
   * recorded stream too, and should be seen there first. */
  g_source_set_priority (capture->source, G_PRIORITY_DEFAULT - 10);
  g_source_attach (capture->source, NULL);
  return TRUE;
}

void
capture_set_all_clients (Capture *capture)
{
  capture->all_clients = TRUE;
}

void
capture_set_client_gone_func (Capture *capture, CaptureClientGoneFunc func,
                              gpointer user_data)
{
  capture->client_gone_func = func;
  capture->client_gone_data = user_data;
}

void
capture_stop (Capture *capture)
{
  if (capture->context == 0 || capture->stopping)
    return;
  capture->stopping = TRUE;
  XRecordDisableContext (capture->ctrl, capture->context);
  XFlush (capture->ctrl);
}

void
capture_get_fds (Capture *capture, int *ctrl_fd, int *data_fd)
{
  *ctrl_fd = ConnectionNumber (capture->ctrl);
  *data_fd = ConnectionNumber (capture->data);
}

gboolean
capture_is_running (Capture *capture)
{
  return capture->running;
}
