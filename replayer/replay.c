/* replay.c — one replay: the app, its windows, the actions, the verdict.
 *
 * Start reading at replay_run(). It sets things up (Xvfb, the connection,
 * the keyboard), spawns the app and runs one GMainLoop through the phases
 *
 *   STARTING   waiting for the app's first window (MapNotify on the root)
 *   ACTING     one timer per action; an action aimed at a window that is
 *              not there yet waits for it (MapNotify/ConfigureNotify/
 *              PropertyNotify, bounded by window_wait_ms)
 *   SETTLING   settle_ms after the last action, and more (up to
 *              timeout_ms more) while the app's process tree is busy
 *   PINGING    _NET_WM_PING to the main window, timeout_ms for the answer
 *
 * and ends as soon as the verdict is known: the app's death (pidfd) ends
 * any phase at once. Then cleanup, whatever happened: release what we
 * hold, restore the keymap, kill the app's group, stop the private Xvfb.
 * Nothing blocks the loop; the X connection is a GSource (xconn.c).
 * Where each action goes (its window, waited for, arranged) is aim.c's;
 * putting it on the wire (the focus, the pointer, XTest) send.c's; the
 * room before the app starts (sandbox, server, environment, tracer)
 * setup.c's; --wm's window manager wm.c's.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay.h"
#include "replay-private.h"
#include "quote.h"
#include "xserver.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>

/* How often the app's CPU and memory are sampled. */
#define REPLAY_USAGE_SAMPLE_MS 250

/* How long an action waits for the app to ask for a paste before it. */
#define REPLAY_PASTE_WAIT_MS 1000

/* How long the app gets to exit after SIGTERM before SIGKILL. */
#define REPLAY_KILL_GRACE_MS 300

static void replay_schedule_next (Replay *r);
static void replay_step (Replay *r);


void
replay_options_init (ReplayOptions *opts)
{
  memset (opts, 0, sizeof *opts);
  replay_settings_init (&opts->settings);
}

static void
injector_note (const char *message, gpointer data)
{
  note_verbose (data, "%s", message);
}

static void
replay_clear_timers (Replay *r)
{
  if (r->timer != 0)
    g_source_remove (r->timer);
  if (r->wait_timer != 0)
    g_source_remove (r->wait_timer);
  if (r->quiet_timer != 0)
    g_source_remove (r->quiet_timer);
  if (r->usage_timer != 0)
    g_source_remove (r->usage_timer);
  if (r->pace_timer != 0)
    g_source_remove (r->pace_timer);
  if (r->window_timer != 0)
    g_source_remove (r->window_timer);
  if (r->paste_timer != 0)
    g_source_remove (r->paste_timer);
  if (r->held_timer != 0)
    g_source_remove (r->held_timer);
  r->timer = r->wait_timer = r->quiet_timer = r->usage_timer = r->pace_timer = 0;
  r->window_timer = r->paste_timer = r->held_timer = 0;
}

/* The verdict: stop everything and leave the loop. */
static void
replay_finish (Replay *r, VerdictKind outcome)
{
  if (r->phase == PHASE_DONE)
    return;
  if (r->phase == PHASE_ACTING || r->phase == PHASE_STARTING)
    r->t_end_actions = note_now_ms ();
  r->phase = PHASE_DONE;
  r->result->verdict.kind = outcome;
  replay_clear_timers (r);
  g_main_loop_quit (r->loop);
}

static void
replay_fail (Replay *r, GError *error)
{
  if (r->phase == PHASE_DONE)
    {
      g_error_free (error);
      return;
    }
  g_clear_error (&r->error);
  r->error = error;
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    r->result->verdict.detail = g_strdup (error->message);
  replay_finish (r, VERDICT_INFRA_ERROR);
}

static void
replay_fail_x (Replay *r)
{
  replay_fail (r, g_error_new (G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE,
                               "lost the connection to the X server (did it die?)"));
}

/* ---- the app ---- */

static void
on_child_exit (ProcChild *child, int status, gpointer user_data)
{
  Replay *r = user_data;
  g_autofree char *how = NULL;
  Verdict died;

  verdict_from_wait_status (&died, sandbox_app_wait_status (r->sandbox, status));
  how = verdict_describe (&died);
  if (r->phase == PHASE_DONE)
    return;
  note_verbose (r, "the app %s", how);
  /* An app dies with its X server: then it is the server that failed. */
  if (!xconn_sync (r->conn))
    {
      replay_fail_x (r);
      return;
    }
  r->result->verdict.signal = died.signal;
  r->result->verdict.exit_status = died.exit_status;
  if (r->phase == PHASE_STARTING)
    {
      r->result->verdict.detail = g_strdup_printf ("the app %s before it mapped a window", how);
      replay_finish (r, VERDICT_COULD_NOT_START);
    }
  else
    replay_finish (r, died.kind);
}

static gboolean
on_start_timeout (gpointer user_data)
{
  Replay *r = user_data;

  r->timer = 0;
  r->result->verdict.detail = g_strdup_printf ("the app mapped no window within %u ms",
                                       r->opts->settings.start_timeout_ms);
  replay_finish (r, VERDICT_COULD_NOT_START);
  return G_SOURCE_REMOVE;
}

/* ---- the actions ---- */

static gboolean
on_action_timer (gpointer user_data)
{
  Replay *r = user_data;

  r->timer = 0;
  r->waiting = r->wait_over = FALSE;
  replay_step (r);
  return G_SOURCE_REMOVE;
}

/* Carries out what pacing or settling decided (replay-private.h). */
static void
replay_act (Replay *r, Act act)
{
  switch (act.kind)
    {
    case ACT_INJECT:
      r->timer = g_timeout_add (act.ms, on_action_timer, r);
      break;
    case ACT_FINISH:
      replay_finish (r, act.verdict);
      break;
    case ACT_FAIL_X:
      replay_fail_x (r);
      break;
    case ACT_STEP:
      replay_step (r);
      break;
    case ACT_NEXT:
      replay_schedule_next (r);
      break;
    case ACT_WAIT:
    default:
      break;
    }
}

static void
replay_schedule_next (Replay *r)
{
  const SessionEvent *prev = NULL, *next, *after = NULL;

  if (r->next >= r->actions->len)
    {
      replay_act (r, settle_start (r));
      return;
    }
  next = session_get_event (r->session, g_array_index (r->actions, guint, r->next));
  if (r->next > 0)
    prev = session_get_event (r->session, g_array_index (r->actions, guint, r->next - 1));
  if (r->next + 1 < r->actions->len)
    after = session_get_event (r->session, g_array_index (r->actions, guint, r->next + 1));
  replay_act (r, pace_next (r, prev, next, after));
}

static gboolean
on_paste_timer (gpointer user_data)
{
  Replay *r = user_data;

  r->paste_timer = 0;
  replay_step (r);
  return G_SOURCE_REMOVE;
}

/* The recording's next action came once the app had asked for what it
 * pasted (outside.h): the replay's waits for it too, at most
 * REPLAY_PASTE_WAIT_MS (a candidate may lack what made it paste). TRUE
 * while it waits. */
static gboolean
replay_wait_paste (Replay *r, guint number)
{
  if (r->paste_timer != 0)
    return TRUE;
  if (r->paste_given_up == number + 1 || !outside_paste_pending (r->outside, number))
    {
      r->paste_since = 0;
      return FALSE;
    }
  if (r->paste_since == 0)
    r->paste_since = note_now_ms ();
  if (note_now_ms () - r->paste_since >= REPLAY_PASTE_WAIT_MS)
    {
      note_verbose (r, "action %u: the app did not ask for all of the paste before it within "
                    "%d ms", number + 1, REPLAY_PASTE_WAIT_MS);
      r->paste_given_up = number + 1;
      r->paste_since = 0;
      return FALSE;
    }
  r->paste_timer = g_timeout_add (10, on_paste_timer, r);
  return TRUE;
}

/* Injects action r->next, or waits for its window. */
static void
replay_step (Replay *r)
{
  guint number = r->next;
  const SessionEvent *ev = session_get_event (r->session, g_array_index (r->actions, guint, number));
  WindowsMatch match = { 0 };
  gboolean matched = FALSE;
  gint64 sent_ms;

  if (r->phase != PHASE_ACTING || replay_wait_paste (r, number))
    return;
  if (!replay_aim (r, number, ev, &match, &matched))
    return;
  /* A double click as recorded: its events at once, spaced by the X
   * server, whenever this process gets a core (send.c). */
  if (pace_click_run (r, ev, &r->run) > 1)
    {
      replay_send_run (r, matched ? &match : NULL);
      return;
    }
  note_step (r, number, ev, matched ? &match : NULL);
  /* The other apps' selections, before the gesture that pastes. */
  outside_before_action (r->outside, number);
  sent_ms = note_now_ms ();
  replay_send (r, number, ev, matched ? &match : NULL);
  replay_remember_pos (r, ev);
  if (!xconn_sync (r->conn))
    {
      replay_fail_x (r);
      return;
    }
  pace_injected (r, ev, sent_ms);
  r->next++;
  r->result->n_replayed = r->next;
  r->t_last_action = note_now_ms ();
  r->last_time_ms = ev->time_ms;
  /* Done by the server, or held by another client's grab (held.c). */
  replay_act (r, held_check (r, ev, matched ? &match : NULL));
}

/* ---- X events ---- */

static void
on_windows_changed (Replay *r, XEvent *ev)
{
  if (!windows_handle_event (r->windows, ev))
    return;
  if (windows_get_n_ever_mapped (r->windows) > r->n_ever_mapped)
    {
      r->n_ever_mapped = windows_get_n_ever_mapped (r->windows);
      if (r->phase == PHASE_ACTING || r->phase == PHASE_SETTLING)
        replay_note_latency (r);
    }
  if (r->phase == PHASE_STARTING && windows_get_n_ever_mapped (r->windows) > 0)
    {
      Window first = windows_get_main (r->windows);
      g_autofree char *what = windows_describe (r->windows, first);

      r->t_first_window = note_now_ms ();
      r->result->first_window_ms = r->t_first_window - r->t_spawn;
      note_verbose (r, "first window %s after %" G_GINT64_FORMAT " ms", what,
                    r->result->first_window_ms);
      if (r->timer != 0)
        g_source_remove (r->timer);
      r->timer = 0;
      r->phase = PHASE_ACTING;
      /* Without a window manager, the replay is one (replay_arrange). */
      r->is_wm = !windows_wm_running (r->windows);
      if (!r->is_wm)
        note_verbose (r, "a window manager runs: the windows are left to it");
      pace_start (r);
      replay_schedule_next (r);
    }
  else if (r->phase == PHASE_ACTING && r->waiting && !r->wait_over)
    replay_step (r);
}

static void
on_client_message (Replay *r, XEvent *ev)
{
  if (r->phase == PHASE_PINGING && ev->xclient.message_type == r->wm_protocols
      && ev->xclient.format == 32 && (Atom) ev->xclient.data.l[0] == r->net_wm_ping
      && ev->xclient.data.l[1] == r->ping_stamp)
    {
      note_verbose (r, "the app answered the ping");
      replay_act (r, settle_answered (r));
    }
  else if (r->phase == PHASE_ACTING && r->pace_waiting
           && ev->xclient.message_type == r->wm_protocols && ev->xclient.format == 32
           && (Atom) ev->xclient.data.l[0] == r->net_wm_ping
           && ev->xclient.data.l[1] == r->pace_stamp)
    replay_act (r, pace_answered (r));
}

static void
on_mapping (Replay *r, XEvent *ev)
{
  injector_refresh (r->injector, ev);
}

/* dwm's handler table: one function per event type, NULL to ignore. */
static void (*const handlers[LASTEvent]) (Replay *r, XEvent *ev) = {
  [MapNotify] = on_windows_changed,
  [UnmapNotify] = on_windows_changed,
  [DestroyNotify] = on_windows_changed,
  [ReparentNotify] = on_windows_changed,
  [ConfigureNotify] = on_windows_changed,
  [PropertyNotify] = on_windows_changed,
  [ClientMessage] = on_client_message,
  [MappingNotify] = on_mapping,
};

static void
on_x_event (XEvent *ev, gpointer user_data)
{
  Replay *r = user_data;

  if (r->phase != PHASE_DONE && ev->type >= 0 && ev->type < LASTEvent
      && handlers[ev->type] != NULL)
    handlers[ev->type] (r, ev);
}

static void
on_x_dead (gpointer user_data)
{
  replay_fail_x (user_data);
}

static gboolean
on_cancelled (GCancellable *cancellable, gpointer user_data)
{
  Replay *r = user_data;

  note_verbose (r, "interrupted");
  replay_fail (r, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED, "interrupted"));
  return G_SOURCE_REMOVE;
}

/* ---- setting up and tearing down ---- */

/* The recorded time the first action's gap counts from: the first
 * MapNotify of the recording (the app's first window), if any. */
static guint64
first_window_time (const Session *session, guint64 first_action)
{
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      if (ev->kind == SESSION_EVENT_SERVER && g_strcmp0 (ev->name, "MapNotify") == 0)
        return MIN (ev->time_ms, first_action);
      if (session_event_is_action (ev))
        break;
    }
  return first_action;
}

static void
replay_cleanup (Replay *r)
{
  ReplayResult *result = r->result;
  gsize len = 0;
  const char *text;

  replay_clear_timers (r);
  if (r->conn != NULL && !xconn_is_dead (r->conn) && r->injector != NULL)
    {
      /* Before the kill: a key left down would stay down on a server
       * the reducer reuses. */
      injector_release_all (r->injector);
      injector_restore_keymap (r->injector);
      xconn_sync (r->conn);
    }
  if (r->child != NULL)
    {
      proc_child_kill (r->child, REPLAY_KILL_GRACE_MS);
      proc_child_drain (r->child);
      text = proc_child_get_stderr (r->child, &len);
      len = MIN (len, REPLAY_STDERR_KEEP);
      result->stderr_text = g_malloc (len + 1);
      if (len > 0)
        memcpy (result->stderr_text, text, len);
      result->stderr_text[len] = '\0';
      result->stderr_len = len;
    }
  g_clear_pointer (&r->child, proc_child_free);
  if (r->wm != NULL)
    proc_child_kill (r->wm, REPLAY_KILL_GRACE_MS);
  g_clear_pointer (&r->wm, proc_child_free);
  /* The app is gone: all it asked the server is recorded. */
  if (r->extwatch != NULL)
    {
      extwatch_finish (r->extwatch);
      result->glx_asked = extwatch_glx_asked (r->extwatch);
      if (result->glx_asked)
        note_verbose (r, "a client asked the X server for GLX (or listed its extensions)");
    }
  g_clear_pointer (&r->extwatch, extwatch_free);
  g_clear_pointer (&r->injector, injector_free);
  g_clear_pointer (&r->windows, windows_free);
  g_clear_pointer (&r->outside, outside_free);
  g_clear_pointer (&r->conn, xconn_free);
}

/* The app, in its own process group, with DISPLAY and the sandbox's
 * HOME and bus; its stderr captured (and echoed when verbose). */
static ProcChild *
replay_spawn_app (Replay *r, const char *const *argv, GError **error)
{
  g_auto (GStrv) envp = replay_app_environ (r);
  g_auto (GStrv) command = NULL;
  ProcSpawnOptions spawn;

  /* In the sandbox: bwrap's command line. */
  if (r->sandbox != NULL)
    {
      g_autofree char *notes = NULL;

      command = sandbox_command (r->sandbox, argv, DisplayString (r->dpy), error);
      if (command == NULL)
        return NULL;
      argv = (const char *const *) command;
      if ((notes = sandbox_take_notes (r->sandbox)) != NULL)
        {
          g_autofree char *shown = quote_terminal (notes);

          g_printerr ("xreplay: warning: %s\n", shown);
        }
    }
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.envp = (const char *const *) envp;
  spawn.out = r->opts->verbose ? PROC_OUTPUT_TO_STDERR : PROC_OUTPUT_NULL;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.echo_stderr = r->opts->verbose;
  spawn.stderr_keep = REPLAY_STDERR_KEEP;
  spawn.on_exit = on_child_exit;
  spawn.user_data = r;
  return proc_spawn (&spawn, error);
}

/* Everything between the connection and the verdict; FALSE with
 * r->error set on an infrastructure error. */
static gboolean
replay_drive (Replay *r, const char *display, const char *const *argv)
{
  g_autoptr (GError) local = NULL;
  GSource *cancel_source = NULL;
  guint n_bound;

  r->conn = xconn_open (display, &local);
  /* ... and the other apps' (outside.h), with the same cookie. */
  if (r->conn != NULL)
    r->outside = outside_new (display, r->session, &local);
  /* ... and the watch on the clients to come (the app's). */
  if (r->conn != NULL && local == NULL)
    {
      g_autoptr (GError) unwatched = NULL;

      r->extwatch = extwatch_new (display, &unwatched);
      if (r->extwatch == NULL)
        {
          /* Not known: it may ask. */
          r->result->glx_asked = TRUE;
          note_verbose (r, "not watching for GLX: %s", unwatched->message);
        }
    }
  /* Our own Xvfb's cookie (replay_prepare) was for these connections only. */
  XSetAuthorization (NULL, 0, NULL, 0);
  if (r->conn == NULL || local != NULL)
    {
      r->result->verdict.detail = g_strdup (local->message);
      r->error = g_steal_pointer (&local);
      return FALSE;
    }
  r->dpy = xconn_get_display (r->conn);
  /* A display of xreduce's workers, or the user's: its server's pid, if
   * local, for pacing by quiet (pace.c). */
  if (r->server_pid == 0 && (r->server_pid = xconn_server_pid (r->conn)) > 0)
    note_verbose (r, "the X server of %s is pid %d", display, (int) r->server_pid);
  r->wm_protocols = XInternAtom (r->dpy, "WM_PROTOCOLS", False);
  r->net_wm_ping = XInternAtom (r->dpy, "_NET_WM_PING", False);
  r->windows = windows_new (r->dpy, r->opts->display == NULL && r->opts->settings.wm_argv == NULL);
  /* Xvfb has it; a display of the user's may not. */
  if (r->opts->display != NULL && !windows_server_tells_pids (r->windows))
    g_printerr ("xreplay: warning: %s has no X-Resource extension (1.2): the app's windows "
                "are known by their _NET_WM_PID, or by being new\n", DisplayString (r->dpy));
  if (r->opts->settings.wm_argv != NULL && !replay_start_wm (r, &local))
    {
      r->result->verdict.detail = g_strdup (local->message);
      r->error = g_steal_pointer (&local);
      return FALSE;
    }
  r->injector = injector_new (r->dpy, r->opts->verbose ? injector_note : NULL, r);
  injector_reset_input (r->injector);
  windows_reset_focus (r->windows);
  n_bound = injector_bind_keysyms (r->injector, r->session);
  if (n_bound > 0)
    note_verbose (r, "bound %u keysyms to spare keycodes", n_bound);
  if (!xconn_sync (r->conn))
    {
      replay_fail_x (r);
      return FALSE;
    }

  /* What the app pasted before any action: owned before it starts. */
  outside_start (r->outside);
  r->t_spawn = note_now_ms ();
  r->child = replay_spawn_app (r, argv, &local);
  if (r->child == NULL)
    {
      if (!g_error_matches (local, PROC_ERROR, PROC_ERROR_NOT_FOUND)
          && !g_error_matches (local, PROC_ERROR, PROC_ERROR_EXEC))
        {
          r->result->verdict.detail = g_strdup (local->message);
          r->error = g_steal_pointer (&local);
          return FALSE;
        }
      r->result->verdict.kind = VERDICT_COULD_NOT_START;
      r->result->verdict.detail = g_strdup (local->message);
      r->phase = PHASE_DONE;
      return TRUE;
    }
  note_verbose (r, "app pid %d: %s", (int) proc_child_get_pid (r->child), argv[0]);
  windows_set_app (r->windows, proc_child_get_pid (r->child));
  xconn_watch (r->conn, on_x_event, on_x_dead, r);
  r->usage_timer = g_timeout_add (REPLAY_USAGE_SAMPLE_MS, settle_on_usage_sample, r);

  r->phase = PHASE_STARTING;
  r->timer = g_timeout_add (r->opts->settings.start_timeout_ms, on_start_timeout, r);
  if (r->opts->cancellable != NULL)
    {
      cancel_source = g_cancellable_source_new (r->opts->cancellable);
      g_source_set_callback (cancel_source, G_SOURCE_FUNC (on_cancelled), r, NULL);
      g_source_attach (cancel_source, NULL);
    }
  g_main_loop_run (r->loop);
  if (cancel_source != NULL)
    {
      g_source_destroy (cancel_source);
      g_source_unref (cancel_source);
    }
  return r->error == NULL;
}

static void
replay_init (Replay *r, const Session *session, const ReplayOptions *opts,
             ReplayResult *result)
{
  memset (result, 0, sizeof *result);
  verdict_init (&result->verdict, VERDICT_INFRA_ERROR);
  result->window_latency_ms = -1;
  result->app_cpu_ms = result->app_peak_rss_kb = -1;
  result->n_actions = session_get_n_actions (session);
  r->session = session;
  r->opts = opts;
  r->result = result;
  r->loop = g_main_loop_new (NULL, FALSE);
  r->act = replay_act;
  r->phase = PHASE_STARTING;
  r->actions = session_get_actions (session);
  r->last_pos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->given_up = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->skipped = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->arranged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->held = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  result->pace = opts->settings.pace;
  if (r->actions->len > 0)
    {
      const SessionEvent *first = session_get_event (session, g_array_index (r->actions, guint, 0));
      r->last_time_ms = first_window_time (session, first->time_ms);
    }
}

static void
replay_clear (Replay *r)
{
  /* Last: the app and everything it started are gone by now. */
  g_clear_pointer (&r->sandbox, sandbox_free);
  g_clear_pointer (&r->xauth_dir, proc_tempdir_free);
  g_free ((char *) r->here.home);
  g_free ((char *) r->here.cwd);
  g_free ((char *) r->here.host);
  g_free ((char *) r->here.date);
  g_array_unref (r->actions);
  g_clear_pointer (&r->windows_open, g_array_unref);
  g_clear_pointer (&r->flight_clients, g_array_unref);
  g_hash_table_unref (r->last_pos);
  g_hash_table_unref (r->given_up);
  g_hash_table_unref (r->seen);
  g_hash_table_unref (r->skipped);
  g_hash_table_unref (r->arranged);
  g_hash_table_unref (r->held);
  g_main_loop_unref (r->loop);
  g_clear_error (&r->error);
}

/* One replay; @glx_allowed_out: its own Xvfb may start without GLX
 * (*@no_glx says whether it did). */
static gboolean
replay_run_once (const Session *session, const char *const *argv, const ReplayOptions *opts,
                 gboolean glx_allowed_out, gboolean *no_glx, ReplayResult *result,
                 GError **error)
{
  Replay replay = { .glx_allowed_out = glx_allowed_out }, *r = &replay;
  g_autoptr (XServer) server = NULL;
  g_autoptr (GPtrArray) wrapped = NULL;
  g_autofree char *frames_path = NULL;
  gint64 t_start = note_now_ms ();
  const char *display = NULL;
  gboolean ok;

  g_return_val_if_fail (opts->settings.speed > 0, FALSE);
  replay_init (r, session, opts, result);
  if (argv == NULL || argv[0] == NULL)
    argv = session_get_command (session);
  if (argv == NULL || argv[0] == NULL)
    {
      result->verdict.kind = VERDICT_COULD_NOT_START;
      result->verdict.detail = g_strdup ("no command to run (none given, none recorded)");
      ok = TRUE;
      goto out;
    }
  if (g_cancellable_set_error_if_cancelled (opts->cancellable, &r->error)
      || !replay_prepare (r, &server, &display, &r->error)
      || (opts->crashtrace != NULL
          && !replay_wrap_crashtrace (r, &argv, &wrapped, &frames_path, &r->error))
      /* A signal taken while the server and the sandbox started: the
       * app is not started only to be stopped. */
      || !proc_check_interrupt (&r->error))
    {
      if (!g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        result->verdict.detail = g_strdup (r->error->message);
      ok = FALSE;
      goto out;
    }

  ok = replay_drive (r, display, argv);
  if (r->windows != NULL)
    result->app_classes = windows_get_classes (r->windows);
  if (opts->on_end != NULL && r->conn != NULL && !xconn_is_dead (r->conn))
    opts->on_end (r->dpy, result, opts->hook_data);
  if (r->t_first_window != 0)
    {
      gint64 end = r->t_end_actions != 0 ? r->t_end_actions : note_now_ms ();
      result->replay_ms = end - r->t_first_window;
      if (r->t_end_actions != 0)
        result->settle_ms = note_now_ms () - r->t_end_actions;
    }
  replay_cleanup (r);
  if (ok)
    result->stderr_matched = replay_result_stderr_matches (result, opts->stderr_match);
  g_clear_pointer (&server, xserver_free);
  if (frames_path != NULL)
    replay_take_frames (result, frames_path);

out:
  if (!ok)
    {
      result->verdict.kind = VERDICT_INFRA_ERROR;
      g_propagate_error (error, g_steal_pointer (&r->error));
    }
  g_clear_pointer (&server, xserver_free);
  g_clear_pointer (&r->frames_dir, proc_tempdir_free);
  *no_glx = r->no_glx;
  replay_clear (r);
  result->total_ms = note_now_ms () - t_start;
  return ok;
}

gboolean
replay_run (const Session *session, const char *const *argv, const ReplayOptions *opts,
            ReplayResult *result, GError **error)
{
  gboolean no_glx = FALSE;
  gboolean ok = replay_run_once (session, argv, opts, TRUE, &no_glx, result, error);

  if (!ok || !replay_again_with_glx (opts, result, no_glx))
    return ok;
  replay_result_clear (result);
  return replay_run_once (session, argv, opts, FALSE, &no_glx, result, error);
}
