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
 * from the cache (keyed by the candidate's sorted element set), sends the rest
 * to the DdTestFunc in chunks of options.parallel, re-tests passes when
 * confirm_passes > 1, counts tests and enforces limit_tests.
 *
 * Speculation (HDD): a step has n candidates, often fewer than the oracle
 * runs at once.  dd_speculate() fills the idle slots of an oracle call with
 * what the following steps would test, on the branch where none of the
 * call's candidates fails and on the branch where candidate k is the first
 * to fail, and within those branches again, the likeliest first.  It finds
 * out what a branch tests by running the search again from the start with
 * the branch's outcomes assumed (dd_lookahead(): the cache answers the
 * past, the assumptions this call, and the run stops at the first step it
 * cannot decide): one search, no second copy of its logic to keep in step.
 * Speculative outcomes only feed the cache, so the result is the same as
 * without them.
 *
 * No X here: the oracle is whatever the caller passes (the replayer, or a fake
 * predicate in tests/unit/test-dd.c).
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd.h"
#include "suffix.h"

#include <string.h>

G_DEFINE_QUARK (dd-error-quark, dd_error)

/* What the cache knows about one candidate. */
typedef struct {
  gboolean failed;  /* one DD_FAIL is enough */
  guint passes;     /* DD_PASS or DD_UNRESOLVED outcomes so far */
} CacheEntry;

typedef struct {
  DdOptions opts;
  DdTestFunc test;
  gpointer test_data;
  GHashTable *cache;   /* GBytes (sorted guint set) -> CacheEntry; owns both */
  GArray *current;     /* guint, ascending: the smallest known failing set; owned */
  DdStats stats;
  gboolean stopped;    /* limit_tests reached (or a lookahead's end): unwind and
                          return what we have */
  const DdLevel *levels;  /* the hierarchy dd_run() searches, for lookaheads */
  guint n_levels;
  GArray *input;       /* guint, ascending: the input as it really tests; owned */
  guint64 n_failed;    /* of the tests, those that failed (the fail rate's estimate) */
  /* A lookahead (dd_lookahead) is a Dd that asks no oracle: */
  gboolean lookahead;
  GHashTable *assumed; /* lookahead: GBytes -> ASSUME_PASS or ASSUME_FAIL; not owned */
  GPtrArray *frontier; /* lookahead: the undecided candidates of the first batch it
                          could not decide, in order (GArray*); owned */
} Dd;

#define ASSUME_PASS GINT_TO_POINTER (1)
#define ASSUME_FAIL GINT_TO_POINTER (2)

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

/* Sorts @array ascending and removes duplicates. */
static void
sort_unique (GArray *array)
{
  guint out = 0;

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

static GBytes *
key_for (GArray *set)
{
  return g_bytes_new (set->data, set->len * sizeof (guint));
}


/* What @set (sorted) really tests, as the caller's normalize callback
 * says: a new array, a sorted subset of @set (anything else the callback
 * returns is ignored). */
static GArray *
dd_normalize (Dd *dd, GArray *set)
{
  g_autoptr (GArray) said = NULL;
  GArray *out = uint_array_new ();

  if (dd->opts.normalize == NULL)
    {
      g_array_append_vals (out, set->data, set->len);
      return out;
    }
  said = uint_array_new ();
  dd->opts.normalize ((const guint *) set->data, set->len, said, dd->opts.user_data);
  sort_unique (said);
  for (guint i = 0; i < said->len; i++)
    if (contains (set, g_array_index (said, guint, i)))
      g_array_append_val (out, g_array_index (said, guint, i));
  return out;
}

/* Replaces every candidate of @cands by what it really tests. */
static void
normalize_all (Dd *dd, GPtrArray *cands)
{
  if (dd->opts.normalize == NULL)
    return;
  for (guint i = 0; i < cands->len; i++)
    {
      GArray *old = g_ptr_array_index (cands, i);
      cands->pdata[i] = dd_normalize (dd, old);
      g_array_unref (old);
    }
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

static CacheEntry *
cache_lookup (Dd *dd, GArray *set, gboolean *existed)
{
  g_autoptr(GBytes) key = key_for (set);
  CacheEntry *entry = g_hash_table_lookup (dd->cache, key);

  *existed = entry != NULL;
  if (entry == NULL)
    {
      entry = g_new0 (CacheEntry, 1);
      g_hash_table_insert (dd->cache, g_steal_pointer (&key), entry);
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
  guint if_fails;     /* as DdCandidate's: 0, or the call's index of its branch's candidate + 1 */
} Guess;

static void
guess_free (Guess *guess)
{
  g_array_unref (guess->set);
  g_free (guess);
}

/* Sends @n requests (indices into @cands) and the speculative @guesses to
 * the oracle in one call and records the outcomes.  Sets *saw_fail if one
 * of the requests failed. */
static gboolean
dd_call_oracle (Dd *dd, GPtrArray *cands, CacheEntry **entries,
                const guint *req, guint n, GPtrArray *guesses, gboolean *saw_fail,
                GError **error)
{
  guint total = n + guesses->len;
  g_autofree DdCandidate *dc = g_new0 (DdCandidate, total);
  g_autofree DdOutcome *outcomes = g_new (DdOutcome, total);
  g_autoptr(GError) local_error = NULL;

  for (guint k = 0; k < total; k++)
    {
      GArray *set;

      if (k < n)
        set = g_ptr_array_index (cands, req[k]);
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
      CacheEntry *entry = entries[req[k]];
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
      gboolean existed;
      CacheEntry *entry;

      if (outcomes[k] != DD_PASS && outcomes[k] != DD_UNRESOLVED && outcomes[k] != DD_FAIL)
        continue;
      entry = cache_lookup (dd, guess->set, &existed);
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

/* What the cache, or in a lookahead what it assumes, says of @set. */
static Known
dd_known (Dd *dd, GArray *set)
{
  g_autoptr(GBytes) key = key_for (set);
  gpointer assumed = dd->assumed != NULL ? g_hash_table_lookup (dd->assumed, key) : NULL;
  CacheEntry *entry;

  if (assumed != NULL)
    return assumed == ASSUME_FAIL ? KNOWN_FAIL : KNOWN_PASS;
  entry = g_hash_table_lookup (dd->cache, key);
  if (entry != NULL && entry->failed)
    return KNOWN_FAIL;
  if (entry != NULL && runs_needed (dd, entry) == 0)
    return KNOWN_PASS;
  return KNOWN_NOT;
}

static gboolean
sets_equal (GArray *a, GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (guint)) == 0;
}

/* dd_run_batch() in a lookahead: decides the batch if what is known and
 * assumed can; else the undecided candidates before the first known
 * failure are the frontier, and the lookahead stops. */
static void
dd_lookahead_batch (Dd *dd, GPtrArray *cands, gint *first_fail)
{
  *first_fail = -1;
  normalize_all (dd, cands);
  for (guint i = 0; i < cands->len; i++)
    {
      GArray *set = g_ptr_array_index (cands, i);
      Known known = dd_known (dd, set);
      gboolean seen = FALSE;

      if (known == KNOWN_FAIL)
        {
          if (dd->frontier->len == 0)
            *first_fail = (gint) i;
          break;
        }
      if (known == KNOWN_PASS)
        continue;
      for (guint k = 0; k < dd->frontier->len && !seen; k++)
        seen = sets_equal (g_ptr_array_index (dd->frontier, k), set);
      if (!seen)
        g_ptr_array_add (dd->frontier, g_array_ref (set));
    }
  dd->stopped = dd->frontier->len > 0;
}

static gboolean dd_run (Dd *dd, const DdLevel *levels, guint n_levels, GError **error);

/* What the search would ask next if the outcomes @assumed (GBytes ->
 * ASSUME_PASS or ASSUME_FAIL) were known: it runs again from the start,
 * the cache answering what was tested, the assumptions the rest, until a
 * batch it cannot decide.  Returns that batch's undecided candidates, in
 * order (a new list of GArray*), or NULL if the search would end. */
static GPtrArray *
dd_lookahead (Dd *dd, GHashTable *assumed)
{
  Dd ahead = { .opts = dd->opts, .cache = dd->cache, .levels = dd->levels,
               .n_levels = dd->n_levels, .input = dd->input, .lookahead = TRUE,
               .assumed = assumed };
  GPtrArray *frontier = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  ahead.opts.progress = NULL;
  ahead.opts.improved = NULL;
  ahead.opts.limit_tests = 0;
  ahead.frontier = frontier;
  ahead.current = g_array_ref (dd->input);
  dd_run (&ahead, dd->levels, dd->n_levels, NULL);
  g_array_unref (ahead.current);
  if (frontier->len == 0)
    g_clear_pointer (&frontier, g_ptr_array_unref);
  return frontier;
}

/* An option of dd_speculate(): a branch to look ahead on (@set NULL), or
 * a candidate in one. */
typedef struct {
  double odds;           /* the chance that it is wanted, as guessed */
  GHashTable *assumed;   /* what it assumes (a candidate: also that the ones before it
                            in its sequence pass); owned */
  GArray *set;           /* owned, or NULL */
  guint if_fails;        /* the sequence it is in, as DdCandidate's */
} Option;

static void
option_free (Option *option)
{
  g_hash_table_unref (option->assumed);
  if (option->set != NULL)
    g_array_unref (option->set);
  g_free (option);
}

static GHashTable *
assumed_new (void)
{
  return g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                NULL);
}

/* A copy of @assumed that also assumes @what of @set. */
static GHashTable *
assumed_with (GHashTable *assumed, GArray *set, gpointer what)
{
  GHashTable *copy = assumed_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, assumed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_bytes_ref (key), value);
  g_hash_table_insert (copy, key_for (set), what);
  return copy;
}

static void
option_add (GPtrArray *options, double odds, GHashTable *assumed, GArray *set, guint if_fails)
{
  Option *option = g_new (Option, 1);

  *option = (Option) { .odds = odds, .assumed = assumed, .set = set, .if_fails = if_fails };
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

/* What fills @slots idle slots of an oracle call of @n requests (indices
 * into @cands): the candidates the following batches would test, on the
 * branch where none of the requests fails and on each branch where one is
 * the first to, and deeper; the likeliest first.  A candidate is guessed
 * to fail as often as the tests so far did; each is wanted if its branch
 * is taken and the ones before it in its sequence pass.  Returns a list of
 * Guess, in the order of the call (a branch's candidate before the
 * branch, a sequence in its order). */
static GPtrArray *
dd_speculate (Dd *dd, GPtrArray *cands, const guint *req, guint n, guint slots)
{
  GPtrArray *guesses = g_ptr_array_new_with_free_func ((GDestroyNotify) guess_free);
  g_autoptr(GPtrArray) options = NULL;
  g_autoptr(GHashTable) in_call = NULL;
  GHashTable *assumed;
  double q, odds = 1.0;
  guint lookaheads = 0, max_lookaheads = 2 * slots + 2;

  if (slots == 0 || dd->opts.algorithm != DD_ALGORITHM_HDD || dd->lookahead)
    return guesses;
  q = (dd->n_failed + 1.0) / (dd->stats.tests + 2.0);
  options = g_ptr_array_new_with_free_func ((GDestroyNotify) option_free);
  in_call = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                   NULL);
  assumed = assumed_new ();
  for (guint k = 0; k < n; k++)
    {
      GArray *set = g_ptr_array_index (cands, req[k]);
      GHashTable *next;

      if (!g_hash_table_add (in_call, key_for (set)))
        continue;   /* one more run of a candidate (confirm_passes) */
      option_add (options, odds * q, assumed_with (assumed, set, ASSUME_FAIL), NULL, k + 1);
      next = assumed_with (assumed, set, ASSUME_PASS);
      g_hash_table_unref (assumed);
      assumed = next;
      odds *= 1.0 - q;
    }
  option_add (options, odds, assumed, NULL, 0);

  /* Each lookahead runs the search again: a few more than the slots. */
  while (slots > 0 && options->len > 0 && lookaheads < max_lookaheads)
    {
      Option *option = option_take_likeliest (options);

      if (option->set == NULL)
        {
          g_autoptr(GPtrArray) frontier = dd_lookahead (dd, option->assumed);
          GHashTable *ahead = g_hash_table_ref (option->assumed);

          lookaheads++;
          odds = option->odds;
          for (guint j = 0; frontier != NULL && j < frontier->len; j++)
            {
              GArray *set = g_ptr_array_index (frontier, j);
              GHashTable *next = assumed_with (ahead, set, ASSUME_PASS);

              option_add (options, odds, ahead, g_array_ref (set), option->if_fails);
              ahead = next;
              odds *= 1.0 - q;
            }
          if (frontier != NULL)
            option_add (options, odds, ahead, NULL, option->if_fails);
          else
            g_hash_table_unref (ahead);
        }
      else if (g_hash_table_add (in_call, key_for (option->set)))
        {
          Guess *guess = g_new (Guess, 1);

          *guess = (Guess) { .set = g_array_ref (option->set), .if_fails = option->if_fails };
          g_ptr_array_add (guesses, guess);
          slots--;
          option_add (options, option->odds * q,
                      assumed_with (option->assumed, option->set, ASSUME_FAIL), NULL,
                      n + guesses->len);
        }
      option_free (option);
    }
  return guesses;
}

/* Tests @cands (GArray* of sorted guint) as one ordered batch: *first_fail
 * is the index of the first candidate that fails, or -1 if none does.  A
 * candidate that does not fail is decided once it has passed
 * confirm_passes times; the first failing candidate only wins once every
 * earlier one is decided.  If limit_tests stops it first, dd->stopped is set
 * and *first_fail is the first candidate known to fail, if any.
 * The oracle calls' idle slots get speculative candidates (dd_speculate). */
static gboolean
dd_run_batch (Dd *dd, GPtrArray *cands, gint *first_fail, GError **error)
{
  guint n = cands->len;
  guint confirm = dd->opts.confirm_passes;
  g_autofree CacheEntry **entries = NULL;
  g_autofree gboolean *cached = NULL;
  g_autofree gboolean *dup = NULL;
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GArray) req = NULL;

  if (dd->lookahead)
    {
      dd_lookahead_batch (dd, cands, first_fail);
      return TRUE;
    }

  entries = g_new (CacheEntry *, n);
  cached = g_new (gboolean, n);
  dup = g_new0 (gboolean, n);
  seen = g_hash_table_new (NULL, NULL);
  req = uint_array_new ();
  *first_fail = -1;
  normalize_all (dd, cands);
  for (guint i = 0; i < n; i++)
    {
      entries[i] = cache_lookup (dd, g_ptr_array_index (cands, i), &cached[i]);
      /* A repeated candidate cannot be the first failure: its first copy is. */
      dup[i] = !g_hash_table_add (seen, entries[i]);
    }

  for (guint round = 0;; round++)
    {
      gint fail_at = -1;

      /* Plan: every undecided candidate before the first known failure,
       * once per pass it still needs. */
      g_array_set_size (req, 0);
      for (guint i = 0; i < n && fail_at < 0; i++)
        {
          CacheEntry *entry = entries[i];
          if (dup[i])
            continue;
          if (entry->failed || entry->passes >= confirm)
            {
              if (round == 0 && cached[i])
                dd->stats.cache_hits++;
              if (entry->failed)
                fail_at = i;
              continue;
            }
          for (guint k = entry->passes; k < confirm; k++)
            g_array_append_val (req, i);
        }
      if (req->len == 0)
        {
          *first_fail = fail_at;
          return TRUE;
        }

      /* Run the plan in chunks, and plan again after a failure. */
      for (guint off = 0; off < req->len;)
        {
          guint room = MAX (dd->opts.parallel, 1);
          guint size, spare;
          gboolean saw_fail = FALSE;
          g_autoptr(GPtrArray) guesses = NULL;

          if (dd->opts.limit_tests > 0)
            {
              if (dd->stats.tests >= dd->opts.limit_tests)
                {
                  dd->stopped = TRUE;
                  dd->stats.hit_limit = TRUE;
                  for (guint i = 0; i < n; i++)
                    if (entries[i]->failed)
                      {
                        *first_fail = i;
                        break;
                      }
                  return TRUE;
                }
              room = (guint) MIN (room, dd->opts.limit_tests - dd->stats.tests);
            }
          size = MIN (room, req->len - off);
          spare = room - size;
          if (spare > 0 && dd->opts.spare_slots != NULL && !dd->lookahead)
            spare = MIN (spare, dd->opts.spare_slots (size, room, dd->opts.user_data));
          guesses = dd_speculate (dd, cands, &g_array_index (req, guint, off), size, spare);
          if (!dd_call_oracle (dd, cands, entries, &g_array_index (req, guint, off),
                               size, guesses, &saw_fail, error))
            return FALSE;
          if (saw_fail)
            break;
          off += size;
        }
    }
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

/* The complements of chunk (@start + k) % @n, k = 0 .. n-1, of @parts. */
static void
add_complements (GPtrArray *parts, guint n, guint start, GPtrArray *cands)
{
  guint len = parts->len;

  for (guint k = 0; k < n; k++)
    {
      guint i = (start + k) % n;
      g_ptr_array_add (cands, union_of (parts, i * len / n, (i + 1) * len / n, TRUE));
    }
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
 * On return @parts is what survived. */
static gboolean
dd_level_hdd (Dd *dd, GPtrArray **parts_inout, guint known, const GArray *typed,
              GError **error)
{
  guint len = (*parts_inout)->len, start = 0;
  /* At least @known of the parts matter (the level above kept that many
   * units, each needed): rounds with fewer chunks would remove nothing. */
  guint n = MIN (MAX (known, 2), len);

  if ((n > 2 && 4 * n >= len) || mostly_typed (*parts_inout, typed))
    n = len;

  while ((*parts_inout)->len > 1 && n > 0 && !dd->stopped)
    {
      g_autoptr(GPtrArray) cands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      gint f = -1;

      add_complements (*parts_inout, n, start, cands);
      if (!dd_run_batch (dd, cands, &f, error))
        return FALSE;
      if (f < 0)
        {
          n = next_granularity (n, (*parts_inout)->len);
          start = 0;
          continue;
        }
      {
        guint chunk = (start + (guint) f) % n;

        dd_adopt_complement (dd, parts_inout, g_ptr_array_index (cands, f), chunk, n);
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
          g_autoptr(GPtrArray) cands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
          gint f = -1;

          if (!complement && n < 2)
            continue;
          for (guint i = 0; i < n; i++)
            g_ptr_array_add (cands, union_of (*parts_inout, i * len / n, (i + 1) * len / n,
                                              complement));
          if (!dd_run_batch (dd, cands, &f, error))
            return FALSE;
          if (f < 0)
            continue;
          if (complement)
            dd_adopt_complement (dd, parts_inout, g_ptr_array_index (cands, f), f, n);
          else
            {
              g_autoptr (GPtrArray) kept = parts_select (*parts_inout, f * len / n,
                                                         (f + 1) * len / n, FALSE);
              dd_adopt (dd, g_ptr_array_index (cands, f));
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
 * @typed: the elements typed in runs of typing (nullable). */
static gboolean
dd_level (Dd *dd, GPtrArray **parts_inout, guint known, const GArray *typed, GError **error)
{
  return dd->opts.algorithm == DD_ALGORITHM_DDMIN
           ? dd_level_classic (dd, parts_inout, error)
           : dd_level_hdd (dd, parts_inout, known, typed, error);
}

/* Tests every one-element removal of the current set (mostly cache hits
 * after dd_level()).  Adopts the first that fails and sets *found. */
static gboolean
dd_verify (Dd *dd, gboolean *found, GError **error)
{
  g_autoptr(GPtrArray) cands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *cur = dd->current;
  gint f = -1;

  for (guint i = 0; i < cur->len; i++)
    {
      GArray *set = uint_array_new ();
      g_array_append_vals (set, cur->data, i);
      g_array_append_vals (set, &g_array_index (cur, guint, i + 1), cur->len - i - 1);
      g_ptr_array_add (cands, set);
    }
  if (!dd_run_batch (dd, cands, &f, error))
    return FALSE;
  *found = f >= 0;
  if (f >= 0)
    dd_adopt (dd, g_ptr_array_index (cands, f));
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
  g_autoptr (GPtrArray) cands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n = suffixes_get_n (suffixes);
  gint f = -1;

  for (guint i = 0; i < n; i++)
    {
      const DdCandidate *cand = &suffixes_get_candidates (suffixes)[i];
      GArray *set = uint_array_new ();

      g_array_append_vals (set, cand->elems, cand->n_elems);
      g_ptr_array_add (cands, set);
    }
  if (n == 0 || !dd_run_batch (dd, cands, &f, error))
    return n == 0;
  if (f >= 0)
    {
      dd->stats.suffix_units = suffixes_get_n_units (suffixes, (guint) f);
      dd_adopt (dd, g_ptr_array_index (cands, f));
    }
  return TRUE;
}

/* Tries removing each of @parts in turn, in batches: the first removal
 * that still fails is kept, and the tries go on after it. */
static gboolean
dd_greedy (Dd *dd, GPtrArray *parts, GError **error)
{
  for (guint next = 0; next < parts->len && !dd->stopped;)
    {
      g_autoptr (GPtrArray) cands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      gint f = -1;

      for (guint i = next; i < parts->len; i++)
        {
          GArray *part = g_ptr_array_index (parts, i);
          GArray *set = uint_array_new ();

          for (guint k = 0; k < dd->current->len; k++)
            {
              guint elem = g_array_index (dd->current, guint, k);
              gboolean removed = FALSE;

              for (guint j = 0; j < part->len && !removed; j++)
                removed = g_array_index (part, guint, j) == elem;
              if (!removed)
                g_array_append_val (set, elem);
            }
          g_ptr_array_add (cands, set);
        }
      if (!dd_run_batch (dd, cands, &f, error))
        return FALSE;
      if (f < 0)
        break;
      dd_adopt (dd, g_ptr_array_index (cands, f));
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

static gboolean
dd_run (Dd *dd, const DdLevel *levels, guint n_levels, GError **error)
{
  guint known = 0;   /* units the last ddmin level kept: each is needed */
  const GArray *typed = NULL;   /* the typed elements, as the levels say */

  for (guint l = 0; l < n_levels; l++)
    typed = levels[l].typed != NULL ? levels[l].typed : typed;

  /* The hierarchy (HDD only): the last units of the top level first, then
   * each level's units (phrases, gestures) as they survive. */
  for (guint l = 0; dd->opts.algorithm == DD_ALGORITHM_HDD && l < n_levels && !dd->stopped; l++)
    {
      g_autoptr (GPtrArray) parts = level_parts (dd, &levels[l]);

      if (l == 0 && dd->opts.last_units_first)
        {
          if (!dd_suffixes (dd, parts, error))
            return FALSE;
          g_ptr_array_unref (parts);
          parts = level_parts (dd, &levels[l]);
        }
      if (levels[l].greedy)
        {
          if (!dd_greedy (dd, parts, error))
            return FALSE;
          continue;
        }
      if (parts->len < 2 || all_singletons (parts) || dd->stopped)
        continue;
      if (!dd->lookahead)
        g_debug ("level %u: %u units, %u elements, %" G_GUINT64_FORMAT " tests so far", l,
                 parts->len, dd->current->len, dd->stats.tests);
      if (!dd_level (dd, &parts, known, levels[l].typed, error))
        return FALSE;
      known = parts->len;
    }
  if (!dd->lookahead)
    g_debug ("single elements: %u, %" G_GUINT64_FORMAT " tests so far", dd->current->len,
             dd->stats.tests);

  /* Single elements, until verification finds nothing to remove. */
  while (!dd->stopped)
    {
      g_autoptr (GPtrArray) parts = singletons (dd->current);
      gboolean found = FALSE;

      if (!dd_level (dd, &parts, known, typed, error))
        return FALSE;
      if (dd->stopped)
        break;
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

  cache = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                 (GDestroyNotify) g_bytes_unref, g_free);
  dd.cache = cache;
  {
    g_autoptr (GArray) all = union_of (parts, 0, 0, TRUE);
    gboolean existed;

    /* The input as it really tests; the caller checked that it fails. */
    dd.input = dd_normalize (&dd, all);
    dd.current = g_array_ref (dd.input);
    cache_lookup (&dd, dd.current, &existed)->failed = TRUE;
  }
  dd.stats.n_initial = dd.stats.n_current = dd.current->len;

  ok = dd_run (&dd, levels, n_levels, error);
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
