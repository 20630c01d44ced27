/* dd.c: delta debugging (ddmin, and hierarchical complement-first ddmin).
 *
 * Start reading at dd_reduce_hierarchy() at the bottom.  It builds a Dd
 * context and calls dd_run(): the last units of the top level first
 * (dd_suffixes), then each level in turn (dd_level over phrases and
 * gestures, dd_greedy for a level of single guesses), then dd_level over
 * the single elements that survived, and dd_verify(), which checks
 * 1-minimality by testing every one-element removal the cache has not
 * already answered.  dd_level_hdd() is where the tests are saved:
 * complements only, rounds that go on after the chunk that went, and a
 * granularity that jumps to single parts when they are likely to matter.
 *
 * Candidates are normalized (DdOptions.normalize) to what they really
 * test before the cache sees them.
 *
 * Every oracle question goes through dd_run_batch(): it answers what it can
 * from the cache (keyed by a digest of the candidate's sorted element set),
 * sends the rest to the DdTestFunc in chunks of options.parallel, re-tests
 * passes when confirm_passes > 1, counts tests and enforces limit_tests.
 *
 * Time and memory follow the elements, not their square: a batch is a
 * rule (Cands: the complements of n chunks, the current set without one
 * element...), not a list, and its candidates are made one at a time as
 * the batch gets to them (a batch of n complements of N elements would be
 * n * N of them at once); the cache holds a 128-bit digest of each
 * candidate, not its elements.  Between candidates, and between
 * lookaheads, DdOptions.stop is asked whether to stop (Ctrl-C, a time
 * limit): a search of a million elements answers it at once.
 *
 * Speculation (HDD): a step has n candidates, often fewer than the oracle
 * runs at once.  dd_speculate() fills the idle slots of an oracle call with
 * what the following steps would test, on the branch where none of the
 * call's candidates fails and on the branch where candidate k is the first
 * to fail, and within those branches again, the likeliest first.  It finds
 * out what a branch tests by running the search on with the branch's
 * outcomes assumed (dd_lookahead(): from where the search is, At, with the
 * cache answering the past, the assumptions this call, until the first
 * step it cannot decide): one search, no second copy of its logic to keep
 * in step.  Speculative outcomes only feed the cache, so the result is the
 * same as without them.
 *
 * No X here: the oracle is whatever the caller passes (the replayer, or a fake
 * predicate in tests/unit/test-dd.c).
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd.h"
#include "suffix.h"

#include <string.h>

G_DEFINE_QUARK (dd-error-quark, dd_error)

/* ---- sets, their digests, the cache ---- */

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

/* An assumption of a lookahead: a persistent list, newest first, shared
 * by the options of dd_speculate() that extend it. */
typedef struct Assumption Assumption;
struct Assumption {
  gint ref;
  Assumption *next;     /* owned reference, or NULL */
  Digest digest;
  gboolean fail;        /* assumed to fail, else to pass */
};

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

typedef struct {
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
} Dd;

#define ASSUME_PASS GINT_TO_POINTER (1)
#define ASSUME_FAIL GINT_TO_POINTER (2)

static inline guint64
mix64 (guint64 x)
{
  /* splitmix64's finalizer: a bijection that spreads every bit. */
  x ^= x >> 30;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  x ^= x >> 31;
  return x;
}

static Digest
digest_of (GArray *set)
{
  Digest d = { mix64 (set->len), mix64 ((guint64) set->len ^ G_GUINT64_CONSTANT (0x5bd1e9955bd1e995)) };

  for (guint i = 0; i < set->len; i++)
    {
      guint64 e = g_array_index (set, guint, i);

      d.a += mix64 (e + G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
      d.b += mix64 (e ^ G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f));
    }
  return d;
}

static guint
digest_hash (gconstpointer p)
{
  const Digest *d = p;

  return (guint) (d->a ^ (d->a >> 32));
}

static gboolean
digest_equal (gconstpointer p, gconstpointer q)
{
  const Digest *x = p, *y = q;

  return x->a == y->a && x->b == y->b;
}

/* A set of digests (or a map from them, to a pointer): the keys are owned. */
static GHashTable *
digest_table_new (void)
{
  return g_hash_table_new_full (digest_hash, digest_equal, g_free, NULL);
}

static gboolean
digest_table_add (GHashTable *table, const Digest *d, gpointer value)
{
  if (g_hash_table_contains (table, d))
    return FALSE;
  g_hash_table_insert (table, g_memdup2 (d, sizeof *d), value);
  return TRUE;
}

static Assumption *
assumption_ref (Assumption *a)
{
  if (a != NULL)
    a->ref++;
  return a;
}

static void
assumption_unref (Assumption *a)
{
  while (a != NULL && --a->ref == 0)
    {
      Assumption *next = a->next;

      g_free (a);
      a = next;
    }
}

/* @assumed, and also that the set of @d fails (@fail) or passes. */
static Assumption *
assumed_with (Assumption *assumed, const Digest *d, gboolean fail)
{
  Assumption *a = g_new (Assumption, 1);

  *a = (Assumption) { .ref = 1, .next = assumption_ref (assumed), .digest = *d, .fail = fail };
  return a;
}

void
dd_options_init (DdOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->algorithm = DD_ALGORITHM_HDD;
  options->parallel = 1;
  options->confirm_passes = 1;
}

/* q^r by repeated squaring (no libm needed). */
static double
pow_uint (double q, guint r)
{
  double acc = 1.0;

  while (r > 0)
    {
      if (r & 1)
        acc *= q;
      q *= q;
      r >>= 1;
    }
  return acc;
}

guint
dd_confirmations_for (double fail_rate, double confidence)
{
  g_return_val_if_fail (fail_rate > 0.0 && fail_rate <= 1.0, 1);
  g_return_val_if_fail (confidence < 1.0, 1);

  double q = 1.0 - fail_rate;   /* probability that one run misses the failure */
  double miss = 1.0 - confidence;
  guint lo = 1, hi = G_MAXUINT;

  if (pow_uint (q, hi) > miss)
    return G_MAXUINT;           /* fail_rate too small to ever reach it */
  /* q^r is non-increasing in r: binary search for the smallest r. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (pow_uint (q, mid) <= miss)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

static gint
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

/* Sorts @array ascending and removes duplicates (in one pass when it is
 * already strictly ascending, as the union of disjoint parts in order is). */
static void
sort_unique (GArray *array)
{
  guint out = 0;
  gboolean ascending = TRUE;

  for (guint i = 1; i < array->len && ascending; i++)
    ascending = g_array_index (array, guint, i - 1) < g_array_index (array, guint, i);
  if (ascending)
    return;
  g_array_sort (array, compare_uint);
  for (guint i = 0; i < array->len; i++)
    if (out == 0 || g_array_index (array, guint, i) != g_array_index (array, guint, out - 1))
      g_array_index (array, guint, out++) = g_array_index (array, guint, i);
  g_array_set_size (array, out);
}

static GArray *
uint_array_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint));
}

/* The sorted union of @parts[from..to), or of all the other parts if
 * @complement.  @parts holds GArray* of guint. */
static GArray *
union_of (GPtrArray *parts, guint from, guint to, gboolean complement)
{
  GArray *set = uint_array_new ();

  for (guint i = 0; i < parts->len; i++)
    {
      gboolean inside = i >= from && i < to;
      if (inside != complement)
        {
          GArray *part = g_ptr_array_index (parts, i);
          g_array_append_vals (set, part->data, part->len);
        }
    }
  sort_unique (set);
  return set;
}

static gboolean
contains (GArray *sorted, guint elem)
{
  guint lo = 0, hi = sorted->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2, v = g_array_index (sorted, guint, mid);
      if (v == elem)
        return TRUE;
      if (v < elem)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

/* @parts cut to the current set: each part's elements in it, empty parts
 * dropped. A new list. */
static GPtrArray *
parts_cut (Dd *dd, GPtrArray *parts)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < parts->len; i++)
    {
      GArray *part = g_ptr_array_index (parts, i);
      GArray *cut = uint_array_new ();

      for (guint k = 0; k < part->len; k++)
        if (contains (dd->current, g_array_index (part, guint, k)))
          g_array_append_val (cut, g_array_index (part, guint, k));
      if (cut->len > 0)
        g_ptr_array_add (out, cut);
      else
        g_array_unref (cut);
    }
  return out;
}

/* A new list of parts: @parts[from..to), or all the others if @complement. */
static GPtrArray *
parts_select (GPtrArray *parts, guint from, guint to, gboolean complement)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < parts->len; i++)
    if ((i >= from && i < to) != complement)
      g_ptr_array_add (out, g_array_ref (g_ptr_array_index (parts, i)));
  return out;
}

/* @base (sorted) without what @drop (sorted) holds: a new array. */
static GArray *
set_minus (GArray *base, GArray *drop)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (guint), base->len);
  guint k = 0;

  for (guint i = 0; i < base->len; i++)
    {
      guint elem = g_array_index (base, guint, i);

      while (k < drop->len && g_array_index (drop, guint, k) < elem)
        k++;
      if (k >= drop->len || g_array_index (drop, guint, k) != elem)
        g_array_append_val (out, elem);
    }
  return out;
}

/* Candidate @i of @cands, as the batch's rule makes it: sorted, a new
 * reference. */
static GArray *
cands_build (const Cands *cands, guint i)
{
  GArray *set;

  switch (cands->kind)
    {
    case CANDS_LIST:
      return g_array_ref (g_ptr_array_index (cands->sets, i));
    case CANDS_CHUNKS:
      {
        guint k = (cands->start + i) % cands->chunks, len = cands->parts->len;

        return union_of (cands->parts, k * len / cands->chunks, (k + 1) * len / cands->chunks,
                         cands->complement);
      }
    case CANDS_WITHOUT_ONE:
      set = uint_array_new ();
      g_array_append_vals (set, cands->base->data, i);
      g_array_append_vals (set, &g_array_index (cands->base, guint, i + 1),
                           cands->base->len - i - 1);
      return set;
    case CANDS_WITHOUT_PART:
    default:
      /* A level's parts are sorted (level_parts). */
      return set_minus (cands->base, g_ptr_array_index (cands->parts, cands->from + i));
    }
}

/* What @set (sorted) really tests, as the caller's normalize callback
 * says: a sorted subset of @set (anything else the callback returns is
 * ignored); a new reference. */
static GArray *
dd_normalize (Dd *dd, GArray *set)
{
  g_autoptr (GArray) said = NULL;
  GArray *out;

  if (dd->opts.normalize == NULL)
    return g_array_ref (set);
  said = uint_array_new ();
  dd->opts.normalize ((const guint *) set->data, set->len, said, dd->opts.user_data);
  sort_unique (said);
  out = uint_array_new ();
  for (guint i = 0; i < said->len; i++)
    if (contains (set, g_array_index (said, guint, i)))
      g_array_append_val (out, g_array_index (said, guint, i));
  return out;
}

/* Candidate @i of @cands as it really tests. */
static GArray *
dd_candidate (Dd *dd, const Cands *cands, guint i)
{
  g_autoptr (GArray) raw = cands_build (cands, i);

  return dd_normalize (dd, raw);
}

/* Does DdOptions.stop say to stop? Then the search unwinds (dd->halted). */
static gboolean
dd_should_stop (Dd *dd)
{
  if (!dd->halted && dd->opts.stop != NULL && dd->opts.stop (dd->opts.user_data))
    dd->halted = TRUE;
  if (dd->halted)
    dd->stopped = TRUE;
  return dd->halted;
}

static gboolean
dd_halt_error (GError **error)
{
  g_set_error_literal (error, DD_ERROR, DD_ERROR_STOPPED, "the search was told to stop");
  return FALSE;
}

/* Oracle runs @entry still needs before it is decided: 0 if it failed or
 * has passed often enough. */
static guint
runs_needed (Dd *dd, const CacheEntry *entry)
{
  if (entry == NULL)
    return dd->opts.confirm_passes;
  if (entry->failed || entry->passes >= dd->opts.confirm_passes)
    return 0;
  return dd->opts.confirm_passes - entry->passes;
}

/* The cache's entry for @d, made if there is none. */
static CacheEntry *
cache_get (Dd *dd, const Digest *d)
{
  CacheEntry *entry = g_hash_table_lookup (dd->cache, d);

  if (entry == NULL)
    {
      entry = g_new0 (CacheEntry, 1);
      entry->digest = *d;
      g_hash_table_add (dd->cache, entry);
    }
  return entry;
}

/* @set is known to fail: make it the current set, and tell the caller's
 * improved callback if it shrank. */
static void
dd_adopt (Dd *dd, GArray *set)
{
  gboolean shrank = set->len < dd->current->len;

  g_array_unref (dd->current);
  dd->current = g_array_ref (set);
  dd->stats.n_current = set->len;
  if (shrank && dd->opts.improved != NULL)
    dd->opts.improved ((const guint *) set->data, set->len, dd->opts.user_data);
}

/* A speculative candidate of an oracle call (dd_speculate). */
typedef struct {
  GArray *set;        /* normalized; owned */
  Digest digest;
  guint if_fails;     /* as DdCandidate's: 0, or the call's index of its branch's candidate + 1 */
} Guess;

static void
guess_free (Guess *guess)
{
  g_array_unref (guess->set);
  g_free (guess);
}

/* Sends the batch's @n own candidates (@sets, whose cache entries are
 * @entries; a candidate may come several times in a row, confirm_passes)
 * and the speculative @guesses to the oracle in one call and records the
 * outcomes.  Sets *saw_fail if one of the own failed. */
static gboolean
dd_call_oracle (Dd *dd, GArray *const *sets, CacheEntry *const *entries, guint n,
                GPtrArray *guesses, gboolean *saw_fail, GError **error)
{
  guint total = n + guesses->len;
  g_autofree DdCandidate *dc = g_new0 (DdCandidate, total);
  g_autofree DdOutcome *outcomes = g_new (DdOutcome, total);
  g_autoptr(GError) local_error = NULL;

  for (guint k = 0; k < total; k++)
    {
      GArray *set;

      if (k < n)
        set = sets[k];
      else
        {
          Guess *guess = g_ptr_array_index (guesses, k - n);

          set = guess->set;
          dc[k].if_fails = guess->if_fails;
          dc[k].speculative = TRUE;
        }
      dc[k].elems = (const guint *) set->data;
      dc[k].n_elems = set->len;
      outcomes[k] = DD_CANCELLED;
    }

  dd->stats.batches++;
  if (!dd->test (dc, total, outcomes, dd->test_data, &local_error))
    {
      if (local_error == NULL)
        g_set_error (&local_error, DD_ERROR, DD_ERROR_ORACLE, "oracle failed without saying why");
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  *saw_fail = FALSE;
  for (guint k = 0; k < n && !*saw_fail; k++)
    {
      CacheEntry *entry = entries[k];
      switch (outcomes[k])
        {
        case DD_PASS:
        case DD_UNRESOLVED:
          entry->passes++;
          break;
        case DD_FAIL:
          entry->failed = TRUE;
          *saw_fail = TRUE;
          dd->n_failed++;
          break;
        case DD_CANCELLED:
        default:
          g_set_error (error, DD_ERROR, DD_ERROR_ORACLE,
                       "oracle left candidate %u of %u untested without a failure before it",
                       k + 1, n);
          return FALSE;
        }
      dd->stats.tests++;
    }
  /* Anything after the first failure is ignored, as the contract says.
   * Speculative outcomes are whatever the oracle ran, wanted or not. */
  for (guint k = n; k < total; k++)
    {
      Guess *guess = g_ptr_array_index (guesses, k - n);
      CacheEntry *entry;

      if (outcomes[k] != DD_PASS && outcomes[k] != DD_UNRESOLVED && outcomes[k] != DD_FAIL)
        continue;
      entry = cache_get (dd, &guess->digest);
      if (outcomes[k] == DD_FAIL)
        {
          entry->failed = TRUE;
          dd->n_failed++;
        }
      else
        entry->passes++;
      dd->stats.tests++;
      dd->stats.speculative++;
    }

  if (dd->opts.progress != NULL)
    dd->opts.progress (&dd->stats, dd->opts.user_data);
  return TRUE;
}

typedef enum {
  KNOWN_NOT,
  KNOWN_PASS,
  KNOWN_FAIL,
} Known;

/* What the cache, or in a lookahead what it assumes, says of the set of @d. */
static Known
dd_known (Dd *dd, const Digest *d)
{
  gpointer assumed = dd->assumed != NULL ? g_hash_table_lookup (dd->assumed, d) : NULL;
  CacheEntry *entry;

  if (assumed != NULL)
    return assumed == ASSUME_FAIL ? KNOWN_FAIL : KNOWN_PASS;
  entry = g_hash_table_lookup (dd->cache, d);
  if (entry != NULL && entry->failed)
    return KNOWN_FAIL;
  if (entry != NULL && runs_needed (dd, entry) == 0)
    return KNOWN_PASS;
  return KNOWN_NOT;
}

/* dd_run_batch() in a lookahead: decides the batch if what is known and
 * assumed can; else the undecided candidates before the first known
 * failure (at most frontier_cap of them) are the frontier, and the
 * lookahead stops.  The first batch of a lookahead is the one the search
 * is in: it starts where the search's own left off. */
static void
dd_lookahead_batch (Dd *dd, const Cands *cands, gint *first_fail, GArray **chosen)
{
  g_autoptr (GHashTable) in_frontier = digest_table_new ();
  guint i = 0;

  if (dd->resume_batch)
    {
      i = dd->resume->from;
      dd->resume_batch = FALSE;
    }
  for (; i < cands->n && !dd_should_stop (dd); i++)
    {
      g_autoptr (GArray) set = dd_candidate (dd, cands, i);
      Digest d = digest_of (set);
      Known known = dd_known (dd, &d);

      if (known == KNOWN_FAIL)
        {
          if (dd->frontier->len == 0)
            {
              *first_fail = (gint) i;
              *chosen = g_steal_pointer (&set);
            }
          break;
        }
      if (known == KNOWN_PASS)
        continue;
      if (digest_table_add (in_frontier, &d, NULL))
        g_ptr_array_add (dd->frontier, g_steal_pointer (&set));
      if (dd->frontier->len >= dd->frontier_cap)
        break;
    }
  dd->stopped = dd->stopped || dd->frontier->len > 0;
}

static gboolean dd_run (Dd *dd, const DdLevel *levels, guint n_levels, GError **error);

/* What the search would ask next if the outcomes @assumed were known: it
 * goes on from where it is (dd->at), the cache answering what was tested,
 * the assumptions the rest, until a batch it cannot decide.  Returns that
 * batch's first undecided candidates (at most @cap), in order (a new list
 * of GArray*), or NULL if the search would end. */
static GPtrArray *
dd_lookahead (Dd *dd, Assumption *assumed, guint cap)
{
  Dd ahead = { .opts = dd->opts, .cache = dd->cache, .levels = dd->levels,
               .n_levels = dd->n_levels, .lookahead = TRUE, .resume = &dd->at,
               .resume_batch = TRUE, .frontier_cap = MAX (cap, 1) };
  GPtrArray *frontier = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  /* The newest assumption about a set counts. */
  ahead.assumed = digest_table_new ();
  for (Assumption *a = assumed; a != NULL; a = a->next)
    digest_table_add (ahead.assumed, &a->digest, a->fail ? ASSUME_FAIL : ASSUME_PASS);
  ahead.opts.progress = NULL;
  ahead.opts.improved = NULL;
  ahead.opts.limit_tests = 0;
  ahead.frontier = frontier;
  ahead.current = g_array_ref (dd->current);
  dd_run (&ahead, dd->levels, dd->n_levels, NULL);
  g_array_unref (ahead.current);
  g_hash_table_unref (ahead.assumed);
  if (ahead.halted)
    dd->halted = dd->stopped = TRUE;
  if (frontier->len == 0)
    g_clear_pointer (&frontier, g_ptr_array_unref);
  return frontier;
}

/* An option of dd_speculate(): a branch to look ahead on (@set NULL), or
 * a candidate in one. */
typedef struct {
  double odds;           /* the chance that it is wanted, as guessed */
  Assumption *assumed;   /* what it assumes (a candidate: also that the ones before it
                            in its sequence pass); owned reference */
  GArray *set;           /* owned, or NULL */
  Digest digest;         /* @set's */
  guint if_fails;        /* the sequence it is in, as DdCandidate's */
} Option;

static void
option_free (Option *option)
{
  assumption_unref (option->assumed);
  if (option->set != NULL)
    g_array_unref (option->set);
  g_free (option);
}

/* Takes @assumed and @set. */
static void
option_add (GPtrArray *options, double odds, Assumption *assumed, GArray *set, guint if_fails)
{
  Option *option = g_new0 (Option, 1);

  *option = (Option) { .odds = odds, .assumed = assumed, .set = set, .if_fails = if_fails };
  if (set != NULL)
    option->digest = digest_of (set);
  g_ptr_array_add (options, option);
}

/* The likeliest option, the first added of equals; removed from @options. */
static Option *
option_take_likeliest (GPtrArray *options)
{
  guint best = 0;

  for (guint i = 1; i < options->len; i++)
    if (((Option *) g_ptr_array_index (options, i))->odds
        > ((Option *) g_ptr_array_index (options, best))->odds)
      best = i;
  return g_ptr_array_steal_index (options, best);
}

/* What fills @slots idle slots of an oracle call of the @n candidates
 * @sets (the batch's own): the candidates the following batches would
 * test, on the branch where none of them fails and on each branch where
 * one is the first to, and deeper; the likeliest first.  A candidate is
 * guessed to fail as often as the tests so far did; each is wanted if its
 * branch is taken and the ones before it in its sequence pass.  Returns a
 * list of Guess, in the order of the call (a branch's candidate before
 * the branch, a sequence in its order).
 *
 * A lookahead's frontier is cut to what can be taken: within a sequence
 * the candidates are taken in order (their odds only fall), and each one
 * taken fills a slot unless it is already in the call (one of the @n or
 * a guess), so no more than @slots + @n + @slots of one frontier can ever
 * be taken, nor the branch after all of them. */
static GPtrArray *
dd_speculate (Dd *dd, GArray *const *sets, guint n, guint slots)
{
  GPtrArray *guesses = g_ptr_array_new_with_free_func ((GDestroyNotify) guess_free);
  g_autoptr(GPtrArray) options = NULL;
  g_autoptr(GHashTable) in_call = NULL;
  Assumption *assumed = NULL;
  double q, odds = 1.0;
  guint lookaheads = 0, max_lookaheads = 2 * slots + 2, cap = n + 2 * slots;

  if (slots == 0 || dd->opts.algorithm != DD_ALGORITHM_HDD || dd->lookahead)
    return guesses;
  q = (dd->n_failed + 1.0) / (dd->stats.tests + 2.0);
  options = g_ptr_array_new_with_free_func ((GDestroyNotify) option_free);
  in_call = digest_table_new ();
  for (guint k = 0; k < n; k++)
    {
      Digest d = digest_of (sets[k]);
      Assumption *next;

      if (!digest_table_add (in_call, &d, NULL))
        continue;   /* one more run of a candidate (confirm_passes) */
      option_add (options, odds * q, assumed_with (assumed, &d, TRUE), NULL, k + 1);
      next = assumed_with (assumed, &d, FALSE);
      assumption_unref (assumed);
      assumed = next;
      odds *= 1.0 - q;
    }
  option_add (options, odds, assumed, NULL, 0);

  /* Each lookahead runs the search on: a few more than the slots. */
  while (slots > 0 && options->len > 0 && lookaheads < max_lookaheads && !dd_should_stop (dd))
    {
      Option *option = option_take_likeliest (options);

      if (option->set == NULL)
        {
          g_autoptr(GPtrArray) frontier = dd_lookahead (dd, option->assumed, cap);
          Assumption *ahead = assumption_ref (option->assumed);
          gboolean cut = frontier != NULL && frontier->len >= cap;

          lookaheads++;
          odds = option->odds;
          for (guint j = 0; frontier != NULL && j < frontier->len; j++)
            {
              GArray *set = g_ptr_array_index (frontier, j);
              Digest d = digest_of (set);
              Assumption *next = assumed_with (ahead, &d, FALSE);

              option_add (options, odds, ahead, g_array_ref (set), option->if_fails);
              ahead = next;
              odds *= 1.0 - q;
            }
          /* The branch after all of the frontier: never taken when it was cut. */
          if (frontier != NULL && !cut)
            option_add (options, odds, ahead, NULL, option->if_fails);
          else
            assumption_unref (ahead);
        }
      else if (digest_table_add (in_call, &option->digest, NULL))
        {
          Guess *guess = g_new (Guess, 1);

          *guess = (Guess) { .set = g_array_ref (option->set), .digest = option->digest,
                             .if_fails = option->if_fails };
          g_ptr_array_add (guesses, guess);
          slots--;
          option_add (options, option->odds * q,
                      assumed_with (option->assumed, &option->digest, TRUE), NULL,
                      n + guesses->len);
        }
      option_free (option);
    }
  return guesses;
}

/* What dd_run_batch() learns of the next candidate that is no repeat of
 * an earlier one of its batch. */
typedef enum {
  SCAN_END,             /* no more (or halted) */
  SCAN_PASSED,          /* the cache knows it passes */
  SCAN_FAILED,          /* the cache knows it fails */
  SCAN_OPEN,            /* it needs runs */
} Scan;

/* The next candidate of @cands from *pos on that is not a repeat of an
 * earlier one (@seen: Digest -> its first index + 1); its index, set (a
 * new reference, for SCAN_OPEN) and cache entry. */
static Scan
scan_next (Dd *dd, const Cands *cands, guint *pos, GHashTable *seen, guint *index,
           GArray **set, CacheEntry **entry)
{
  while (*pos < cands->n && !dd_should_stop (dd))
    {
      guint i = (*pos)++;
      g_autoptr (GArray) s = dd_candidate (dd, cands, i);
      Digest d = digest_of (s);
      gpointer first = g_hash_table_lookup (seen, &d);

      /* A repeated candidate cannot be the first failure: its first copy is. */
      if (first != NULL && GPOINTER_TO_UINT (first) != i + 1)
        continue;
      if (first == NULL)
        digest_table_add (seen, &d, GUINT_TO_POINTER (i + 1));
      *entry = cache_get (dd, &d);
      *index = i;
      if ((*entry)->failed)
        return SCAN_FAILED;
      if (runs_needed (dd, *entry) == 0)
        return SCAN_PASSED;
      *set = g_steal_pointer (&s);
      return SCAN_OPEN;
    }
  return SCAN_END;
}

/* limit_tests is reached in the middle of a batch: the first of its
 * candidates known to fail from *pos on, or -1. */
static gint
scan_first_failure (Dd *dd, const Cands *cands, guint pos, GHashTable *seen)
{
  guint index = 0;
  CacheEntry *entry = NULL;

  for (;;)
    {
      g_autoptr (GArray) set = NULL;

      switch (scan_next (dd, cands, &pos, seen, &index, &set, &entry))
        {
        case SCAN_FAILED:
          return (gint) index;
        case SCAN_END:
          return -1;
        default:
          break;
        }
    }
}

/* Tests the candidates of @cands as one ordered batch: *first_fail is the
 * index of the first candidate that fails, or -1 if none does, and
 * *chosen (if it fails) its set as it really tests.  A candidate that does
 * not fail is decided once it has passed confirm_passes times; the first
 * failing candidate only wins once every earlier one is decided.  If
 * limit_tests stops it first, dd->stopped is set and *first_fail is the
 * first candidate known to fail, if any.  The oracle calls' idle slots get
 * speculative candidates (dd_speculate).
 *
 * The candidates are made one at a time, as the plan gets to them: each
 * round plans every undecided candidate before the first known failure,
 * once per pass it still needs, and runs the plan in chunks of
 * options.parallel, planning again after a failure.  The oracle calls are
 * those of a plan made whole at first (a full chunk has no idle slot for
 * speculation, so nothing after it is known sooner). */
static gboolean
dd_run_batch (Dd *dd, const Cands *cands, gint *first_fail, GArray **chosen, GError **error)
{
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (GPtrArray) slots = NULL;     /* the chunk's own candidates (GArray*) */
  g_autoptr (GArray) entries = NULL;      /* ... their cache entries */
  gint found = -1;
  gboolean done = FALSE;

  *first_fail = -1;
  *chosen = NULL;
  if (dd->lookahead)
    {
      dd_lookahead_batch (dd, cands, first_fail, chosen);
      return TRUE;
    }
  seen = digest_table_new ();
  slots = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  entries = g_array_new (FALSE, FALSE, sizeof (CacheEntry *));
  dd->at.cands = cands;
  dd->at.from = 0;
  for (guint round = 0; !done; round++)
    {
      guint pos = dd->at.from;     /* the next candidate to plan */
      gint fail_at = -1;           /* the known failure that ends the plan */
      gboolean planned = FALSE;    /* the plan is complete */
      g_autoptr (GArray) held = NULL;   /* a candidate with runs still to plan */
      CacheEntry *held_entry = NULL;
      guint held_index = 0, held_runs = 0;

      for (;;)
        {
          guint room = MAX (dd->opts.parallel, 1);
          guint size, spare;
          gboolean saw_fail = FALSE, limited = FALSE;
          g_autoptr(GPtrArray) guesses = NULL;

          if (dd->opts.limit_tests > 0)
            {
              limited = dd->stats.tests >= dd->opts.limit_tests;
              room = limited ? 1 : (guint) MIN (room, dd->opts.limit_tests - dd->stats.tests);
            }
          /* The chunk: the plan's next @room runs. */
          g_ptr_array_set_size (slots, 0);
          g_array_set_size (entries, 0);
          while (slots->len < room)
            {
              guint index = 0;
              CacheEntry *entry = NULL;
              g_autoptr (GArray) set = NULL;
              Scan scan;

              if (held_runs > 0)
                {
                  g_ptr_array_add (slots, g_array_ref (held));
                  g_array_append_val (entries, held_entry);
                  held_runs--;
                  continue;
                }
              if (planned)
                break;
              scan = scan_next (dd, cands, &pos, seen, &index, &set, &entry);
              if (dd->halted)
                return dd_halt_error (error);
              if (scan != SCAN_END && scan != SCAN_OPEN && round == 0)
                dd->stats.cache_hits++;
              if (scan == SCAN_END || scan == SCAN_FAILED)
                {
                  planned = TRUE;
                  fail_at = scan == SCAN_FAILED ? (gint) index : -1;
                }
              else if (scan == SCAN_PASSED && slots->len == 0)
                dd->at.from = pos;     /* nothing undecided before it */
              else if (scan == SCAN_OPEN)
                {
                  g_clear_pointer (&held, g_array_unref);
                  held = g_steal_pointer (&set);
                  held_entry = entry;
                  held_index = index;
                  held_runs = runs_needed (dd, entry);
                }
            }
          if (slots->len == 0)
            {
              found = fail_at;
              done = TRUE;
              break;
            }
          if (limited)
            {
              /* The first candidate known to fail, as the plan had it. */
              dd->stopped = TRUE;
              dd->stats.hit_limit = TRUE;
              *first_fail = planned ? fail_at : scan_first_failure (dd, cands, pos, seen);
              if (dd->halted)
                return dd_halt_error (error);
              if (*first_fail >= 0)
                *chosen = dd_candidate (dd, cands, (guint) *first_fail);
              return TRUE;
            }

          size = slots->len;
          spare = room - size;
          if (spare > 0 && dd->opts.spare_slots != NULL)
            spare = MIN (spare, dd->opts.spare_slots (size, room, dd->opts.user_data));
          guesses = dd_speculate (dd, (GArray *const *) slots->pdata, size, spare);
          if (dd->halted)
            return dd_halt_error (error);
          if (!dd_call_oracle (dd, (GArray *const *) slots->pdata,
                               (CacheEntry *const *) entries->data, size, guesses, &saw_fail,
                               error))
            return FALSE;
          if (saw_fail)
            break;     /* plan again */
          /* Everything planned so far passed, but the held candidate's runs. */
          dd->at.from = held_runs > 0 ? held_index : pos;
        }
    }
  *first_fail = found;
  if (found >= 0)
    *chosen = dd_candidate (dd, cands, (guint) found);
  return TRUE;
}

/* The granularity after a round at @n over @len parts that removed
 * nothing (HDD), 0 when there is none: every one of the n chunks holds
 * something the failure needs, so at least n of the len parts matter;
 * when that is a quarter or more, halving the chunks again costs about as
 * many tests as trying each part alone, which is what comes next. */
static guint
next_granularity (guint n, guint len)
{
  if (n >= len)
    return 0;
  if (4 * n >= len)
    return len;
  return MIN (2 * n, len);
}

/* @set (a candidate of the round, the complement of chunk @chunk at @n)
 * fails: it becomes the current set and @parts lose that chunk (and
 * whatever the candidate did not really test, see normalize). */
static void
dd_adopt_complement (Dd *dd, GPtrArray **parts_inout, GArray *set, guint chunk, guint n)
{
  GPtrArray *parts = *parts_inout;
  guint len = parts->len;
  g_autoptr (GPtrArray) kept = parts_select (parts, chunk * len / n, (chunk + 1) * len / n, TRUE);

  dd_adopt (dd, set);
  g_ptr_array_unref (parts);
  *parts_inout = parts_cut (dd, kept);
}

/* Are most of @parts (half or more) typed characters (@typed, sorted)?
 * Typing that survived the level above (a URL, a command) is what the
 * failure needs, nearly every character of it: halving it first finds
 * nothing to remove and costs about 2 k log(n / k) tests before the single
 * characters are tried anyway, one test each. So they are tried at once. */
static gboolean
mostly_typed (GPtrArray *parts, const GArray *typed)
{
  guint n_typed = 0;

  if (typed == NULL || parts->len < 2)
    return FALSE;
  for (guint i = 0; i < parts->len; i++)
    {
      GArray *part = g_ptr_array_index (parts, i);

      if (contains ((GArray *) typed, g_array_index (part, guint, 0)))
        n_typed++;
    }
  return 2 * n_typed >= parts->len;
}

/* One ddmin over @parts (GArray* of guint, the current failing set is their
 * union), as Hodován and Kiss improve it: complements only (a chunk alone
 * is a subset of every other chunk's complement, which did not fail), in
 * batches, the cache. Two more savings: after a chunk goes, the round goes
 * on from the chunk after it rather than from the first (which did not
 * go, and would not now: the set is smaller), so a pass that removes k of
 * n parts costs about n tests, not k * n; and granularity jumps to single
 * parts once a quarter of them is known to matter (next_granularity).
 * On return @parts is what survived.  @from: a lookahead's, where the
 * search is in this level (its granularity and first chunk), or NULL. */
static gboolean
dd_level_hdd (Dd *dd, GPtrArray **parts_inout, guint known, const GArray *typed,
              const At *from, GError **error)
{
  guint len = (*parts_inout)->len, start = 0;
  /* At least @known of the parts matter (the level above kept that many
   * units, each needed): rounds with fewer chunks would remove nothing. */
  guint n = MIN (MAX (known, 2), len);

  if ((n > 2 && 4 * n >= len) || mostly_typed (*parts_inout, typed))
    n = len;
  if (from != NULL)
    n = from->n, start = from->start;

  while ((*parts_inout)->len > 1 && n > 0 && !dd->stopped)
    {
      Cands cands = { .kind = CANDS_CHUNKS, .n = n, .parts = *parts_inout, .chunks = n, .start = start,
                      .complement = TRUE };
      g_autoptr (GArray) chosen = NULL;
      gint f = -1;

      dd->at.parts = *parts_inout;
      dd->at.n = n;
      dd->at.start = start;
      if (!dd_run_batch (dd, &cands, &f, &chosen, error))
        return FALSE;
      if (f < 0)
        {
          n = next_granularity (n, (*parts_inout)->len);
          start = 0;
          continue;
        }
      {
        guint chunk = (start + (guint) f) % n;

        dd_adopt_complement (dd, parts_inout, chosen, chunk, n);
        n = MIN (MAX (n - 1, 2), (*parts_inout)->len);
        start = n > 0 ? chunk % n : 0;
      }
    }
  return TRUE;
}

/* One ddmin over @parts as Zeller and Hildebrandt wrote it: subsets, then
 * complements, from the first chunk every time, one candidate a call. */
static gboolean
dd_level_classic (Dd *dd, GPtrArray **parts_inout, GError **error)
{
  guint n = MIN (2, (*parts_inout)->len);

  /* The original algorithm has no use for n == 1 (the only complement is
   * the empty set); verification asks it instead. */
  while ((*parts_inout)->len >= 2 && !dd->stopped)
    {
      guint len = (*parts_inout)->len;
      gboolean reduced = FALSE;

      for (guint pass = 0; pass < 2 && !reduced && !dd->stopped; pass++)
        {
          gboolean complement = pass == 1;
          Cands cands = { .kind = CANDS_CHUNKS, .n = n, .parts = *parts_inout, .chunks = n, .start = 0,
                          .complement = complement };
          g_autoptr (GArray) chosen = NULL;
          gint f = -1;

          if (!complement && n < 2)
            continue;
          if (!dd_run_batch (dd, &cands, &f, &chosen, error))
            return FALSE;
          if (f < 0)
            continue;
          if (complement)
            dd_adopt_complement (dd, parts_inout, chosen, f, n);
          else
            {
              g_autoptr (GPtrArray) kept = parts_select (*parts_inout, f * len / n,
                                                         (f + 1) * len / n, FALSE);
              dd_adopt (dd, chosen);
              g_ptr_array_unref (*parts_inout);
              *parts_inout = parts_cut (dd, kept);
            }
          n = complement ? MAX (n - 1, 2) : 2;
          n = MIN (n, (*parts_inout)->len);
          reduced = TRUE;
        }
      if (reduced || dd->stopped)
        continue;
      if (n >= len)
        break;
      n = MIN (2 * n, len);
    }
  return TRUE;
}

/* @known: how many of @parts are known to matter (0: nothing known);
 * @typed: the elements typed in runs of typing (nullable); @from: see
 * dd_level_hdd(). */
static gboolean
dd_level (Dd *dd, GPtrArray **parts_inout, guint known, const GArray *typed, const At *from,
          GError **error)
{
  return dd->opts.algorithm == DD_ALGORITHM_DDMIN
           ? dd_level_classic (dd, parts_inout, error)
           : dd_level_hdd (dd, parts_inout, known, typed, from, error);
}

/* Tests every one-element removal of the current set (mostly cache hits
 * after dd_level()).  Adopts the first that fails and sets *found. */
static gboolean
dd_verify (Dd *dd, gboolean *found, GError **error)
{
  g_autoptr (GArray) cur = g_array_ref (dd->current);
  Cands cands = { .kind = CANDS_WITHOUT_ONE, .n = cur->len, .base = cur };
  g_autoptr (GArray) chosen = NULL;
  gint f = -1;

  if (!dd_run_batch (dd, &cands, &f, &chosen, error))
    return FALSE;
  *found = f >= 0;
  if (f >= 0)
    dd_adopt (dd, chosen);
  return TRUE;
}

static GPtrArray *
singletons (GArray *set)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < set->len; i++)
    {
      GArray *part = uint_array_new ();
      g_array_append_val (part, g_array_index (set, guint, i));
      g_ptr_array_add (parts, part);
    }
  return parts;
}

/* The last 1, 2, 4, ... units of @parts (suffix.h) in one batch, shortest
 * first: the shortest that fails becomes the current set. */
static gboolean
dd_suffixes (Dd *dd, GPtrArray *parts, GError **error)
{
  g_autoptr (Suffixes) suffixes = suffixes_new (parts);
  g_autoptr (GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n = suffixes_get_n (suffixes);
  Cands cands = { .kind = CANDS_LIST, .n = n, .sets = sets };
  g_autoptr (GArray) chosen = NULL;
  gint f = -1;

  for (guint i = 0; i < n; i++)
    {
      const DdCandidate *cand = &suffixes_get_candidates (suffixes)[i];
      GArray *set = uint_array_new ();

      g_array_append_vals (set, cand->elems, cand->n_elems);
      g_ptr_array_add (sets, set);
    }
  if (n == 0 || !dd_run_batch (dd, &cands, &f, &chosen, error))
    return n == 0;
  if (f >= 0)
    {
      dd->stats.suffix_units = suffixes_get_n_units (suffixes, (guint) f);
      dd_adopt (dd, chosen);
    }
  return TRUE;
}

/* Tries removing each of @parts in turn, from @next on, in batches: the
 * first removal that still fails is kept, and the tries go on after it. */
static gboolean
dd_greedy (Dd *dd, GPtrArray *parts, guint next, GError **error)
{
  while (next < parts->len && !dd->stopped)
    {
      g_autoptr (GArray) base = g_array_ref (dd->current);
      Cands cands = { .kind = CANDS_WITHOUT_PART, .n = parts->len - next, .parts = parts, .base = base,
                      .from = next };
      g_autoptr (GArray) chosen = NULL;
      gint f = -1;

      dd->at.parts = parts;
      dd->at.next = next;
      if (!dd_run_batch (dd, &cands, &f, &chosen, error))
        return FALSE;
      if (f < 0)
        break;
      dd_adopt (dd, chosen);
      next += (guint) f + 1;
    }
  return TRUE;
}

/* The units of @level cut to the current set, as parts. */
static GPtrArray *
level_parts (Dd *dd, const DdLevel *level)
{
  g_autoptr (GPtrArray) units = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < level->n_units; i++)
    {
      GArray *unit = uint_array_new ();

      g_array_append_vals (unit, level->units[i]->data, level->units[i]->len);
      sort_unique (unit);
      g_ptr_array_add (units, unit);
    }
  return parts_cut (dd, units);
}

static gboolean
all_singletons (GPtrArray *parts)
{
  for (guint i = 0; i < parts->len; i++)
    if (((GArray *) g_ptr_array_index (parts, i))->len != 1)
      return FALSE;
  return TRUE;
}

/* The search, from the start, or in a lookahead from where the search it
 * looks ahead of is (dd->resume: the phase, level and state of the batch
 * it is in, which the lookahead starts with). */
static gboolean
dd_run (Dd *dd, const DdLevel *levels, guint n_levels, GError **error)
{
  const At *from = dd->resume;
  guint known = from != NULL ? from->known : 0;   /* units the last ddmin level kept */
  const GArray *typed = NULL;   /* the typed elements, as the levels say */
  gboolean singles_from = from != NULL && (from->phase == AT_SINGLES || from->phase == AT_VERIFY);
  guint first_level = from == NULL ? 0 : singles_from ? n_levels : from->level;

  for (guint l = 0; l < n_levels; l++)
    typed = levels[l].typed != NULL ? levels[l].typed : typed;

  /* The hierarchy (HDD only): the last units of the top level first, then
   * each level's units (phrases, gestures) as they survive. */
  for (guint l = first_level;
       dd->opts.algorithm == DD_ALGORITHM_HDD && l < n_levels && !dd->stopped; l++)
    {
      const At *here = from != NULL && l == first_level ? from : NULL;
      g_autoptr (GPtrArray) parts = NULL;

      dd->at.level = l;
      dd->at.known = known;
      if (here != NULL && (here->phase == AT_GREEDY || here->phase == AT_LEVEL))
        parts = g_ptr_array_ref (here->parts);
      else
        parts = level_parts (dd, &levels[l]);
      if (l == 0 && dd->opts.last_units_first && (here == NULL || here->phase == AT_SUFFIXES))
        {
          dd->at.phase = AT_SUFFIXES;
          if (!dd_suffixes (dd, parts, error))
            return FALSE;
          g_ptr_array_unref (parts);
          parts = level_parts (dd, &levels[l]);
          here = NULL;
        }
      if (levels[l].greedy)
        {
          dd->at.phase = AT_GREEDY;
          if (!dd_greedy (dd, parts, here != NULL ? here->next : 0, error))
            return FALSE;
          continue;
        }
      if (here == NULL && (parts->len < 2 || all_singletons (parts) || dd->stopped))
        continue;
      if (!dd->lookahead)
        g_debug ("level %u: %u units, %u elements, %" G_GUINT64_FORMAT " tests so far", l,
                 parts->len, dd->current->len, dd->stats.tests);
      dd->at.phase = AT_LEVEL;
      if (!dd_level (dd, &parts, known, levels[l].typed, here, error))
        return FALSE;
      known = parts->len;
    }
  if (!dd->lookahead)
    g_debug ("single elements: %u, %" G_GUINT64_FORMAT " tests so far", dd->current->len,
             dd->stats.tests);

  /* Single elements, until verification finds nothing to remove. */
  while (!dd->stopped)
    {
      const At *here = singles_from ? from : NULL;
      g_autoptr (GPtrArray) parts = here != NULL ? g_ptr_array_ref (here->parts)
                                                 : singletons (dd->current);
      gboolean found = FALSE;

      singles_from = FALSE;
      dd->at.known = known;
      if (here == NULL || here->phase == AT_SINGLES)
        {
          dd->at.phase = AT_SINGLES;
          if (!dd_level (dd, &parts, known, typed, here, error))
            return FALSE;
        }
      if (dd->stopped)
        break;
      dd->at.phase = AT_VERIFY;
      dd->at.parts = parts;
      if (!dd_verify (dd, &found, error))
        return FALSE;
      if (!found && !dd->stopped)
        {
          dd->stats.one_minimal_verified = TRUE;
          break;
        }
      known = parts->len;
    }
  return TRUE;
}

gboolean
dd_reduce (const GArray *const *units,
           guint                n_units,
           DdTestFunc           test,
           gpointer             test_data,
           const DdOptions     *options,
           guint              **result,
           guint               *n_result,
           DdStats             *stats,
           GError             **error)
{
  DdLevel level = { .units = units, .n_units = n_units };

  g_return_val_if_fail (units != NULL || n_units == 0, FALSE);
  return dd_reduce_hierarchy (&level, 1, test, test_data, options, result, n_result, stats,
                              error);
}

gboolean
dd_reduce_hierarchy (const DdLevel     *levels,
                     guint              n_levels,
                     DdTestFunc         test,
                     gpointer           test_data,
                     const DdOptions   *options,
                     guint            **result,
                     guint             *n_result,
                     DdStats           *stats,
                     GError           **error)
{
  g_return_val_if_fail (levels != NULL && n_levels > 0, FALSE);
  g_return_val_if_fail (levels[0].units != NULL || levels[0].n_units == 0, FALSE);
  g_return_val_if_fail (test != NULL, FALSE);
  g_return_val_if_fail (result != NULL && n_result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  Dd dd = { .test = test, .test_data = test_data, .levels = levels, .n_levels = n_levels };
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) cache = NULL;
  gboolean ok;

  if (stats != NULL)
    memset (stats, 0, sizeof *stats);

  if (options != NULL)
    dd.opts = *options;
  else
    dd_options_init (&dd.opts);
  if (dd.opts.algorithm != DD_ALGORITHM_HDD && dd.opts.algorithm != DD_ALGORITHM_DDMIN)
    {
      g_set_error (error, DD_ERROR, DD_ERROR_INVALID, "unknown algorithm %d", dd.opts.algorithm);
      return FALSE;
    }
  if (dd.opts.parallel == 0)
    {
      g_set_error_literal (error, DD_ERROR, DD_ERROR_INVALID, "parallel must be at least 1");
      return FALSE;
    }
  if (dd.opts.algorithm == DD_ALGORITHM_DDMIN)
    dd.opts.parallel = 1;
  dd.opts.confirm_passes = MAX (dd.opts.confirm_passes, 1);

  for (guint l = 0; l < n_levels; l++)
    for (guint i = 0; i < levels[l].n_units; i++)
      {
        GArray *unit = uint_array_new ();
        g_array_append_vals (unit, levels[l].units[i]->data, levels[l].units[i]->len);
        g_ptr_array_add (parts, unit);
      }

  cache = g_hash_table_new_full (digest_hash, digest_equal, g_free, NULL);
  dd.cache = cache;
  {
    g_autoptr (GArray) all = union_of (parts, 0, 0, TRUE);
    Digest d;

    /* The input as it really tests; the caller checked that it fails. */
    g_clear_pointer (&parts, g_ptr_array_unref);
    dd.input = dd_normalize (&dd, all);
    dd.current = g_array_ref (dd.input);
    d = digest_of (dd.current);
    cache_get (&dd, &d)->failed = TRUE;
  }
  dd.stats.n_initial = dd.stats.n_current = dd.current->len;

  ok = dd_run (&dd, levels, n_levels, error);
  if (ok && dd.halted)
    ok = dd_halt_error (error);
  if (stats != NULL)
    *stats = dd.stats;
  if (ok)
    {
      *n_result = dd.current->len;
      *result = g_new (guint, MAX (dd.current->len, 1));
      if (dd.current->len > 0)
        memcpy (*result, dd.current->data, dd.current->len * sizeof (guint));
    }
  g_array_unref (dd.current);
  g_array_unref (dd.input);
  return ok;
}
