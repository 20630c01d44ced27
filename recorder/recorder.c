/* recorder.c — a recording from start to end (see recorder.h).
 *
 * Start reading at recorder_run(): it brings up the display (a nested
 * Xephyr or a headless Xvfb from proc/xserver.h, or the user's display),
 * opens the "tracker" connection that watches the windows (toplevels.c),
 * enables the RECORD context (capture.c), opens the log, starts the app
 * (recorder-setup.c), and runs the one GMainLoop. Every recorded event
 * goes through recorder_on_captured() (recorder-events.c): device events
 * become user actions if they were aimed at the app (translate.c), events
 * the server delivered to the app become server records, events delivered
 * to the tracker keep the window model in step. The recording ends in
 * recorder_begin_stop() (recorder-stop.c): the context is disabled, and
 * the loop runs until the server has sent everything it recorded before;
 * then the footer, then the app and the server are stopped. The state
 * all of them share is in recorder-private.h.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "recorder-private.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"
#include "quote.h"
#include "xconn.h"

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

gboolean
recorder_check_env_name (const char *name, GError **error)
{
  g_autofree char *why = NULL;

  if (session_env_name_check (name, &why))
    return TRUE;
  g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE, "--record-env: %s", why);
  return FALSE;
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
  recorder->guard = guard_new (recorder_on_signal, recorder);
  xconn_errors_install ();
  ok = recorder_open_display (recorder, error) && recorder_open_log (recorder, error)
       && recorder_start_capture (recorder, error)
       && (recorder->signal != 0 || recorder_start_app (recorder, error));
  /* A signal that ended a synchronous wait (the X server's readiness)
   * before the main context saw it. */
  if (!ok && recorder->signal == 0)
    recorder->signal = proc_interrupt_get_signal ();
  if (!ok && recorder->signal != 0 && recorder->writer != NULL)
    {
      /* Interrupted while setting up: a recording of nothing, ended. */
      g_clear_error (error);
      recorder_begin_stop (recorder, "signal during set-up");
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
      recorder_stop_app (recorder);
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
  /* Not asked only where every request of the app's was looked at, from
   * its start (the context was on before it started). */
  if (recorder->write_error == NULL)
    session_writer_note_glx (recorder->writer,
                             recorder->glx_asked ? SESSION_GLX_ASKED
                             : recorder->all_read && recorder->app_pid > 0 ? SESSION_GLX_NOT_ASKED
                             : SESSION_GLX_UNKNOWN,
                             &recorder->write_error);
  if (recorder->write_error == NULL)
    session_writer_finish (recorder->writer, recorder->outcome,
                           &recorder->write_error);
  g_clear_pointer (&recorder->writer, session_writer_free);

  recorder_stop_app (recorder);
  close_display (recorder);
  if (recorder->write_error != NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_OUTPUT, "%s",
                   recorder->write_error->message);
      return FALSE;
    }
  return TRUE;
}
