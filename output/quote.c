/* quote.c — quoting for the shell, the terminal and Markdown
 * (see quote.h). */
#define G_LOG_DOMAIN "xreduce-output"

#include "quote.h"

#include <string.h>

char *
quote_shell (const char *text)
{
  GString *out = g_string_new ("'");

  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    if (*p == '\'')
      g_string_append (out, "'\\''");
    else
      g_string_append_c (out, *p);
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* Characters a terminal or a reader acts on without showing them: C0,
 * DEL, C1 (U+0080-U+009F, CSI as U+009B), the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: "evil\u202etxt.exe"
 * shows as "evilexe.txt") and the line and paragraph separators. */
gboolean
quote_is_hidden (gunichar c)
{
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x061c || c == 0x200e
         || c == 0x200f || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* Writes @c to @out escaped, or returns FALSE to have it copied as it
 * is. @c is (gunichar) -1 for a byte that is not UTF-8, @byte. */
typedef gboolean (*EscapeFunc) (GString *out, gunichar c, guchar byte);

/* @text (NULL: "") a character at a time, each written by @escape or
 * copied. */
static char *
quote_each (const char *text, EscapeFunc escape)
{
  GString *out = g_string_new (NULL);
  const char *p = text != NULL ? text : "";
  const char *end = p + strlen (p);

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);
      gboolean utf8 = c != (gunichar) -1 && c != (gunichar) -2;
      const char *next = utf8 ? g_utf8_next_char (p) : p + 1;

      if (!escape (out, utf8 ? c : (gunichar) -1, (guchar) *p))
        g_string_append_len (out, p, next - p);
      p = next;
    }
  return g_string_free (out, FALSE);
}

/* quote_message(): hidden characters and invalid UTF-8 escaped. */
static gboolean
escape_message (GString *out, gunichar c, guchar byte)
{
  if (c == (gunichar) -1)
    g_string_append_printf (out, "\\x%02x", byte);
  else if (c == '\n')
    g_string_append (out, "\\n");
  else if (c == '\t')
    g_string_append (out, "\\t");
  else if (c == '\r')
    g_string_append (out, "\\r");
  else if (quote_is_hidden (c))
    g_string_append_printf (out, c < 0x100 ? "\\x%02x" : "\\u%04x", c);
  else
    return FALSE;
  return TRUE;
}

/* quote_terminal(): the same, and backslashes doubled. */
static gboolean
escape_terminal (GString *out, gunichar c, guchar byte)
{
  if (c != '\\')
    return escape_message (out, c, byte);
  g_string_append (out, "\\\\");
  return TRUE;
}

/* quote_json_text(): hidden characters become \u escapes, which mean the
 * same to a JSON reader: json-glib leaves C1 and the bidi controls as
 * they are, and even U+001F (invalid JSON). A newline is the generator's
 * own (one inside a string it writes as \n); invalid UTF-8 stays as it is. */
static gboolean
escape_json (GString *out, gunichar c, guchar byte)
{
  if (c == (gunichar) -1 || c == '\n' || !quote_is_hidden (c))
    return FALSE;
  g_string_append_printf (out, "\\u%04x", c);
  return TRUE;
}

char *
quote_terminal (const char *text)
{
  return quote_each (text, escape_terminal);
}

char *
quote_message (const char *text)
{
  return quote_each (text, escape_message);
}

char *
quote_json_text (const char *json)
{
  return quote_each (json, escape_json);
}

char *
quote_markdown_code (const char *text)
{
  g_autofree char *line = quote_terminal (text);
  g_autofree char *fence = NULL;
  gsize longest = 0, run = 0;
  gboolean pad;

  for (const char *p = line; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }
  fence = g_strnfill (longest + 1, '`');
  /* A space inside the fence when the text starts or ends with a
   * backquote (CommonMark strips one on each side). */
  if (*line == '\0')
    return g_strdup ("` `");
  pad = *line == '`' || line[strlen (line) - 1] == '`';
  return g_strdup_printf ("%s%s%s%s%s", fence, pad ? " " : "", line, pad ? " " : "", fence);
}

/* The characters that are Markdown markup wherever they stand (code,
 * emphasis, links, HTML, headings, tables, strikethrough). */
#define MARKDOWN_MARKUP "\\`*_[]<>#|~"

/* @text on one line of Markdown, a backslash before each character of
 * @always (but an underscore inside a word, no emphasis in CommonMark) and
 * before what starts a bare link in GFM: a link's "://", an address's
 * "a@b", the '.' after "www". */
static char *
markdown_escape (const char *text, const char *always)
{
  g_autofree char *line = quote_terminal (text);
  GString *out = g_string_new (NULL);

  for (const char *p = line; *p != '\0'; p++)
    {
      gboolean intraword = *p == '_' && p > line && g_ascii_isalnum (p[-1])
                           && g_ascii_isalnum (p[1]);
      gboolean scheme = *p == ':' && p[1] == '/' && p[2] == '/';
      gboolean at = *p == '@' && p > line && g_ascii_isalnum (p[-1]) && g_ascii_isalnum (p[1]);
      gboolean www = *p == '.' && p - line >= 3 && g_ascii_strncasecmp (p - 3, "www", 3) == 0;

      if ((strchr (always, *p) != NULL && !intraword) || scheme || at || www)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* Every '!', ':' and '@' too: no image, and no bare URL or address
 * ("http://evil.example/", "a@evil.example") to a reader that makes links
 * of more than GFM does. */
char *
quote_markdown_text (const char *text)
{
  return markdown_escape (text, MARKDOWN_MARKUP "!:@");
}

/* Only what is markup: ':' in "xdemo.c:209" or "std::vector" is none. */
char *
quote_markdown_title (const char *text)
{
  return markdown_escape (text, MARKDOWN_MARKUP);
}

char *
quote_command_line (const char *const *argv)
{
  g_autoptr (GString) words = g_string_new (NULL);

  for (const char *const *a = argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *q = quote_shell (*a);
      g_string_append_printf (words, "%s%s", a == argv ? "" : " ", q);
    }
  return quote_terminal (words->str);
}
