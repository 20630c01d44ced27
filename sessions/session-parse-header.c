/* session-parse-header.c — the header lines of the session text format
 * (docs/session-format.md): screen, command, keymap, desktop and replay
 * (session-options.c checks those two), the outcome, and version 2's
 * world (session-world.c checks its values). Each may come once; each,
 * written back, must load again.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-parse-private.h"

#include <string.h>

/* The bytes of @text as a quoted string in the format. */
static gsize
quoted_length (const char *text)
{
  g_autoptr (GString) out = g_string_new (NULL);

  session_append_quoted (out, text);
  return out->len;
}

/* A header line of version 2: `env NAME "VALUE"`, `home "PATH"`, ...
 * (session-world.c checks the values). */
static gboolean
parse_world_header (Parser *parser, const char *key, const char *rest, GError **error)
{
  g_autofree char *name = NULL, *value = NULL, *why = NULL;
  g_autoptr (GError) local = NULL;
  const char *p = rest;

  if (!parser_needs_version_2 (parser, key, error))
    return FALSE;
  if (g_str_equal (key, "env"))
    {
      const char *space = strchr (rest, ' ');

      if (space == NULL)
        return parser_fail (parser, error, "env: expected NAME \"VALUE\"");
      name = g_strndup (rest, (gsize) (space - rest));
      p = space + 1;
    }
  if (*p != '"')
    return parser_fail (parser, error, "%s: expected a quoted string", key);
  value = session_read_quoted (&p, &local);
  if (value == NULL)
    return parser_fail (parser, error, "%s: %s", key, local->message);
  if (*p != '\0')
    return parser_fail (parser, error, "%s: text after the closing quote", key);
  /* Written back, the line must load again (see fits_when_written). */
  if (strlen (key) + 1 + (name != NULL ? strlen (name) + 1 : 0) + quoted_length (value)
      > SESSION_MAX_LINE)
    return parser_fail (parser, error, "%s: written back, this line would be longer than %d "
                        "bytes (a control character takes 4)", key, SESSION_MAX_LINE);
  if (!session_world_parse_header (parser->session, key, name, value, &why))
    return parser_fail (parser, error, "%s", why);
  return TRUE;
}

/* The lines the recorder writes at the end, after the records (in a
 * hand-made file, they may come in the header too): `outcome` and `glx`. */
static gboolean
parse_footer_line (Parser *parser, const char *key, const char *rest, GError **error)
{
  Session *session = parser->session;
  g_autoptr (GError) local = NULL;

  if (g_str_equal (key, "outcome"))
    {
      if (parser->seen_outcome)
        return parser_fail (parser, error, "second 'outcome' line");
      if (!session_outcome_parse (rest, &session->outcome, &local))
        return parser_fail (parser, error, "%s", local->message);
      parser->seen_outcome = TRUE;
      session->outcome_at_end = parser->in_records;
    }
  else
    {
      if (parser->seen_glx)
        return parser_fail (parser, error, "second 'glx' line");
      if (!session_glx_parse (rest, &session->glx))
        {
          g_autofree char *word = parser_excerpt (rest);
          return parser_fail (parser, error, "glx: expected 'asked' or 'not-asked', got '%s'",
                              word);
        }
      parser->seen_glx = TRUE;
    }
  if (parser->in_records && parser->footer == NULL)
    parser->footer = key[0] == 'o' ? "outcome" : "glx";
  return TRUE;
}

gboolean
parser_header_line (Parser *parser, const char *line, GError **error)
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
        return parser_fail (parser, error, "second 'screen' line");
      if (!session_screen_size_parse (rest, &w, &h))
        return parser_fail (parser, error, "bad screen size '%s' (WxH, up to %d)",
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
        return parser_fail (parser, error, "second '%s' line", key);
      while (*p != '\0')
        {
          char *word;
          if (*p != '"')
            return parser_fail (parser, error, "%s: expected a quoted string", key);
          word = session_read_quoted (&p, &local);
          if (word == NULL)
            return parser_fail (parser, error, "%s: %s", key, local->message);
          g_ptr_array_add (words, word);
          if (*p == ' ')
            p++;
          else if (*p != '\0')
            return parser_fail (parser, error, "%s: text after a closing quote", key);
        }
      if (words->len == 0 || (!is_command && words->len != 1))
        return parser_fail (parser, error, "%s: expected %s", key,
                            is_command ? "one or more quoted words" : "one quoted name");
      {
        /* Written back, the line must load again (see fits_when_written). */
        gsize written = strlen (key);

        for (guint i = 0; i < words->len; i++)
          written += 1 + quoted_length (g_ptr_array_index (words, i));
        if (written > SESSION_MAX_LINE)
          return parser_fail (parser, error, "%s: written back, this line would be longer than "
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
        return parser_fail (parser, error, "second '%s' line", key);
      if (!(desktop ? session_desktop_parse (session, rest, &local)
                    : session_replay_line_parse (session, rest, &local)))
        return parser_fail (parser, error, "%s", local->message);
      *(desktop ? &parser->seen_desktop : &parser->seen_replay) = TRUE;
    }
  else if (g_str_equal (key, "outcome") || g_str_equal (key, "glx"))
    return parse_footer_line (parser, key, rest, error);
  else if (session_world_header_key (key))
    return parse_world_header (parser, key, rest, error);
  else
    {
      g_autofree char *word = parser_excerpt (key);
      return parser_fail (parser, error, "unknown header line '%s'", word);
    }
  return TRUE;
}
