/* search.c — a session as the search sees it (see search.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "search.h"

struct SearchLevels
{
  GPtrArray *phrases;        /* of GArray of guint (action numbers), cut; owned */
  GPtrArray *gestures;       /* the same for gestures */
  GPtrArray *releases;       /* one unit: every key's release but a modifier's */
  GArray *typed;             /* actions of runs of typing (guint, ascending) */
  DdLevel levels[3];
  guint n_levels;
};

/* Each of @groups' action lists (the `actions` member at @offset of
 * SessionPhrase or SessionGesture) cut to @in. */
static GPtrArray *
cut (GPtrArray *groups, gsize offset, const gboolean *in)
{
  GPtrArray *units = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint g = 0; g < groups->len; g++)
    {
      GArray *actions = G_STRUCT_MEMBER (GArray *, g_ptr_array_index (groups, g), offset);
      GArray *unit = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint a = 0; a < actions->len; a++)
        if (in[g_array_index (actions, guint, a)])
          g_array_append_val (unit, g_array_index (actions, guint, a));
      g_ptr_array_add (units, unit);
    }
  return units;
}

/* One unit: the releases of every key but the modifiers. A key's release
 * rarely matters to an app (a press is what types), and session_subset()
 * releases a key before it is pressed again: one test tries dropping them
 * all, before the gestures are tried one by one. A modifier's release
 * stays: without it, Ctrl or Alt stays held over what follows. */
static GPtrArray *
key_releases (const Session *session, const gboolean *in)
{
  GPtrArray *units = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *unit = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) actions = session_get_actions (session);

  for (guint a = 0; a < actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, a));

      if (in[a] && ev->kind == SESSION_EVENT_KEY_RELEASE
          && !session_keysym_is_modifier (ev->keysym))
        g_array_append_val (unit, a);
    }
  g_ptr_array_add (units, unit);
  return units;
}

/* The actions of @phrases' runs of typing that are in @in, ascending:
 * each character of a kept run is likely needed (dd.h, DdLevel.typed). */
static GArray *
typed_actions (GPtrArray *phrases, const gboolean *in)
{
  GArray *typed = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);

      if (phrase->kind != SESSION_PHRASE_TYPE)
        continue;
      for (guint a = 0; a < phrase->actions->len; a++)
        if (in[g_array_index (phrase->actions, guint, a)])
          g_array_append_val (typed, g_array_index (phrase->actions, guint, a));
    }
  return typed;
}

SearchLevels *
search_levels_new (const Session *session, const guint *set, guint n_set, gboolean phrases)
{
  SearchLevels *levels = g_new0 (SearchLevels, 1);
  guint n_actions = session_get_n_actions (session);
  g_autofree gboolean *in = g_new0 (gboolean, MAX (n_actions, 1));
  g_autoptr (GPtrArray) gestures = session_get_gestures (session);

  for (guint i = 0; i < (set != NULL ? n_set : n_actions); i++)
    in[set != NULL ? set[i] : i] = TRUE;
  g_autoptr (GPtrArray) all = session_get_phrases (session);

  levels->gestures = cut (gestures, G_STRUCT_OFFSET (SessionGesture, actions), in);
  levels->typed = phrases ? typed_actions (all, in) : NULL;
  if (phrases)
    {
      levels->phrases = cut (all, G_STRUCT_OFFSET (SessionPhrase, actions), in);
      levels->levels[levels->n_levels++] = (DdLevel) {
        (const GArray *const *) levels->phrases->pdata, levels->phrases->len };
    }
  levels->releases = key_releases (session, in);
  levels->levels[levels->n_levels++] = (DdLevel) {
    (const GArray *const *) levels->releases->pdata, levels->releases->len, .greedy = TRUE };
  levels->levels[levels->n_levels++] = (DdLevel) {
    (const GArray *const *) levels->gestures->pdata, levels->gestures->len,
    .typed = levels->typed };

  return levels;
}

void
search_levels_free (SearchLevels *levels)
{
  if (levels == NULL)
    return;
  g_clear_pointer (&levels->phrases, g_ptr_array_unref);
  g_clear_pointer (&levels->gestures, g_ptr_array_unref);
  g_clear_pointer (&levels->releases, g_ptr_array_unref);
  g_clear_pointer (&levels->typed, g_array_unref);
  g_free (levels);
}

const DdLevel *
search_levels_get (const SearchLevels *levels, guint *n_levels)
{
  *n_levels = levels->n_levels;
  return levels->levels;
}

void
search_normalize (const Session *session, const guint *elems, guint n_elems, GArray *out)
{
  g_autoptr (GArray) kept = session_subset_actions (session, elems, n_elems);

  g_array_append_vals (out, kept->data, kept->len);
}

/* Where a kept press's hold ends, by input: the release that ends it
 * (not in the set), or G_MAXUINT for none yet; the input's hold is open
 * while it is in the table. */
static void
end_hold (GHashTable *holds, gpointer input, GArray *releases)
{
  gpointer pending;

  if (g_hash_table_lookup_extended (holds, input, NULL, &pending)
      && GPOINTER_TO_UINT (pending) != G_MAXUINT)
    {
      guint a = GPOINTER_TO_UINT (pending);

      g_array_append_val (releases, a);
    }
  g_hash_table_remove (holds, input);
}

static gint
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

GArray *
search_dropped_releases (const Session *session, const guint *set, guint n_set)
{
  g_autoptr (GArray) actions = session_get_actions (session);
  /* input -> the release that ends its kept press's hold so far */
  g_autoptr (GHashTable) holds = g_hash_table_new (NULL, NULL);
  g_autofree gboolean *in_set = g_new0 (gboolean, MAX (actions->len, 1));
  GArray *releases = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer input, pending;

  for (guint i = 0; i < n_set; i++)
    if (set[i] < actions->len)
      in_set[set[i]] = TRUE;
  /* A kept press is held, in the result, until its input's next kept
   * press or release: the presses of it the search dropped in between
   * (the user's Shift pressed again for each capital, which the search
   * found the same as holding it) do not end the hold. So the release
   * that goes back is the user's last one before the next kept press of
   * the input, not the first after the kept one: that one would release
   * Shift before the E of "SEGV", typed without it since its own Shift
   * press is gone, and lose the failure (xterm's "kill -SEGV $PPID"). */
  for (guint a = 0; a < actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, a));

      input = GUINT_TO_POINTER (ev->kind == SESSION_EVENT_KEY_PRESS
                                || ev->kind == SESSION_EVENT_KEY_RELEASE
                                  ? ev->keycode : 0x10000 + ev->button);
      if (session_event_is_press (ev) && in_set[a])
        {
          end_hold (holds, input, releases);
          g_hash_table_insert (holds, input, GUINT_TO_POINTER (G_MAXUINT));
        }
      else if (session_event_is_release (ev) && g_hash_table_contains (holds, input))
        {
          if (in_set[a])
            g_hash_table_remove (holds, input);
          else
            g_hash_table_insert (holds, input, GUINT_TO_POINTER (a));
        }
    }
  g_hash_table_iter_init (&iter, holds);
  while (g_hash_table_iter_next (&iter, &input, &pending))
    if (GPOINTER_TO_UINT (pending) != G_MAXUINT)
      {
        guint a = GPOINTER_TO_UINT (pending);

        g_array_append_val (releases, a);
      }
  g_array_sort (releases, compare_uint);
  return releases;
}
