/* session-gesture.c — grouping user actions into gestures, what a hand
 * does in one go and the second level of hierarchical reduction (under
 * phrases), and the one list of modifier keys.
 *
 * Gestures are strokes (session-phrase.c: a key with its release and
 * repeats, a click, a drag, a run of motion) glued together while a
 * modifier is held, so that Alt+P is one gesture; see
 * session_get_gestures().
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"

SESSION_ACTION_GROUP_CHECK (SessionGesture, kind);

static SessionGesture *
gesture_new (GPtrArray *gestures, SessionGestureKind kind)
{
  return session_action_group_new (gestures, sizeof (SessionGesture), kind);
}

const char *
session_gesture_kind_to_string (SessionGestureKind kind)
{
  switch (kind)
    {
    case SESSION_GESTURE_KEYSTROKE: return "keystroke";
    case SESSION_GESTURE_CLICK: return "click";
    case SESSION_GESTURE_DRAG: return "drag";
    case SESSION_GESTURE_MOTION: return "motion";
    case SESSION_GESTURE_DROP: return "drop";
    case SESSION_GESTURE_OTHER:
    default: return "other";
    }
}

/* The gesture of @stroke's kind. */
static SessionGestureKind
kind_of (const Stroke *stroke)
{
  switch (stroke->class)
    {
    case STROKE_TEXT:
    case STROKE_END:
    case STROKE_KEY:
      return SESSION_GESTURE_KEYSTROKE;
    case STROKE_CLICK:
    case STROKE_SCROLL:
      return SESSION_GESTURE_CLICK;
    case STROKE_DRAG:
      return SESSION_GESTURE_DRAG;
    case STROKE_MOTION:
      return SESSION_GESTURE_MOTION;
    case STROKE_DROP:
      return SESSION_GESTURE_DROP;
    case STROKE_OTHER:
    default:
      return SESSION_GESTURE_OTHER;
    }
}

/* Built from the strokes (session-phrase.c), which already join a key's
 * release and auto-repeat to its press, a button's release and drag to
 * its press, and runs of motion. A gesture adds one thing: from the
 * first modifier pressed until every modifier is released, the modifier
 * presses and releases and every key and button stroke that starts then
 * are one gesture (a stroke attaches a modifier only to what it was held
 * for: in a reduced session whose Alt is never released, Alt+P and a
 * later click are two strokes, but one gesture). Motion with no button
 * stays a gesture of its own. */
GPtrArray *
session_get_gestures (const Session *session)
{
  GPtrArray *gestures = g_ptr_array_new_with_free_func (session_action_group_free);
  g_autoptr (GPtrArray) strokes = session_get_strokes (session);
  g_autoptr (GArray) actions = session_get_actions (session);
  g_autofree const Stroke **stroke_of = g_new0 (const Stroke *, MAX (actions->len, 1));
  /* Stroke -> its gesture (borrowed from @gestures). */
  g_autoptr (GHashTable) gesture_of = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) mods_held = g_hash_table_new (NULL, NULL);
  SessionGesture *mod_gesture = NULL;

  for (guint s = 0; s < strokes->len; s++)
    {
      const Stroke *stroke = g_ptr_array_index (strokes, s);

      for (guint k = 0; k < stroke->actions->len; k++)
        stroke_of[g_array_index (stroke->actions, guint, k)] = stroke;
    }
  for (guint a = 0; a < actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, a));
      gpointer key = GUINT_TO_POINTER (ev->keycode);
      gboolean modifier = (ev->kind == SESSION_EVENT_KEY_PRESS
                           || ev->kind == SESSION_EVENT_KEY_RELEASE)
                          && session_keysym_is_modifier (ev->keysym);
      SessionGesture *target;

      if (modifier && ev->kind == SESSION_EVENT_KEY_PRESS)
        {
          if (mod_gesture == NULL)
            mod_gesture = gesture_new (gestures, SESSION_GESTURE_KEYSTROKE);
          g_hash_table_add (mods_held, key);
          target = mod_gesture;
        }
      else if (modifier && g_hash_table_remove (mods_held, key))
        {
          target = mod_gesture;
          if (g_hash_table_size (mods_held) == 0)
            mod_gesture = NULL;
        }
      else if (stroke_of[a] == NULL)
        target = gesture_new (gestures, SESSION_GESTURE_OTHER);   /* in no stroke: never */
      else if ((target = g_hash_table_lookup (gesture_of, stroke_of[a])) == NULL)
        {
          target = mod_gesture != NULL && stroke_of[a]->class != STROKE_MOTION
                     ? mod_gesture : gesture_new (gestures, kind_of (stroke_of[a]));
          g_hash_table_insert (gesture_of, (gpointer) stroke_of[a], target);
        }
      g_array_append_val (target->actions, a);
    }
  /* Actions were appended in order, so each gesture's list is ascending;
   * gestures were created at their first action, so they are ordered. */
  return gestures;
}
