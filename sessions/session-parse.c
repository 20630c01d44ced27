/* session-parse.c — reading the session text format
 * (docs/session-format.md); session-print.c writes it.
 *
 * session_parse() walks the buffer line by line: comments and blank lines
 * become COMMENT events, the header fills the Session's fields, records are
 * tokenised into NAME=VALUE fields (tokenize_fields) and checked field by
 * field (parse_action / parse_server). Every error names "file:line".
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <errno.h>
#include <string.h>
#include <gio/gio.h>
#include <xkbcommon/xkbcommon.h>

#define MAX_WINDOW_INDEX 1023
#define MAX_TIME_MS ((guint64) 1 << 53)

static const char *const server_event_names[] = {
  "FocusIn", "FocusOut", "KeymapNotify", "Expose", "GraphicsExpose",
  "NoExpose", "VisibilityNotify", "CreateNotify", "DestroyNotify",
  "UnmapNotify", "MapNotify", "MapRequest", "ReparentNotify",
  "ConfigureNotify", "ConfigureRequest", "GravityNotify", "ResizeRequest",
  "CirculateNotify", "CirculateRequest", "PropertyNotify", "SelectionClear",
  "SelectionRequest", "SelectionNotify", "ColormapNotify", "ClientMessage",
  "MappingNotify", "GenericEvent", "EnterNotify", "LeaveNotify",
};


typedef struct
{
  const char *name;           /* file name for messages, quote_terminal()'d */
  guint line;
  Session *session;
  guint max_actions;           /* user actions, and as many server events */
  guint n_actions;
  guint n_server;
  GCancellable *cancellable;  /* or NULL */
  GString *comments;          /* the run of comment and blank lines not yet an event */
  gboolean comments_in_preamble;
  guint64 comments_time;
  gboolean seen_version, seen_screen, seen_command, seen_keymap;
  gboolean seen_desktop, seen_replay;
  gboolean seen_outcome, in_records, seen_footer;
  guint64 last_time;
  gboolean world_seen;        /* a line of version 2 was read */
  guint last_record;          /* 1 + the event index of the record before, or 0 */
} Parser;

typedef SessionField Field;

static void
field_clear (Field *field)
{
  g_free (field->key);
  g_free (field->value);
}

/* Printable excerpt of untrusted text for an error message: its first 40
 * characters, quote_terminal()'d. */
static char *
excerpt (const char *text)
{
  g_autofree char *start = NULL;
  glong n = g_utf8_validate (text, -1, NULL) ? g_utf8_strlen (text, -1) : (glong) strlen (text);

  if (n <= 40)
    return quote_terminal (text);
  start = g_utf8_validate (text, -1, NULL) ? g_utf8_substring (text, 0, 40) : g_strndup (text, 40);
  {
    g_autofree char *quoted = quote_terminal (start);
    return g_strconcat (quoted, "...", NULL);
  }
}

G_GNUC_PRINTF (3, 4) static gboolean
parse_fail (Parser *parser, GError **error, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  g_autofree char *shown = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Values are excerpt()'d where they are named; whatever was not (a
   * field's name, a bad number) has its hidden characters escaped here,
   * so that no message carries an escape sequence to a terminal. */
  shown = quote_message (message);
  g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE, "%s:%u: %s",
               parser->name, parser->line, shown);
  return FALSE;
}

/* Reads a quoted string starting at *p == '"'; advances *p past it. */
char *
session_read_quoted (const char **p, GError **error)
{
  GString *out = g_string_new (NULL);
  const char *s = *p + 1;

  for (;;)
    {
      if (*s == '\0')
        {
          g_set_error_literal (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                               "unterminated string");
          return (g_string_free (out, TRUE), NULL);
        }
      if (*s == '"')
        break;
      if (*s != '\\')
        {
          g_string_append_c (out, *s++);
          continue;
        }
      s++;
      switch (*s)
        {
        case '\\': g_string_append_c (out, '\\'); s++; break;
        case '"': g_string_append_c (out, '"'); s++; break;
        case 'n': g_string_append_c (out, '\n'); s++; break;
        case 't': g_string_append_c (out, '\t'); s++; break;
        case 'r': g_string_append_c (out, '\r'); s++; break;
        case 'x':
          if (g_ascii_isxdigit (s[1]) && g_ascii_isxdigit (s[2]))
            {
              int value = g_ascii_xdigit_value (s[1]) * 16
                          + g_ascii_xdigit_value (s[2]);
              if (value == 0)
                goto bad_escape;
              g_string_append_c (out, (char) value);
              s += 3;
              break;
            }
          goto bad_escape;
        default:
        bad_escape:
          g_set_error_literal (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                               "bad escape in string");
          return (g_string_free (out, TRUE), NULL);
        }
    }
  if (!g_utf8_validate (out->str, out->len, NULL))
    {
      g_set_error_literal (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                           "string is not valid UTF-8");
      return (g_string_free (out, TRUE), NULL);
    }
  *p = s + 1;
  return g_string_free (out, FALSE);
}

/* Splits "a=1 b="x y" c=3" into fields. */
static GArray *
tokenize_fields (Parser *parser, const char *p, GError **error)
{
  g_autoptr (GArray) fields = g_array_new (FALSE, TRUE, sizeof (Field));

  g_array_set_clear_func (fields, (GDestroyNotify) field_clear);
  for (;;)
    {
      Field field = { 0 };
      const char *start;
      g_autoptr (GError) local = NULL;

      while (*p == ' ')
        p++;
      if (*p == '\0')
        break;
      start = p;
      while (*p != '\0' && *p != '=' && *p != ' ' && *p != '"')
        p++;
      if (*p != '=' || p == start)
        {
          g_autofree char *word = excerpt (start);
          parse_fail (parser, error, "expected NAME=VALUE, got '%s'", word);
          return NULL;
        }
      field.key = g_strndup (start, p - start);
      p++;
      if (*p == '"')
        {
          field.quoted = TRUE;
          field.value = session_read_quoted (&p, &local);
          if (field.value == NULL)
            {
              parse_fail (parser, error, "field '%s': %s", field.key,
                          local->message);
              field_clear (&field);
              return NULL;
            }
          if (*p != '\0' && *p != ' ')
            {
              parse_fail (parser, error, "field '%s': text after the closing quote",
                          field.key);
              field_clear (&field);
              return NULL;
            }
        }
      else
        {
          start = p;
          while (*p != '\0' && *p != ' ' && *p != '"')
            p++;
          if (*p == '"')
            {
              parse_fail (parser, error, "field '%s': stray quote", field.key);
              field_clear (&field);
              return NULL;
            }
          field.value = g_strndup (start, p - start);
        }
      for (guint i = 0; i < fields->len; i++)
        if (g_str_equal (g_array_index (fields, Field, i).key, field.key))
          {
            parse_fail (parser, error, "field '%s' given twice", field.key);
            field_clear (&field);
            return NULL;
          }
      g_array_append_val (fields, field);
    }
  return g_steal_pointer (&fields);
}

static gboolean
parse_uint (const char *text, guint64 max, guint64 *value)
{
  char *end = NULL;
  guint64 v;
  int base = 10;

  if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    {
      base = 16;
      text += 2;
    }
  if (!g_ascii_isxdigit (*text) || (base == 10 && !g_ascii_isdigit (*text)))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (text, &end, base);
  if (errno != 0 || *end != '\0' || v > max)
    return FALSE;
  *value = v;
  return TRUE;
}

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

static gboolean
parse_action (Parser *parser, SessionEvent *ev, GArray *fields, GError **error)
{
  gboolean is_key = ev->kind == SESSION_EVENT_KEY_PRESS
                    || ev->kind == SESSION_EVENT_KEY_RELEASE;
  gboolean is_button = ev->kind == SESSION_EVENT_BUTTON_PRESS
                       || ev->kind == SESSION_EVENT_BUTTON_RELEASE;
  const char *kind = session_action_names[ev->kind];
  gboolean has_keycode = FALSE, has_state = FALSE, has_rel = FALSE;
  guint64 value;
  gint64 ivalue;

  ev->window = -1;
  for (guint i = 0; i < fields->len; i++)
    {
      Field *f = &g_array_index (fields, Field, i);

      if (is_key && g_str_equal (f->key, "keysym"))
        {
          if (xkb_keysym_from_name (f->value, XKB_KEYSYM_NO_FLAGS) == XKB_KEY_NoSymbol)
            {
              g_autofree char *word = excerpt (f->value);
              return parse_fail (parser, error, "unknown keysym '%s'", word);
            }
          ev->keysym = g_strdup (f->value);
        }
      else if (is_key && g_str_equal (f->key, "keycode"))
        {
          if (!parse_uint (f->value, 255, &value) || value < 8)
            return parse_fail (parser, error, "bad keycode '%s' (8-255)", f->value);
          ev->keycode = (guint) value;
          has_keycode = TRUE;
        }
      else if (g_str_equal (f->key, "state"))
        {
          if (!parse_uint (f->value, 0xffff, &value))
            return parse_fail (parser, error, "bad state '%s' (a mask up to 0xffff)",
                               f->value);
          ev->state = (guint) value;
          has_state = TRUE;
        }
      else if (is_button && g_str_equal (f->key, "button"))
        {
          if (!parse_uint (f->value, 255, &value) || value < 1)
            return parse_fail (parser, error, "bad button '%s' (1-255)", f->value);
          ev->button = (guint) value;
        }
      else if (g_str_equal (f->key, "root"))
        {
          if (!parse_point (f->value, G_MAXINT32, &ev->root_x, &ev->root_y))
            return parse_fail (parser, error, "bad root coordinates '%s' (X,Y)",
                               f->value);
          if (ev->root_x < 0 || ev->root_y < 0
              || ev->root_x >= parser->session->screen_width
              || ev->root_y >= parser->session->screen_height)
            return parse_fail (parser, error,
                               "root coordinates %d,%d outside the %dx%d screen",
                               ev->root_x, ev->root_y,
                               parser->session->screen_width,
                               parser->session->screen_height);
          ev->has_pos = TRUE;
        }
      else if (g_str_equal (f->key, "pos"))
        {
          if (!parse_point (f->value, G_MAXINT32, &ev->x, &ev->y))
            return parse_fail (parser, error, "bad window coordinates '%s' (X,Y)",
                               f->value);
          if (ABS (ev->x) > SESSION_MAX_COORD || ABS (ev->y) > SESSION_MAX_COORD)
            return parse_fail (parser, error,
                               "window coordinates %d,%d out of range (±%d)",
                               ev->x, ev->y, SESSION_MAX_COORD);
          has_rel = TRUE;
        }
      else if (g_str_equal (f->key, "window"))
        {
          if (!parse_int (f->value, -1, MAX_WINDOW_INDEX, &ivalue))
            return parse_fail (parser, error, "bad window index '%s' (-1 to %d)",
                               f->value, MAX_WINDOW_INDEX);
          ev->window = (int) ivalue;
        }
      else if (g_str_equal (f->key, "size"))
        {
          if (!session_screen_size_parse (f->value, &ev->width, &ev->height))
            {
              g_autofree char *word = excerpt (f->value);
              return parse_fail (parser, error, "bad window size '%s' (WxH, 1 to %d each)",
                                 word, SESSION_MAX_COORD);
            }
        }
      else if (ev->kind == SESSION_EVENT_DROP
               && (g_str_equal (f->key, "types") || g_str_equal (f->key, "action")))
        {
          g_autofree char *why = NULL;

          if (!session_world_parse_drop_field (ev, f, &why))
            return parse_fail (parser, error, "%s", why);
        }
      else if (g_str_equal (f->key, "class") && f->quoted)
        ev->wm_class = g_strdup (f->value);
      else if (g_str_equal (f->key, "title") && f->quoted)
        ev->wm_name = g_strdup (f->value);
      else if (g_str_equal (f->key, "class") || g_str_equal (f->key, "title"))
        return parse_fail (parser, error, "field '%s' must be a quoted string", f->key);
      else if (g_str_equal (f->key, "added"))
        {
          if (ev->kind != SESSION_EVENT_KEY_RELEASE && ev->kind != SESSION_EVENT_BUTTON_RELEASE)
            return parse_fail (parser, error, "added= is for releases only, not %s", kind);
          if (!g_str_equal (f->value, "1"))
            return parse_fail (parser, error, "bad added '%s' (1)", f->value);
          ev->added = TRUE;
        }
      else
        {
          g_autofree char *word = excerpt (f->key);
          return parse_fail (parser, error, "unknown field '%s' for %s", word, kind);
        }
    }

  if (is_key && ev->keysym == NULL)
    return parse_fail (parser, error, "%s without keysym=", kind);
  if (is_key && !has_keycode)
    return parse_fail (parser, error, "%s without keycode=", kind);
  if (is_button && ev->button == 0)
    return parse_fail (parser, error, "%s without button=", kind);
  if (ev->kind == SESSION_EVENT_DROP && ev->types == NULL)
    return parse_fail (parser, error, "Drop without types=");
  if (!has_state && ev->kind != SESSION_EVENT_DROP)
    return parse_fail (parser, error, "%s without state=", kind);
  if (!is_key && !ev->has_pos)
    return parse_fail (parser, error, "%s without root=", kind);
  if (has_rel && !(ev->has_pos && ev->window >= 0))
    return parse_fail (parser, error, "pos= needs root= and window=");
  if (ev->width > 0 && ev->window < 0)
    return parse_fail (parser, error, "size= needs window=");
  if (ev->has_pos && ev->window >= 0 && !has_rel)
    return parse_fail (parser, error, "%s in window %d without pos=", kind,
                       ev->window);
  return TRUE;
}

/* The bytes of @text as a quoted string in the format. */
static gsize
quoted_length (const char *text)
{
  g_autoptr (GString) out = g_string_new (NULL);

  session_append_quoted (out, text);
  return out->len;
}

/* Every line this parser accepts is written back (session_to_string, the
 * writer) as one that it accepts again: quoted strings are written with
 * escapes, and a raw control character in one (which the parser takes)
 * grows to four bytes, so an action whose line would grow past
 * SESSION_MAX_LINE is refused here, not when the file it is saved in is
 * read. (Comments and server events are written as they were read.) */
static gboolean
fits_when_written (Parser *parser, const SessionEvent *ev, GError **error)
{
  g_autofree char *line = session_event_to_line (ev);

  if (strlen (line) <= SESSION_MAX_LINE)
    return TRUE;
  return parse_fail (parser, error, "written back, this line would be longer than %d bytes "
                     "(a control character in a title or class takes 4)", SESSION_MAX_LINE);
}

/* A line of version 2 in a file that says version 1 is refused: a
 * reader of version 1 would have refused the file. */
static gboolean
needs_version_2 (Parser *parser, const char *what, GError **error)
{
  parser->world_seen = TRUE;
  if (parser->session->version >= 2)
    return TRUE;
  return parse_fail (parser, error, "'%s' is a line of format version 2, and the file says "
                     "'xreduce-session %d'", what, parser->session->version);
}

/* A header line of version 2: `env NAME "VALUE"`, `home "PATH"`, ...
 * (session-world.c checks the values). */
static gboolean
parse_world_header (Parser *parser, const char *key, const char *rest, GError **error)
{
  g_autofree char *name = NULL, *value = NULL, *why = NULL;
  g_autoptr (GError) local = NULL;
  const char *p = rest;

  if (!needs_version_2 (parser, key, error))
    return FALSE;
  if (g_str_equal (key, "env"))
    {
      const char *space = strchr (rest, ' ');

      if (space == NULL)
        return parse_fail (parser, error, "env: expected NAME \"VALUE\"");
      name = g_strndup (rest, (gsize) (space - rest));
      p = space + 1;
    }
  if (*p != '"')
    return parse_fail (parser, error, "%s: expected a quoted string", key);
  value = session_read_quoted (&p, &local);
  if (value == NULL)
    return parse_fail (parser, error, "%s: %s", key, local->message);
  if (*p != '\0')
    return parse_fail (parser, error, "%s: text after the closing quote", key);
  /* Written back, the line must load again (see fits_when_written). */
  if (strlen (key) + 1 + (name != NULL ? strlen (name) + 1 : 0) + quoted_length (value)
      > SESSION_MAX_LINE)
    return parse_fail (parser, error, "%s: written back, this line would be longer than %d "
                       "bytes (a control character takes 4)", key, SESSION_MAX_LINE);
  if (!session_world_parse_header (parser->session, key, name, value, &why))
    return parse_fail (parser, error, "%s", why);
  return TRUE;
}

static gboolean
parse_header_line (Parser *parser, const char *line, GError **error)
{
  Session *session = parser->session;
  const char *space = strchr (line, ' ');
  g_autofree char *key = space ? g_strndup (line, space - line) : g_strdup (line);
  const char *rest = space ? space + 1 : "";
  g_autoptr (GError) local = NULL;

  if (g_str_equal (key, "screen"))
    {
      int w, h;

      if (parser->seen_screen)
        return parse_fail (parser, error, "second 'screen' line");
      if (!session_screen_size_parse (rest, &w, &h))
        return parse_fail (parser, error, "bad screen size '%s' (WxH, up to %d)",
                           rest, SESSION_MAX_COORD);
      session->screen_width = w;
      session->screen_height = h;
      parser->seen_screen = TRUE;
    }
  else if (g_str_equal (key, "command") || g_str_equal (key, "keymap"))
    {
      gboolean is_command = key[0] == 'c';
      g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
      const char *p = rest;

      if (is_command ? parser->seen_command : parser->seen_keymap)
        return parse_fail (parser, error, "second '%s' line", key);
      while (*p != '\0')
        {
          char *word;
          if (*p != '"')
            return parse_fail (parser, error, "%s: expected a quoted string", key);
          word = session_read_quoted (&p, &local);
          if (word == NULL)
            return parse_fail (parser, error, "%s: %s", key, local->message);
          g_ptr_array_add (words, word);
          if (*p == ' ')
            p++;
          else if (*p != '\0')
            return parse_fail (parser, error, "%s: text after a closing quote", key);
        }
      if (words->len == 0 || (!is_command && words->len != 1))
        return parse_fail (parser, error, "%s: expected %s", key,
                           is_command ? "one or more quoted words" : "one quoted name");
      {
        /* Written back, the line must load again (see fits_when_written). */
        gsize written = strlen (key);

        for (guint i = 0; i < words->len; i++)
          written += 1 + quoted_length (g_ptr_array_index (words, i));
        if (written > SESSION_MAX_LINE)
          return parse_fail (parser, error, "%s: written back, this line would be longer than "
                             "%d bytes (a control character takes 4)", key, SESSION_MAX_LINE);
      }
      if (is_command)
        {
          g_ptr_array_add (words, NULL);
          session->command = (char **) g_ptr_array_steal (words, NULL);
          parser->seen_command = TRUE;
        }
      else
        {
          session->keymap = g_strdup (g_ptr_array_index (words, 0));
          parser->seen_keymap = TRUE;
        }
    }
  else if (g_str_equal (key, "desktop") || g_str_equal (key, "replay"))
    {
      /* Their own parsers, their own checks (session-options.c). */
      gboolean desktop = key[0] == 'd';

      if (desktop ? parser->seen_desktop : parser->seen_replay)
        return parse_fail (parser, error, "second '%s' line", key);
      if (!(desktop ? session_desktop_parse (session, rest, &local)
                    : session_replay_line_parse (session, rest, &local)))
        return parse_fail (parser, error, "%s", local->message);
      *(desktop ? &parser->seen_desktop : &parser->seen_replay) = TRUE;
    }
  else if (g_str_equal (key, "outcome"))
    {
      if (parser->seen_outcome)
        return parse_fail (parser, error, "second 'outcome' line");
      if (!session_outcome_parse (rest, &session->outcome, &local))
        return parse_fail (parser, error, "%s", local->message);
      parser->seen_outcome = TRUE;
      session->outcome_at_end = parser->in_records;
      parser->seen_footer = parser->in_records;
    }
  else if (session_world_header_key (key))
    return parse_world_header (parser, key, rest, error);
  else
    {
      g_autofree char *word = excerpt (key);
      return parse_fail (parser, error, "unknown header line '%s'", word);
    }
  return TRUE;
}

static gboolean
parse_record (Parser *parser, const char *line, GError **error)
{
  SessionEvent ev = { 0 };
  const char *p = line;
  const char *name_start;
  g_autofree char *name = NULL;
  g_autoptr (GArray) fields = NULL;
  guint64 time_ms;

  while (g_ascii_isdigit (*p))
    p++;
  {
    g_autofree char *digits = g_strndup (line, p - line);
    if (*p != ' ' || !parse_uint (digits, MAX_TIME_MS, &time_ms))
      {
        g_autofree char *word = excerpt (line);
        return parse_fail (parser, error, "bad timestamp in '%s'", word);
      }
  }
  if (parser->seen_footer)
    return parse_fail (parser, error, "record after the 'outcome' footer");
  if (!parser->seen_screen)
    return parse_fail (parser, error, "missing 'screen WxH' header line before the records");
  if (time_ms < parser->last_time)
    return parse_fail (parser, error, "time goes backwards (%" G_GUINT64_FORMAT
                       " after %" G_GUINT64_FORMAT ")", time_ms, parser->last_time);
  parser->last_time = time_ms;
  p++;
  name_start = p;
  while (*p != '\0' && *p != ' ')
    p++;
  name = g_strndup (name_start, p - name_start);
  ev.time_ms = time_ms;
  ev.kind = SESSION_EVENT_COMMENT;
  for (guint k = 0; k < G_N_ELEMENTS (session_action_names); k++)
    if (g_str_equal (name, session_action_names[k]))
      ev.kind = k;
  if (ev.kind == SESSION_EVENT_COMMENT)
    for (guint k = 0; k < G_N_ELEMENTS (server_event_names); k++)
      if (g_str_equal (name, server_event_names[k]))
        ev.kind = SESSION_EVENT_SERVER;
  if (ev.kind == SESSION_EVENT_COMMENT && g_str_equal (name, "Selection"))
    ev.kind = SESSION_EVENT_SELECTION;
  if (ev.kind == SESSION_EVENT_COMMENT && g_str_equal (name, "File"))
    ev.kind = SESSION_EVENT_FILE;
  if (ev.kind == SESSION_EVENT_COMMENT)
    {
      g_autofree char *word = excerpt (name);
      return parse_fail (parser, error, "unknown event '%s'", word);
    }

  fields = tokenize_fields (parser, p, error);
  if (fields == NULL)
    return FALSE;
  if (ev.kind == SESSION_EVENT_SERVER)
    {
      while (*p == ' ')
        p++;
      ev.name = g_steal_pointer (&name);
      ev.args = g_strdup (p);
      ev.window = -1;
    }
  else if (ev.kind == SESSION_EVENT_SELECTION || ev.kind == SESSION_EVENT_FILE)
    {
      g_autofree char *why = NULL;

      ev.window = -1;
      if (!needs_version_2 (parser, name, error)
          || (!session_world_parse_record (&ev, fields, &why)
              && parse_fail (parser, error, "%s", why) == FALSE)
          || !fits_when_written (parser, &ev, error))
        {
          session_event_clear (&ev);
          return FALSE;
        }
    }
  else if ((ev.kind == SESSION_EVENT_DROP && !needs_version_2 (parser, name, error))
           || !parse_action (parser, &ev, fields, error) || !fits_when_written (parser, &ev, error))
    {
      session_event_clear (&ev);
      return FALSE;
    }
  {
    g_autofree char *why = NULL;

    const SessionEvent *prev = parser->last_record > 0
      ? session_get_event (parser->session, parser->last_record - 1) : NULL;

    if (!session_world_check_sequence (prev, &ev, &why))
      {
        session_event_clear (&ev);
        return parse_fail (parser, error, "%s", why);
      }
  }
  if (session_event_is_action (&ev) && ++parser->n_actions > parser->max_actions)
    {
      session_event_clear (&ev);
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                   "%s:%u: more than %u user actions (--max-actions raises the limit)",
                   parser->name, parser->line, parser->max_actions);
      return FALSE;
    }
  /* The app's events cost as much memory and time as the actions (a
   * recording has a few a user action): as many at most. */
  if (ev.kind == SESSION_EVENT_SERVER && ++parser->n_server > parser->max_actions)
    {
      session_event_clear (&ev);
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                   "%s:%u: more than %u events of the app (such as MapNotify; "
                   "--max-actions raises the limit)",
                   parser->name, parser->line, parser->max_actions);
      return FALSE;
    }
  g_array_append_val (parser->session->events, ev);
  parser->last_record = parser->session->events->len;
  return TRUE;
}

static void
flush_comments (Parser *parser)
{
  SessionEvent comment = { .kind = SESSION_EVENT_COMMENT, .window = -1 };

  if (parser->comments == NULL)
    return;
  comment.time_ms = parser->comments_time;
  comment.text = g_string_free (g_steal_pointer (&parser->comments), FALSE);
  g_array_append_val (parser->session->events, comment);
  if (parser->comments_in_preamble)
    parser->session->n_preamble++;
}

static gboolean
parse_line (Parser *parser, const char *line, GError **error)
{
  const char *p = line;

  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '\0' || *p == '#')
    {
      /* A run of comment and blank lines is one event, its lines joined
       * by newlines: ten million blank lines cost their bytes, not ten
       * million events. */
      if (parser->comments == NULL)
        {
          parser->comments = g_string_new (line);
          parser->comments_in_preamble = !parser->seen_version;
          if (parser->session->events->len > 0 || parser->seen_version || parser->in_records)
            parser->comments_time = parser->last_time;
          else
            parser->comments_time = 0;
        }
      else
        {
          g_string_append_c (parser->comments, '\n');
          g_string_append (parser->comments, line);
        }
      return TRUE;
    }
  flush_comments (parser);
  if (!parser->seen_version)
    {
      guint64 version;
      g_autofree char *word = excerpt (line);

      if (!g_str_has_prefix (line, "xreduce-session "))
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_VERSION,
                       "%s:%u: not a session log: expected 'xreduce-session %d' first, got '%s'",
                       parser->name, parser->line, SESSION_FORMAT_VERSION, word);
          return FALSE;
        }
      if (!parse_uint (line + strlen ("xreduce-session "), G_MAXINT, &version)
          || version == 0)
        return parse_fail (parser, error, "bad format version in '%s'", word);
      if (version > SESSION_FORMAT_VERSION)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_VERSION,
                       "%s:%u: format version %" G_GUINT64_FORMAT
                       " is newer than this xreduce reads (%d): update xreduce",
                       parser->name, parser->line, version, SESSION_FORMAT_VERSION);
          return FALSE;
        }
      parser->session->version = (int) version;
      parser->seen_version = TRUE;
      return TRUE;
    }
  if (g_ascii_isdigit (*line))
    {
      parser->in_records = TRUE;
      return parse_record (parser, line, error);
    }
  if (parser->in_records && !g_str_has_prefix (line, "outcome "))
    {
      g_autofree char *word = excerpt (line);
      return parse_fail (parser, error, "expected a record 'TIME EVENT ...', got '%s'", word);
    }
  return parse_header_line (parser, line, error);
}

/* The @len bytes at @line are blank, or a comment. */
static gboolean
line_is_comment (const char *line, gsize len)
{
  gsize i = 0;

  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i == len || line[i] == '#';
}

static Session *parse_all (Parser *parser, const char *data, gsize len, GError **error);

/* Lines between two looks at the parser's cancellable. */
#define PARSE_CANCEL_EVERY 4096

Session *
session_parse (const char *data, gsize len, const char *name, GError **error)
{
  return session_parse_bounded (data, len, name, SESSION_MAX_ACTIONS, error);
}

static Session *
parse_cancellable (const char *data, gsize len, const char *name, guint max_actions,
                   GCancellable *cancellable, GError **error)
{
  /* The file name is the user's, but it may come from a stranger too (an
   * attachment's name): shown quoted, like all else. */
  g_autofree char *shown = quote_terminal (name);
  Parser parser = { .name = shown, .max_actions = max_actions, .cancellable = cancellable };
  Session *session = parse_all (&parser, data, len, error);

  if (parser.comments != NULL)
    g_string_free (parser.comments, TRUE);
  return session;
}

Session *
session_parse_bounded (const char *data, gsize len, const char *name, guint max_actions,
                       GError **error)
{
  return parse_cancellable (data, len, name, max_actions, NULL, error);
}

Session *
session_parse_cancellable (const char *data, gsize len, const char *name, guint max_actions,
                           GCancellable *cancellable, GError **error)
{
  return parse_cancellable (data, len, name, max_actions, cancellable, error);
}

static Session *
parse_all (Parser *parser, const char *data, gsize len, GError **error)
{
  static const char cut_note[] = " (its last line, cut short, was ignored)";
  g_autoptr (Session) session = session_new ();
  const char *name = parser->name;
  const char *p = data, *end = data + len;
  const char *nul;

  parser->session = session;

  if (len == 0)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_EMPTY,
                   "%s: empty file, not a session log", name);
      return NULL;
    }
  /* The caller holds the bytes already (session_load_limited checked its
   * limit before reading): only the ceiling of any limit here. */
  if (len > SESSION_MAX_FILE_SIZE_CEILING)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                   "%s: %" G_GSIZE_FORMAT " bytes is too large for a session log (at most %"
                   G_GSIZE_FORMAT " MiB)", name, len, SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024));
      return NULL;
    }
  nul = memchr (data, '\0', len);
  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      gsize line_len = (eol != NULL ? eol : end) - p;
      g_autofree char *line = NULL;

      parser->line++;
      if (parser->line % PARSE_CANCEL_EVERY == 0
          && g_cancellable_set_error_if_cancelled (parser->cancellable, error))
        return NULL;
      if (nul != NULL && nul < p + line_len + 1)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "%s:%u: binary data (NUL byte), not a session log",
                       name, parser->line);
          return NULL;
        }
      /* Every trailing CR goes, so that printing and parsing again is
       * stable (a comment "#a\r\r" would otherwise lose one per trip). */
      while (line_len > 0 && p[line_len - 1] == '\r')
        line_len--;
      /* Every line a writer writes ends with '\n': a last line without
       * one was cut (a log cut short, a file cut in transit), maybe in
       * the middle of a character, and may still parse with a wrong value
       * (keycode=6 of keycode=64). It is dropped, and the session says so
       * (session_get_warning). A whole comment or a blank line carries no
       * value: kept. */
      if (eol == NULL && !(line_is_comment (p, line_len) && line_len <= SESSION_MAX_LINE
                           && g_utf8_validate_len (p, line_len, NULL)))
        {
          session->warning = g_strdup_printf ("%s:%u: the last line does not end with a "
                                              "newline (cut short?): ignored", name,
                                              parser->line);
          break;
        }
      if (line_len > SESSION_MAX_LINE)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "%s:%u: line longer than %d bytes", name, parser->line,
                       SESSION_MAX_LINE);
          return NULL;
        }
      if (!g_utf8_validate_len (p, line_len, NULL))
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "%s:%u: invalid UTF-8 (binary data?), not a session log",
                       name, parser->line);
          return NULL;
        }
      line = g_strndup (p, line_len);
      p = eol != NULL ? eol + 1 : end;
      if (!parse_line (parser, line, error))
        return NULL;
    }
  flush_comments (parser);
  {
    g_autofree char *why = NULL;
    const SessionEvent *prev = parser->last_record > 0
      ? session_get_event (session, parser->last_record - 1) : NULL;

    if (!session_world_check_sequence (prev, NULL, &why))
      {
        g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE, "%s: %s%s", name, why,
                     session->warning != NULL ? cut_note : "");
        return NULL;
      }
  }
  if (!parser->seen_version)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_VERSION,
                   "%s: no 'xreduce-session %d' line, not a session log%s",
                   name, SESSION_FORMAT_VERSION, session->warning != NULL ? cut_note : "");
      return NULL;
    }
  if (!parser->seen_screen)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "%s: missing 'screen WxH' header line%s", name,
                   session->warning != NULL ? cut_note : "");
      return NULL;
    }
  return g_steal_pointer (&session);
}

gboolean
session_max_actions_parse (const char *text, guint *max_actions)
{
  guint64 n = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, SESSION_MAX_ACTIONS_CEILING, &n, NULL))
    return FALSE;
  *max_actions = (guint) n;
  return TRUE;
}

gboolean
session_max_size_parse (const char *text, gsize *max_bytes)
{
  guint64 mib = 0;

  if (text == NULL
      || !g_ascii_string_to_unsigned (text, 10, 1, SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024),
                                      &mib, NULL))
    return FALSE;
  *max_bytes = (gsize) mib * 1024 * 1024;
  return TRUE;
}

Session *
session_load (const char *path, GError **error)
{
  return session_load_limited (path, SESSION_MAX_FILE_SIZE, error);
}

Session *
session_load_limited (const char *path, gsize max_bytes, GError **error)
{
  return session_load_bounded (path, max_bytes, SESSION_MAX_ACTIONS, error);
}

Session *
session_load_bounded (const char *path, gsize max_bytes, guint max_actions, GError **error)
{
  return session_load_cancellable (path, max_bytes, max_actions, NULL, error);
}

Session *
session_load_cancellable (const char *path, gsize max_bytes, guint max_actions,
                          GCancellable *cancellable, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *shown = quote_terminal (path);
  struct stat st;
  gsize len = 0;
  int fd;

  /* A FIFO or a device would block or never end: only a regular file (a
   * link to one is fine), opened without waiting, checked on the opened
   * descriptor, read to at most the limit. */
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s", shown, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s, not a session log", shown,
                   S_ISDIR (st.st_mode) ? "is a directory" : "not a regular file");
      close (fd);
      return NULL;
    }
  /* Check the size first: never read a 1 GB file into memory. */
  if ((guint64) st.st_size > max_bytes)
    {
      guint64 need = ((guint64) st.st_size + 1024 * 1024 - 1) / (1024 * 1024);

      if (need <= SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024))
        g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                     "%s: %" G_GINT64_FORMAT " bytes is too large for a session log (at most %"
                     G_GSIZE_FORMAT " MiB): --max-session-size %" G_GUINT64_FORMAT " reads it",
                     shown, (gint64) st.st_size, max_bytes / (1024 * 1024), need);
      else
        g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                     "%s: %" G_GINT64_FORMAT " bytes is too large for a session log (at most %"
                     G_GSIZE_FORMAT " MiB, at most %" G_GSIZE_FORMAT " MiB with "
                     "--max-session-size)", shown, (gint64) st.st_size,
                     max_bytes / (1024 * 1024), SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024));
      close (fd);
      return NULL;
    }
  data = g_malloc ((gsize) st.st_size + 1);
  while (len < (gsize) st.st_size)
    {
      ssize_t n = read (fd, data + len, (gsize) st.st_size - len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s", shown, g_strerror (saved));
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;   /* it shrank meanwhile: what there is */
      len += (gsize) n;
    }
  close (fd);
  data[len] = '\0';
  return parse_cancellable (data, len, path, max_actions, cancellable, error);
}

gboolean
session_screen_size_parse (const char *text, int *width, int *height)
{
  g_auto (GStrv) parts = g_strsplit (text, "x", 3);
  guint64 w, h;

  if (g_strv_length (parts) != 2 || !parse_uint (parts[0], SESSION_MAX_COORD, &w)
      || !parse_uint (parts[1], SESSION_MAX_COORD, &h) || w == 0 || h == 0)
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}
