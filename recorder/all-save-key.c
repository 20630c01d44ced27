/* all-save-key.c — xrecord --all's --save-key (all-private.h): the
 * chord is watched for in the recorded key events (nothing is grabbed)
 * and saves every app's buffer. Its own keys are recorded in no buffer:
 * a press of one of its modifiers is held back (with the motion after
 * it) until the next event says whether the chord follows (then it is
 * dropped, and its release too) or not (then it is recorded, in order,
 * late).
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "all-private.h"

#include <X11/XKBlib.h>

static gboolean
is_swallowed (RecAll *all, guint keycode)
{
  return (all->swallowed[(keycode & 0xff) / 8] & (1u << (keycode % 8))) != 0;
}

static void
set_swallowed (RecAll *all, guint keycode, gboolean swallowed)
{
  if (swallowed)
    all->swallowed[(keycode & 0xff) / 8] |= 1u << (keycode % 8);
  else
    all->swallowed[(keycode & 0xff) / 8] &= ~(1u << (keycode % 8));
}

/* What was held back: the chord's modifiers dropped (@chord: it came;
 * their releases will be too), else recorded; the motion recorded. At
 * the stream's time now: server events may have been recorded since, and
 * a session's time never goes back. */
void
rec_all_held_flush (RecAll *all, gboolean chord)
{
  for (guint i = 0; all->held != NULL && i < all->held->len; i++)
    {
      Held *held = &g_array_index (all->held, Held, i);

      if (chord && (held->ev.u.u.type & 0x7f) == KeyPress)
        set_swallowed (all, held->ev.u.u.detail, TRUE);
      else
        rec_all_record_device (all, &held->ev, MAX (held->time_ms, all->now_ms));
    }
  if (all->held != NULL)
    g_array_set_size (all->held, 0);
}

static gboolean
key_is_chord (RecAll *all, guint keycode, guint state)
{
  KeySym base = XkbKeycodeToKeysym (all->tracker, (KeyCode) keycode, 0, 0), produced = NoSymbol;
  unsigned int consumed;

  if (chord_matches (&all->save_key, (guint32) base, state))
    return TRUE;
  return XkbLookupKeySym (all->tracker, (KeyCode) keycode, state, &consumed, &produced)
         && produced != NoSymbol && chord_matches (&all->save_key, (guint32) produced, state);
}

/* A device event under --save-key: TRUE if it is the chord's (held back,
 * or dropped), FALSE if it is to be recorded (after what was held). */
gboolean
rec_all_save_key_filter (RecAll *all, const xEvent *ev, guint64 time_ms)
{
  int type = ev->u.u.type & 0x7f;
  guint keycode = ev->u.u.detail, state = ev->u.keyButtonPointer.state;
  Held held = { .ev = *ev, .time_ms = time_ms };

  if (type == KeyRelease && is_swallowed (all, keycode))
    {
      set_swallowed (all, keycode, FALSE);
      return TRUE;
    }
  if (type == KeyPress && key_is_chord (all, keycode, state))
    {
      rec_all_held_flush (all, TRUE);
      set_swallowed (all, keycode, TRUE);
      rec_all_save_all (all, "--save-key");
      return TRUE;
    }
  if ((type == KeyPress
       && chord_is_own_modifier (&all->save_key,
                                 (guint32) XkbKeycodeToKeysym (all->tracker, (KeyCode) keycode,
                                                               0, 0)))
      || (type == MotionNotify && all->held->len > 0))
    {
      g_array_append_val (all->held, held);
      return TRUE;
    }
  rec_all_held_flush (all, FALSE);
  return FALSE;
}
