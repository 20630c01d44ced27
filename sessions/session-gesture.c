/* session-gesture.c — grouping user actions into gestures, the units a
 * person thinks in and the first level of hierarchical reduction.
 *
 * One pass over the actions with a little state: the modifier keys held
 * (everything typed while they are held joins their gesture, so Alt+P is
 * one gesture), the keys held (a key's release joins its press), the
 * buttons held (a click, or a drag once the pointer moves), and the current
 * run of bare motion.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"

/* The one list of modifier keys. Held ones modify the keys pressed while
 * they are down (a chord: Alt+P); locks and latches are pressed and
 * released once and change the keys after them: Caps_Lock is a key of its
 * own in a phrase ("Press Caps_Lock"), not a chord's modifier, but how
 * long it is held means nothing, as for Shift (no auto-repeat of either
 * on the replay's server). */
static const struct
{
  const char *keysym;
  gboolean lock;
} modifier_keysyms[] = {
  { "Shift_L" }, { "Shift_R" }, { "Control_L" }, { "Control_R" }, { "Alt_L" }, { "Alt_R" },
  { "Meta_L" }, { "Meta_R" }, { "Super_L" }, { "Super_R" }, { "Hyper_L" }, { "Hyper_R" },
  { "ISO_Level3_Shift" }, { "ISO_Level5_Shift" }, { "Mode_switch" },
  { "Caps_Lock", TRUE }, { "Shift_Lock", TRUE },
  { "ISO_Level3_Lock", TRUE }, { "ISO_Level3_Latch", TRUE },
  { "ISO_Level5_Lock", TRUE }, { "ISO_Level5_Latch", TRUE },
};

static gboolean
keysym_is (const char *keysym, gboolean lock)
{
  for (gsize i = 0; keysym != NULL && i < G_N_ELEMENTS (modifier_keysyms); i++)
    if (g_str_equal (keysym, modifier_keysyms[i].keysym))
      return modifier_keysyms[i].lock == lock;
  return FALSE;
}

gboolean
session_keysym_is_modifier (const char *keysym)
{
  return keysym_is (keysym, FALSE);
}

gboolean
session_keysym_is_lock (const char *keysym)
{
  return keysym_is (keysym, TRUE);
}

static void
gesture_free (SessionGesture *gesture)
{
  g_array_unref (gesture->actions);
  g_free (gesture);
}

static SessionGesture *
gesture_new (GPtrArray *gestures, SessionGestureKind kind)
{
  SessionGesture *gesture = g_new0 (SessionGesture, 1);

  gesture->kind = kind;
  gesture->actions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (gestures, gesture);
  return gesture;
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
    case SESSION_GESTURE_OTHER:
    default: return "other";
    }
}

GPtrArray *
session_get_gestures (const Session *session)
{
  GPtrArray *gestures = g_ptr_array_new_with_free_func ((GDestroyNotify) gesture_free);
  /* keycode -> open keystroke gesture (borrowed from @gestures) */
  g_autoptr (GHashTable) keys = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) held_mods = g_hash_table_new (NULL, NULL);
  SessionGesture *mod_gesture = NULL, *button_gesture = NULL, *motion = NULL;
  guint buttons_held = 0;   /* count of buttons down */
  guint8 button_down[256] = { 0 };
  guint action = 0;

  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      SessionGesture *target = NULL;
      gpointer key = GUINT_TO_POINTER (ev->keycode);

      if (!session_event_is_action (ev))
        continue;
      if (ev->kind != SESSION_EVENT_MOTION)
        motion = NULL;

      switch (ev->kind)
        {
        case SESSION_EVENT_MOTION:
          if (button_gesture != NULL)
            {
              target = button_gesture;
              if (target->kind == SESSION_GESTURE_CLICK)
                target->kind = SESSION_GESTURE_DRAG;
            }
          else
            {
              if (motion == NULL)
                motion = gesture_new (gestures, SESSION_GESTURE_MOTION);
              target = motion;
            }
          break;

        case SESSION_EVENT_KEY_PRESS:
          if ((target = g_hash_table_lookup (keys, key)) != NULL)
            break;   /* auto-repeat of a held key */
          if (session_keysym_is_modifier (ev->keysym))
            {
              if (g_hash_table_contains (held_mods, key))
                {
                  target = mod_gesture;
                  break;
                }
              if (mod_gesture == NULL)
                mod_gesture = gesture_new (gestures, SESSION_GESTURE_KEYSTROKE);
              g_hash_table_add (held_mods, key);
              target = mod_gesture;
            }
          else
            {
              target = mod_gesture != NULL
                         ? mod_gesture
                         : gesture_new (gestures, SESSION_GESTURE_KEYSTROKE);
              g_hash_table_insert (keys, key, target);
            }
          break;

        case SESSION_EVENT_KEY_RELEASE:
          if ((target = g_hash_table_lookup (keys, key)) != NULL)
            g_hash_table_remove (keys, key);
          else if (g_hash_table_remove (held_mods, key))
            {
              target = mod_gesture;
              if (g_hash_table_size (held_mods) == 0)
                mod_gesture = NULL;
            }
          else
            target = gesture_new (gestures, SESSION_GESTURE_OTHER);
          break;

        case SESSION_EVENT_BUTTON_PRESS:
          if (button_gesture == NULL)
            button_gesture = mod_gesture != NULL
                               ? mod_gesture
                               : gesture_new (gestures, SESSION_GESTURE_CLICK);
          target = button_gesture;
          if (!button_down[ev->button & 0xff])
            {
              button_down[ev->button & 0xff] = 1;
              buttons_held++;
            }
          break;

        case SESSION_EVENT_BUTTON_RELEASE:
          if (button_down[ev->button & 0xff])
            {
              target = button_gesture;
              button_down[ev->button & 0xff] = 0;
              if (--buttons_held == 0)
                button_gesture = NULL;
            }
          else
            target = gesture_new (gestures, SESSION_GESTURE_OTHER);
          break;

        case SESSION_EVENT_SERVER:
        case SESSION_EVENT_COMMENT:
        default:
          g_assert_not_reached ();
        }

      g_assert (target != NULL);
      g_array_append_val (target->actions, action);
      action++;
    }

  /* Actions were appended in order, so each gesture's list is ascending;
   * gestures were created at their first action, so they are ordered. */
  return gestures;
}
