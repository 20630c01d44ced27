/* session-parse-action.c — a user action's record (KeyPress,
 * KeyRelease, ButtonPress, ButtonRelease, MotionNotify, Drop): its
 * fields checked one by one, then together (what each kind needs).
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-parse-private.h"

#include <errno.h>
#include <xkbcommon/xkbcommon.h>

#define MAX_WINDOW_INDEX 1023

static gboolean
parse_int (const char *text, gint64 min, gint64 max, gint64 *value)
{
  char *end = NULL;
  gint64 v;

  if (!(g_ascii_isdigit (*text) || (*text == '-' && g_ascii_isdigit (text[1]))))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max)
    return FALSE;
  *value = v;
  return TRUE;
}

static gboolean
parse_point (const char *text, gint64 max, int *x, int *y)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", 3);
  gint64 vx, vy;

  if (g_strv_length (parts) != 2
      || !parse_int (parts[0], -max, max, &vx)
      || !parse_int (parts[1], -max, max, &vy))
    return FALSE;
  *x = (int) vx;
  *y = (int) vy;
  return TRUE;
}

/* What parser_action() has seen of an action's fields. */
typedef struct
{
  gboolean is_key, is_button;
  const char *kind;            /* the record's name */
  gboolean has_keycode, has_state, has_rel;
} ActionSeen;

/* Is @key one of the fields that say where an action is? */
static gboolean
is_place_field (const char *key)
{
  return g_str_equal (key, "root") || g_str_equal (key, "pos") || g_str_equal (key, "window")
         || g_str_equal (key, "size");
}

/* root=, pos=, window= or size= into @ev. */
static gboolean
parse_place_field (Parser *parser, SessionEvent *ev, const Field *f, ActionSeen *seen,
                   GError **error)
{
  gint64 ivalue;

  if (g_str_equal (f->key, "root"))
    {
      if (!parse_point (f->value, G_MAXINT32, &ev->root_x, &ev->root_y))
        return parser_fail (parser, error, "bad root coordinates '%s' (X,Y)",
                            f->value);
      if (ev->root_x < 0 || ev->root_y < 0
          || ev->root_x >= parser->session->screen_width
          || ev->root_y >= parser->session->screen_height)
        return parser_fail (parser, error,
                            "root coordinates %d,%d outside the %dx%d screen",
                            ev->root_x, ev->root_y,
                            parser->session->screen_width,
                            parser->session->screen_height);
      ev->has_pos = TRUE;
    }
  else if (g_str_equal (f->key, "pos"))
    {
      if (!parse_point (f->value, G_MAXINT32, &ev->x, &ev->y))
        return parser_fail (parser, error, "bad window coordinates '%s' (X,Y)",
                            f->value);
      if (ABS (ev->x) > SESSION_MAX_COORD || ABS (ev->y) > SESSION_MAX_COORD)
        return parser_fail (parser, error,
                            "window coordinates %d,%d out of range (±%d)",
                            ev->x, ev->y, SESSION_MAX_COORD);
      seen->has_rel = TRUE;
    }
  else if (g_str_equal (f->key, "window"))
    {
      if (!parse_int (f->value, -1, MAX_WINDOW_INDEX, &ivalue))
        return parser_fail (parser, error, "bad window index '%s' (-1 to %d)",
                            f->value, MAX_WINDOW_INDEX);
      ev->window = (int) ivalue;
    }
  else if (g_str_equal (f->key, "size"))
    {
      if (!session_screen_size_parse (f->value, &ev->width, &ev->height))
        {
          g_autofree char *word = parser_excerpt (f->value);
          return parser_fail (parser, error, "bad window size '%s' (WxH, 1 to %d each)",
                              word, SESSION_MAX_COORD);
        }
    }
  return TRUE;
}

/* Any other field of an action into @ev: the key's, the button's, the
 * state, a drop's, the window's identity, added=. */
static gboolean
parse_action_field (Parser *parser, SessionEvent *ev, const Field *f, ActionSeen *seen,
                    GError **error)
{
  guint64 value;

  if (seen->is_key && g_str_equal (f->key, "keysym"))
    {
      if (xkb_keysym_from_name (f->value, XKB_KEYSYM_NO_FLAGS) == XKB_KEY_NoSymbol)
        {
          g_autofree char *word = parser_excerpt (f->value);
          return parser_fail (parser, error, "unknown keysym '%s'", word);
        }
      ev->keysym = g_strdup (f->value);
    }
  else if (seen->is_key && g_str_equal (f->key, "keycode"))
    {
      if (!parser_uint (f->value, 255, &value) || value < 8)
        return parser_fail (parser, error, "bad keycode '%s' (8-255)", f->value);
      ev->keycode = (guint) value;
      seen->has_keycode = TRUE;
    }
  else if (g_str_equal (f->key, "state"))
    {
      if (!parser_uint (f->value, 0xffff, &value))
        return parser_fail (parser, error, "bad state '%s' (a mask up to 0xffff)",
                            f->value);
      ev->state = (guint) value;
      seen->has_state = TRUE;
    }
  else if (seen->is_button && g_str_equal (f->key, "button"))
    {
      if (!parser_uint (f->value, 255, &value) || value < 1)
        return parser_fail (parser, error, "bad button '%s' (1-255)", f->value);
      ev->button = (guint) value;
    }
  else if (ev->kind == SESSION_EVENT_DROP
           && (g_str_equal (f->key, "types") || g_str_equal (f->key, "action")))
    {
      g_autofree char *why = NULL;

      if (!session_world_parse_drop_field (ev, f, &why))
        return parser_fail (parser, error, "%s", why);
    }
  else if (g_str_equal (f->key, "class") && f->quoted)
    ev->wm_class = g_strdup (f->value);
  else if (g_str_equal (f->key, "title") && f->quoted)
    ev->wm_name = g_strdup (f->value);
  else if (g_str_equal (f->key, "class") || g_str_equal (f->key, "title"))
    return parser_fail (parser, error, "field '%s' must be a quoted string", f->key);
  else if (g_str_equal (f->key, "added"))
    {
      if (ev->kind != SESSION_EVENT_KEY_RELEASE && ev->kind != SESSION_EVENT_BUTTON_RELEASE)
        return parser_fail (parser, error, "added= is for releases only, not %s", seen->kind);
      if (!g_str_equal (f->value, "1"))
        return parser_fail (parser, error, "bad added '%s' (1)", f->value);
      ev->added = TRUE;
    }
  else
    {
      g_autofree char *word = parser_excerpt (f->key);
      return parser_fail (parser, error, "unknown field '%s' for %s", word, seen->kind);
    }
  return TRUE;
}

/* The checks of the fields together: what each kind needs. */
static gboolean
check_action (Parser *parser, const SessionEvent *ev, const ActionSeen *seen, GError **error)
{
  if (seen->is_key && ev->keysym == NULL)
    return parser_fail (parser, error, "%s without keysym=", seen->kind);
  if (seen->is_key && !seen->has_keycode)
    return parser_fail (parser, error, "%s without keycode=", seen->kind);
  if (seen->is_button && ev->button == 0)
    return parser_fail (parser, error, "%s without button=", seen->kind);
  if (ev->kind == SESSION_EVENT_DROP && ev->types == NULL)
    return parser_fail (parser, error, "Drop without types=");
  if (!seen->has_state && ev->kind != SESSION_EVENT_DROP)
    return parser_fail (parser, error, "%s without state=", seen->kind);
  if (!seen->is_key && !ev->has_pos)
    return parser_fail (parser, error, "%s without root=", seen->kind);
  if (seen->has_rel && !(ev->has_pos && ev->window >= 0))
    return parser_fail (parser, error, "pos= needs root= and window=");
  if (ev->width > 0 && ev->window < 0)
    return parser_fail (parser, error, "size= needs window=");
  if (ev->has_pos && ev->window >= 0 && !seen->has_rel)
    return parser_fail (parser, error, "%s in window %d without pos=", seen->kind,
                        ev->window);
  return TRUE;
}

gboolean
parser_action (Parser *parser, SessionEvent *ev, GArray *fields, GError **error)
{
  ActionSeen seen = {
    .is_key = ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE,
    .is_button = ev->kind == SESSION_EVENT_BUTTON_PRESS
                 || ev->kind == SESSION_EVENT_BUTTON_RELEASE,
    .kind = session_action_names[ev->kind],
  };

  ev->window = -1;
  for (guint i = 0; i < fields->len; i++)
    {
      Field *f = &g_array_index (fields, Field, i);

      if (!(is_place_field (f->key) ? parse_place_field (parser, ev, f, &seen, error)
                                    : parse_action_field (parser, ev, f, &seen, error)))
        return FALSE;
    }
  return check_action (parser, ev, &seen, error);
}
