/* recorder.c — a recording from start to end (see recorder.h).
 *
 * Start reading at recorder_run(): it brings up the display (a nested
 * Xephyr or a headless Xvfb from proc/xserver.h, or the user's display),
 * opens the "tracker" connection that watches the windows (toplevels.c),
 * enables the RECORD context (capture.c), opens the log, starts the app,
 * and runs the one GMainLoop. Every recorded event goes through
 * on_captured(): device events become user actions if they were aimed at
 * the app (translate.c), events the server delivered to the app become
 * server records, events delivered to the tracker keep the window model in
 * step. The recording ends in begin_stop(): the context is disabled, and
 * the loop runs until the server has sent everything it recorded before;
 * then the footer, then the app and the server are stopped.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "recorder.h"
#include "xapp.h"
#include "sandbox.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/record.h>

#include "capture.h"
#include "files.h"
#include "guard.h"
#include "header.h"
#include "keymap.h"
#include "interrupt.h"
#include "pastes.h"
#include "proc.h"
#include "quote.h"
#include "xserver.h"
#include "toplevels.h"
#include "translate.h"
#include "verdict.h"
#include "xapp.h"
#include "xconn.h"

G_DEFINE_QUARK (recorder-error-quark, recorder_error)

/* After the context is disabled, how long the server may take to send
 * the rest of the recorded data. */
#define DRAIN_TIMEOUT_MS 3000
/* How long the app gets to exit after SIGTERM, before SIGKILL. */
#define APP_TERM_TIMEOUT_MS 2000
/* ... when a signal ends the recording: xrecord ends within a second. */
#define APP_TERM_SIGNAL_MS 300
#define DRAIN_SIGNAL_MS 300
#define ENABLE_TIMEOUT_MS 10000
/* Long enough for a loaded CI machine to start an X server. */
#define SERVER_START_TIMEOUT_MS 20000

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

Recorder *
recorder_new (const RecorderOptions *options, GError **error)
{
  g_autoptr (Recorder) recorder = g_new0 (Recorder, 1);
  g_autofree char *app = NULL;
  g_autofree char *dir = NULL;

  if (options->argv == NULL || options->argv[0] == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE, "no app to run");
      return NULL;
    }
  if (options->output == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE,
                   "no output file (-o session.log)");
      return NULL;
    }
  recorder->stop_key = NoSymbol;
  if (options->stop_key != NULL
      && (recorder->stop_key = XStringToKeysym (options->stop_key)) == NoSymbol)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE,
                   "unknown keysym '%s' for --stop-key (e.g. Pause, F12)",
                   options->stop_key);
      return NULL;
    }
  if (options->width < 1 || options->height < 1 || options->width > 32767
      || options->height > 32767)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE,
                   "bad screen size %dx%d", options->width, options->height);
      return NULL;
    }
  if (options->where == RECORDER_EXISTING && options->display == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE, "no display");
      return NULL;
    }
  if (options->where == RECORDER_NESTED && g_getenv ("DISPLAY") == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE,
                   "DISPLAY is not set: record on a display with --display DPY, "
                   "or on a private Xvfb with --headless");
      return NULL;
    }
  /* The app: a path, or a command in $PATH. */
  if (strchr (options->argv[0], '/') != NULL)
    app = g_file_test (options->argv[0], G_FILE_TEST_IS_EXECUTABLE)
          && !g_file_test (options->argv[0], G_FILE_TEST_IS_DIR)
          ? g_strdup (options->argv[0]) : NULL;
  else
    app = g_find_program_in_path (options->argv[0]);
  if (app == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_APP,
                   "%s: no such program (or not executable)", options->argv[0]);
      return NULL;
    }
  /* The log: fail now rather than after starting servers. */
  dir = g_path_get_dirname (options->output);
  if (g_file_test (options->output, G_FILE_TEST_IS_DIR)
      || (g_file_test (options->output, G_FILE_TEST_EXISTS)
          ? access (options->output, W_OK) != 0
          : access (dir, W_OK | X_OK) != 0))
    {
      int saved = errno;
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_OUTPUT,
                   "%s: cannot write: %s", options->output,
                   g_file_test (options->output, G_FILE_TEST_IS_DIR)
                   ? "is a directory" : g_strerror (saved));
      return NULL;
    }

  recorder->output = g_strdup (options->output);
  recorder->argv = g_strdupv ((char **) options->argv);
  recorder->where = options->where;
  recorder->display_option = g_strdup (options->display);
  recorder->width = options->width;
  recorder->height = options->height;
  recorder->start_timeout_ms = options->start_timeout_ms != 0 ? options->start_timeout_ms
                                                               : RECORDER_START_TIMEOUT_MS;
  recorder->no_selections = options->no_selections;
  recorder->with_files = options->with_files;
  for (const char *const *n = options->record_env; n != NULL && *n != NULL; n++)
    if (!recorder_check_env_name (*n, error))
      return NULL;
  recorder->record_env = g_strdupv ((char **) options->record_env);
  recorder->loop = g_main_loop_new (NULL, FALSE);
  return g_steal_pointer (&recorder);
}

void
recorder_free (Recorder *recorder)
{
  if (recorder == NULL)
    return;
  if (recorder->start_timer != 0)
    g_source_remove (recorder->start_timer);
  if (recorder->drain_timeout != 0)
    g_source_remove (recorder->drain_timeout);
  g_clear_pointer (&recorder->app, proc_child_free);
  session_writer_free (recorder->writer);
  rec_files_free (recorder->files);
  g_free (recorder->files_stats.copy_error);
  rec_pastes_free (recorder->pastes);
  translator_free (recorder->translator);
  toplevels_free (recorder->tops);
  capture_free (recorder->capture);
  if (recorder->tracker_source != NULL)
    {
      g_source_destroy (recorder->tracker_source);
      g_source_unref (recorder->tracker_source);
    }
  if (recorder->tracker != NULL)
    XCloseDisplay (recorder->tracker);
  xserver_free (recorder->server);
  g_clear_error (&recorder->write_error);
  g_clear_pointer (&recorder->seen_windows, g_ptr_array_unref);
  g_clear_pointer (&recorder->guard, guard_free);
  g_clear_pointer (&recorder->loop, g_main_loop_unref);
  g_free (recorder->display);
  g_free (recorder->display_option);
  g_strfreev (recorder->argv);
  g_strfreev (recorder->record_env);
  g_free (recorder->output);
  g_free (recorder);
}

guint
recorder_get_n_actions (Recorder *recorder)
{
  return recorder->n_actions;
}

guint
recorder_get_n_server_events (Recorder *recorder)
{
  return recorder->n_server;
}

char *
recorder_describe_given (Recorder *recorder)
{
  g_autoptr (GString) out = g_string_new (NULL);
  const RecFilesStats *files = &recorder->files_stats;
  guint n_fetched = recorder->n_fetched, n_omitted = recorder->n_omitted;
  guint n_drops = recorder->n_drops;
  if (n_fetched + n_omitted > 0)
    g_string_append_printf (out, "%u selection conversion%s%s", n_fetched + n_omitted,
                            n_fetched + n_omitted == 1 ? "" : "s",
                            n_omitted == 0 ? "" : recorder->no_selections
                                             ? " without their data (--no-selections)"
                                             : " (some without data: too large or too slow)");
  if (n_drops > 0)
    g_string_append_printf (out, "%s%u drop%s from other apps", out->len > 0 ? ", " : "",
                            n_drops, n_drops == 1 ? "" : "s");
  if (files->n_listed > 0)
    {
      g_autofree char *copies = g_strconcat (recorder->output, ".files", NULL);
      g_autofree char *where = quote_terminal (copies);

      g_string_append_printf (out, "%s%u file%s read", out->len > 0 ? ", " : "",
                              files->n_listed, files->n_listed == 1 ? "" : "s");
      if (recorder->with_files)
        g_string_append_printf (out, " (%u copied to %s%s)", files->n_copied, where,
                                files->n_over_limit > 0 ? ", the rest over the limit" : "");
      else
        g_string_append (out, " (listed; --with-files copies them)");
    }
  if (recorder->n_env > 0)
    g_string_append_printf (out, "%s%u variable%s", out->len > 0 ? ", " : "", recorder->n_env,
                            recorder->n_env == 1 ? "" : "s");
  return out->len > 0 ? g_strdup (out->str) : NULL;
}

guint
recorder_get_n_app_windows (Recorder *recorder)
{
  return recorder->n_app_windows;
}

int
recorder_get_signal (Recorder *recorder)
{
  return recorder->signal;
}

gboolean
recorder_get_start_timed_out (Recorder *recorder, guint *timeout_ms, guint *n_created)
{
  *timeout_ms = recorder->start_timeout_ms;
  *n_created = recorder->n_created;
  return recorder->start_timed_out;
}

const char *const *
recorder_get_seen_windows (Recorder *recorder)
{
  static const char *const none[] = { NULL };

  return recorder->seen_windows != NULL
         ? (const char *const *) recorder->seen_windows->pdata : none;
}

/* ---- the end ---- */

static gboolean
on_drain_timeout (gpointer user_data)
{
  Recorder *recorder = user_data;

  recorder->drain_timeout = 0;
  if (!recorder->drained)
    g_debug ("the RECORD data did not end within %d ms", DRAIN_TIMEOUT_MS);
  recorder->drained = TRUE;
  g_main_loop_quit (recorder->loop);
  return G_SOURCE_REMOVE;
}

/* Ends the recording: what the server recorded until now is still
 * written (the loop runs until EndOfData), nothing after. */
static void
begin_stop (Recorder *recorder, const char *why)
{
  if (recorder->stopping)
    return;
  g_debug ("stopping: %s", why);
  recorder->stopping = TRUE;
  if (recorder->capture != NULL && recorder->enabled && !recorder->server_gone)
    capture_stop (recorder->capture);
  else
    recorder->drained = TRUE;
  if (recorder->drained)
    g_main_loop_quit (recorder->loop);
  else
    recorder->drain_timeout = g_timeout_add (recorder->signal != 0 ? DRAIN_SIGNAL_MS
                                             : DRAIN_TIMEOUT_MS, on_drain_timeout, recorder);
}

static void
on_app_exit (ProcChild *app, int status, gpointer user_data)
{
  Recorder *recorder = user_data;

  recorder->app_exited = TRUE;
  recorder->app_status = status;
  if (!recorder->outcome_known)
    {
      Verdict died;

      recorder->outcome_known = TRUE;
      verdict_from_wait_status (&died, status);
      recorder->outcome = verdict_to_session_outcome (&died);
    }
  begin_stop (recorder, "the app exited");
  /* The app may be the last thing the loop waits for (see stop_app). */
  if (recorder->stopping && recorder->drained)
    g_main_loop_quit (recorder->loop);
}

static void
on_signal (int signum, gpointer user_data)
{
  Recorder *recorder = user_data;

  if (recorder->signal == 0)
    recorder->signal = signum;
  if (!recorder->outcome_known)
    {
      recorder->outcome_known = TRUE;
      recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
    }
  begin_stop (recorder, "signal");
  /* (Also during set-up: the loop may not run yet.) */
  g_main_loop_quit (recorder->loop);
}

/* No window of the app's came: a window manager may be waiting for the
 * user to place it (twm), or the app shows none. */
static gboolean
on_start_timeout (gpointer user_data)
{
  Recorder *recorder = user_data;

  recorder->start_timer = 0;
  if (toplevels_get_n_app_mapped (recorder->tops) == 0)
    {
      recorder->start_timed_out = TRUE;
      if (!recorder->outcome_known)
        {
          recorder->outcome_known = TRUE;
          recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
        }
      begin_stop (recorder, "no window of the app's");
    }
  return G_SOURCE_REMOVE;
}

static gboolean
on_app_term_timeout (gpointer user_data)
{
  Recorder *recorder = user_data;

  g_main_loop_quit (recorder->loop);
  return G_SOURCE_REMOVE;
}

/* Terminates the app's process group, SIGKILL if it lingers, and reaps. */
static void
stop_app (Recorder *recorder)
{
  int sig[2] = { SIGTERM, SIGKILL };

  if (recorder->app == NULL)
    return;
  for (int i = 0; i < 2 && !recorder->app_exited; i++)
    {
      guint timeout;

      proc_child_signal (recorder->app, sig[i]);
      timeout = g_timeout_add (recorder->signal != 0 || recorder->start_timed_out
                               ? APP_TERM_SIGNAL_MS : APP_TERM_TIMEOUT_MS,
                               on_app_term_timeout, recorder);
      while (!recorder->app_exited && g_main_context_iteration (NULL, TRUE))
        if (g_main_context_find_source_by_id (NULL, timeout) == NULL)
          break;
      if (g_main_context_find_source_by_id (NULL, timeout) != NULL)
        g_source_remove (timeout);
    }
  /* Whatever the app left in its group. */
  proc_child_kill (recorder->app, 0);
}

/* ---- what was recorded ---- */

static void
write_event (Recorder *recorder, const SessionEvent *ev)
{
  SessionEvent at = *ev;

  if (recorder->write_error != NULL || recorder->writer == NULL)
    return;
  /* What the app was given is written when it is known: never before a
   * line already written. */
  at.time_ms = MAX (ev->time_ms, recorder->last_time);
  if (!session_writer_append (recorder->writer, &at, &recorder->write_error))
    {
      begin_stop (recorder, "the log cannot be written");
      return;
    }
  recorder->last_time = at.time_ms;
  if (session_event_is_action (ev))
    {
      recorder->n_actions++;
      /* What the app asks for after an action is that action's paste,
       * and the files it opens meanwhile are seen now. */
      if (recorder->pastes != NULL)
        rec_pastes_action (recorder->pastes);
      if (recorder->files != NULL)
        rec_files_look (recorder->files, at.time_ms);
    }
  else if (ev->kind == SESSION_EVENT_SERVER)
    recorder->n_server++;
}

/* A Selection line or a Drop (pastes.h), a File (files.h). */
static void
on_given (const SessionEvent *ev, gpointer user_data)
{
  write_event (user_data, ev);
}

static void
on_captured (const xEvent *ev, XID id_base, guint64 time_ms, gpointer user_data)
{
  Recorder *recorder = user_data;
  int type = ev->u.u.type & 0x7f;
  SessionEvent out;

  if (type >= KeyPress && type <= MotionNotify)
    {
      /* Device events: nothing of the user's after the stop key. */
      if (recorder->stop_key_seen)
        return;
      switch (translator_device (recorder->translator, ev, time_ms, &out))
        {
        case TRANSLATE_EVENT:
          write_event (recorder, &out);
          break;
        case TRANSLATE_STOP:
          recorder->stop_key_seen = TRUE;
          if (!recorder->outcome_known)
            {
              recorder->outcome_known = TRUE;
              recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
            }
          begin_stop (recorder, "the stop key");
          break;
        case TRANSLATE_SKIP:
        default:
          break;
        }
      return;
    }
  if (id_base == recorder->tracker_base)
    {
      toplevels_handle_event (recorder->tops, ev);
      translator_tracker_event (recorder->translator, ev);
      /* The app never hears of its top-levels' creation; the tracker does. */
      if (type == CreateNotify
          && ev->u.createNotify.parent == DefaultRootWindow (recorder->tracker)
          && !ev->u.createNotify.override
          && toplevels_is_app_client (recorder->tops,
                                      ev->u.createNotify.window
                                      & XRecordIdBaseMask (recorder->tracker)))
        recorder->n_created++;
      if (type == CreateNotify
          && toplevels_is_app_client (recorder->tops,
                                      ev->u.createNotify.window
                                      & XRecordIdBaseMask (recorder->tracker))
          && translator_delivered (recorder->translator, ev, time_ms, &out)
             == TRANSLATE_EVENT)
        write_event (recorder, &out);
      return;
    }
  if (recorder->app_pid > 0 && toplevels_is_app_client (recorder->tops, id_base))
    {
      if (translator_delivered (recorder->translator, ev, time_ms, &out) == TRANSLATE_EVENT)
        write_event (recorder, &out);
      /* A drop from another app (XDND), after its message. */
      if (type == ClientMessage && recorder->pastes != NULL && !recorder->stop_key_seen)
        rec_pastes_client_message (recorder->pastes, ev, time_ms);
    }
}

static void
on_client_gone (XID id_base, gpointer user_data)
{
  Recorder *recorder = user_data;

  toplevels_client_gone (recorder->tops, id_base);
}

static void
on_request (const guint8 *data, gsize len, XID id_base, guint64 time_ms, gpointer user_data)
{
  Recorder *recorder = user_data;

  toplevels_handle_request (recorder->tops, data, len);
  /* The app pastes: what it gets is fetched and written now, in order
   * (also while the recording drains after the app died of it: the
   * owner is still there). */
  if (len > 0 && data[0] == X_ConvertSelection && recorder->pastes != NULL
      && recorder->app_pid > 0 && toplevels_is_app_client (recorder->tops, id_base))
    rec_pastes_request (recorder->pastes, data, len, time_ms);
}

static void
print_ready (Recorder *recorder)
{
  if (recorder->ready || !recorder->enabled || recorder->app_pid <= 0
      || toplevels_get_n_app_mapped (recorder->tops) == 0)
    return;
  recorder->ready = TRUE;
  if (recorder->start_timer != 0)
    g_source_remove (recorder->start_timer);
  recorder->start_timer = 0;
  guard_set_deadline (recorder->guard, 0);
  /* Scripts and tests wait for this line. */
  g_printerr ("xrecord: recording %s (pid %d) on %s\n", recorder->argv[0],
              (int) recorder->app_pid, recorder->display);
}

static void
on_app_map (Window window, gpointer user_data)
{
  print_ready (user_data);
}

static void
on_capture_state (gboolean enabled, gpointer user_data)
{
  Recorder *recorder = user_data;

  if (enabled)
    {
      recorder->enabled = TRUE;
      g_main_loop_quit (recorder->loop);
      return;
    }
  recorder->drained = TRUE;
  if (recorder->stopping)
    g_main_loop_quit (recorder->loop);
}

/* The tracker's own event queue holds the events it was sent; the model
 * reads them from the RECORD stream instead, in order with the rest. */
static gboolean
on_tracker (Display *dpy, gpointer user_data)
{
  Recorder *recorder = user_data;

  while (!recorder->server_gone && XPending (dpy) > 0)
    {
      XEvent ev;

      XNextEvent (dpy, &ev);
    }
  return recorder->server_gone ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

/* ---- the display ---- */

/* Xlib's I/O error handler prints and is followed by the exit handler,
 * which is per display and says what to do. */
static int
on_io_error (Display *dpy)
{
  return 0;
}

static void
on_io_error_exit (Display *dpy, void *user_data)
{
  Recorder *recorder = user_data;

  /* The server is gone (the Xephyr window was closed): the app goes with
   * it; end the recording without waiting for RECORD's end. Or the guard
   * cut a round trip the server did not answer (a window manager holds
   * it grabbed) because of a signal or the start timeout. */
  if (!recorder->server_gone)
    {
      if (!guard_has_cut (recorder->guard))
        g_printerr ("xrecord: lost the connection to %s\n", recorder->display);
      else if (recorder->signal == 0 && recorder->tops != NULL
               && toplevels_get_n_app_mapped (recorder->tops) == 0)
        recorder->start_timed_out = TRUE;
      recorder->server_gone = TRUE;
      recorder->drained = TRUE;
      begin_stop (recorder, "the X server is gone");
      g_main_loop_quit (recorder->loop);
    }
}

static gboolean
open_display (Recorder *recorder, GError **error)
{
  g_autoptr (GError) local_error = NULL;

  switch (recorder->where)
    {
    case RECORDER_NESTED:
    case RECORDER_HEADLESS:
      {
        g_autofree char *title = g_strdup_printf ("xrecord: %s", recorder->argv[0]);

        XServerOptions server_options = {
          .kind = recorder->where == RECORDER_NESTED ? XSERVER_XEPHYR : XSERVER_XVFB,
          .width = recorder->width,
          .height = recorder->height,
          .title = title,
        };

        recorder->server = xserver_start (&server_options, SERVER_START_TIMEOUT_MS,
                                          &local_error);
        if (recorder->server == NULL)
          {
            g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s",
                         local_error->message);
            return FALSE;
          }
        recorder->display = g_strdup (xserver_get_display (recorder->server));
      }
      break;
    case RECORDER_EXISTING:
    default:
      recorder->display = g_strdup (recorder->display_option);
      break;
    }

  recorder->tracker = XOpenDisplay (recorder->display);
  if (recorder->tracker == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA,
                   "cannot open display %s", recorder->display);
      return FALSE;
    }
  XSetIOErrorHandler (on_io_error);
  XSetIOErrorExitHandler (recorder->tracker, on_io_error_exit, recorder);
  recorder->capture = capture_new (recorder->display, &local_error);
  if (recorder->capture == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s",
                   local_error->message);
      return FALSE;
    }
  capture_set_io_error_handler (recorder->capture, on_io_error_exit, recorder);
  {
    int ctrl_fd, data_fd;

    capture_get_fds (recorder->capture, &ctrl_fd, &data_fd);
    guard_add_fd (recorder->guard, ConnectionNumber (recorder->tracker));
    guard_add_fd (recorder->guard, ctrl_fd);
    guard_add_fd (recorder->guard, data_fd);
  }
  return TRUE;
}

gboolean
recorder_check_env_name (const char *name, GError **error)
{
  g_autofree char *why = NULL;

  if (session_env_name_check (name, &why))
    return TRUE;
  g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE, "--record-env: %s", why);
  return FALSE;
}

/* The world the app runs in (session-world.h): where, and when. */
static void
add_world (Recorder *recorder, Session *header)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d");
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *wm = rec_header_wm_name (recorder->tracker);

  if (g_path_is_absolute (g_get_home_dir ()))
    session_set_home (header, g_get_home_dir ());
  if (g_path_is_absolute (cwd) && g_utf8_validate (cwd, -1, NULL))
    session_set_cwd (header, cwd);
  if (g_utf8_validate (g_get_host_name (), -1, NULL))
    session_set_host (header, g_get_host_name ());
  session_set_date (header, date);
  if (wm != NULL)
    session_set_wm (header, wm);
  {
    g_auto (GStrv) envp = g_get_environ ();

    recorder->n_env += rec_header_add_env (header, (const char *const *) envp,
                                           (const char *const *) recorder->record_env);
  }
}

static gboolean
open_log (Recorder *recorder, GError **error)
{
  g_autoptr (Session) header = session_new ();
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M");
  g_autofree char *comment = g_strdup_printf ("xreduce session, recorded by xrecord %s on %s",
                                              XREDUCE_VERSION, date);
  g_autofree char *keymap = keymap_describe (recorder->tracker,
                                             recorder->where == RECORDER_NESTED
                                               ? g_getenv ("DISPLAY") : NULL);
  g_autofree char *wm = NULL;
  g_autofree char *wm_comment = NULL;
  g_autoptr (GError) local_error = NULL;

  /* The X errors of a window that goes away meanwhile are trapped. */
  xconn_trap_push (recorder->tracker);
  wm = xapp_window_manager_name (recorder->tracker);
  xconn_trap_pop (recorder->tracker);
  wm_comment = g_strdup_printf ("window manager: %s", wm != NULL ? wm : "none");
  session_add_header_comment (header, comment);
  session_add_header_comment (header, wm_comment);
  session_set_screen (header, DisplayWidth (recorder->tracker, DefaultScreen (recorder->tracker)),
                      DisplayHeight (recorder->tracker, DefaultScreen (recorder->tracker)));
  session_set_command (header, (const char *const *) recorder->argv);
  session_set_keymap (header, keymap);
  rec_header_set_desktop (header, recorder->tracker);
  add_world (recorder, header);
  recorder->writer = session_writer_open (recorder->output, header, &local_error);
  if (recorder->writer == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_OUTPUT, "%s",
                   local_error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
on_enable_timeout (gpointer user_data)
{
  g_main_loop_quit (((Recorder *) user_data)->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
start_capture (Recorder *recorder, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  XSetWindowAttributes attrs = { 0 };
  Window window;
  guint timeout;

  /* A resource of the tracker's, to name it in the RECORD context. */
  window = XCreateWindow (recorder->tracker, DefaultRootWindow (recorder->tracker),
                          -1, -1, 1, 1, 0, 0, InputOnly, CopyFromParent, 0, &attrs);
  recorder->tracker_base = window & XRecordIdBaseMask (recorder->tracker);
  XSync (recorder->tracker, False);

  recorder->tops = toplevels_new (recorder->tracker, recorder->where != RECORDER_EXISTING);
  toplevels_add_own_client (recorder->tops, recorder->tracker_base);
  toplevels_set_map_func (recorder->tops, on_app_map, recorder);
  recorder->translator = translator_new (recorder->tracker, recorder->tops,
                                         recorder->stop_key);
  /* Before the context: its connection is never recorded, never the
   * app's. */
  recorder->pastes = rec_pastes_new (recorder->display, recorder->tops, !recorder->no_selections,
                                     on_given, recorder, &local_error);
  if (recorder->pastes == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local_error->message);
      return FALSE;
    }
  toplevels_add_own_client (recorder->tops, rec_pastes_get_base (recorder->pastes));
  guard_add_fd (recorder->guard, rec_pastes_get_fd (recorder->pastes));
  recorder->tracker_source = xconn_source_new (recorder->tracker, on_tracker, NULL, recorder, NULL);
  g_source_attach (recorder->tracker_source, NULL);
  /* On a private server every client but ours is the app's; on a shared
   * display only the server can say whose a window is. */
  if (recorder->where == RECORDER_EXISTING && !toplevels_server_tells_pids (recorder->tops))
    g_printerr ("xrecord: warning: %s has no X-Resource extension (1.2): the app's "
                "windows are known by their _NET_WM_PID only, which Tk, Xaw, Motif and "
                "many older programs do not set\n", recorder->display);

  capture_set_client_gone_func (recorder->capture, on_client_gone, recorder);
  if (!capture_start (recorder->capture, window, on_captured, on_request,
                      on_capture_state,
                      recorder, &local_error))
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s",
                   local_error->message);
      return FALSE;
    }
  timeout = g_timeout_add (ENABLE_TIMEOUT_MS, on_enable_timeout, recorder);
  g_main_loop_run (recorder->loop);
  if (g_main_context_find_source_by_id (NULL, timeout) != NULL)
    g_source_remove (timeout);
  if (!recorder->enabled)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA,
                   "the RECORD context on %s did not start", recorder->display);
      return FALSE;
    }
  /* Only now: the tracker's events are recorded from here on. */
  toplevels_start (recorder->tops);
  XSync (recorder->tracker, False);
  return TRUE;
}

/* On a server of our own (nested, headless) the app must be an X11 client
 * of it: on a Wayland desktop, GTK, Qt and Firefox would otherwise open
 * their windows on the compositor, where nothing is recorded. On a display
 * given, the user's environment stands (the README's Wayland note). */
static char **
app_environ (const Recorder *recorder)
{
  char **env = g_environ_setenv (g_get_environ (), "DISPLAY", recorder->display, TRUE);

  if (recorder->where == RECORDER_EXISTING)
    return env;
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  env = g_environ_setenv (env, "GDK_BACKEND", "x11", TRUE);
  env = g_environ_setenv (env, "QT_QPA_PLATFORM", "xcb", TRUE);
  env = g_environ_setenv (env, "MOZ_ENABLE_WAYLAND", "0", TRUE);
  return env;
}

static gboolean
start_app (Recorder *recorder, GError **error)
{
  g_auto (GStrv) env = app_environ (recorder);
  g_autoptr (GError) local_error = NULL;
  ProcSpawnOptions spawn;

  /* As every replay runs it: its crash is the signal that ends it. */
  env = sandbox_without_crash_reporters (env);
  proc_spawn_options_init (&spawn);
  spawn.argv = (const char *const *) recorder->argv;
  spawn.envp = (const char *const *) env;
  spawn.stdin_inherit = TRUE;
  spawn.out = spawn.err = PROC_OUTPUT_INHERIT;
  spawn.on_exit = on_app_exit;
  spawn.user_data = recorder;
  recorder->app = proc_spawn (&spawn, &local_error);
  if (recorder->app == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_APP, "cannot start %s: %s",
                   recorder->argv[0], local_error->message);
      return FALSE;
    }
  recorder->app_pid = proc_child_get_pid (recorder->app);
  {
    g_autofree char *copies = g_strconcat (recorder->output, ".files", NULL);
    RecFilesOptions files_options = {
      .session_path = recorder->output, .copy_dir = recorder->with_files ? copies : NULL,
      .argv = (const char *const *) recorder->argv, .func = on_given, .user_data = recorder,
    };

    recorder->files = rec_files_new (&files_options);
    rec_files_start (recorder->files, recorder->app_pid);
  }
  /* Until its first window: the loop's timer, and the guard's deadline
   * should a window manager hold the server meanwhile. */
  recorder->start_timer = g_timeout_add (recorder->start_timeout_ms, on_start_timeout, recorder);
  guard_set_deadline (recorder->guard, g_get_monotonic_time ()
                                       + (gint64) recorder->start_timeout_ms * 1000);
  /* The group leader is the app: _NET_WM_PID of any process in the group
   * marks the app's windows. */
  toplevels_set_app (recorder->tops, recorder->app_pid);
  return TRUE;
}

/* What the recording saw of the windows, before the model goes: the
 * app's, and the others by their identity, quoted for the terminal. */
static void
take_windows (Recorder *recorder)
{
  guint n;

  if (recorder->tops == NULL)
    return;
  recorder->n_app_windows = toplevels_get_n_app_mapped (recorder->tops);
  g_clear_pointer (&recorder->seen_windows, g_ptr_array_unref);
  recorder->seen_windows = g_ptr_array_new_with_free_func (g_free);
  n = toplevels_get_n_seen (recorder->tops);
  for (guint i = 0; i < n; i++)
    {
      const char *wm_class, *title;
      g_autofree char *quoted_title = NULL, *quoted_class = NULL;
      Window window;

      toplevels_get_seen (recorder->tops, i, &window, &wm_class, &title);
      quoted_title = quote_terminal (title != NULL ? title : "");
      quoted_class = wm_class != NULL ? quote_terminal (wm_class) : NULL;
      g_ptr_array_add (recorder->seen_windows,
                       g_strdup_printf ("0x%lx \"%s\"%s%s%s", (unsigned long) window,
                                        quoted_title, quoted_class != NULL ? " (" : "",
                                        quoted_class != NULL ? quoted_class : "",
                                        quoted_class != NULL ? ")" : ""));
    }
  g_ptr_array_add (recorder->seen_windows, NULL);
}

/* Closes the connections while the server still runs, then stops it. */
static void
close_display (Recorder *recorder)
{
  take_windows (recorder);
  capture_free (g_steal_pointer (&recorder->capture));
  g_clear_pointer (&recorder->translator, translator_free);
  if (recorder->pastes != NULL)
    rec_pastes_get_counts (recorder->pastes, &recorder->n_fetched, &recorder->n_omitted,
                           &recorder->n_drops);
  g_clear_pointer (&recorder->pastes, rec_pastes_free);
  g_clear_pointer (&recorder->tops, toplevels_free);
  if (recorder->tracker_source != NULL)
    {
      g_source_destroy (recorder->tracker_source);
      g_clear_pointer (&recorder->tracker_source, g_source_unref);
    }
  /* (On a broken connection, Xlib only frees.) */
  g_clear_pointer (&recorder->tracker, XCloseDisplay);
  xserver_free (g_steal_pointer (&recorder->server));
}

gboolean
recorder_run (Recorder *recorder, SessionOutcome *outcome, GError **error)
{
  gboolean ok;

  /* Before anything starts: a signal that arrives while the server, the
   * capture or the app start waits for the loop, which stops cleanly,
   * instead of killing xrecord with the log unfinished; and one that
   * arrives while a window manager holds the server (guard.h). */
  recorder->guard = guard_new (on_signal, recorder);
  xconn_errors_install ();
  ok = open_display (recorder, error) && open_log (recorder, error)
       && start_capture (recorder, error)
       && (recorder->signal != 0 || start_app (recorder, error));
  /* A signal that ended a synchronous wait (the X server's readiness)
   * before the main context saw it. */
  if (!ok && recorder->signal == 0)
    recorder->signal = proc_interrupt_get_signal ();
  if (!ok && recorder->signal != 0 && recorder->writer != NULL)
    {
      /* Interrupted while setting up: a recording of nothing, ended. */
      g_clear_error (error);
      begin_stop (recorder, "signal during set-up");
      recorder->drained = TRUE;
    }
  else if (!ok)
    {
      if (recorder->writer != NULL)
        {
          /* A header without events is a valid, if empty, session. */
          session_writer_finish (recorder->writer,
                                 (SessionOutcome) { SESSION_OUTCOME_UNKNOWN }, NULL);
          g_clear_pointer (&recorder->writer, session_writer_free);
        }
      stop_app (recorder);
      close_display (recorder);
      return FALSE;
    }
  while (!(recorder->stopping && recorder->drained))
    g_main_loop_run (recorder->loop);

  if (!recorder->outcome_known)
    recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
  *outcome = recorder->outcome;
  /* The files opened last, before the end line. */
  if (recorder->files != NULL)
    {
      rec_files_stop (recorder->files);
      rec_files_get_stats (recorder->files, &recorder->files_stats);
      recorder->files_stats.copy_error = g_strdup (recorder->files_stats.copy_error);
    }
  if (recorder->write_error == NULL)
    session_writer_finish (recorder->writer, recorder->outcome,
                           &recorder->write_error);
  g_clear_pointer (&recorder->writer, session_writer_free);

  stop_app (recorder);
  close_display (recorder);
  if (recorder->write_error != NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_OUTPUT, "%s",
                   recorder->write_error->message);
      return FALSE;
    }
  return TRUE;
}
