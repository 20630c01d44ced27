/* reduce-private.h — the reducer's driver's state (reduce.c), shared with
 * the files that take parts of its work: what the replays teach
 * (learn.c: the window wait, the start timeout, the settle, the workers)
 * and the replays that check the search's passes again (recheck.c).
 * Not a module's interface: only reduce.c (the search and its oracle),
 * setup.c (before it), finish.c (after it), best.c (the best result, the
 * progress, the verdict), state.c (its lines, its best set), learn.c and
 * recheck.c include it. Layered: reduce.c calls setup.c and finish.c,
 * which call best.c, which calls state.c.
 */
#pragma once

#include "dd.h"
#include "journal.h"
#include "pool.h"
#include "proc.h"
#include "reduce.h"
#include "replay-args.h"
#include "runner.h"
#include "session.h"
#include "target.h"
#include "verify.h"

G_BEGIN_DECLS

/* The learned wait: the longest latency seen (from an action to a window
 * of the app appearing), times the factor, plus the floor; at most
 * REPLAY_DEFAULT_WINDOW_WAIT_MS. */
#define REDUCE_WINDOW_WAIT_FACTOR 4
#define REDUCE_WINDOW_WAIT_FLOOR_MS 100
/* The learnt start timeout: this many times the slowest first window
 * seen, never less than xreplay's default (REPLAY_DEFAULT_START_TIMEOUT_MS). */
#define REDUCE_START_TIMEOUT_FACTOR 4
/* The learnt settle: the latest failure seen after a replay's last
 * action, times the factor, plus the floor; at most --settle. */
#define REDUCE_SETTLE_FACTOR 4
#define REDUCE_SETTLE_FLOOR_MS 150
/* A replay this long or longer tells its app's share of a core. */
#define REDUCE_SHARE_MIN_MS 500

/* Why the oracle stopped the search early. */
typedef enum
{
  STOP_NONE,
  STOP_RESTART,              /* the verdict changed the premises: search again */
  STOP_RESTART_CUT,          /* ... and the crash point cut the best set: suffixes again */
} Stop;

typedef struct Reducer
{
  const ReduceOptions *options;
  ReplaySettings replay;     /* the replays' options: the command line's, then the
                              * session's replay line where the command line is silent */
  char **replay_line;        /* owned, or NULL: what the result's replay line says */
  char **replay_argv;        /* owned: the options given that no session carries */
  Session *session;          /* the input, owned */
  char **app_argv;           /* owned */
  char **xreplay_args;       /* owned */
  char *xreplay;             /* owned, or NULL with --test */
  ProcTempDir *workdir;      /* owned: candidate files */
  char *output_path;         /* owned */
  Runner *runner;            /* owned */
  Target target;
  Verification *verification; /* owned */
  gboolean judged;           /* the verification's verdict is in and adopted */
  Stop stop;                 /* set by the oracle with a DD error */
  gint64 start_us;
  gboolean interrupted, timed_out, tty;
  guint n_signals;           /* on_signal's calls so far */
  guint n_before;
  guint *best;               /* best failing action set so far */
  guint n_best;
  guint n_saved;             /* the actions of the session in the output file, if saved */
  guint n_best_steps;        /* its phrases, once counted (steps_known) */
  gboolean steps_known;      /* counting them copies the session: only when said */
  gboolean saved;            /* the output file holds a failing session */
  gboolean save_due;         /* the best set improved before a verification replay saw
                              * the full session fail: saved once one has */
  gboolean files_saved;      /* OUT.files holds the copies of the files the app read */
  DdStats last_stats;
  Journal *journal;          /* OUT.journal: outcomes known, for a resumed run */
  guint64 journal_hits;      /* candidates answered from an interrupted run's journal */
  guint64 journal_hits_speculative;  /* ... of them speculative ones */
  guint64 earlier_tests;     /* tests before this dd_reduce_hierarchy() (suffix passes, restarts) */
  guint64 earlier_speculative;  /* of those, speculative ones (DdStats.speculative) */
  guint64 earlier_cache_hits;
  gboolean learn_wait;       /* learn --window-wait from the replays */
  gint64 window_latency_ms;  /* longest window latency seen so far, or -1 */
  guint window_wait_ms;      /* the learned wait in force, or 0 */
  gboolean learn_settle;     /* learn --settle from the replays that fail */
  gint64 failure_delay_ms;   /* the latest failure after a last action, or -1 */
  gint64 latest_failure_ms;  /* ... seen in any replay (learnt or not), or -1 */
  guint64 confirmed;         /* passes replayed again: failures came late */
  gboolean said_late;        /* ... and said so */
  guint64 overturned;        /* ... and failed then */
  double replay_cores;       /* the most of a core a replay's app used, or 0: unknown */
  guint settle_ms;           /* the learnt settle in force, or 0 */
  gboolean learn_start;      /* learn --start-timeout */
  guint start_timeout_ms;    /* the learnt one in force, or 0 */
  Pool pool;
  char *pool_reason;         /* owned: the last word on the workers */
  guint64 cpu_jiffies[2];    /* the cores' busy and total time at the last look */
  guint deadline;            /* --limit-time's timer, or 0 */
  const char *phase;         /* what it does now, for the progress line */
  gint64 last_line_us;       /* when a line was last said (not a tty: reducer_progress_tick) */
  guint ticker;              /* reducer_progress_tick's timer, or 0 */
  char *wrong_app;           /* owned, or NULL: why the app is not the session's (the
                              * classes of its windows and the session's differ) */
  gboolean app_checked;      /* a replay's windows were compared with the session's */
  guint n_put_back;          /* the user's releases put back after the search */
  guint put_back_tests;      /* ... and the tests that cost */
  guint rechecks;            /* rounds of recheck_steps() */
  guint rechecked;           /* ... and their tests */
  /* The report's replay, started beside the last checks (reduce.c's
   * start_report_early), of what they will most likely leave: */
  struct SummaryReplay *early_report; /* owned, or NULL */
  GArray *early_set;         /* owned: ... its actions (guint), or NULL */
  char **early_line;         /* owned: ... and replay line */
} Reducer;


/* A candidate whose failure came late is replayed once more before its
 * pass counts, when the failures seen come this late (recheck.c). */
#define REDUCE_LATE_FAILURE_MS 1000
/* At most this many rounds of reducer_recheck_steps() a reduction. */
#define REDUCE_RECHECK_ROUNDS 2

/* state.c: a line of its own on stderr (the progress line cleared
 * first); the best failing set so far; SIGINT, SIGTERM or SIGHUP (a
 * ProcInterruptFunc, @data the Reducer). */
void reducer_say (Reducer *reducer, const char *format, ...) G_GNUC_PRINTF (2, 3);
void reducer_set_best (Reducer *reducer, const guint *elems, guint n);
void reducer_on_signal (int signum, gpointer data);

/* best.c: seconds since the run started. */
double reducer_elapsed_s (Reducer *reducer);
/* best.c: the progress line on a terminal (@final: with its newline). */
void reducer_progress_line (Reducer *reducer, gboolean final);
/* best.c: every second (a GSourceFunc): the progress line, or a line now and then. */
gboolean reducer_progress_tick (gpointer data);
/* best.c: DdOptions.progress and DdOptions.improved (@data the Reducer). */
void reducer_on_progress (const DdStats *stats, gpointer data);
void reducer_on_improved (const guint *elems, guint n, gpointer data);
/* best.c: the minimal session's replay line, from the options and the verdict. */
void reducer_update_replay_line (Reducer *reducer);
/* best.c: the best set as a session (new), with its replay line. */
Session *reducer_best_session (Reducer *reducer);
/* best.c: the same for the action set @set. */
Session *reducer_session_of (Reducer *reducer, const guint *set, guint n);
/* best.c: the report's early replay dropped (its folder goes), if any. */
void reducer_drop_early_report (Reducer *reducer);
/* best.c: the best set saved to the output file. */
gboolean reducer_save_best (Reducer *reducer, GError **error);
/* best.c: the verdict adopted (reducer->stop set if the search must start again). */
gboolean reducer_adopt_verdict (Reducer *reducer, GError **error);
/* best.c: before every batch: the verdict adopted once in; FALSE stops the search. */
void reducer_save_if_due (Reducer *reducer);
gboolean reducer_check_verdict (Reducer *reducer, gboolean wait, GError **error);

/* setup.c: everything before the search: input, workers, verification, journal. */
gboolean reduce_setup (Reducer *reducer, GError **error);
/* finish.c: after the search (@ok) or its failure: the report, the result, the summary. */
gboolean reduce_finish (Reducer *reducer, gboolean ok, ReduceSummary *summary, GError **error);

/* learn.c: what xreduce learns of the app where no option says it (the
 * hierarchical search's replays only), from a first figure the recording
 * gives; then every replay's result as it comes (a RunnerObserveFunc:
 * the waits, the app's share of a core, the workers). */
void reducer_start_learning (Reducer *reducer);
void reducer_observe (const RunResult *result, gpointer data);

/* recheck.c: whether the failures seen came late (said once); the
 * passes of a batch replayed again at once with the whole --settle
 * (@outcomes of @to_run's candidates updated; FALSE if interrupted or
 * broken: no pass of the batch is taken then); each step of the result
 * left out once more (*@smaller: a smaller failing set was found and is
 * the best now). */
gboolean reducer_failures_come_late (Reducer *reducer);
gboolean reducer_confirm_passes (Reducer *reducer, const DdCandidate *cands, DdOutcome *outcomes,
                                 const guint *to_run, guint n_run, GError **error);
gboolean reducer_recheck_steps (Reducer *reducer, gboolean *smaller, GError **error);

G_END_DECLS
