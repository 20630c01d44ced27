/* injector.c — XTest key, button and motion injection.
 *
 * Start reading at injector_key(). Nothing here waits: every call queues
 * requests, the caller flushes (XFlush/XSync) after each action. An
 * action's first request may carry a delay (injector_delay()): the X
 * server makes its event that long after it read the request.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "injector.h"

#include <string.h>
#include <X11/XKBlib.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

typedef struct
{
  KeyCode keycode;
  KeySym *saved;             /* owned: the symbols it had, per_keycode of them */
  int per_keycode;
} Binding;

struct Injector
{
  Display *dpy;              /* not owned */
  void (*log) (const char *message, gpointer data);
  gpointer log_data;

  GHashTable *bound;         /* KeySym -> KeyCode, keysyms we bound */
  GArray *bindings;          /* of Binding, to restore */
  GHashTable *pressed_with;  /* KeySym -> KeyCode of its last press */
  GArray *held_keys;         /* of KeyCode, in press order */
  GArray *held_buttons;      /* of guint, in press order */
  XModifierKeymap *modmap;   /* owned; refreshed on MappingNotify */
  guint delay_ms;            /* XTest's delay for the next request (injector_delay) */
};

static void G_GNUC_PRINTF (2, 3)
injector_log (Injector *injector, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (injector->log == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  injector->log (message, injector->log_data);
}

Injector *
injector_new (Display *dpy, void (*log) (const char *message, gpointer data),
              gpointer log_data)
{
  Injector *injector = g_new0 (Injector, 1);

  injector->dpy = dpy;
  injector->log = log;
  injector->log_data = log_data;
  injector->bound = g_hash_table_new (NULL, NULL);
  injector->bindings = g_array_new (FALSE, TRUE, sizeof (Binding));
  injector->pressed_with = g_hash_table_new (NULL, NULL);
  injector->held_keys = g_array_new (FALSE, FALSE, sizeof (KeyCode));
  injector->held_buttons = g_array_new (FALSE, FALSE, sizeof (guint));
  injector->modmap = XGetModifierMapping (dpy);
  return injector;
}

void
injector_free (Injector *injector)
{
  if (injector == NULL)
    return;
  for (guint i = 0; i < injector->bindings->len; i++)
    g_free (g_array_index (injector->bindings, Binding, i).saved);
  g_array_unref (injector->bindings);
  g_hash_table_unref (injector->bound);
  g_hash_table_unref (injector->pressed_with);
  g_array_unref (injector->held_keys);
  g_array_unref (injector->held_buttons);
  if (injector->modmap != NULL)
    XFreeModifiermap (injector->modmap);
  g_free (injector);
}

void
injector_reset_input (Injector *injector)
{
  Display *dpy = injector->dpy;
  char keys[32];
  Window root_ret, child;
  int rx, ry, wx, wy;
  unsigned int mask = 0;
  XkbStateRec state;

  memset (keys, 0, sizeof keys);
  XQueryKeymap (dpy, keys);
  for (int kc = 8; kc < 256; kc++)
    if (keys[kc / 8] & (1 << (kc % 8)))
      {
        injector_log (injector, "releasing keycode %d left down", kc);
        XTestFakeKeyEvent (dpy, (unsigned int) kc, False, CurrentTime);
      }
  if (XQueryPointer (dpy, DefaultRootWindow (dpy), &root_ret, &child, &rx, &ry, &wx, &wy,
                     &mask))
    for (guint b = 1; b <= 5; b++)
      if (mask & (Button1Mask << (b - 1)))
        {
          injector_log (injector, "releasing button %u left down", b);
          XTestFakeButtonEvent (dpy, b, False, CurrentTime);
        }
  /* A replay that toggled Caps Lock leaves it locked for the next one. */
  if (XkbGetState (dpy, XkbUseCoreKbd, &state) == Success
      && (state.locked_mods != 0 || state.latched_mods != 0))
    {
      injector_log (injector, "unlocking modifiers 0x%x", state.locked_mods);
      XkbLockModifiers (dpy, XkbUseCoreKbd, 0xff, 0);
      XkbLatchModifiers (dpy, XkbUseCoreKbd, 0xff, 0);
    }
  XSync (dpy, False);
}

void
injector_delay (Injector *injector, guint ms)
{
  injector->delay_ms = ms;
}

/* The delay of the next request, once: CurrentTime (0) is none. */
static unsigned long
take_delay (Injector *injector)
{
  unsigned long ms = injector->delay_ms;

  injector->delay_ms = 0;
  return ms;
}

static KeySym
keysym_of (const SessionEvent *ev)
{
  return ev->keysym != NULL ? XStringToKeysym (ev->keysym) : NoSymbol;
}

/* The keycode for @sym on this server (or bound by us), or 0. */
static KeyCode
keycode_of (Injector *injector, KeySym sym)
{
  gpointer bound;

  if (g_hash_table_lookup_extended (injector->bound, GSIZE_TO_POINTER (sym), NULL, &bound))
    return (KeyCode) GPOINTER_TO_UINT (bound);
  return XKeysymToKeycode (injector->dpy, sym);
}

guint
injector_bind_keysyms (Injector *injector, const Session *session)
{
  Display *dpy = injector->dpy;
  int min_kc, max_kc, per = 0;
  KeySym *map;
  guint n_bound = 0;
  int next_spare;

  XDisplayKeycodes (dpy, &min_kc, &max_kc);
  map = XGetKeyboardMapping (dpy, (KeyCode) min_kc, max_kc - min_kc + 1, &per);
  if (map == NULL)
    return 0;
  next_spare = max_kc;   /* high keycodes are the least likely to matter */

  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      KeySym sym = keysym_of (ev);
      KeySym syms[2];
      Binding binding;
      int kc = 0;

      if ((ev->kind != SESSION_EVENT_KEY_PRESS && ev->kind != SESSION_EVENT_KEY_RELEASE)
          || sym == NoSymbol || keycode_of (injector, sym) != 0)
        continue;
      for (; next_spare >= min_kc && kc == 0; next_spare--)
        {
          gboolean empty = TRUE;
          for (int l = 0; l < per; l++)
            empty &= map[(next_spare - min_kc) * per + l] == NoSymbol;
          if (empty)
            kc = next_spare;
        }
      if (kc == 0)
        {
          injector_log (injector, "no spare keycode for %s", ev->keysym);
          break;
        }
      binding.keycode = (KeyCode) kc;
      binding.per_keycode = per;
      binding.saved = g_memdup2 (&map[(kc - min_kc) * per], sizeof (KeySym) * (gsize) per);
      g_array_append_val (injector->bindings, binding);
      /* Both levels, so that the keysym arrives whether Shift is held. */
      syms[0] = syms[1] = sym;
      XChangeKeyboardMapping (dpy, kc, 2, syms, 1);
      g_hash_table_insert (injector->bound, GSIZE_TO_POINTER (sym), GUINT_TO_POINTER (kc));
      injector_log (injector, "bound %s to spare keycode %d", ev->keysym, kc);
      n_bound++;
    }
  XFree (map);
  XSync (dpy, False);
  return n_bound;
}

void
injector_restore_keymap (Injector *injector)
{
  for (guint i = 0; i < injector->bindings->len; i++)
    {
      Binding *binding = &g_array_index (injector->bindings, Binding, i);
      XChangeKeyboardMapping (injector->dpy, binding->keycode, binding->per_keycode,
                              binding->saved, 1);
      g_clear_pointer (&binding->saved, g_free);
    }
  if (injector->bindings->len > 0)
    XSync (injector->dpy, False);
  g_array_set_size (injector->bindings, 0);
  g_hash_table_remove_all (injector->bound);
}

static gboolean
keycode_has_modifier (Injector *injector, KeyCode kc, int mod_index)
{
  XModifierKeymap *modmap = injector->modmap;

  if (modmap == NULL)
    return FALSE;
  for (int i = 0; i < modmap->max_keypermod; i++)
    if (modmap->modifiermap[mod_index * modmap->max_keypermod + i] == kc)
      return TRUE;
  return FALSE;
}

static gboolean
shift_held (Injector *injector)
{
  for (guint i = 0; i < injector->held_keys->len; i++)
    if (keycode_has_modifier (injector, g_array_index (injector->held_keys, KeyCode, i),
                              ShiftMapIndex))
      return TRUE;
  return FALSE;
}

static void
hold (GArray *held, gconstpointer item, gsize size, gboolean press)
{
  for (guint i = 0; i < held->len; i++)
    if (memcmp (held->data + i * size, item, size) == 0)
      {
        g_array_remove_index (held, i);
        break;
      }
  if (press)
    g_array_append_vals (held, item, 1);
}

gboolean
injector_key (Injector *injector, const SessionEvent *ev)
{
  Display *dpy = injector->dpy;
  gboolean press = ev->kind == SESSION_EVENT_KEY_PRESS;
  KeySym sym = keysym_of (ev);
  KeyCode kc = 0;
  gboolean wrap_shift = FALSE;

  if (sym != NoSymbol)
    kc = keycode_of (injector, sym);
  if (!press && sym != NoSymbol)
    {
      /* Release the keycode that was pressed for it. */
      gpointer pressed;
      if (g_hash_table_lookup_extended (injector->pressed_with, GSIZE_TO_POINTER (sym),
                                        NULL, &pressed))
        kc = (KeyCode) GPOINTER_TO_UINT (pressed);
    }
  if (kc == 0 && sym == NoSymbol && ev->keycode >= 8 && ev->keycode <= 255)
    kc = (KeyCode) ev->keycode;   /* a name Xlib does not know: trust the keycode */
  if (kc == 0)
    {
      injector_log (injector, "no keycode for keysym %s: skipped",
                    ev->keysym != NULL ? ev->keysym : "?");
      take_delay (injector);   /* not the next action's */
      return FALSE;
    }

  if (press && sym != NoSymbol
      && !g_hash_table_contains (injector->bound, GSIZE_TO_POINTER (sym))
      && XkbKeycodeToKeysym (dpy, kc, 0, 0) != sym
      && XkbKeycodeToKeysym (dpy, kc, 0, 1) == sym
      && !(ev->state & ShiftMask) && !shift_held (injector))
    wrap_shift = XKeysymToKeycode (dpy, XK_Shift_L) != 0;

  if (wrap_shift)
    XTestFakeKeyEvent (dpy, XKeysymToKeycode (dpy, XK_Shift_L), True, take_delay (injector));
  XTestFakeKeyEvent (dpy, kc, press, take_delay (injector));
  if (wrap_shift)
    XTestFakeKeyEvent (dpy, XKeysymToKeycode (dpy, XK_Shift_L), False, CurrentTime);
  if (press && sym != NoSymbol)
    g_hash_table_insert (injector->pressed_with, GSIZE_TO_POINTER (sym),
                         GUINT_TO_POINTER (kc));
  hold (injector->held_keys, &kc, sizeof kc, press);
  return TRUE;
}

void
injector_button (Injector *injector, guint button, gboolean press)
{
  XTestFakeButtonEvent (injector->dpy, button, press, take_delay (injector));
  hold (injector->held_buttons, &button, sizeof button, press);
}

void
injector_motion (Injector *injector, int x, int y)
{
  XTestFakeMotionEvent (injector->dpy, DefaultScreen (injector->dpy), x, y,
                        take_delay (injector));
}

void
injector_release_all (Injector *injector)
{
  for (guint i = injector->held_buttons->len; i > 0; i--)
    {
      guint button = g_array_index (injector->held_buttons, guint, i - 1);
      injector_log (injector, "releasing button %u", button);
      XTestFakeButtonEvent (injector->dpy, button, False, CurrentTime);
    }
  for (guint i = injector->held_keys->len; i > 0; i--)
    {
      KeyCode kc = g_array_index (injector->held_keys, KeyCode, i - 1);
      injector_log (injector, "releasing keycode %u", kc);
      XTestFakeKeyEvent (injector->dpy, kc, False, CurrentTime);
    }
  g_array_set_size (injector->held_buttons, 0);
  g_array_set_size (injector->held_keys, 0);
  XSync (injector->dpy, False);
}

void
injector_refresh (Injector *injector, XEvent *ev)
{
  XRefreshKeyboardMapping (&ev->xmapping);
  if (ev->xmapping.request == MappingModifier)
    {
      if (injector->modmap != NULL)
        XFreeModifiermap (injector->modmap);
      injector->modmap = XGetModifierMapping (injector->dpy);
    }
}
