/* dd-sets.c: the sets of the delta debugging search (see dd-private.h),
 * their digests and the cache: what every other part of the search
 * stands on, calling nothing of it.
 *
 * Start reading at dd_candidate(): a batch (Cands) is a rule, and its
 * candidate i is made here, when the batch gets to it (cands_build), then
 * normalized to what it really tests (dd_normalize).  The cache is keyed
 * by a 128-bit digest of a candidate's sorted elements (dd_digest_of), not
 * by the elements.  No X.
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd-private.h"

G_DEFINE_QUARK (dd-error-quark, dd_error)

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

Digest
dd_digest_of (GArray *set)
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
GHashTable *
dd_digest_table_new (void)
{
  return g_hash_table_new_full (digest_hash, digest_equal, g_free, NULL);
}

gboolean
dd_digest_table_add (GHashTable *table, const Digest *d, gpointer value)
{
  if (g_hash_table_contains (table, d))
    return FALSE;
  g_hash_table_insert (table, g_memdup2 (d, sizeof *d), value);
  return TRUE;
}

static gint
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

/* Sorts @array ascending and removes duplicates (in one pass when it is
 * already strictly ascending, as the union of disjoint parts in order is). */
void
dd_sort_unique (GArray *array)
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

GArray *
dd_uint_array_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint));
}

/* The sorted union of @parts[from..to), or of all the other parts if
 * @complement.  @parts holds GArray* of guint. */
GArray *
dd_union_of (GPtrArray *parts, guint from, guint to, gboolean complement)
{
  GArray *set = dd_uint_array_new ();

  for (guint i = 0; i < parts->len; i++)
    {
      gboolean inside = i >= from && i < to;
      if (inside != complement)
        {
          GArray *part = g_ptr_array_index (parts, i);
          g_array_append_vals (set, part->data, part->len);
        }
    }
  dd_sort_unique (set);
  return set;
}

gboolean
dd_contains (GArray *sorted, guint elem)
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

        return dd_union_of (cands->parts, k * len / cands->chunks, (k + 1) * len / cands->chunks,
                         cands->complement);
      }
    case CANDS_WITHOUT_ONE:
      set = dd_uint_array_new ();
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
GArray *
dd_normalize (Dd *dd, GArray *set)
{
  g_autoptr (GArray) said = NULL;
  GArray *out;

  if (dd->opts.normalize == NULL)
    return g_array_ref (set);
  said = dd_uint_array_new ();
  dd->opts.normalize ((const guint *) set->data, set->len, said, dd->opts.user_data);
  dd_sort_unique (said);
  out = dd_uint_array_new ();
  for (guint i = 0; i < said->len; i++)
    if (dd_contains (set, g_array_index (said, guint, i)))
      g_array_append_val (out, g_array_index (said, guint, i));
  return out;
}

/* Candidate @i of @cands as it really tests. */
GArray *
dd_candidate (Dd *dd, const Cands *cands, guint i)
{
  g_autoptr (GArray) raw = cands_build (cands, i);

  return dd_normalize (dd, raw);
}

/* Does DdOptions.stop say to stop? Then the search unwinds (dd->halted). */
gboolean
dd_should_stop (Dd *dd)
{
  if (!dd->halted && dd->opts.stop != NULL && dd->opts.stop (dd->opts.user_data))
    dd->halted = TRUE;
  if (dd->halted)
    dd->stopped = TRUE;
  return dd->halted;
}

gboolean
dd_halt_error (GError **error)
{
  g_set_error_literal (error, DD_ERROR, DD_ERROR_STOPPED, "the search was told to stop");
  return FALSE;
}

/* Oracle runs @entry still needs before it is decided: 0 if it failed or
 * has passed often enough. */
guint
dd_runs_needed (Dd *dd, const CacheEntry *entry)
{
  if (entry == NULL)
    return dd->opts.confirm_passes;
  if (entry->failed || entry->passes >= dd->opts.confirm_passes)
    return 0;
  return dd->opts.confirm_passes - entry->passes;
}

/* The cache's entry for @d, made if there is none. */
CacheEntry *
dd_cache_get (Dd *dd, const Digest *d)
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

char *
dd_elems_to_ranges (const guint *elems, guint n, guint base, const char *empty)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j + 1 < n && elems[j + 1] == elems[j] + 1)
        j++;
      g_string_append_printf (out, "%s%u", out->len > 0 ? "," : "", elems[i] + base);
      if (j > i)
        g_string_append_printf (out, "-%u", elems[j] + base);
      i = j + 1;
    }
  if (n == 0)
    g_string_append (out, empty);
  return g_string_free (out, FALSE);
}
