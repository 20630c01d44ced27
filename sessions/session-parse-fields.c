/* session-parse-fields.c — the words of the session text format, for
 * the parser (session-parse-private.h): quoted strings, numbers, a
 * record's NAME=VALUE fields, and the errors that name "file:line" with
 * an excerpt of the text, quoted for the terminal.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-parse-private.h"
#include "quote.h"

#include <errno.h>
#include <string.h>

static void
field_clear (Field *field)
{
  g_free (field->key);
  g_free (field->value);
}

/* Printable excerpt of untrusted text for an error message: its first 40
 * characters, quote_terminal()'d. */
char *
parser_excerpt (const char *text)
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

gboolean
parser_fail (Parser *parser, GError **error, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  g_autofree char *shown = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Values are parser_excerpt()'d where they are named; whatever was not (a
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
GArray *
parser_tokenize (Parser *parser, const char *p, GError **error)
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
          g_autofree char *word = parser_excerpt (start);
          parser_fail (parser, error, "expected NAME=VALUE, got '%s'", word);
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
              parser_fail (parser, error, "field '%s': %s", field.key,
                           local->message);
              field_clear (&field);
              return NULL;
            }
          if (*p != '\0' && *p != ' ')
            {
              parser_fail (parser, error, "field '%s': text after the closing quote",
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
              parser_fail (parser, error, "field '%s': stray quote", field.key);
              field_clear (&field);
              return NULL;
            }
          field.value = g_strndup (start, p - start);
        }
      for (guint i = 0; i < fields->len; i++)
        if (g_str_equal (g_array_index (fields, Field, i).key, field.key))
          {
            parser_fail (parser, error, "field '%s' given twice", field.key);
            field_clear (&field);
            return NULL;
          }
      g_array_append_val (fields, field);
    }
  return g_steal_pointer (&fields);
}

gboolean
parser_uint (const char *text, guint64 max, guint64 *value)
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

/* Every line this parser accepts is written back (session_to_string, the
 * writer) as one that it accepts again: quoted strings are written with
 * escapes, and a raw control character in one (which the parser takes)
 * grows to four bytes, so an action whose line would grow past
 * SESSION_MAX_LINE is refused here, not when the file it is saved in is
 * read. (Comments and server events are written as they were read.) */
gboolean
parser_fits_when_written (Parser *parser, const SessionEvent *ev, GError **error)
{
  g_autofree char *line = session_event_to_line (ev);

  if (strlen (line) <= SESSION_MAX_LINE)
    return TRUE;
  return parser_fail (parser, error, "written back, this line would be longer than %d bytes "
                      "(a control character in a title or class takes 4)", SESSION_MAX_LINE);
}

/* A line of version 2 in a file that says version 1 is refused: a
 * reader of version 1 would have refused the file. */
gboolean
parser_needs_version_2 (Parser *parser, const char *what, GError **error)
{
  parser->world_seen = TRUE;
  if (parser->session->version >= 2)
    return TRUE;
  return parser_fail (parser, error, "'%s' is a line of format version 2, and the file says "
                      "'xreduce-session %d'", what, parser->session->version);
}

gboolean
session_screen_size_parse (const char *text, int *width, int *height)
{
  g_auto (GStrv) parts = g_strsplit (text, "x", 3);
  guint64 w, h;

  if (g_strv_length (parts) != 2 || !parser_uint (parts[0], SESSION_MAX_COORD, &w)
      || !parser_uint (parts[1], SESSION_MAX_COORD, &h) || w == 0 || h == 0)
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}
