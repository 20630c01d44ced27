/* pace-rules.h — the decisions of pacing that need no X server, from
 * narrow inputs: the recorded times, the replay's own clock, and what the
 * app counts as one gesture. pace.c asks them and acts; a unit test
 * (tests/unit/test-pace-rules.c) feeds them numbers.
 *
 * Gaps keep their meaning. At the app's pace a gap between two actions
 * shrinks to what the app needs, but never across a boundary that
 * changes what the app sees:
 *   - two presses of one button (or key) in a row, at nearly the same
 *     place: recorded farther apart than the double-click time, they stay
 *     farther apart than the app's (three slow clicks are no double
 *     click); recorded within it, they stay within it (a double click
 *     stays one, however slow the app is in between);
 *   - a key released before its auto-repeat delay, as recorded, is
 *     released before the replay's delay too.
 * Whether two presses were a double click is judged with the recording
 * desktop's figures (the session's `desktop` line, when xrecord could
 * read them), what the replay must keep with the app's on the replay's
 * display (replayer/apptiming.c).
 */
#pragma once

#include <glib.h>

#include "proctree.h"
#include "session.h"

G_BEGIN_DECLS

/* A press held this long keeps its recorded duration; keys typed less
 * than this apart are a typed run (pace_rules_typing_run). */
#define PACE_HOLD_MS 500

/* The distance of a toolkit that does not look at it (Xt): any. */
#define PACE_ANY_DISTANCE G_MAXUINT
/* ... and of one that does, or that is not known (GTK, Qt and Tk: 5). */
#define PACE_DEFAULT_DISTANCE 5
/* What the replay's bounds leave to the X server's own clock (its time
 * stamps and ours differ by the time it takes to handle a request). */
#define PACE_RULES_MARGIN_MS 25

/* What an app counts as one gesture. */
typedef struct
{
  guint double_click_ms;     /* presses of one button less than this apart are a double
                              * click (GTK and Qt: strictly less) */
  guint double_click_distance; /* ... when at most this many pixels apart each way, or
                              * PACE_ANY_DISTANCE */
  guint repeat_delay_ms;     /* a key held this long repeats */
} PaceTiming;

/* A press, as recorded and as replayed (the replay's clock, note_now_ms). */
typedef struct
{
  const SessionEvent *ev;    /* the press in the session (borrowed) */
  gint64 sent_ms;            /* just before it was injected; in a multi-click sent at once
                              * (PaceClickRun), when the server was to make it: it made it
                              * then or later */
  gint64 done_ms;            /* once the server had done it (after a round trip) */
} PacePress;

/* When the next action may be injected, on the replay's clock. */
typedef struct
{
  gint64 not_before_ms;      /* G_MININT64: any time */
  gint64 not_after_ms;       /* G_MAXINT64: any time */
  const char *why;           /* what bounds it, for the verbose log (static), or NULL */
} PaceWindow;

/* The window in which @next may be injected: @last is the press of the
 * same kind (a button press other than the wheel's, or a key press that is
 * no auto-repeat) that came before it in the replay, or NULL; @held the
 * press of @next's key or button if it is held (its release, or an
 * auto-repeat of it, which keeps its own rhythm), or NULL. @recorded: the recording desktop's
 * figures (what the gaps meant), @app: the replayed app's (what it will
 * see). The meaning is the recorded one at any --speed. */
void pace_rules_window (const PaceTiming *recorded, const PaceTiming *app,
                        const PacePress *last, const PacePress *held,
                        const SessionEvent *next, PaceWindow *window);

/* The most events of a multi-click sent at once: a quadruple click's
 * presses and the releases between them. */
#define PACE_CLICK_RUN_MAX 7

/* A multi-click sent at once, spaced by the X server (XTest's delay):
 * the replay's own scheduling (a core it waits for) cannot pull its
 * clicks apart. */
typedef struct
{
  guint n;                   /* events in the run; 1: the first goes alone */
  guint delay_ms[PACE_CLICK_RUN_MAX]; /* each one's delay after the one before ([0]: 0) */
} PaceClickRun;

/* Does @events[0] (of @n_events in a row, as the replay will inject
 * them) begin a multi-click that goes at once? A button's press (not
 * the wheel's), then a release of that button and a press that is "a
 * double click as recorded" (pace_rules_window(): within the app's time
 * as the window bounds it), and so on: the run ends with its last such
 * press. @gaps_ms[i] is the gap the replay would keep before @events[i]
 * (the recorded one, divided by --speed, within --min-gap and
 * --max-gap); a release and the press after it get theirs, cut so that
 * the press comes within the window of the press before. */
void pace_rules_click_run (const PaceTiming *recorded, const PaceTiming *app,
                           const SessionEvent *const *events, const guint *gaps_ms,
                           guint n_events, PaceClickRun *run);

/* The time to wait before injecting, from @now_ms, for an action that
 * would go after @wait_ms: within @window (the upper bound wins). */
guint pace_rules_clamp (const PaceWindow *window, gint64 now_ms, guint wait_ms);

/* Were @a and @b (presses) made at nearly the same place for an app that
 * counts @distance (PACE_ANY_DISTANCE: any)? Never in two top-level
 * windows. Keys have no place: TRUE. */
gboolean pace_rules_same_place (const SessionEvent *a, const SessionEvent *b, guint distance);

/* A press that may start a double click with the next one: a button's
 * other than the wheel's (4 to 7), or a key's. */
gboolean pace_rules_is_click (const SessionEvent *ev);

/* Typing: does the action at event @next of @session go at once after
 * the one at event @prev, without a wait for the app (an app paced by
 * quiet, which cannot be asked)? Both keys, aimed at the same window,
 * less than PACE_HOLD_MS apart (the user not stopping to look), and
 * nothing of the app's recorded between them but drawing (Expose,
 * NoExpose, GraphicsExpose, PropertyNotify): a window that came or went
 * between two keys is an answer to wait for. */
gboolean pace_rules_typing_run (const Session *session, guint prev, guint next);

/* Pacing by quiet: is the app idle at @glance? No thread of its tree,
 * of the X server or of its bus running, runnable or in a disk wait,
 * none asleep on a timer in an event handler, and (unless this is the
 * @first glance of a wait) the same processes as at the glance before
 * (@before): one that started or ended is work going on. */
gboolean pace_rules_idle (const ProcTreeGlance *glance, const ProcTreeGlance *before,
                          gboolean first);

G_END_DECLS
