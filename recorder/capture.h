/* capture.h — the RECORD extension: the display's device events and the
 * events the server delivers to chosen clients, in server order.
 *
 * Two connections, as RECORD wants: a control connection creates and
 * disables the context, a data connection receives the recorded protocol
 * asynchronously (XRecordEnableContextAsync), dispatched by a GSource in
 * the default main context. Each recorded event is handed on in wire
 * format (xEvent) with the resource base of the client it was delivered
 * to (0 for device events) and its server time in ms since recording
 * began.
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>

G_BEGIN_DECLS

#define CAPTURE_ERROR (capture_error_quark ())
GQuark capture_error_quark (void);

typedef enum
{
  CAPTURE_ERROR_DISPLAY,     /* cannot open the display */
  CAPTURE_ERROR_NO_RECORD,   /* the server has no RECORD extension */
  CAPTURE_ERROR_CONTEXT,     /* the context could not be created or enabled */
} CaptureError;

typedef struct Capture Capture;

/* @id_base: 0 for a device event (KeyPress ... MotionNotify), else the
 * resource base of the client the event was delivered to. */
typedef void (*CaptureEventFunc) (const xEvent *ev, XID id_base,
                                  guint64 time_ms, gpointer user_data);
/* A request (ChangeProperty, ConvertSelection, QueryExtension and
 * ListExtensions are recorded) from the
 * client with resource base @id_base: @data is the request, @len bytes,
 * made at @time_ms. */
typedef void (*CaptureRequestFunc) (const guint8 *data, gsize len, XID id_base,
                                    guint64 time_ms, gpointer user_data);
/* The context is enabled (@enabled TRUE, once), or has ended: every
 * event recorded before capture_stop() was handed on. */
typedef void (*CaptureStateFunc) (gboolean enabled, gpointer user_data);

/* A recorded client (one that connected after capture_start) has left:
 * its resource base @id_base may be given to the next client. */
typedef void (*CaptureClientGoneFunc) (XID id_base, gpointer user_data);

Capture *capture_new (const char *display_name, GError **error);
void capture_free (Capture *capture);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, capture_free)

/* Called (instead of Xlib's exit) when a connection to the server breaks. */
void capture_set_io_error_handler (Capture *capture, XIOErrorExitHandler handler,
                                   void *user_data);

/* Records device events, and the events delivered to @client (any
 * resource of an existing client; None: no such client) and to every
 * client that connects from now on, and their ChangeProperty requests
 * (window titles and pids, in order with the events: a window's
 * properties cannot be read once the app has crashed) and
 * ConvertSelection requests (the app pasting). */
gboolean capture_start (Capture *capture, XID client, CaptureEventFunc event_func,
                        CaptureRequestFunc request_func,
                        CaptureStateFunc state_func, gpointer user_data,
                        GError **error);
/* Called, in order with the events, when a recorded client leaves. Set
 * before capture_start. */
void capture_set_client_gone_func (Capture *capture, CaptureClientGoneFunc func,
                                   gpointer user_data);
/* xrecord --all: records every client, those connected already too, and
 * also their DestroyWindow ... UnmapWindow requests (an app closing its
 * windows itself, before it exits). Set before capture_start. */
void capture_set_all_clients (Capture *capture);
/* Disables the context; the state func is called with FALSE once the
 * server has sent everything it recorded. */
void capture_stop (Capture *capture);
/* The descriptors of its two X connections (to cut them: guard.h). */
void capture_get_fds (Capture *capture, int *ctrl_fd, int *data_fd);
gboolean capture_is_running (Capture *capture);

G_END_DECLS
