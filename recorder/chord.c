/* chord.c — a key chord as the user writes it (see chord.h).
 *
 * Keysym names are xkbcommon's, as the session format's (sessions/): the
 * same names xev and xdotool use. Start reading at chord_parse().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "chord.h"

#include <string.h>
#include <xkbcommon/xkbcommon.h>

G_DEFINE_QUARK (chord-error-quark, chord_error)

static const struct
{
  const char *name;
  guint mod;
} modifier_names[] = {
  { "ctrl", CHORD_CTRL }, { "control", CHORD_CTRL },
  { "alt", CHORD_ALT }, { "meta", CHORD_ALT }, { "mod1", CHORD_ALT },
  { "shift", CHORD_SHIFT },
  { "super", CHORD_SUPER }, { "win", CHORD_SUPER }, { "mod4", CHORD_SUPER },
};

/* The modifier a modifier key gives (0: not a modifier key). */
static guint
modifier_of_keysym (xkb_keysym_t sym)
{
  switch (sym)
    {
    case XKB_KEY_Control_L: case XKB_KEY_Control_R:
      return CHORD_CTRL;
    case XKB_KEY_Alt_L: case XKB_KEY_Alt_R: case XKB_KEY_Meta_L: case XKB_KEY_Meta_R:
      return CHORD_ALT;
    case XKB_KEY_Shift_L: case XKB_KEY_Shift_R:
      return CHORD_SHIFT;
    case XKB_KEY_Super_L: case XKB_KEY_Super_R: case XKB_KEY_Hyper_L: case XKB_KEY_Hyper_R:
      return CHORD_SUPER;
    default:
      return 0;
    }
}

static gboolean
is_modifier_key (xkb_keysym_t sym)
{
  return modifier_of_keysym (sym) != 0 || sym == XKB_KEY_Caps_Lock
         || sym == XKB_KEY_Shift_Lock || sym == XKB_KEY_Num_Lock
         || sym == XKB_KEY_ISO_Level3_Shift || sym == XKB_KEY_ISO_Level5_Shift
         || sym == XKB_KEY_Mode_switch;
}

gboolean
chord_parse (const char *text, Chord *chord, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, "+", -1);
  guint n = g_strv_length (parts), mods = 0;
  xkb_keysym_t sym;

  if (n == 0 || text[0] == '\0')
    {
      g_set_error (error, CHORD_ERROR, 0, "an empty key (e.g. ctrl+alt+F12)");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (parts[i][0] == '\0')
      {
        g_set_error (error, CHORD_ERROR, 0,
                     "'%s' has an empty part ('+' between modifiers and a key; "
                     "\"plus\" for the + key)", text);
        return FALSE;
      }
  for (guint i = 0; i + 1 < n; i++)
    {
      guint mod = 0;

      for (gsize m = 0; m < G_N_ELEMENTS (modifier_names); m++)
        if (g_ascii_strcasecmp (parts[i], modifier_names[m].name) == 0)
          mod = modifier_names[m].mod;
      if (mod == 0)
        {
          g_set_error (error, CHORD_ERROR, 0,
                       "'%s' is not a modifier (ctrl, alt, shift, super)", parts[i]);
          return FALSE;
        }
      if (mods & mod)
        {
          g_set_error (error, CHORD_ERROR, 0, "'%s' gives a modifier twice", text);
          return FALSE;
        }
      mods |= mod;
    }
  sym = xkb_keysym_from_name (parts[n - 1], XKB_KEYSYM_NO_FLAGS);
  if (sym == XKB_KEY_NoSymbol)
    sym = xkb_keysym_from_name (parts[n - 1], XKB_KEYSYM_CASE_INSENSITIVE);
  if (sym == XKB_KEY_NoSymbol)
    {
      g_set_error (error, CHORD_ERROR, 0,
                   "'%s' is not a key name (a keysym, as xev shows it: F12, Pause, s, "
                   "Print)", parts[n - 1]);
      return FALSE;
    }
  if (is_modifier_key (sym))
    {
      g_set_error (error, CHORD_ERROR, 0,
                   "'%s' is a modifier: the chord needs a key besides (e.g. ctrl+alt+F12)",
                   parts[n - 1]);
      return FALSE;
    }
  /* The server's own (xkeyboard-config's srvr_ctrl(fkey2vt)): Xorg and
   * Xvfb take the press for a switch to a virtual terminal, and no client,
   * RECORD neither, ever sees it. */
  if ((mods & (CHORD_CTRL | CHORD_ALT)) == (CHORD_CTRL | CHORD_ALT)
      && sym >= XKB_KEY_F1 && sym <= XKB_KEY_F12)
    {
      g_set_error (error, CHORD_ERROR, 0,
                   "the X server takes '%s' for itself (a switch to virtual terminal %u): "
                   "its press never reaches xrecord; choose another, e.g. ctrl+alt+Pause",
                   text, (guint) (sym - XKB_KEY_F1 + 1));
      return FALSE;
    }
  chord->mods = mods;
  chord->keysym = sym;
  return TRUE;
}

gboolean
chord_matches (const Chord *chord, guint32 keysym, guint state)
{
  if ((state & CHORD_MODS) != chord->mods)
    return FALSE;
  return keysym == chord->keysym
         || xkb_keysym_to_lower (keysym) == xkb_keysym_to_lower (chord->keysym);
}

gboolean
chord_is_own_modifier (const Chord *chord, guint32 keysym)
{
  return (modifier_of_keysym (keysym) & chord->mods) != 0;
}
