/* wm.c — --wm: a window manager on the replay's X server, started before
 * the app and waited for until it manages the display (replay_start_wm()),
 * so that the app starts managed (and composited) as on the desktop it
 * was recorded on.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"
#include "quote.h"

#include <X11/Xlib.h>

/* How often a window manager that did not answer is asked again whether
 * its event loop runs (replay_wm_ready); how long one that lists the
 * question gets to answer it; how often its processes are sampled, and
 * how many idle samples in a row tell one that never answers that it has
 * started (one that does not list it), and that a started one has settled. */
#define REPLAY_WM_ASK_MS 100

#define REPLAY_WM_ANSWER_MS 1000

#define REPLAY_WM_SAMPLE_MS 50

#define REPLAY_WM_QUIET_SAMPLES 10

#define REPLAY_WM_SETTLED_SAMPLES 4

static void
on_wm_exit (ProcChild *child, int status, gpointer user_data)
{
  Replay *r = user_data;

  if (r->phase != PHASE_DONE && r->phase != PHASE_STARTING)
    note_verbose (r, "the window manager exited");
}

static gboolean
on_wm_poll (gpointer user_data)
{
  return G_SOURCE_CONTINUE;   /* only wakes the loop up */
}

/* Starting --wm's window manager: what has been seen of it. */
typedef struct
{
  Window asked;              /* the window asked about, or None */
  gint64 first_asked, asked_at;
  gboolean answered;
  guint quiet;               /* samples in a row with its processes idle */
  gint64 sampled_at;
  gint64 starved;            /* ms it and the X server waited for a core, since its start */
  guint64 run_delay;         /* ... their run delay at the last sample */
} WmStart;

/* Is the window manager ready: its event loop running, its start over,
 * and a compositor it starts running? An EWMH window manager answers
 * _NET_REQUEST_FRAME_EXTENTS from its loop by setting _NET_FRAME_EXTENTS
 * on the window asked about (a window of ours, never mapped): the answer
 * says it takes events now. (A request that came before its loop ran may
 * be lost as a MapRequest is: asked again every REPLAY_WM_ASK_MS.) One
 * that lists the request and never answers it (fluxbox) is taken at its
 * word after REPLAY_WM_ANSWER_MS once its processes idle; one that does
 * not list it (twm; xfwm4 until its settings are read) once its processes
 * have idled for REPLAY_WM_QUIET_SAMPLES samples in a row. Either way a
 * compositor must then run (_NET_WM_CM_S0 owned: xfwm4 --compositor=on,
 * metacity), or its processes idle a while, by when one it starts would:
 * the app starts composited, as on the desktop it was recorded on. Its
 * time counts as the app's does (settle.c): what it and the X server
 * waited for a core is not time it had. */
static gboolean
replay_wm_ready (Replay *r, WmStart *start)
{
  Display *dpy = r->dpy;
  Atom extents = XInternAtom (dpy, "_NET_FRAME_EXTENTS", False);
  Atom request = XInternAtom (dpy, "_NET_REQUEST_FRAME_EXTENTS", False);
  Atom supported = XInternAtom (dpy, "_NET_SUPPORTED", False);
  gint64 now = note_now_ms ();
  gboolean loop_runs;
  XEvent ev;

  if (!windows_wm_running (r->windows))
    return FALSE;
  if (start->asked == None && windows_root_lists (r->windows, supported, request))
    {
      XSetWindowAttributes attrs = { .event_mask = PropertyChangeMask };

      start->asked = XCreateWindow (dpy, DefaultRootWindow (dpy), -10, -10, 1, 1, 0,
                                    CopyFromParent, InputOnly, CopyFromParent, CWEventMask,
                                    &attrs);
      start->first_asked = now;
    }
  if (start->asked != None && !start->answered)
    {
      while (XCheckTypedWindowEvent (dpy, start->asked, PropertyNotify, &ev))
        start->answered |= ev.xproperty.atom == extents;
      if (!start->answered && now - start->asked_at >= REPLAY_WM_ASK_MS)
        {
          XEvent msg = { 0 };

          start->asked_at = now;
          msg.xclient.type = ClientMessage;
          msg.xclient.window = start->asked;
          msg.xclient.message_type = request;
          msg.xclient.format = 32;
          XSendEvent (dpy, DefaultRootWindow (dpy), False,
                      SubstructureRedirectMask | SubstructureNotifyMask, &msg);
          XSync (dpy, False);
        }
    }
  if (now - start->sampled_at >= REPLAY_WM_SAMPLE_MS)
    {
      ProcTreeSample sample;

      guint64 delay = proctree_run_delay_ms (proc_child_get_pid (r->wm))
                      + (r->server_pid > 0 ? proctree_run_delay_ms (r->server_pid) : 0);

      /* On a loaded machine (several replays starting their window
       * manager and compositor at once) what they waited for a core is
       * not their start's time. */
      if (start->sampled_at != 0 && delay > start->run_delay)
        start->starved += MIN ((gint64) (delay - start->run_delay), now - start->sampled_at);
      start->run_delay = MAX (start->run_delay, delay);
      start->sampled_at = now;
      proctree_sample (proc_child_get_pid (r->wm), &sample);
      start->quiet = sample.n_active == 0 ? start->quiet + 1 : 0;
    }
  loop_runs = start->answered
              || (start->asked != None && now - start->first_asked >= REPLAY_WM_ANSWER_MS
                  && start->quiet >= 2)
              || (start->asked == None && start->quiet >= REPLAY_WM_QUIET_SAMPLES);
  /* Started: a compositor runs (it keeps a window manager busy, under
   * load, as it paints), or its processes have idled a while, by when a
   * compositor it starts would run. */
  return loop_runs
         && (start->quiet >= REPLAY_WM_SETTLED_SAMPLES
             || XGetSelectionOwner (dpy, XInternAtom (dpy, "_NET_WM_CM_S0", False)) != None);
}

/* --wm: runs the window manager on the replay's server, with the app's
 * environment (the sandbox's HOME: its configuration is its own), and
 * waits until it manages the display, or has exited, or start_timeout_ms
 * is over. It manages the display once it holds SubstructureRedirect on
 * the root (the root's all-event mask tells) and its event loop runs
 * (replay_wm_ready): openbox takes the redirect early in its start and
 * loses a MapRequest that comes before its loop runs; the app's window
 * then stays unmapped for good. */
gboolean
replay_start_wm (Replay *r, GError **error)
{
  /* (Not in bubblewrap: a program the user chose, not the stranger's.) */
  g_auto (GStrv) envp = replay_app_environ (r);
  gint64 started = note_now_ms ();
  g_autofree char *name = g_shell_quote (r->opts->settings.wm_argv[0]);
  ProcSpawnOptions spawn;
  guint poll_source;
  WmStart start = { None, 0, 0, FALSE, 0, 0, 0, 0 };
  Atom cm = XInternAtom (r->dpy, "_NET_WM_CM_S0", False);

  proc_spawn_options_init (&spawn);
  spawn.argv = r->opts->settings.wm_argv;
  spawn.envp = (const char *const *) envp;
  spawn.out = PROC_OUTPUT_NULL;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.echo_stderr = r->opts->verbose;
  spawn.on_exit = on_wm_exit;
  spawn.user_data = r;
  r->wm = proc_spawn (&spawn, error);
  if (r->wm == NULL)
    {
      g_prefix_error (error, "--wm: ");
      return FALSE;
    }
  /* The window manager's own windows are not the app's: on a server with
   * a window manager, the app's windows are known by whose client made
   * them (windows_new without private_server). */
  poll_source = g_timeout_add (20, on_wm_poll, NULL);
  while (!replay_wm_ready (r, &start))
    {
      if (proc_child_has_exited (r->wm))
        {
          g_autofree char *how = proc_describe_wait_status (proc_child_get_wait_status (r->wm));
          gsize len = 0;
          const char *said = proc_child_get_stderr (r->wm, &len);
          g_autofree char *valid = g_utf8_make_valid (said != NULL ? said : "",
                                                       (gssize) MIN (len, 400));
          g_autofree char *last = quote_terminal (g_strchomp (valid));

          g_source_remove (poll_source);
          g_set_error (error, REPLAY_ERROR, REPLAY_ERROR_WM,
                       "--wm: the window manager %s %s before it managed the display%s%s",
                       name, how, *last != '\0' ? "; it said: " : "", last);
          return FALSE;
        }
      if (g_cancellable_set_error_if_cancelled (r->opts->cancellable, error))
        {
          g_source_remove (poll_source);
          return FALSE;
        }
      /* --start-timeout of the window manager's own time (and ten times
       * that by the clock at most). */
      if (MAX (note_now_ms () - started - start.starved, (note_now_ms () - started) / 10)
          > (gint64) r->opts->settings.start_timeout_ms)
        {
          g_source_remove (poll_source);
          g_set_error (error, REPLAY_ERROR, REPLAY_ERROR_WM,
                       "--wm: the window manager %s did not manage the display within %u ms "
                       "(%s; %s)", name, r->opts->settings.start_timeout_ms,
                       !windows_wm_running (r->windows) ? "it never took the root's redirect"
                       : start.answered ? "it answered, but its processes never went idle"
                       : start.asked != None ? "it did not answer _NET_REQUEST_FRAME_EXTENTS"
                       : "it lists no _NET_REQUEST_FRAME_EXTENTS, and did not go idle",
                       XGetSelectionOwner (r->dpy, cm) != None ? "a compositor runs"
                                                               : "no compositor runs");
          return FALSE;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (poll_source);
  if (start.asked != None)
    XDestroyWindow (r->dpy, start.asked);
  note_verbose (r, "window manager %s manages the display%s%s", r->opts->settings.wm_argv[0],
                start.answered ? "" : " (it did not answer _NET_REQUEST_FRAME_EXTENTS)",
                XGetSelectionOwner (r->dpy, cm) != None ? "; a compositor runs" : "");
  return TRUE;
}
