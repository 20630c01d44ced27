/* test-chord.c — xrecord --all --save-key's chord (recorder/chord.h):
 * what parses and to what, every bad input's message, and which key
 * presses match. No display.
 */
#include "chord.h"

#include <string.h>
#include <xkbcommon/xkbcommon-keysyms.h>

static void
test_parse (void)
{
  const struct
  {
    const char *text;
    guint mods;
    guint32 keysym;
  } cases[] = {
    { "ctrl+alt+Pause", CHORD_CTRL | CHORD_ALT, XKB_KEY_Pause },
    { "Control+Mod1+pause", CHORD_CTRL | CHORD_ALT, XKB_KEY_Pause },
    { "ctrl+F12", CHORD_CTRL, XKB_KEY_F12 },
    { "ctrl+alt+shift+F13", CHORD_CTRL | CHORD_ALT | CHORD_SHIFT, XKB_KEY_F13 },
    { "super+shift+s", CHORD_SUPER | CHORD_SHIFT, XKB_KEY_s },
    { "win+Print", CHORD_SUPER, XKB_KEY_Print },
    { "META+pause", CHORD_ALT, XKB_KEY_Pause },
    { "Pause", 0, XKB_KEY_Pause },
    { "ctrl+plus", CHORD_CTRL, XKB_KEY_plus },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      Chord chord = { 0 };

      g_test_message ("%s", cases[i].text);
      g_assert_true (chord_parse (cases[i].text, &chord, &error));
      g_assert_no_error (error);
      g_assert_cmphex (chord.mods, ==, cases[i].mods);
      g_assert_cmphex (chord.keysym, ==, cases[i].keysym);
    }
}

static void
test_bad (void)
{
  const struct
  {
    const char *text, *message;
  } cases[] = {
    { "", "an empty key" },
    { "ctrl+", "'ctrl+' has an empty part" },
    { "ctrl++F12", "'ctrl++F12' has an empty part" },
    { "+F12", "has an empty part" },
    { "hyper+F12", "'hyper' is not a modifier (ctrl, alt, shift, super)" },
    { "ctrl+control+F12", "'ctrl+control+F12' gives a modifier twice" },
    { "ctrl+alt+F99", "'F99' is not a key name" },
    { "ctrl+alt+Fl2", "'Fl2' is not a key name" },
    { "ctrl+Alt_L", "'Alt_L' is a modifier" },
    { "Caps_Lock", "'Caps_Lock' is a modifier" },
    { "ctrl+alt+F12", "the X server takes 'ctrl+alt+F12' for itself (a switch to virtual "
                      "terminal 12)" },
    { "alt+ctrl+shift+f1", "(a switch to virtual terminal 1)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      Chord chord = { 0 };

      g_assert_false (chord_parse (cases[i].text, &chord, &error));
      g_assert_error (error, CHORD_ERROR, 0);
      g_test_message ("%s: %s", cases[i].text, error->message);
      g_assert_nonnull (strstr (error->message, cases[i].message));
    }
}

static void
test_matches (void)
{
  Chord chord = { 0 }, shifted = { 0 };
  /* Lock and NumLock (Mod2) do not count; Shift, Control, Mod1, Mod4 do. */
  const guint lock = 1u << 1, num_lock = 1u << 4;

  g_assert_true (chord_parse ("ctrl+alt+Pause", &chord, NULL));
  g_assert_true (chord_matches (&chord, XKB_KEY_Pause, CHORD_CTRL | CHORD_ALT));
  g_assert_true (chord_matches (&chord, XKB_KEY_Pause, CHORD_CTRL | CHORD_ALT | lock | num_lock));
  g_assert_false (chord_matches (&chord, XKB_KEY_Pause, CHORD_CTRL));
  g_assert_false (chord_matches (&chord, XKB_KEY_Pause, CHORD_CTRL | CHORD_ALT | CHORD_SHIFT));
  g_assert_false (chord_matches (&chord, XKB_KEY_Print, CHORD_CTRL | CHORD_ALT));
  g_assert_true (chord_is_own_modifier (&chord, XKB_KEY_Control_R));
  g_assert_true (chord_is_own_modifier (&chord, XKB_KEY_Alt_L));
  g_assert_false (chord_is_own_modifier (&chord, XKB_KEY_Shift_L));
  g_assert_false (chord_is_own_modifier (&chord, XKB_KEY_a));

  /* Shift+s produces S: the chord written with either case matches. */
  g_assert_true (chord_parse ("super+shift+s", &shifted, NULL));
  g_assert_true (chord_matches (&shifted, XKB_KEY_S, CHORD_SUPER | CHORD_SHIFT));
  g_assert_true (chord_matches (&shifted, XKB_KEY_s, CHORD_SUPER | CHORD_SHIFT));
  g_assert_false (chord_matches (&shifted, XKB_KEY_s, CHORD_SUPER));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chord/parse", test_parse);
  g_test_add_func ("/chord/bad", test_bad);
  g_test_add_func ("/chord/matches", test_matches);
  return g_test_run ();
}
