/* chord.h — a key chord as the user writes it ("ctrl+alt+Pause"), for
 * xrecord --all --save-key. X-free (xkbcommon's keysym names):
 * unit-tested (tests/unit/test-chord.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The modifiers a chord may hold, as the core protocol's state bits
 * (ShiftMask, ControlMask, Mod1Mask, Mod4Mask). */
#define CHORD_SHIFT (1u << 0)
#define CHORD_CTRL  (1u << 2)
#define CHORD_ALT   (1u << 3)
#define CHORD_SUPER (1u << 6)
#define CHORD_MODS  (CHORD_SHIFT | CHORD_CTRL | CHORD_ALT | CHORD_SUPER)

typedef struct
{
  guint mods;              /* CHORD_* */
  guint32 keysym;          /* the key pressed with them: an xkb_keysym_t */
} Chord;

#define CHORD_ERROR (chord_error_quark ())
GQuark chord_error_quark (void);

/* "ctrl+alt+Pause", "super+F12", "Pause": modifiers (ctrl or control,
 * alt, meta or mod1, shift, super, win or mod4; any case) and a keysym
 * name, '+' between; "ctrl+plus" for the + key. CHORD_ERROR (code 0)
 * names what is wrong: an empty part, an unknown modifier or keysym, a
 * modifier twice, a modifier key as the chord's key, ctrl+alt+F1...F12
 * (the server's: a switch to a virtual terminal). */
gboolean chord_parse (const char *text, Chord *chord, GError **error);

/* Whether a key that produced @keysym, pressed with the modifiers of
 * @state (other bits ignored), is the chord: the same keysym, or the same
 * letter in the other case (Shift+s is "S"). */
gboolean chord_matches (const Chord *chord, guint32 keysym, guint state);

/* Whether @keysym is a modifier key's (Control_L, Alt_R, Shift_L, Super_L,
 * Meta_L...) that gives one of @chord's modifiers. */
gboolean chord_is_own_modifier (const Chord *chord, guint32 keysym);

G_END_DECLS
