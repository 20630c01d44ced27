/* dd-batch.c: the oracle's batches for the delta debugging search (see
 * dd-private.h).
 *
 * Start reading at dd_run_batch(): every oracle question of the search
 * goes through it.  It answers what it can from the cache, sends the rest
 * to the DdTestFunc in chunks of options.parallel (dd_call_oracle), with
 * speculative candidates in a chunk's idle slots (dd-speculate.c),
 * re-tests passes when confirm_passes > 1, counts tests and enforces
 * limit_tests.  No X.
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd-private.h"

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
      entry = dd_cache_get (dd, &guess->digest);
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
      Digest d = dd_digest_of (s);
      gpointer first = g_hash_table_lookup (seen, &d);

      /* A repeated candidate cannot be the first failure: its first copy is. */
      if (first != NULL && GPOINTER_TO_UINT (first) != i + 1)
        continue;
      if (first == NULL)
        dd_digest_table_add (seen, &d, GUINT_TO_POINTER (i + 1));
      *entry = dd_cache_get (dd, &d);
      *index = i;
      if ((*entry)->failed)
        return SCAN_FAILED;
      if (dd_runs_needed (dd, *entry) == 0)
        return SCAN_PASSED;
      if (dd_infer_passes (dd, cands, i))
        {
          (*entry)->passes = dd->opts.confirm_passes;
          dd->stats.inferred++;
          return SCAN_PASSED;
        }
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

/* The oracle's slots for the next chunk: options.parallel, fewer near
 * limit_tests; *limited once it is reached. */
static guint
batch_room (Dd *dd, gboolean *limited)
{
  guint room = MAX (dd->opts.parallel, 1);

  *limited = FALSE;
  if (dd->opts.limit_tests > 0)
    {
      *limited = dd->stats.tests >= dd->opts.limit_tests;
      room = *limited ? 1 : (guint) MIN (room, dd->opts.limit_tests - dd->stats.tests);
    }
  return room;
}

/* limit_tests is reached before the chunk is run: the batch stops, its
 * *first_fail @fail, the first candidate known to fail (or -1). */
static gboolean
batch_at_limit (Dd *dd, const Cands *cands, gint fail, gint *first_fail, GArray **chosen,
                GError **error)
{
  dd->stopped = TRUE;
  dd->stats.hit_limit = TRUE;
  *first_fail = fail;
  if (dd->halted)
    return dd_halt_error (error);
  if (*first_fail >= 0)
    *chosen = dd_candidate (dd, cands, (guint) *first_fail);
  return TRUE;
}

/* Runs the chunk (@slots, their cache @entries) in one oracle call of
 * @room slots, its idle ones filled by speculation (dd_speculate). */
static gboolean
batch_call (Dd *dd, GPtrArray *slots, GArray *entries, guint room, gboolean *saw_fail,
            GError **error)
{
  guint size, spare;
  g_autoptr(GPtrArray) guesses = NULL;

  size = slots->len;
  spare = room - size;
  if (spare > 0 && dd->opts.spare_slots != NULL)
    spare = MIN (spare, dd->opts.spare_slots (size, room, dd->opts.user_data));
  guesses = dd_speculate (dd, (GArray *const *) slots->pdata, size, spare);
  if (dd->halted)
    return dd_halt_error (error);
  return dd_call_oracle (dd, (GArray *const *) slots->pdata,
                         (CacheEntry *const *) entries->data, size, guesses, saw_fail, error);
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
gboolean
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
  seen = dd_digest_table_new ();
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
          gboolean saw_fail = FALSE, limited = FALSE;
          guint room = batch_room (dd, &limited);

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
                  held_runs = dd_runs_needed (dd, entry);
                }
            }
          if (slots->len == 0)
            {
              found = fail_at;
              done = TRUE;
              break;
            }
          /* The first candidate known to fail, as the plan had it. */
          if (limited)
            return batch_at_limit (dd, cands,
                                   planned ? fail_at : scan_first_failure (dd, cands, pos, seen),
                                   first_fail, chosen, error);

          if (!batch_call (dd, slots, entries, room, &saw_fail, error))
            return FALSE;
          if (saw_fail)
            break;     /* plan again */
          /* Everything planned so far passed, but the held candidate's runs. */
          dd->at.from = held_runs > 0 ? held_index : pos;
        }
    }
  *first_fail = found;
  dd_infer_note (dd, cands, found);
  if (found >= 0)
    *chosen = dd_candidate (dd, cands, (guint) found);
  return TRUE;
}
