/* recorder-private.h — a recording's state (recorder.c), shared with the
 * files that take its parts: setting up the display, the log, the
 * capture and the app (recorder-setup.c), what was recorded
 * (recorder-events.c), and the end (recorder-stop.c). Not a module's
 * interface: only those files include it.
 */
#pragma once

#include <X11/Xlib.h>
#include <X11/Xproto.h>

#include "recorder.h"
#include "files.h"
#include "guard.h"
#include "capture.h"
#include "pastes.h"
#include "proc.h"
#include "toplevels.h"
#include "translate.h"
#include "xserver.h"

G_BEGIN_DECLS

struct Recorder
{
  /* Options (owned copies). */
  char *output;
  char **argv;
  RecorderWhere where;
  char *display_option;
  int width, height;
  KeySym stop_key;
  gboolean no_selections, with_files;
  char **record_env;

  XServer *server;         /* the Xephyr or Xvfb we started, or NULL */
  char *display;           /* where the app runs */
  Display *tracker;        /* owned: watches the windows, reads properties */
  GSource *tracker_source;
  XID tracker_base;
  Capture *capture;
  Toplevels *tops;
  Translator *translator;
  RecPastes *pastes;       /* owned: the selections the app pastes from, drops */
  RecFiles *files;         /* owned: the files it reads */
  RecFilesStats files_stats; /* once it is gone */
  guint n_fetched, n_omitted, n_drops; /* the pastes', once they are gone */
  guint n_env;             /* variables recorded */
  guint64 last_time;       /* of the last line written */
  SessionWriter *writer;
  GMainLoop *loop;

  ProcChild *app;          /* owned, or NULL */
  GPid app_pid;
  gboolean app_exited;
  int app_status;          /* wait status */

  gboolean enabled;        /* the context delivers data */
  gboolean ready;          /* the sync line is printed */
  gboolean stopping;
  gboolean drained;        /* EndOfData, or given up waiting for it */
  gboolean all_read;       /* EndOfData: every request recorded was looked at */
  gboolean glx_asked;      /* a client of the app asked the server for GLX (the `glx` footer) */
  gboolean stop_key_seen;
  gboolean server_gone;    /* an X connection broke */
  gboolean outcome_known;
  SessionOutcome outcome;
  GError *write_error;
  guint drain_timeout;
  Guard *guard;            /* owned: signals, and the start timeout, while stuck */
  int signal;              /* the signal that ended the recording, or 0 */
  guint start_timeout_ms;
  guint start_timer;       /* until the app's first window, or 0 */
  gboolean start_timed_out;
  guint n_created;         /* the app's top-level windows created */
  guint n_actions, n_server;
  guint n_app_windows;     /* the app's windows mapped, once recording ended */
  GPtrArray *seen_windows; /* char* (owned), NULL-terminated: every window mapped */
};

/* recorder-setup.c: the display (the server xrecord starts, or the one
 * given) and the tracker connection; the log and its header; the model,
 * the translator, the pastes and the RECORD context, until it is enabled;
 * the app. Each FALSE with a RECORDER_ERROR. */
gboolean recorder_open_display (Recorder *recorder, GError **error);
gboolean recorder_open_log (Recorder *recorder, GError **error);
gboolean recorder_start_capture (Recorder *recorder, GError **error);
gboolean recorder_start_app (Recorder *recorder, GError **error);

/* recorder-events.c: the callbacks of the capture (capture.h), of the
 * tracker connection's source, of the model (a ToplevelsMapFunc) and of
 * the pastes and files (what the app was given), @user_data the
 * Recorder. */
void recorder_on_captured (const xEvent *ev, XID id_base, guint64 time_ms, gpointer user_data);
void recorder_on_request (const guint8 *data, gsize len, XID id_base, guint64 time_ms,
                          gpointer user_data);
void recorder_on_client_gone (XID id_base, gpointer user_data);
void recorder_on_capture_state (gboolean enabled, gpointer user_data);
void recorder_on_app_map (Window window, gpointer user_data);
void recorder_on_given (const SessionEvent *ev, gpointer user_data);

/* recorder-stop.c: ends the recording (what the server recorded until
 * now is still written; @why for the debug log); the app's exit, a
 * signal (the guard's), no window of the app's within the start timeout;
 * the app's process group terminated, killed if it lingers, reaped. */
void recorder_begin_stop (Recorder *recorder, const char *why);
void recorder_on_app_exit (ProcChild *app, int status, gpointer user_data);
void recorder_on_signal (int signum, gpointer user_data);
gboolean recorder_on_start_timeout (gpointer user_data);
void recorder_stop_app (Recorder *recorder);

G_END_DECLS
