/* keymap.c — the session's keymap line: the layout the recording
 * server's keys really have.
 *
 * _XKB_RULES_NAMES on the root says which rules, model, layout and
 * variant the server's keymap was made from, but nothing keeps it true: a
 * nested Xephyr may be given a layout's names and keep its own keys, or
 * take its host's keys under its own names. So the names are checked
 * against the keys: libxkbcommon makes the keymap the names say, and the
 * keysyms of the main block's keys (their first level) must be the
 * server's. The recording server's names first; in a nested Xephyr, the
 * host's (whose keys it may have taken); then the layouts the rules list
 * (rules/evdev.lst), the common ones first (Austria's keys are
 * Germany's: the first of them is named); if none says the keys, the
 * recording server's names as they are.
 *
 * Start reading at keymap_describe().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "keymap.h"

#include <stdio.h>
#include <string.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <xkbcommon/xkbcommon.h>

#include "xapp.h"

/* The keys compared: the main block, from the digits row to the last
 * letter row (evdev keycodes 10 to 61). */
#define FIRST_KEY 10
#define LAST_KEY 61

typedef struct
{
  char *fields[5];           /* rules, model, layout, variant, options (owned, or NULL) */
} RulesNames;

static void
rules_names_clear (RulesNames *names)
{
  for (guint i = 0; i < G_N_ELEMENTS (names->fields); i++)
    g_clear_pointer (&names->fields[i], g_free);
}

/* _XKB_RULES_NAMES of @dpy's root: five NUL-separated strings. */
static gboolean
read_rules_names (Display *dpy, RulesNames *names)
{
  Atom prop = XInternAtom (dpy, "_XKB_RULES_NAMES", True);
  g_autoptr (GBytes) value = NULL;
  gboolean ok = FALSE;

  memset (names, 0, sizeof *names);
  if (prop != None)
    value = xapp_property_get (dpy, DefaultRootWindow (dpy), prop, XA_STRING, 8, 1024, NULL);
  if (value != NULL && g_bytes_get_size (value) > 0)
    {
      gsize n;
      const char *p = g_bytes_get_data (value, &n);
      const char *end = p + n;

      for (guint i = 0; i < G_N_ELEMENTS (names->fields) && p < end; i++)
        {
          gsize len = strnlen (p, (gsize) (end - p));
          char *field = g_strndup (p, len);

          /* A server's words, but checked all the same: valid UTF-8 or none. */
          if (!g_utf8_validate (field, -1, NULL))
            g_clear_pointer (&field, g_free);
          names->fields[i] = field;
          p += len + 1;
        }
      ok = names->fields[2] != NULL && names->fields[2][0] != '\0';
    }
  if (!ok)
    rules_names_clear (names);
  return ok;
}

/* "de", "de(nodeadkeys)", "us,ru": the layout and variant said. */
static char *
layout_words (const RulesNames *names)
{
  const char *variant = names->fields[3];

  if (variant != NULL && variant[0] != '\0')
    return g_strdup_printf ("%s(%s)", names->fields[2], variant);
  return g_strdup (names->fields[2]);
}

/* Do @dpy's keys (the first level of the main block, from its core
 * keymap) say what the keymap @names would? */
static gboolean
names_match_keys (struct xkb_context *context, Display *dpy, const RulesNames *names)
{
  struct xkb_rule_names rmlvo = {
    .rules = names->fields[0] != NULL && names->fields[0][0] != '\0' ? names->fields[0] : NULL,
    .model = names->fields[1] != NULL && names->fields[1][0] != '\0' ? names->fields[1] : NULL,
    .layout = names->fields[2],
    .variant = names->fields[3],
    .options = names->fields[4],
  };
  struct xkb_keymap *keymap;
  KeySym *server;
  int per = 0;
  guint compared = 0, same = 0;

  if (context == NULL || names->fields[2] == NULL)
    return FALSE;
  keymap = xkb_keymap_new_from_names (context, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS);
  if (keymap == NULL)
    return FALSE;
  server = XGetKeyboardMapping (dpy, FIRST_KEY, LAST_KEY - FIRST_KEY + 1, &per);
  for (int k = FIRST_KEY; server != NULL && per > 0 && k <= LAST_KEY; k++)
    {
      const xkb_keysym_t *syms = NULL;
      KeySym theirs = server[(k - FIRST_KEY) * per];
      int n = xkb_keymap_key_get_syms_by_level (keymap, (xkb_keycode_t) k, 0, 0, &syms);

      if (theirs == NoSymbol && n == 0)
        continue;
      compared++;
      if (n > 0 && syms[0] == (xkb_keysym_t) theirs)
        same++;
    }
  if (server != NULL)
    XFree (server);
  xkb_keymap_unref (keymap);
  return compared > 0 && same == compared;
}

/* The layouts of the rules' list (its "! layout" section), the common
 * ones first. */
static GPtrArray *
listed_layouts (struct xkb_context *context, const char *rules)
{
  static const char *const common[] = { "us", "de", "fr", "gb", "es", "it", "ru", "pt", "br",
                                        "se", "no", "dk", "fi", "pl", "cz", "ch", "be", "nl",
                                        "jp", "tr", "ua", "hu", "latam", "ca" };
  GPtrArray *layouts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  gsize len = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (layouts, g_strdup (common[i]));
  for (unsigned int i = 0; context != NULL && i < xkb_context_num_include_paths (context); i++)
    {
      g_autofree char *list = g_strdup_printf ("%s.lst", rules != NULL && *rules ? rules : "evdev");
      g_autofree char *path = g_build_filename (xkb_context_include_path_get (context, i),
                                                "rules", list, NULL);

      if (strchr (list, '/') == NULL && g_file_get_contents (path, &text, &len, NULL)
          && len < 4 * 1024 * 1024)
        break;
      g_clear_pointer (&text, g_free);
    }
  if (text != NULL)
    {
      g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
      gboolean in_layouts = FALSE;

      for (guint i = 0; lines[i] != NULL && layouts->len < 400; i++)
        {
          char name[64];

          if (lines[i][0] == '!')
            in_layouts = g_str_has_prefix (lines[i], "! layout");
          else if (in_layouts && sscanf (lines[i], " %63s", name) == 1
                   && !g_ptr_array_find_with_equal_func (layouts, name, g_str_equal, NULL))
            g_ptr_array_add (layouts, g_strdup (name));
        }
    }
  return layouts;
}

char *
keymap_describe (Display *dpy, const char *host_display)
{
  struct xkb_context *context = xkb_context_new (XKB_CONTEXT_NO_FLAGS);
  RulesNames own = { { NULL } }, host = { { NULL } };
  RulesNames us = { { g_strdup ("evdev"), g_strdup ("pc105"), g_strdup ("us"), NULL, NULL } };
  gboolean have_own = read_rules_names (dpy, &own);
  char *name = NULL;

  if (have_own && names_match_keys (context, dpy, &own))
    name = layout_words (&own);
  if (name == NULL && host_display != NULL)
    {
      Display *outer = XOpenDisplay (host_display);

      if (outer != NULL && read_rules_names (outer, &host) && names_match_keys (context, dpy, &host))
        name = layout_words (&host);
      if (outer != NULL)
        XCloseDisplay (outer);
    }
  if (name == NULL)
    {
      g_autoptr (GPtrArray) layouts = listed_layouts (context, own.fields[0]);

      /* (Tens of milliseconds, once a recording, and only for a server
       * whose names do not say its keys.) */
      for (guint i = 0; name == NULL && i < layouts->len; i++)
        {
          g_free (us.fields[2]);
          us.fields[2] = g_strdup (g_ptr_array_index (layouts, i));
          if (names_match_keys (context, dpy, &us))
            name = g_strdup (us.fields[2]);
        }
    }
  if (name == NULL && have_own)
    name = layout_words (&own);
  if (name == NULL)
    name = g_strdup ("us");
  rules_names_clear (&own);
  rules_names_clear (&host);
  rules_names_clear (&us);
  if (context != NULL)
    xkb_context_unref (context);
  return name;
}
