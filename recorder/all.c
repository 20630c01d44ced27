/* all.c — xrecord --all: every app's recent actions, in memory, saved at
 * its crash (see all.h).
 *
 * The display's RECORD stream (capture.c, every client) feeds the same
 * window model (toplevels.c, in its "every client is an app" mode) and
 * translator (translate.c) as a recording of one app; each action, and
 * each event the server delivered, goes to the buffer of the app it was
 * aimed at or delivered to: an App, one per process (its X clients' pid,
 * X-Resource, else _NET_WM_PID). Its command, folder and variables are
 * read from /proc when it is first seen.
 *
 * A crash: the app's last X client leaves (RECORD's ClientDied, after the
 * server has taken its windows down) while windows it mapped were still
 * up, by its own requests (it never sent UnmapWindow or DestroyWindow for
 * them: an app that exits normally closes its windows first), and its
 * process ends (a pidfd, proc_watch_gone). Then its buffer is written as a
 * session, `outcome unknown`: xreduce learns the failure from its replays.
 * Where systemd-coredump keeps the crashes (coredumpctl is there), its
 * entry for the pid, awaited a few seconds, gives the signal: `outcome
 * crashed SIGSEGV`.
 *
 * On demand: SIGUSR1, or --save-key's chord (nothing is grabbed: the
 * chord is watched for in the recorded key events), saves every app's
 * buffer. The chord's own keys are recorded in no buffer: a press of one
 * of its modifiers is held back (with the motion after it) until the next
 * event says whether the chord follows (then it is dropped, and its
 * release too) or not (then it is recorded, in order, late).
 *
 * The state is in all-private.h; this file starts the recording, takes
 * the RECORD stream's events and the signals. The apps and their
 * buffers, saving and a crash are all-apps.c's; what goes to which
 * buffer all-record.c's; --save-key's chord all-save-key.c's.
 *
 * Start reading at rec_all_run(), then on_captured().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "all-private.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <X11/extensions/record.h>

#include "keymap.h"
#include "quote.h"
#include "recorder.h"
#include "xconn.h"

#define ENABLE_TIMEOUT_MS 10000

static gboolean
on_usr1 (gpointer user_data)
{
  RecAll *all = user_data;

  rec_all_held_flush (all, FALSE);
  rec_all_save_all (all, "SIGUSR1");
  return G_SOURCE_CONTINUE;
}

static void
on_captured (const xEvent *ev, XID id_base, guint64 time_ms, gpointer user_data)
{
  RecAll *all = user_data;
  int type = ev->u.u.type & 0x7f;
  pid_t pid;

  rec_all_note_time (all, time_ms);
  if (type >= KeyPress && type <= MotionNotify)
    {
      if (!all->have_save_key || !rec_all_save_key_filter (all, ev, time_ms))
        rec_all_record_device (all, ev, time_ms);
      return;
    }
  if (id_base == all->tracker_base)
    {
      toplevels_handle_event (all->tops, ev);
      translator_tracker_event (all->translator, ev);
      if (type == MapNotify)
        rec_all_note_mapped (all, ev->u.mapNotify.window);
      /* An app never hears of its top-levels' creation; the tracker does. */
      if (type == CreateNotify && ev->u.createNotify.parent == DefaultRootWindow (all->tracker)
          && (pid = toplevels_client_pid (all->tops, ev->u.createNotify.window
                                                     & XRecordIdBaseMask (all->tracker))) > 0)
        rec_all_append_delivered (all, pid, 0, ev, time_ms);
      return;
    }
  if ((pid = toplevels_client_pid (all->tops, id_base)) > 0)
    {
      rec_all_append_delivered (all, pid, id_base, ev, time_ms);
      /* A drop from another app (XDND), after its message. */
      if (type == ClientMessage)
        rec_all_give (all, pid, NULL, 0, ev, time_ms);
    }
}

static void
on_request (const guint8 *data, gsize len, XID id_base, guint64 time_ms, gpointer user_data)
{
  RecAll *all = user_data;

  pid_t pid;

  rec_all_note_time (all, time_ms);
  toplevels_handle_request (all->tops, data, len);
  translator_keymap_request (all->translator, data, len);
  rec_all_note_taken_down (all, data, len, id_base);
  /* An app pastes: what it gets is fetched now, into its buffer. */
  if (len > 0 && data[0] == X_ConvertSelection
      && (pid = toplevels_client_pid (all->tops, id_base)) > 0)
    rec_all_give (all, pid, data, len, NULL, time_ms);
}

/* A client has left (after the server took its windows down). */
static void
on_client_gone (XID id_base, gpointer user_data)
{
  RecAll *all = user_data;
  pid_t pid = toplevels_client_pid (all->tops, id_base);
  App *app = pid > 0 ? g_hash_table_lookup (all->apps, GINT_TO_POINTER (pid)) : NULL;

  toplevels_client_gone (all->tops, id_base);
  if (app == NULL || !g_hash_table_remove (app->bases, GSIZE_TO_POINTER (id_base))
      || g_hash_table_size (app->bases) > 0 || app->watch != NULL)
    return;
  if (g_hash_table_size (app->shown) == 0 || rec_buffer_get_n_actions (app->events) == 0)
    {
      /* It closed its windows first (a normal exit), or nothing of the
       * user's is in its buffer. */
      g_debug ("app %d left: nothing to save", (int) pid);
      g_hash_table_remove (all->apps, GINT_TO_POINTER (pid));
      return;
    }
  /* Its windows were up: a crash, if its process is gone too. */
  app->watch = proc_watch_gone (pid, RECALL_GONE_TIMEOUT_MS, rec_all_on_app_gone, app);
}

static void
on_capture_state (gboolean enabled, gpointer user_data)
{
  RecAll *all = user_data;

  if (enabled)
    all->enabled = TRUE;
  else
    all->gone = TRUE;
  g_main_loop_quit (all->loop);
}

static int
on_io_error (Display *dpy)
{
  return 0;
}

static void
on_io_error_exit (Display *dpy, void *user_data)
{
  RecAll *all = user_data;

  if (!all->gone && all->signal == 0)
    g_printerr ("xrecord: lost the connection to %s\n", all->display);
  all->gone = TRUE;
  g_main_loop_quit (all->loop);
}

/* SIGINT, SIGTERM, SIGHUP: the end (GLib's handlers are told no number). */
static gboolean
on_stop (RecAll *all, int signum)
{
  if (all->signal == 0)
    all->signal = signum;
  g_main_loop_quit (all->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean on_sigint (gpointer all) { return on_stop (all, SIGINT); }
static gboolean on_sigterm (gpointer all) { return on_stop (all, SIGTERM); }
static gboolean on_sighup (gpointer all) { return on_stop (all, SIGHUP); }

static gboolean
on_enable_timeout (gpointer user_data)
{
  g_main_loop_quit (((RecAll *) user_data)->loop);
  return G_SOURCE_REMOVE;
}

/* ---- the whole ---- */

RecAll *
rec_all_new (const RecAllOptions *options, GError **error)
{
  g_autoptr (RecAll) all = g_new0 (RecAll, 1);
  GStatBuf st;

  if (options->display == NULL || *options->display == '\0')
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE,
                   "--all records an existing display: rec_all_give it with -d DPY");
      return NULL;
    }
  for (const char *const *n = options->record_env; n != NULL && *n != NULL; n++)
    if (!recorder_check_env_name (*n, error))
      return NULL;
  if (options->save_key != NULL)
    {
      g_autoptr (GError) local = NULL;

      if (!chord_parse (options->save_key, &all->save_key, &local))
        {
          g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE, "--save-key: %s",
                       local->message);
          return NULL;
        }
      all->have_save_key = TRUE;
      all->held = g_array_new (FALSE, FALSE, sizeof (Held));
    }
  all->display = g_strdup (options->display);
  all->save_dir = options->save_dir != NULL
                  ? g_strdup (options->save_dir)
                  : g_build_filename (g_get_user_state_dir (), "xreduce", "sessions", NULL);
  all->keep_ms = (guint64) (options->keep_minutes != 0 ? options->keep_minutes
                            : RECALL_DEFAULT_KEEP_MINUTES) * 60 * 1000;
  all->keep_actions = options->keep_actions != 0 ? options->keep_actions
                      : RECALL_DEFAULT_KEEP_ACTIONS;
  all->exclude = g_strdupv ((char **) options->exclude_classes);
  all->record_env = g_strdupv ((char **) options->record_env);
  all->coredumpctl = g_find_program_in_path ("coredumpctl");
  all->no_selections = options->no_selections;
  all->apps = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) rec_all_app_free);
  all->loop = g_main_loop_new (NULL, FALSE);
  /* The folder now (0700: what the user typed is in it), not at the
   * first crash. */
  if (g_mkdir_with_parents (all->save_dir, 0700) != 0
      || g_stat (all->save_dir, &st) != 0 || !S_ISDIR (st.st_mode)
      || access (all->save_dir, W_OK | X_OK) != 0)
    {
      int saved = errno;
      g_autofree char *shown = quote_terminal (all->save_dir);

      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_OUTPUT, "%s: cannot save sessions "
                   "there: %s", shown, g_strerror (saved != 0 ? saved : ENOTDIR));
      return NULL;
    }
  if ((st.st_mode & 077) != 0)
    {
      g_autofree char *shown = quote_terminal (all->save_dir);

      g_printerr ("xrecord: warning: %s can be read by others (mode %03o): the sessions "
                  "saved there are 0600, the folder's names are not\n", shown,
                  (unsigned) (st.st_mode & 0777));
    }
  return g_steal_pointer (&all);
}

void
rec_all_free (RecAll *all)
{
  if (all == NULL)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (all->signal_sources); i++)
    if (all->signal_sources[i] != 0)
      g_source_remove (all->signal_sources[i]);
  g_clear_pointer (&all->apps, g_hash_table_unref);
  g_clear_pointer (&all->held, g_array_unref);
  rec_pastes_free (all->pastes);
  translator_free (all->translator);
  toplevels_free (all->tops);
  capture_free (all->capture);
  if (all->tracker_source != NULL)
    {
      g_source_destroy (all->tracker_source);
      g_source_unref (all->tracker_source);
    }
  if (all->tracker != NULL)
    XCloseDisplay (all->tracker);
  g_clear_pointer (&all->loop, g_main_loop_unref);
  g_free (all->keymap);
  g_strfreev (all->exclude);
  g_strfreev (all->record_env);
  g_free (all->coredumpctl);
  g_free (all->save_dir);
  g_free (all->display);
  g_free (all);
}

int
rec_all_get_signal (RecAll *all)
{
  return all->signal;
}

guint
rec_all_get_n_saved (RecAll *all)
{
  return all->n_saved;
}

/* The tracker, the model, the RECORD context of every client. */
static gboolean
start (RecAll *all, GError **error)
{
  g_autoptr (GError) local = NULL;
  XSetWindowAttributes attrs = { 0 };
  Window window;
  guint timeout;

  all->tracker = XOpenDisplay (all->display);
  if (all->tracker == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "cannot open display %s",
                   all->display);
      return FALSE;
    }
  XSetIOErrorHandler (on_io_error);
  XSetIOErrorExitHandler (all->tracker, on_io_error_exit, all);
  all->capture = capture_new (all->display, &local);
  if (all->capture == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  capture_set_io_error_handler (all->capture, on_io_error_exit, all);
  all->keymap = keymap_describe (all->tracker, NULL);

  /* A resource of the tracker's, to tell its events in the stream. */
  window = XCreateWindow (all->tracker, DefaultRootWindow (all->tracker), -1, -1, 1, 1, 0, 0,
                          InputOnly, CopyFromParent, 0, &attrs);
  all->tracker_base = window & XRecordIdBaseMask (all->tracker);
  XSync (all->tracker, False);
  all->tops = toplevels_new (all->tracker, FALSE);
  toplevels_set_all (all->tops, (const char *const *) all->exclude);
  toplevels_add_own_client (all->tops, all->tracker_base);
  all->translator = translator_new (all->tracker, all->tops, NoSymbol);
  /* Before the context: its connection is nobody's app. */
  all->pastes = rec_pastes_new (all->display, all->tops, !all->no_selections, rec_all_on_given, all,
                                &local);
  if (all->pastes == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  toplevels_add_own_client (all->tops, rec_pastes_get_base (all->pastes));
  /* The model reads the tracker's events from the RECORD stream. */
  all->tracker_source = xconn_discard_source_new (all->tracker, &all->gone);
  g_source_attach (all->tracker_source, NULL);
  if (!toplevels_server_tells_pids (all->tops))
    g_printerr ("xrecord: warning: %s has no X-Resource extension (1.2): apps are known by "
                "their windows' _NET_WM_PID only, which Tk, Xaw, Motif and many older "
                "programs do not set\n", all->display);

  capture_set_all_clients (all->capture);
  capture_set_client_gone_func (all->capture, on_client_gone, all);
  if (!capture_start (all->capture, None, on_captured, on_request, on_capture_state, all,
                      &local))
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  timeout = g_timeout_add (ENABLE_TIMEOUT_MS, on_enable_timeout, all);
  g_main_loop_run (all->loop);
  if (g_main_context_find_source_by_id (NULL, timeout) != NULL)
    g_source_remove (timeout);
  if (!all->enabled)
    {
      g_set_error (error, RECORDER_ERROR, all->signal != 0 ? RECORDER_ERROR_USAGE
                                                           : RECORDER_ERROR_INFRA,
                   "the RECORD context on %s did not start", all->display);
      return FALSE;
    }
  toplevels_start (all->tops);
  XSync (all->tracker, False);
  return TRUE;
}

gboolean
rec_all_run (RecAll *all, GError **error)
{
  g_autofree char *shown_dir = quote_terminal (all->save_dir);

  all->signal_sources[0] = g_unix_signal_add (SIGINT, on_sigint, all);
  all->signal_sources[1] = g_unix_signal_add (SIGTERM, on_sigterm, all);
  all->signal_sources[2] = g_unix_signal_add (SIGHUP, on_sighup, all);
  all->signal_sources[3] = g_unix_signal_add (SIGUSR1, on_usr1, all);
  xconn_errors_install ();
  if (!start (all, error))
    return all->signal != 0;
  /* Scripts and tests wait for this line. */
  g_printerr ("xrecord: recording every app on %s (the last %u actions or %u minutes of "
              "each, in memory); crashes saved to %s\n", all->display, all->keep_actions,
              (guint) (all->keep_ms / 60000), shown_dir);
  while (all->signal == 0 && !all->gone)
    g_main_loop_run (all->loop);
  if (all->capture != NULL && !all->gone)
    capture_stop (all->capture);
  rec_all_save_awaited (all);
  return TRUE;
}
