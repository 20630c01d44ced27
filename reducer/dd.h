/* dd.h: delta debugging over sets of elements (X-free).
 *
 * The reducer's search algorithm.  The elements are the session's user
 * actions, numbered 0..n-1; the oracle (a DdTestFunc) replays a candidate
 * subset and says whether the failure still happens.  dd_reduce_hierarchy()
 * returns a failing subset that is 1-minimal: removing any single element
 * of it makes the failure go away (verified at the end, see
 * DdStats.one_minimal_verified).
 *
 * Two algorithms:
 *  - DD_ALGORITHM_HDD (default): hierarchical reduction in the spirit of HDD
 *    (Misherghi & Su, ICSE 2006), first over "units" (gestures, each a set of
 *    elements), then over the single elements of the surviving units.  Each
 *    level runs ddmin with Hodován & Kiss's improvements ("Practical
 *    Improvements to the Minimizing Delta Debugging Algorithm", ICSOFT 2016):
 *    complements are tested before subsets, each step's candidates go to the
 *    oracle in batches of up to DdOptions.parallel, and outcomes are cached.
 *  - DD_ALGORITHM_DDMIN: Zeller & Hildebrandt's original ddmin ("Simplifying
 *    and Isolating Failure-Inducing Input", TSE 2002) over single elements:
 *    subsets first, then complements, one candidate per oracle call.  It is
 *    the baseline benchmarks compare against; it uses the cache too.
 *
 * Batches and determinism.  A batch is an ordered list of candidates and the
 * step adopts the *first* one that fails.  The oracle may evaluate a batch
 * concurrently but must answer as if it tested the candidates in index order
 * and stopped at the first DD_FAIL, so the result does not depend on
 * DdOptions.parallel (only the number of oracle calls does).
 *
 * Speculation (HDD).  When a step has fewer candidates than
 * DdOptions.parallel, the reducer fills the idle slots of the oracle call
 * with what the following steps would test: if none of the step's
 * candidates fails, and if candidate k is the first to fail (DdCandidate
 * .speculative, .if_fails), branches within branches, the likeliest first.
 * Speculative outcomes only feed the cache, so the result is the same with
 * or without them, whether or not the oracle runs them.  An oracle that runs
 * exactly the candidates a sequential search would ask (the batch's own up
 * to the first failure, then that failure's branch, and so on) runs the
 * same tests in all as with parallel == 1, only in fewer calls.
 *
 * The cache is keyed by the content of a candidate (a 128-bit digest of its
 * sorted element set), so the oracle is never asked the same set twice,
 * except to confirm a pass when confirm_passes > 1.  The empty set may be
 * asked too: it is not assumed to pass.
 *
 * Cost.  Memory is linear in the number of elements N (and in the tests
 * run: the cache holds 16 bytes and a little for each candidate asked),
 * never N times the candidates of a batch: a batch's candidates are made
 * one at a time as the search gets to them.  Between two oracle calls the
 * search spends O(N log N) a candidate it looks at (cache hits included),
 * and DdOptions.stop is asked before each: a search over 10^6 elements
 * stops within a few milliseconds of being told to.
 *
 * Start reading at dd_reduce_hierarchy() in dd.c.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DD_ERROR (dd_error_quark ())
typedef enum {
  DD_ERROR_INVALID,   /* bad arguments (e.g. parallel == 0) */
  DD_ERROR_ORACLE,    /* the oracle broke the DdTestFunc contract */
  DD_ERROR_STOPPED,   /* DdOptions.stop said to stop */
} DdError;
GQuark dd_error_quark (void);

typedef enum {
  DD_PASS,        /* the failure went away */
  DD_FAIL,        /* the failure still happens: the candidate is interesting */
  DD_UNRESOLVED,  /* could not tell (e.g. the replay diverged); treated like DD_PASS */
  DD_CANCELLED,   /* not evaluated because an earlier candidate of the batch failed */
} DdOutcome;

/* A candidate: a sorted (ascending), duplicate-free set of element ids.
 * @elems is owned by the reducer and valid only during the DdTestFunc call.
 *
 * The candidates of one call form a tree.  Those with if_fails == 0 are the
 * batch's sequence, in index order; those with if_fails == i + 1 are the
 * sequence, in index order, of candidate i's branch (i < their index): what
 * the search asks next if candidate i is the first of its sequence to fail
 * (and, for a candidate in a branch, its own branch is taken).  A candidate
 * is *wanted* if its sequence is wanted (the batch's always is; a branch's
 * when its candidate is wanted and fails) and no candidate before it in its
 * sequence fails.  Every candidate with if_fails != 0 is speculative; the
 * batch's sequence may end with speculative ones too (what the search asks
 * if none of the batch's own fails). */
typedef struct {
  const guint *elems;
  guint n_elems;
  guint if_fails;         /* 0, or i + 1: in the branch of candidate i */
  gboolean speculative;   /* not the batch's own: only its outcome's cache entry matters */
} DdCandidate;

/* The oracle.  Fills @outcomes[i] (which the reducer initialises to
 * DD_CANCELLED) for candidates it tested to their end.  It must answer
 * the batch's own candidates (if_fails == 0, not speculative) as if it
 * tested them in index order and stopped at the first DD_FAIL: it returns
 * when outcomes[0..k] of those are known with outcomes[k] == DD_FAIL (the
 * rest of them left DD_CANCELLED), or when all of them are known.  It may
 * evaluate candidates concurrently.  Speculative candidates it may skip,
 * kill or run: any outcome it reports for one goes to the cache, wanted or
 * not; one that is not wanted (see DdCandidate) is of no use and best
 * killed at once, and one that is wanted is what the search asks next, best
 * run to its end before the call returns if it is already running.
 * Returns FALSE with @error to abort the reduction (e.g. interrupted, or an
 * infrastructure error); dd_reduce_hierarchy() then returns that error.
 * With confirm_passes > 1 a batch may hold the same candidate several times
 * in a row: each copy is one more run. */
typedef gboolean (*DdTestFunc) (const DdCandidate *cands,
                                guint              n,
                                DdOutcome         *outcomes,
                                gpointer           user_data,
                                GError           **error);

typedef enum {
  DD_ALGORITHM_HDD,
  DD_ALGORITHM_DDMIN,
} DdAlgorithm;

typedef struct {
  guint64 tests;          /* oracle evaluations (DD_CANCELLED ones and cache hits excluded) */
  guint64 cache_hits;     /* candidates the search looked at that the cache answered */
  guint64 batches;        /* DdTestFunc calls */
  guint64 speculative;    /* of the tests, those of speculative candidates, run in
                             otherwise idle slots of a batch (HDD): see dd.c */
  guint n_initial;        /* elements in the input */
  guint n_current;        /* elements in the current failing set */
  guint suffix_units;     /* last_units_first: units in the shortest failing suffix, 0 if none */
  gboolean hit_limit;     /* stopped early because of limit_tests */
  gboolean one_minimal_verified;  /* every one-element removal of the result passes */
  guint64 inferred;       /* of the cache's answers, removals of a typed part that a test
                             showed needed in a larger set: taken as passing without a
                             replay (failures taken as monotone, see dd-infer.c) */
} DdStats;

typedef struct {
  DdAlgorithm algorithm;  /* default DD_ALGORITHM_HDD */
  guint parallel;         /* max candidates per DdTestFunc call, >= 1 (default 1);
                             always 1 for DD_ALGORITHM_DDMIN */
  guint confirm_passes;   /* flaky oracles: a candidate that does not fail is re-tested
                             until it has passed this many times in total (default 1 =
                             trust it); any DD_FAIL makes it fail.  See dd_confirmations_for(). */
  guint64 limit_tests;    /* 0 = no limit; otherwise stop after this many tests with the
                             best (failing, maybe not minimal) result so far, not an error;
                             DdStats.hit_limit says so */
  gboolean no_inference;  /* HDD: replay every removal of a typed part, even one a test
                             showed needed in a larger set (by default the cache answers
                             those: see DdStats.inferred; never with confirm_passes > 1) */
  gboolean last_units_first; /* HDD: before the search, one batch tries the last 1, 2, 4, ...
                             units of the top level, shortest first (suffix.h); the shortest
                             that fails is where the search starts */
  /* Optional callbacks, all called from dd_reduce_hierarchy()'s thread: */
  void (*normalize) (const guint *elems, guint n_elems, GArray *out, gpointer user_data);
                          /* what a candidate really tests: appends to @out (a GArray of
                             guint) the elements of @elems that matter (a release whose press
                             is not there does not); candidates are cached, tested and
                             adopted as normalized.  NULL: every element matters */
  void (*progress) (const DdStats *stats, gpointer user_data);  /* after every batch */
  guint (*spare_slots) (guint n_own, guint room, gpointer user_data);  /* HDD: of the @room
                             slots of an oracle call that @n_own of the batch's own candidates
                             leave idle (room - n_own), how many may run speculative ones now
                             (capped there); NULL: all of them. A machine whose cores the own
                             candidates already fill gains nothing from more at once */
  void (*improved) (const guint *elems, guint n_elems, gpointer user_data);  /* every time
                             the current failing set shrinks; @elems is sorted, borrowed */
  gboolean (*stop) (gpointer user_data);  /* asked between candidates, before every oracle
                             call and in every lookahead: TRUE ends the search at once
                             (dd_reduce_hierarchy() returns DD_ERROR_STOPPED); a signal, a time
                             limit. NULL: never */
  gpointer user_data;     /* for normalize, spare_slots, progress, improved and stop */
} DdOptions;

void dd_options_init (DdOptions *options);

/* Smallest r >= 1 such that (1 - fail_rate)^r <= 1 - confidence: the number
 * of passes after which a candidate that fails with probability @fail_rate
 * per run has been missed with probability at most 1 - @confidence.  Use it
 * for DdOptions.confirm_passes.  @fail_rate in (0, 1], @confidence in [0, 1).
 * Example: a crash that reproduces 70% of the time needs 3 passes for 95%
 * (0.3^3 = 0.027).  Returns G_MAXUINT if no guint r is enough. */
guint dd_confirmations_for (double fail_rate, double confidence);

/* A candidate's ascending elements as runs, each number plus @base:
 * "0-2,5" (base 0), "1-3,6" (base 1); @empty for none. */
char *dd_elems_to_ranges (const guint *elems, guint n, guint base, const char *empty);

/* One level of a hierarchy: @n_units units, each a GArray of guint element ids. */
typedef struct {
  const GArray *const *units;
  guint n_units;
  gboolean greedy;        /* not ddmin: try removing each unit in turn, once, keeping
                             each removal that still fails (a guess worth one test each,
                             such as every key's release at once) */
  const GArray *typed;    /* nullable: element ids (guint, ascending) typed in a run of
                             typing. When most units left at this level are typed, each
                             is likely needed (a URL, a command): ddmin tries them one
                             at a time at once, not halves first */
} DdLevel;

/* Reduces the union of @levels[0]'s units to a 1-minimal failing subset:
 * ddmin over the units of @levels[0], then over those of @levels[1] cut
 * to what survived, and so on (HDD: each level should refine the one
 * before: phrases, gestures), then over single elements until 1-minimal.
 * One level is flat reduction over its units.
 *
 * @levels: @n_levels >= 1 levels.  A level's units (a partition into
 *   gestures, or one element each for flat reduction) need not be sorted;
 *   empty units are ignored; overlapping units are allowed (candidates are
 *   unions of units).  DD_ALGORITHM_DDMIN only uses the union.
 * @test, @test_data: the oracle and its user data.
 * @options: NULL for the defaults.
 * @result, @n_result: the failing set, ascending; free with g_free().
 * @stats: (nullable): filled in on success and on error (zeroed if the
 *   arguments are invalid).
 *
 * It does NOT test the full input (the caller verified that it fails).
 * Returns FALSE with @error if the oracle returned an error or broke its
 * contract, or DdOptions.stop said to stop (DD_ERROR_STOPPED); *result is
 * then left untouched. */
gboolean dd_reduce_hierarchy (const DdLevel     *levels,
                              guint              n_levels,
                              DdTestFunc         test,
                              gpointer           test_data,
                              const DdOptions   *options,
                              guint            **result,
                              guint             *n_result,
                              DdStats           *stats,
                              GError           **error);

G_END_DECLS
