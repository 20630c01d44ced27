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
 * Every oracle question goes through dd_run_batch() (dd-batch.c): it
 * answers what it can from the cache (keyed by a digest of the candidate's
 * sorted element set), sends the rest to the DdTestFunc in chunks of
 * options.parallel, re-tests passes when confirm_passes > 1, counts tests
 * and enforces limit_tests.
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
 * Speculation (HDD, dd-speculate.c): a step has n candidates, often fewer
 * than the oracle runs at once.  dd_speculate() fills the idle slots of an
 * oracle call with what the following steps would test, on the branch
 * where none of the call's candidates fails and on the branch where
 * candidate k is the first to fail, and within those branches again, the
 * likeliest first.  It finds out what a branch tests by running the search
 * on with the branch's outcomes assumed (dd_lookahead(): from where the
 * search is, At, with the cache answering the past, the assumptions this
 * call, until the first step it cannot decide): one search, no second copy
 * of its logic to keep in step.  Speculative outcomes only feed the cache,
 * so the result is the same as without them.
 *
 * The files: dd.c the search (the levels, dd_run()), dd-batch.c the
 * batches, dd-speculate.c the speculation, dd-sets.c the sets, digests
 * and cache; their shared state, Dd, is in dd-private.h.  A lookahead
 * runs dd_run() through Dd.run, so no file calls one above it.
 *
 * No X here: the oracle is whatever the caller passes (the replayer, or a fake
 * predicate in tests/unit/test-dd.c).
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd-private.h"
#include "suffix.h"

#include <string.h>

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

/* @parts cut to the current set: each part's elements in it, empty parts
 * dropped. A new list. */
static GPtrArray *
parts_cut (Dd *dd, GPtrArray *parts)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < parts->len; i++)
    {
      GArray *part = g_ptr_array_index (parts, i);
      GArray *cut = dd_uint_array_new ();

      for (guint k = 0; k < part->len; k++)
        if (dd_contains (dd->current, g_array_index (part, guint, k)))
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

      if (dd_contains ((GArray *) typed, g_array_index (part, guint, 0)))
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
      GArray *part = dd_uint_array_new ();
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
      GArray *set = dd_uint_array_new ();

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
      GArray *unit = dd_uint_array_new ();

      g_array_append_vals (unit, level->units[i]->data, level->units[i]->len);
      dd_sort_unique (unit);
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
dd_reduce_hierarchy (const DdLevel *levels, guint n_levels, DdTestFunc test, gpointer test_data,
                     const DdOptions *options, guint **result, guint *n_result, DdStats *stats,
                     GError **error)
{
  g_return_val_if_fail (levels != NULL && n_levels > 0, FALSE);
  g_return_val_if_fail (levels[0].units != NULL || levels[0].n_units == 0, FALSE);
  g_return_val_if_fail (test != NULL, FALSE);
  g_return_val_if_fail (result != NULL && n_result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  Dd dd = { .test = test, .test_data = test_data, .levels = levels, .n_levels = n_levels,
            .run = dd_run };
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
        GArray *unit = dd_uint_array_new ();
        g_array_append_vals (unit, levels[l].units[i]->data, levels[l].units[i]->len);
        g_ptr_array_add (parts, unit);
      }

  cache = dd_digest_table_new ();
  dd.cache = cache;
  for (guint l = 0; l < n_levels; l++)
    dd.typed = levels[l].typed != NULL ? levels[l].typed : dd.typed;
  /* Not for a flaky failure: a pass there is only likely, and asking
   * again, from a smaller set, is what corrects a wrong one. */
  if (dd.typed != NULL && dd.opts.algorithm == DD_ALGORITHM_HDD && !dd.opts.no_inference
      && dd.opts.confirm_passes == 1)
    {
      dd.needed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      dd.needed_seen = dd_digest_table_new ();
    }
  {
    g_autoptr (GArray) all = dd_union_of (parts, 0, 0, TRUE);
    Digest d;

    /* The input as it really tests; the caller checked that it fails. */
    g_clear_pointer (&parts, g_ptr_array_unref);
    dd.input = dd_normalize (&dd, all);
    dd.current = g_array_ref (dd.input);
    d = dd_digest_of (dd.current);
    dd_cache_get (&dd, &d)->failed = TRUE;
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
  g_clear_pointer (&dd.needed, g_ptr_array_unref);
  g_clear_pointer (&dd.needed_seen, g_hash_table_unref);
  return ok;
}

