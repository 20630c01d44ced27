/* replay.h — replaying a session against an app: the reducer's test.
 *
 * replay_run() starts the app on a display (a private Xvfb unless one is
 * given), waits for its first window, injects the session's user actions
 * with XTest at the recorded pace (divided by the speed, gaps capped),
 * re-anchored to the app's windows, and reports what became of the app:
 * crashed (killed by a signal), exited, hung, passed, could not start.
 * Whatever happens, nothing it started outlives it: held keys and buttons
 * are released, the keymap restored, the app's process group killed and
 * reaped, the private Xvfb stopped.
 *
 * Hang detection uses _NET_WM_PING: after the last action (and the settle
 * time) the app's main window is pinged, and no answer within timeout_ms
 * is a hang. An app that does not list _NET_WM_PING in WM_PROTOCOLS cannot
 * be found hung this way: it passes if it is still alive.
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>
#include <gio/gio.h>
#include "sandbox.h"
#include "session.h"
#include "verdict.h"

G_BEGIN_DECLS

typedef struct ReplayResult ReplayResult;

typedef enum
{
  REPLAY_PACE_APP,           /* after each action, wait until the app has taken it */
  REPLAY_PACE_RECORDED,      /* the recorded gaps (divided by speed, capped) */
} ReplayPace;

/* An action about to be injected, for the report's pictures. */
typedef struct
{
  guint number;              /* the action, 0-based */
  const SessionEvent *ev;
  int x, y;                  /* the root position it aims at, -1,-1 for a key */
  XRectangle target;         /* the window it aims at, in root coordinates (width 0: none) */
  const XRectangle *windows; /* the app's mapped top-level windows, root coordinates */
  guint n_windows;
} ReplayStep;

#define REPLAY_ERROR (replay_error_quark ())
GQuark replay_error_quark (void);

typedef enum
{
  REPLAY_ERROR_WM,           /* --wm's window manager did not start */
} ReplayError;

typedef struct
{
  const char *display;       /* NULL: a private Xvfb sized like the session's screen */
  ReplayPace pace;           /* REPLAY_PACE_APP (pace.c) */
  double speed;              /* > 0; recorded gaps are divided by it (1.0) */
  guint max_gap_ms;          /* gaps are capped at this (1000) */
  guint min_gap_ms;          /* and at least this (5) */
  guint settle_ms;           /* after the last action, for a late crash (500); more,
                              * up to timeout_ms, while the app's processes are busy */
  guint timeout_ms;          /* for the app to answer a ping (5000) */
  guint start_timeout_ms;    /* for the app's first window (10000) */
  guint window_wait_ms;      /* for an action's window to appear (2000) */
  GRegex *stderr_match;      /* or NULL; not owned */
  gboolean verbose;          /* notes on stderr; the app's output passed through */
  gboolean share_home;       /* run the app with our HOME and session bus, no sandbox */
  const char *home_seed;     /* or NULL: the sandbox's HOME starts as a copy of this */
  const char *const *wm_argv; /* or NULL: a window manager to run on the private
                              * Xvfb before the app (else the replay is one) */
  SandboxIsolate isolate;    /* bubblewrap around the app (sandbox.h): auto, require, off */
  gboolean share_net;        /* isolated, with the network */
  const char *const *keep_env; /* or NULL: our variables the app gets beyond the allowlist */
  const char *const *set_env;  /* or NULL: NAME=VALUE the app gets */
  GCancellable *cancellable; /* or NULL; cancelling aborts the replay (and cleans up) */
  const char *crashtrace;    /* or NULL: path of xreduce-crashtrace, to run the app
                              * under gdb and fill ReplayResult.backtrace */
  /* Hooks for pictures (or NULL): on_action before each action is injected
   * (see ReplayStep); on_end once the verdict is known, while the display
   * is still up (the app may be gone). */
  void (*on_action) (Display *dpy, const ReplayStep *step, gpointer data);
  void (*on_end) (Display *dpy, const ReplayResult *result, gpointer data);
  gpointer hook_data;
} ReplayOptions;

void replay_options_init (ReplayOptions *opts);


/* Bytes of the app's stderr kept in ReplayResult. */
#define REPLAY_STDERR_KEEP (64 * 1024)

struct ReplayResult
{
  Verdict verdict;           /* what became of the app */
  gboolean stderr_matched;   /* opts->stderr_match matched the captured stderr */
  guint n_actions;           /* user actions in the session */
  guint n_replayed;          /* actions injected (or skipped) before the end */
  gint64 server_ms;          /* starting the private Xvfb (0 with a display) */
  gint64 first_window_ms;    /* from starting the app to its first window mapped */
  gint64 replay_ms;          /* from the first window to the last action (or the end) */
  gint64 settle_ms;          /* after the last action: settle time and ping */
  gint64 total_ms;           /* everything, cleanup included */
  gint64 app_cpu_ms;         /* CPU time the app's process tree used (sampled), or -1 */
  gint64 app_peak_rss_kb;    /* the most resident memory it held at a sample, or -1 */
  gint64 window_latency_ms;  /* the longest time from an action to a window of
                              * the app appearing (mapped, or matching an
                              * action waiting for it), or -1 if none did */
  char *stderr_text;         /* owned: the app's last REPLAY_STDERR_KEEP bytes of stderr */
  gsize stderr_len;
  char **backtrace;          /* owned, or NULL: the crash's top frames (opts->crashtrace),
                              * function names */
  char **backtrace_at;       /* owned, or NULL: where each of them is, "file.c:88", the
                              * library ("libc.so.6") or "" (as many as backtrace) */
  ReplayPace pace;           /* the pace used */
  char *pace_detail;         /* owned, or NULL: why not the pace asked for */
  gint64 app_wait_ms;        /* app pace: time spent waiting for the app, in all */
  gint64 app_wait_max_ms;    /* ... and the longest wait after one action */
  guint app_waits;           /* app pace: actions after which the replay waited for the
                              * app (a ping); motion that led to more motion in the same
                              * window did not */
  /* UNRESOLVED: the action (from 1; 0: none) whose window never came, the
   * window it aims at (index, class, title as recorded; owned strings, or
   * NULL) and how long it was waited for. The replay stopped there: an
   * action is never replayed on another window than its own. */
  guint missing_action;
  int missing_window;
  char *missing_class;
  char *missing_title;
  guint missing_wait_ms;
  gboolean never_connected;  /* COULD_NOT_START: the app sat idle without connecting to
                              * the X server (REPLAY_START_IDLE_MS): not slow, not X11 */
};

void replay_result_clear (ReplayResult *result);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReplayResult, replay_result_clear)

/* Replays @session's user actions against @argv (NULL: the recorded
 * command). Fills @result (to be cleared with replay_result_clear) in
 * every case. FALSE only for infrastructure errors (@result->verdict.kind is
 * then VERDICT_INFRA_ERROR) and when @opts->cancellable was cancelled
 * (G_IO_ERROR_CANCELLED); an app that cannot start is a result. */
gboolean replay_run (const Session *session, const char *const *argv,
                     const ReplayOptions *opts, ReplayResult *result, GError **error);

/* One JSON object (no newline), written with json-glib: the verdict's
 * members (verdict.h), then stderr_matched, actions, actions_replayed,
 * server_start_ms, time_to_first_window_ms, replay_ms, settle_ms,
 * total_ms, window_latency_ms (or null), app_cpu_ms, app_peak_rss_kb,
 * pace ("app" or "recorded"), pace_detail, app_wait_ms, app_wait_max_ms, app_waits,
 * missing_window (null, or for an unresolved replay {"action", "window",
 * "class", "title", "waited_ms"}: the action whose window never came),
 * never_connected,
 * stderr_tail (the last 2 KiB), backtrace (an array of function names, or
 * null), backtrace_at (where each one is: "file.c:88", a library or "";
 * or null). */
char *replay_result_to_json (const ReplayResult *result);

G_END_DECLS
