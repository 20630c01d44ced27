/* dd-private.h: the delta debugging search's state (dd.c), shared with
 * the files that take parts of its work: the sets, their digests and the
 * cache (dd-sets.c), the oracle's batches (dd-batch.c) and the
 * speculation that fills their idle slots (dd-speculate.c).  Layered:
 * dd.c calls dd-batch.c, which calls dd-speculate.c, which calls back
 * into dd.c's search only through Dd.run; all of them use dd-sets.c.
 * Not a module's interface: only those four files include it.  No X.
 */
#pragma once

#include "dd.h"

G_BEGIN_DECLS

/* What the cache, a batch's repeats and the lookaheads' assumptions know a
 * candidate by: two sums of a 64-bit mix of each element, and the count.
 * Order-free, 16 bytes whatever the set's size; two different sets share
 * one with a chance of about 2^-128. */
typedef struct {
  guint64 a, b;
} Digest;

/* What the cache knows about one candidate (its digest is the key). */
typedef struct {
  Digest digest;
  gboolean failed;  /* one DD_FAIL is enough */
  guint passes;     /* DD_PASS or DD_UNRESOLVED outcomes so far */
} CacheEntry;

/* A batch: a rule that makes its candidates one at a time (cands_build),
 * in the order the batch asks them. */
typedef enum {
  CANDS_LIST,           /* sets[i] (the suffixes: at most twice the elements in all) */
  CANDS_CHUNKS,         /* chunk (start + i) % chunks of parts, or its complement */
  CANDS_WITHOUT_ONE,    /* base without its element i (the 1-minimality check) */
  CANDS_WITHOUT_PART,   /* base without parts[from + i] (a greedy level) */
} CandsKind;

typedef struct {
  CandsKind kind;
  guint n;              /* candidates */
  GPtrArray *sets;      /* LIST: GArray* of guint, sorted; borrowed */
  GPtrArray *parts;     /* CHUNKS, WITHOUT_PART: GArray* of guint, each sorted; borrowed */
  guint chunks, start;  /* CHUNKS */
  gboolean complement;  /* CHUNKS */
  GArray *base;         /* WITHOUT_*: sorted; borrowed */
  guint from;           /* WITHOUT_PART */
} Cands;

/* Where the search is: what a lookahead resumes from (dd_run() and the
 * level functions keep it up to date before every batch). */
typedef enum {
  AT_SUFFIXES,          /* dd_suffixes() at level @level (0) */
  AT_GREEDY,            /* dd_greedy() at @level, over @parts from @next */
  AT_LEVEL,             /* dd_level() at @level: @parts, granularity @n, first chunk @start */
  AT_SINGLES,           /* dd_level() over single elements: the same */
  AT_VERIFY,            /* dd_verify(), @parts what the single elements' dd_level() kept */
} AtPhase;

typedef struct {
  AtPhase phase;
  guint level;
  guint known;          /* dd_run()'s: units the last ddmin level kept */
  GPtrArray *parts;     /* borrowed */
  guint n, start;
  guint next;
  const Cands *cands;   /* the batch; borrowed */
  guint from;           /* its candidates before this one are known to pass (or repeat) */
} At;

typedef struct Dd Dd;
struct Dd {
  DdOptions opts;
  DdTestFunc test;
  gpointer test_data;
  GHashTable *cache;   /* CacheEntry (by its digest); owned by dd_reduce_hierarchy() */
  GArray *current;     /* guint, ascending: the smallest known failing set; owned */
  DdStats stats;
  gboolean stopped;    /* limit_tests reached (or a lookahead's end, or halted): unwind
                          and return what we have */
  gboolean halted;     /* DdOptions.stop said so: the search ends with DD_ERROR_STOPPED */
  const DdLevel *levels;  /* the hierarchy dd_run() searches, for lookaheads */
  guint n_levels;
  GArray *input;       /* guint, ascending: the input as it really tests; owned */
  guint64 n_failed;    /* of the tests, those that failed (the fail rate's estimate) */
  At at;               /* where the search is (not in a lookahead) */
  /* A lookahead (dd_lookahead) is a Dd that asks no oracle: */
  gboolean lookahead;
  const At *resume;    /* lookahead: where it starts (the search's At) */
  gboolean resume_batch; /* ... and its first batch starts at resume->from */
  GHashTable *assumed; /* lookahead: Digest* -> ASSUME_PASS or ASSUME_FAIL; owned */
  GPtrArray *frontier; /* lookahead: the undecided candidates of the first batch it
                          could not decide, in order (GArray*), at most frontier_cap;
                          owned */
  guint frontier_cap;
  /* Typed characters found needed (dd-infer.c); a lookahead shares them: */
  const GArray *typed; /* the levels' typed elements (DdLevel.typed), or NULL */
  GPtrArray *needed;   /* GArray* parts (sorted): typed parts whose removal from a
                          superset of the current set passed; NULL: no inference */
  GHashTable *needed_seen; /* their digests */
  /* dd_run(), set by dd.c: the search a lookahead runs (dd-speculate.c) */
  gboolean (*run) (Dd *dd, const DdLevel *levels, guint n_levels, GError **error);
};

/* A speculative candidate of an oracle call (dd_speculate). */
typedef struct {
  GArray *set;        /* normalized; owned */
  Digest digest;
  guint if_fails;     /* as DdCandidate's: 0, or the call's index of its branch's candidate + 1 */
} Guess;

/* dd-sets.c: a set's digest (what the cache knows it by); a new set of
 * digests or map from them (keys owned); adds @d unless it is in (FALSE
 * then). */
Digest dd_digest_of (GArray *set);
GHashTable *dd_digest_table_new (void);
gboolean dd_digest_table_add (GHashTable *table, const Digest *d, gpointer value);
/* dd-sets.c: sorts @array ascending without duplicates. */
void dd_sort_unique (GArray *array);
/* dd-sets.c: a new empty array of guint. */
GArray *dd_uint_array_new (void);
/* dd-sets.c: the sorted union of @parts[from..to), or of the others if @complement. */
GArray *dd_union_of (GPtrArray *parts, guint from, guint to, gboolean complement);
/* dd-sets.c: is @elem in @sorted? */
gboolean dd_contains (GArray *sorted, guint elem);
/* dd-sets.c: what @set really tests (DdOptions.normalize), a new reference. */
GArray *dd_normalize (Dd *dd, GArray *set);
/* dd-sets.c: candidate @i of @cands as it really tests, a new reference. */
GArray *dd_candidate (Dd *dd, const Cands *cands, guint i);
/* dd-sets.c: does DdOptions.stop say to stop? (sets dd->halted) */
gboolean dd_should_stop (Dd *dd);
/* dd-sets.c: sets DD_ERROR_STOPPED, returns FALSE. */
gboolean dd_halt_error (GError **error);
/* dd-sets.c: oracle runs @entry still needs (0: decided). */
guint dd_runs_needed (Dd *dd, const CacheEntry *entry);
/* dd-sets.c: the cache's entry for @d, made if there is none. */
CacheEntry *dd_cache_get (Dd *dd, const Digest *d);

/* dd-infer.c: after a batch whose first failure is @first_fail (or -1),
 * notes the typed parts its passing candidates showed needed; whether
 * candidate @i of @cands (not in the cache) removes one of them, and so
 * passes (the search's, not a lookahead's). */
void dd_infer_note (Dd *dd, const Cands *cands, gint first_fail);
gboolean dd_infer_passes (Dd *dd, const Cands *cands, guint i);

/* dd-batch.c: tests @cands as one ordered batch (*first_fail: the first
 * that fails, or -1; *chosen: its set). */
gboolean dd_run_batch (Dd *dd, const Cands *cands, gint *first_fail, GArray **chosen,
                       GError **error);

/* dd-speculate.c: dd_run_batch() in a lookahead (decides it or fills the
 * frontier); the speculative candidates (Guess) for @slots idle slots of a
 * call of @sets. */
void dd_lookahead_batch (Dd *dd, const Cands *cands, gint *first_fail, GArray **chosen);
GPtrArray *dd_speculate (Dd *dd, GArray *const *sets, guint n, guint slots);

G_END_DECLS
