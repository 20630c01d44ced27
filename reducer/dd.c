/* dd.c: delta debugging (ddmin, and hierarchical complement-first ddmin).
 *
 * Start reading at dd_reduce() at the bottom.  It builds a Dd context, runs
 * dd_level() once over the units (gestures) and then over the single elements
 * that survived, and finishes with dd_verify(), which checks 1-minimality by
 * testing every one-element removal the cache has not already answered.
 *
 * Every oracle question goes through dd_run_batch(): it answers what it can
 * from the cache (keyed by the candidate's sorted element set), sends the rest
 * to the DdTestFunc in chunks of options.parallel, re-tests passes when
 * confirm_passes > 1, counts tests and enforces limit_tests.
 *
 * Speculation (HDD): a step has n candidates, often fewer than the oracle
 * runs at once. add_speculative() fills the idle slots with what the next
 * steps would test if this one finds no failure; their outcomes only feed
 * the cache, so the result is the same as without them.
 *
 * No X here: the oracle is whatever the caller passes (the replayer, or a fake
 * predicate in tests/unit/test-dd.c).
 */
#include "dd.h"

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
  gboolean stopped;    /* limit_tests reached: unwind and return what we have */
  guint n_real;        /* in the batch being run: candidates before this index are
                          the step's own, the others speculative */
} Dd;

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

/* Sends @n requests (indices into @cands) to the oracle in one call and
 * records the outcomes.  Sets *saw_fail if one failed. */
static gboolean
dd_call_oracle (Dd *dd, GPtrArray *cands, CacheEntry **entries,
                const guint *req, guint n, gboolean *saw_fail, GError **error)
{
  g_autofree DdCandidate *dc = g_new (DdCandidate, n);
  g_autofree DdOutcome *outcomes = g_new (DdOutcome, n);
  g_autoptr(GError) local_error = NULL;

  for (guint k = 0; k < n; k++)
    {
      GArray *set = g_ptr_array_index (cands, req[k]);
      dc[k].elems = (const guint *) set->data;
      dc[k].n_elems = set->len;
      outcomes[k] = DD_CANCELLED;
    }

  dd->stats.batches++;
  if (!dd->test (dc, n, outcomes, dd->test_data, &local_error))
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
          break;
        case DD_CANCELLED:
        default:
          g_set_error (error, DD_ERROR, DD_ERROR_ORACLE,
                       "oracle left candidate %u of %u untested without a failure before it",
                       k + 1, n);
          return FALSE;
        }
      dd->stats.tests++;
      if (req[k] >= dd->n_real)
        dd->stats.speculative++;
    }
  /* Anything after the first failure is ignored, as the contract says. */

  if (dd->opts.progress != NULL)
    dd->opts.progress (&dd->stats, dd->opts.user_data);
  return TRUE;
}

/* Tests @cands (GArray* of sorted guint) as one ordered batch: *first_fail
 * is the index of the first candidate that fails, or -1 if none does.  A
 * candidate that does not fail is decided once it has passed
 * confirm_passes times; the first failing candidate only wins once every
 * earlier one is decided.  If limit_tests stops it first, dd->stopped is set
 * and *first_fail is the first candidate known to fail, if any.
 * Candidates from @n_real on are speculative: they are tested in the same
 * batch, after the others, but are never the batch's failure. */
static gboolean
dd_run_batch (Dd *dd, GPtrArray *cands, guint n_real, gint *first_fail, GError **error)
{
  guint n = cands->len;
  guint confirm = dd->opts.confirm_passes;
  g_autofree CacheEntry **entries = g_new (CacheEntry *, n);
  g_autofree gboolean *cached = g_new (gboolean, n);
  g_autofree gboolean *dup = g_new0 (gboolean, n);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) req = uint_array_new ();

  *first_fail = -1;
  dd->n_real = n_real;
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
          *first_fail = fail_at < (gint) n_real ? fail_at : -1;
          return TRUE;
        }

      /* Run the plan in chunks, and plan again after a failure. */
      for (guint off = 0; off < req->len;)
        {
          guint size = MIN (MAX (dd->opts.parallel, 1), req->len - off);
          gboolean saw_fail = FALSE;

          if (dd->opts.limit_tests > 0)
            {
              if (dd->stats.tests >= dd->opts.limit_tests)
                {
                  dd->stopped = TRUE;
                  dd->stats.hit_limit = TRUE;
                  for (guint i = 0; i < n_real; i++)
                    if (entries[i]->failed)
                      {
                        *first_fail = i;
                        break;
                      }
                  return TRUE;
                }
              size = (guint) MIN (size, dd->opts.limit_tests - dd->stats.tests);
            }
          if (!dd_call_oracle (dd, cands, entries, &g_array_index (req, guint, off),
                               size, &saw_fail, error))
            return FALSE;
          if (saw_fail)
            break;
          off += size;
        }
    }
}

/* Appends to @cands (the candidates of the step at granularity @n, the
 * complements if @complement) what the following steps of dd_level()
 * would test if this one finds no failure, in their order: the subsets at
 * @n (but at 2, where they are the complements), then the complements and
 * the subsets at 2n, and so on, as long as the batch has idle slots (of
 * opts.parallel) and skipping what the cache has decided. */
static void
add_speculative (Dd *dd, GPtrArray *parts, guint n, gboolean complement, GPtrArray *cands)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                      (GDestroyNotify) g_bytes_unref, NULL);
  guint len = parts->len, slots = dd->opts.parallel;

  for (guint i = 0; i < cands->len; i++)
    {
      GBytes *key = key_for (g_ptr_array_index (cands, i));
      guint need = runs_needed (dd, g_hash_table_lookup (dd->cache, key));

      if (g_hash_table_add (seen, key))
        slots -= MIN (slots, need);
    }
  while (slots > 0)
    {
      if (complement && n > 2)
        complement = FALSE;
      else if (n >= len)
        return;
      else
        {
          n = MIN (2 * n, len);
          complement = TRUE;
        }
      for (guint i = 0; i < n; i++)
        {
          GArray *set = union_of (parts, i * len / n, (i + 1) * len / n, complement);
          GBytes *key = key_for (set);
          guint need = runs_needed (dd, g_hash_table_lookup (dd->cache, key));

          if (set->len == 0 || need == 0 || !g_hash_table_add (seen, key))
            {
              if (set->len == 0 || need == 0)
                g_bytes_unref (key);
              g_array_unref (set);
              continue;
            }
          if (need > slots)
            {
              g_array_unref (set);
              return;
            }
          g_ptr_array_add (cands, set);
          slots -= need;
        }
    }
}

/* One ddmin over @parts (GArray* of guint, the current failing set is their
 * union); on return @parts is what survived.  Complement-first with batches
 * for HDD, the original subsets-then-complements for DDMIN. */
static gboolean
dd_level (Dd *dd, GPtrArray **parts_inout, GError **error)
{
  gboolean classic = dd->opts.algorithm == DD_ALGORITHM_DDMIN;
  GPtrArray *parts = *parts_inout;
  guint n = MIN (2, parts->len);

  while (parts->len > 0 && !dd->stopped)
    {
      guint len = parts->len;
      gboolean reduced = FALSE;

      /* classic: pass 0 = subsets, pass 1 = complements; HDD the other way
       * round.  The original algorithm has no use for n == 1 (the only
       * complement is the empty set); verification asks it instead. */
      if (classic && len < 2)
        break;
      for (guint pass = 0; pass < 2 && !reduced && !dd->stopped; pass++)
        {
          gboolean complement = classic ? pass == 1 : pass == 0;
          g_autoptr(GPtrArray) cands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
          guint n_real;
          gint f = -1;

          /* At n == 1 the subset is the whole set; at n == 2 HDD's subsets
           * are the complements it just tested. */
          if (!complement && (n < 2 || (!classic && n == 2)))
            continue;
          for (guint i = 0; i < n; i++)
            g_ptr_array_add (cands, union_of (parts, i * len / n, (i + 1) * len / n, complement));
          n_real = cands->len;
          if (!classic)
            add_speculative (dd, parts, n, complement, cands);
          if (!dd_run_batch (dd, cands, n_real, &f, error))
            return FALSE;
          if (f < 0)
            continue;

          GPtrArray *kept = parts_select (parts, f * len / n, (f + 1) * len / n, complement);
          g_ptr_array_unref (parts);
          *parts_inout = parts = kept;
          dd_adopt (dd, g_ptr_array_index (cands, f));
          n = complement ? MAX (n - 1, 2) : 2;
          n = MIN (n, parts->len);
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
  if (!dd_run_batch (dd, cands, cands->len, &f, error))
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

static gboolean
dd_run (Dd *dd, GPtrArray *units, GError **error)
{
  gboolean flat = TRUE;

  for (guint i = 0; i < units->len; i++)
    flat = flat && ((GArray *) g_ptr_array_index (units, i))->len == 1;

  /* Level 1 (HDD only): whole gestures. */
  if (dd->opts.algorithm == DD_ALGORITHM_HDD && !flat)
    {
      g_autoptr(GPtrArray) parts = g_ptr_array_ref (units);
      if (!dd_level (dd, &parts, error))
        return FALSE;
    }

  /* Level 2: single elements, until verification finds nothing to remove. */
  while (!dd->stopped)
    {
      g_autoptr(GPtrArray) parts = singletons (dd->current);
      gboolean found = FALSE;

      if (!dd_level (dd, &parts, error))
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
  g_return_val_if_fail (units != NULL || n_units == 0, FALSE);
  g_return_val_if_fail (test != NULL, FALSE);
  g_return_val_if_fail (result != NULL && n_result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  Dd dd = { .test = test, .test_data = test_data };
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) cache = NULL;
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

  for (guint i = 0; i < n_units; i++)
    {
      GArray *unit = uint_array_new ();
      g_array_append_vals (unit, units[i]->data, units[i]->len);
      sort_unique (unit);
      if (unit->len > 0)
        g_ptr_array_add (parts, unit);
      else
        g_array_unref (unit);
    }

  cache = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                 (GDestroyNotify) g_bytes_unref, g_free);
  dd.cache = cache;
  dd.current = union_of (parts, 0, 0, TRUE);
  dd.stats.n_initial = dd.stats.n_current = dd.current->len;
  {
    gboolean existed;
    cache_lookup (&dd, dd.current, &existed)->failed = TRUE;  /* the caller checked */
  }

  ok = dd_run (&dd, parts, error);
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
  return ok;
}
