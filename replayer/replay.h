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
#include "replay-args.h"
#include "replay-result.h"
#include "sandbox.h"
#include "session.h"
#include "verdict.h"

G_BEGIN_DECLS

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
  ReplaySettings settings;   /* the timing, the limits, the sandbox, --wm: what the
                              * command line says (replay-args.h, its defaults) */
  GRegex *stderr_match;      /* or NULL; not owned */
  gboolean verbose;          /* notes on stderr; the app's output passed through */
  GCancellable *cancellable; /* or NULL; cancelling aborts the replay (and cleans up) */
  const char *crashtrace;    /* or NULL: path of xreduce-crashtrace, to trace the app's
                              * processes and fill ReplayResult.crash */
  /* Hooks for pictures (or NULL): on_action before each action is injected
   * (see ReplayStep); on_end once the verdict is known, while the display
   * is still up (the app may be gone). */
  void (*on_action) (Display *dpy, const ReplayStep *step, gpointer data);
  void (*on_end) (Display *dpy, const ReplayResult *result, gpointer data);
  /* Or NULL: TRUE if the replay must wait for the app to take the actions
   * before action @number (0-based) before it injects it, even within a
   * typed run (a picture of the text typed is taken then). */
  gboolean (*wait_before) (guint number, gpointer data);
  gpointer hook_data;
} ReplayOptions;

void replay_options_init (ReplayOptions *opts);


/* Replays @session's user actions against @argv (NULL: the recorded
 * command). Fills @result (to be cleared with replay_result_clear) in
 * every case. FALSE only for infrastructure errors (@result->verdict.kind is
 * then VERDICT_INFRA_ERROR) and when @opts->cancellable was cancelled
 * (G_IO_ERROR_CANCELLED); an app that cannot start is a result. */
gboolean replay_run (const Session *session, const char *const *argv,
                     const ReplayOptions *opts, ReplayResult *result, GError **error);


G_END_DECLS
