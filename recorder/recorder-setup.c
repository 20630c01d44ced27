/* recorder-setup.c — a recording's set-up (recorder-private.h), in the
 * order recorder_run() calls it: the display (a nested Xephyr or a
 * headless Xvfb from proc/xserver.h, or the user's display) and the
 * "tracker" connection that watches the windows (toplevels.c); the log
 * and its header (the world the app runs in); the window model, the
 * translator, the pastes and the RECORD context (capture.c), until the
 * server enables it; then the app, and the files it reads.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "recorder-private.h"

#include <X11/extensions/record.h>

#include "header.h"
#include "keymap.h"
#include "sandbox.h"
#include "xapp.h"
#include "xconn.h"

/* RECORDER_ERROR: here, where most of them are raised, so that
 * recorder.c (and all.c) stand on this file and not the other way. */
G_DEFINE_QUARK (recorder-error-quark, recorder_error)

#define ENABLE_TIMEOUT_MS 10000
/* Long enough for a loaded CI machine to start an X server. */
#define SERVER_START_TIMEOUT_MS 20000

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
      recorder_begin_stop (recorder, "the X server is gone");
      g_main_loop_quit (recorder->loop);
    }
}

gboolean
recorder_open_display (Recorder *recorder, GError **error)
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

/* ---- the log ---- */

/* The world the app runs in (session-world.h): where, and when. */
static void
add_world (Recorder *recorder, Session *header)
{
  g_autofree char *cwd = g_get_current_dir ();

  if (g_path_is_absolute (g_get_home_dir ()))
    session_set_home (header, g_get_home_dir ());
  rec_header_set_place (header, recorder->tracker, cwd);
  {
    g_auto (GStrv) envp = g_get_environ ();

    recorder->n_env += rec_header_add_env (header, (const char *const *) envp,
                                           (const char *const *) recorder->record_env);
  }
}

gboolean
recorder_open_log (Recorder *recorder, GError **error)
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

/* ---- the capture and the app ---- */

static gboolean
on_enable_timeout (gpointer user_data)
{
  g_main_loop_quit (((Recorder *) user_data)->loop);
  return G_SOURCE_REMOVE;
}

gboolean
recorder_start_capture (Recorder *recorder, GError **error)
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
  toplevels_set_map_func (recorder->tops, recorder_on_app_map, recorder);
  recorder->translator = translator_new (recorder->tracker, recorder->tops,
                                         recorder->stop_key);
  /* Before the context: its connection is never recorded, never the
   * app's. */
  recorder->pastes = rec_pastes_new (recorder->display, recorder->tops, !recorder->no_selections,
                                     recorder_on_given, recorder, &local_error);
  if (recorder->pastes == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local_error->message);
      return FALSE;
    }
  toplevels_add_own_client (recorder->tops, rec_pastes_get_base (recorder->pastes));
  guard_add_fd (recorder->guard, rec_pastes_get_fd (recorder->pastes));
  /* The tracker's own event queue holds the events it was sent; the model
   * reads them from the RECORD stream instead, in order with the rest. */
  recorder->tracker_source = xconn_discard_source_new (recorder->tracker, &recorder->server_gone);
  g_source_attach (recorder->tracker_source, NULL);
  /* On a private server every client but ours is the app's; on a shared
   * display only the server can say whose a window is. */
  if (recorder->where == RECORDER_EXISTING && !toplevels_server_tells_pids (recorder->tops))
    g_printerr ("xrecord: warning: %s has no X-Resource extension (1.2): the app's "
                "windows are known by their _NET_WM_PID only, which Tk, Xaw, Motif and "
                "many older programs do not set\n", recorder->display);

  capture_set_client_gone_func (recorder->capture, recorder_on_client_gone, recorder);
  if (!capture_start (recorder->capture, window, recorder_on_captured, recorder_on_request,
                      recorder_on_capture_state,
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

gboolean
recorder_start_app (Recorder *recorder, GError **error)
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
  spawn.on_exit = recorder_on_app_exit;
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
      .argv = (const char *const *) recorder->argv, .func = recorder_on_given, .user_data = recorder,
    };

    recorder->files = rec_files_new (&files_options);
    rec_files_start (recorder->files, recorder->app_pid);
  }
  /* Until its first window: the loop's timer, and the guard's deadline
   * should a window manager hold the server meanwhile. */
  recorder->start_timer = g_timeout_add (recorder->start_timeout_ms, recorder_on_start_timeout, recorder);
  guard_set_deadline (recorder->guard, g_get_monotonic_time ()
                                       + (gint64) recorder->start_timeout_ms * 1000);
  /* The group leader is the app: _NET_WM_PID of any process in the group
   * marks the app's windows. */
  toplevels_set_app (recorder->tops, recorder->app_pid);
  return TRUE;
}
