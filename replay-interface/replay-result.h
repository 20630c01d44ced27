/* replay-result.h — what one replay found, typed: ReplayResult, what
 * xreplay fills, prints as JSON (`xreplay --json`) and xreduce reads back
 * (replay_result_from_json): its members are written and read here, once.
 * X-free.
 */
#pragma once

#include <glib.h>

#include "replay-args.h"
#include "crash.h"
#include "verdict.h"

G_BEGIN_DECLS

/* Bytes of the app's stderr kept in ReplayResult. */
#define REPLAY_STDERR_KEEP (64 * 1024)

typedef struct
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
  CrashInfo crash;           /* CRASHED, with opts->crashtrace: which process died, how
                              * the signal came (a fault, or sent by whom) and its top
                              * frames (crash.frames, or why none: crash.no_frames);
                              * crash.signal 0: not known */
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
  char **app_classes;        /* owned, or NULL: the WM_CLASS classes of the app's windows
                              * (each once, in the order they appeared) */
  gboolean never_connected;  /* COULD_NOT_START: the app sat idle without connecting to
                              * the X server (REPLAY_START_IDLE_MS): not slow, not X11 */
  gboolean glx_asked;        /* a client (the app) asked the X server for GLX, or listed
                              * its extensions; also TRUE when that could not be watched
                              * (no RECORD): the app may act on GLX being there or not */
} ReplayResult;

void replay_result_clear (ReplayResult *result);
/* Does the app's stderr (result->stderr_text) match @regex (NULL: no)?
 * A regex compiled G_REGEX_RAW reads the bytes, any other the text made
 * valid UTF-8. */
gboolean replay_result_stderr_matches (const ReplayResult *result, GRegex *regex);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReplayResult, replay_result_clear)

/* One JSON object (no newline), written with json-glib: the verdict's
 * members (verdict.h), then stderr_matched, actions, actions_replayed,
 * server_start_ms, time_to_first_window_ms, replay_ms, settle_ms,
 * total_ms, window_latency_ms (or null), app_cpu_ms, app_peak_rss_kb,
 * pace ("app" or "recorded"), pace_detail, app_wait_ms, app_wait_max_ms, app_waits,
 * missing_window (null, or for an unresolved replay {"action", "window",
 * "class", "title", "waited_ms"}: the action whose window never came),
 * never_connected, glx_asked, app_classes (the WM_CLASS classes of the app's windows),
 * stderr_tail (the last 2 KiB), backtrace (an array of function names, or
 * null), backtrace_at (where each one is: "file.c:88", a library or "";
 * or null), crash (crash.h's members, or null). */
char *replay_result_to_json (const ReplayResult *result);

/* Reads what replay_result_to_json() wrote back into @result (zeroed
 * first; to be cleared with replay_result_clear): stderr_text is then the
 * tail the JSON holds; a number that is missing or null is -1. FALSE
 * (json-glib's error, or G_IO_ERROR_INVALID_DATA) for anything that is
 * not such an object, or whose outcome is missing or unknown. */
gboolean replay_result_from_json (const char *text, ReplayResult *result, GError **error);

G_END_DECLS
