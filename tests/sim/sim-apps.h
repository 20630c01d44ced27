/* sim-apps.h — model apps for the search, without a display.
 *
 * Each model says whether a replay of a session (as session_subset()
 * makes it: what xreplay would inject) makes its app fail, the way the
 * real app would: a terminal whose shell runs what is typed, the demo
 * editor's Print dialog. SimOracle turns a model into the reducer's
 * oracle (a DdTestFunc) over a recorded session, and sim_reduce() runs
 * the search exactly as xreduce runs it (search.h), so that unit tests
 * (tests/unit/test-search.c) and the benchmark bench/sim-reduce can count
 * the tests a search costs on a real recording in milliseconds.
 */
#pragma once

#include <glib.h>
#include "dd.h"
#include "session.h"

G_BEGIN_DECLS

/* A terminal: keys type into its line (Shift as the replay holds it),
 * BackSpace erases, Return runs the line; it fails when it has run the
 * lines of @command ("cd /tmp\npwd": these two, in this order, maybe
 * with others between). */
gboolean sim_terminal_fails (const Session *replayed, gconstpointer command);
/* The demo editor (tests/apps/xdemo.c, --bug print): Alt+P or the
 * "Print..." button opens the Print dialog, Escape or Cancel closes it, a
 * click on its Print button crashes. An action aimed at the dialog while
 * it is closed finds no window: the replay stops there (unresolved). */
gboolean sim_editor_fails (const Session *replayed, gconstpointer unused);

/* A browser's address bar (Firefox, Chromium): it has the focus at the
 * start (about:blank), after Ctrl+L or Alt+D, after a click in the
 * toolbar (above y = 80); a click in the page takes the focus away.
 * Focusing selects the text, so what is typed next replaces it;
 * BackSpace erases, Escape reverts, Return goes to what was typed and
 * leaves the bar. It fails when it goes to @url ("about:crashparent",
 * "chrome://inducebrowsercrashforrealz"). Keys typed into the page do
 * nothing. */
gboolean sim_browser_fails (const Session *replayed, gconstpointer url);

typedef struct
{
  const Session *session;    /* the recording, not owned */
  gboolean (*fails) (const Session *replayed, gconstpointer data);
  gconstpointer data;
  guint64 replays;           /* model replays so far */
  gboolean trace;            /* print each replay: its actions and the verdict */
  gboolean no_typed;         /* search without DdLevel.typed (as before issue #24) */
  /* A schedule: with action_ms or start_ms set, each replay takes
   * start_ms + action_ms a replayed action; a batch (at most as many
   * candidates as workers, all started at once) ends when the verdicts of
   * its wanted candidates are in (dd.h: its own up to the first failure,
   * then that one's speculative branch, and so on); any other candidate
   * is cancelled as soon as it is known not to be wanted. */
  guint64 start_ms, action_ms;
  double wall_ms;            /* the batches' time, one after the other */
  double busy_ms;            /* the workers' time spent replaying */
} SimOracle;

/* A DdTestFunc over @data, a SimOracle. */
gboolean sim_oracle_test (const DdCandidate *cands, guint n, DdOutcome *outcomes,
                          gpointer data, GError **error);

/* The search as xreduce runs it: the hierarchy of search.h (phrases if
 * @phrases, then gestures, then actions), the last units first, what
 * candidates really replay normalized, @parallel candidates a batch. */
gboolean sim_reduce (SimOracle *oracle, guint parallel, gboolean phrases, guint **result,
                     guint *n_result, DdStats *stats, GError **error);

G_END_DECLS
