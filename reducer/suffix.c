/* suffix.c — the last gestures first (see suffix.h). */
#define G_LOG_DOMAIN "xreduce-dd"

#include "suffix.h"

struct Suffixes
{
  GArray *nonempty;          /* unit indices */
  GArray *cands;             /* of DdCandidate, shortest first; elems owned */
  GArray *sizes;             /* of guint: units in each candidate */
};

static gint
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

Suffixes *
suffixes_new (GPtrArray *units)
{
  Suffixes *suffixes = g_new0 (Suffixes, 1);
  guint n;

  suffixes->nonempty = g_array_new (FALSE, FALSE, sizeof (guint));
  suffixes->cands = g_array_new (FALSE, FALSE, sizeof (DdCandidate));
  suffixes->sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint u = 0; u < units->len; u++)
    if (((GArray *) g_ptr_array_index (units, u))->len > 0)
      g_array_append_val (suffixes->nonempty, u);
  n = suffixes->nonempty->len;
  for (guint k = 1; k < n; k *= 2)
    {
      GArray *set = g_array_new (FALSE, FALSE, sizeof (guint));
      DdCandidate cand = { 0 };

      for (guint i = n - k; i < n; i++)
        {
          GArray *unit = g_ptr_array_index (units, g_array_index (suffixes->nonempty, guint, i));
          g_array_append_vals (set, unit->data, unit->len);
        }
      g_array_sort (set, compare_guint);
      cand.n_elems = set->len;
      cand.elems = (const guint *) g_array_free (set, FALSE);
      g_array_append_val (suffixes->cands, cand);
      g_array_append_val (suffixes->sizes, k);
    }
  return suffixes;
}

void
suffixes_free (Suffixes *suffixes)
{
  if (suffixes == NULL)
    return;
  for (guint i = 0; i < suffixes->cands->len; i++)
    g_free ((gpointer) g_array_index (suffixes->cands, DdCandidate, i).elems);
  g_array_unref (suffixes->cands);
  g_array_unref (suffixes->sizes);
  g_array_unref (suffixes->nonempty);
  g_free (suffixes);
}

guint
suffixes_get_n (const Suffixes *suffixes)
{
  return suffixes->cands->len;
}

const DdCandidate *
suffixes_get_candidates (const Suffixes *suffixes)
{
  return (const DdCandidate *) suffixes->cands->data;
}

guint
suffixes_get_n_units (const Suffixes *suffixes, guint i)
{
  return g_array_index (suffixes->sizes, guint, i);
}

gint
suffixes_apply (const Suffixes *suffixes, GPtrArray *units, const DdOutcome *outcomes)
{
  guint n = suffixes->nonempty->len;

  for (guint i = 0; i < suffixes->cands->len; i++)
    {
      guint k = g_array_index (suffixes->sizes, guint, i);

      if (outcomes[i] != DD_FAIL)
        continue;
      for (guint j = 0; j < n - k; j++)
        g_array_set_size (g_ptr_array_index (units, g_array_index (suffixes->nonempty, guint, j)), 0);
      return (gint) i;
    }
  return -1;
}
