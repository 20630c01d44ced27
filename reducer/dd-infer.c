/* dd-infer.c: typed characters the search found needed are not replayed
 * again after a later removal (see dd-private.h).
 *
 * A typed URL or command keeps nearly every character; the search tries
 * each one's removal (a replay each).  When one of them does go (the
 * slashes of chrome://, which the address bar does without), the round
 * goes on and wraps round to the characters before it, and the check of
 * 1-minimality asks again about every character: a replay each, whose
 * answer the search had, on a set one character longer.  Failures are
 * taken as monotone here, as ddmin takes them: a candidate that does not
 * fail keeps not failing with less in it.  So once "the current set
 * without the typed character c" passed, every later current set (a
 * subset: the search only removes) without c passes too, and the cache
 * says so when the search asks (dd_infer_passes()).  Only typed parts
 * (DdLevel.typed) are inferred, and only what a test showed; DdStats.
 * inferred counts the answers, so the report can say which part of
 * 1-minimality was inferred.
 * DdOptions.no_inference turns it off, and so does a flaky failure
 * (confirm_passes > 1): a pass there is only likely, and asking again,
 * from a smaller set, is what corrects a wrong one.
 *
 * Start reading at dd_infer_note(), which dd_run_batch() calls after
 * each batch; scan_next() (dd-batch.c) asks dd_infer_passes() about a
 * candidate the cache does not know.  No X.
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd-private.h"

/* Noting a part makes its candidate (about the current set's size),
 * once a part: only while the current set is small, as it is once the
 * phrases and gestures above have gone. */
#define DD_INFER_MAX_ELEMENTS 8192

/* Is every element of @part typed? */
static gboolean
part_typed (const Dd *dd, GArray *part)
{
  if (part->len == 0)
    return FALSE;
  for (guint i = 0; i < part->len; i++)
    if (!dd_contains ((GArray *) dd->typed, g_array_index (part, guint, i)))
      return FALSE;
  return TRUE;
}

/* The one part candidate @i of @cands leaves out of its base (a new
 * reference), or NULL when it leaves out more (a chunk of several). */
static GArray *
removed_part (const Cands *cands, guint i)
{
  switch (cands->kind)
    {
    case CANDS_CHUNKS:
      if (!cands->complement || cands->chunks != cands->parts->len)
        return NULL;
      return g_array_ref (g_ptr_array_index (cands->parts, (cands->start + i) % cands->chunks));
    case CANDS_WITHOUT_ONE:
      {
        GArray *one = dd_uint_array_new ();

        g_array_append_val (one, g_array_index (cands->base, guint, i));
        return one;
      }
    case CANDS_WITHOUT_PART:
      return g_array_ref (g_ptr_array_index (cands->parts, cands->from + i));
    case CANDS_LIST:
    default:
      return NULL;
    }
}

void
dd_infer_note (Dd *dd, const Cands *cands, gint first_fail)
{
  guint end = first_fail >= 0 ? (guint) first_fail : cands->n;

  if (dd->needed == NULL || dd->current->len > DD_INFER_MAX_ELEMENTS)
    return;
  for (guint i = 0; i < end && !dd->halted; i++)
    {
      g_autoptr (GArray) part = removed_part (cands, i);
      g_autoptr (GArray) set = NULL;
      CacheEntry *entry;
      Digest part_digest, d;

      if (part == NULL || !part_typed (dd, part))
        continue;
      part_digest = dd_digest_of (part);
      if (g_hash_table_contains (dd->needed_seen, &part_digest))
        continue;
      /* Decided by tests (or by an inference from them): it passed. */
      set = dd_candidate (dd, cands, i);
      d = dd_digest_of (set);
      entry = g_hash_table_lookup (dd->cache, &d);
      if (entry == NULL || entry->failed || dd_runs_needed (dd, entry) > 0)
        continue;
      dd_digest_table_add (dd->needed_seen, &part_digest, NULL);
      g_ptr_array_add (dd->needed, g_steal_pointer (&part));
    }
}

gboolean
dd_infer_passes (Dd *dd, const Cands *cands, guint i)
{
  g_autoptr (GArray) part = NULL;
  Digest part_digest;

  if (dd->needed == NULL || dd->lookahead)
    return FALSE;
  part = removed_part (cands, i);
  if (part == NULL)
    return FALSE;
  part_digest = dd_digest_of (part);
  /* Noted from a batch over a set this one's base is part of: the
   * search only removes. */
  return g_hash_table_contains (dd->needed_seen, &part_digest);
}
