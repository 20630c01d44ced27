/* session-options.c — two header lines of the session format
 * (docs/session-format.md): `desktop`, the recording desktop's input
 * timing, and `replay`, the replay options a reduction needed.
 *
 * Both come from a stranger's file: every word is checked against one
 * table (its name, and the bounds of its value), and a line with anything
 * else is refused, naming the word. The `replay` line may say only what
 * is safe to take from a stranger: how the replay is timed. Never a
 * command (--wm), a folder (--home), the sandbox's walls (--no-isolate,
 * --share-home, --share-net, --setenv, --keep-env) or the limits on the
 * file itself (--max-*): those are the user's to give on the command
 * line. Start reading at session_replay_option_check().
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <string.h>

typedef enum
{
  VALUE_MS,                  /* a whole number, min to max */
  VALUE_FACTOR,              /* a decimal number (at most 3 places), min/1000 to max/1000 */
  VALUE_PACE,                /* app or recorded */
} ValueKind;

typedef struct
{
  const char *name;
  ValueKind kind;
  guint min, max;
} ReplayOption;

/* The options a file may carry, in the order they are written; their
 * names are xreplay's. The bounds keep a hostile file from stretching a
 * replay past minutes, or a gap past one. */
static const ReplayOption replay_options[] = {
  { "pace", VALUE_PACE, 0, 0 },
  { "speed", VALUE_FACTOR, 100, 10000 },
  { "max-gap", VALUE_MS, 0, 60000 },
  { "min-gap", VALUE_MS, 0, 5000 },
  { "settle", VALUE_MS, 0, 60000 },
  { "timeout", VALUE_MS, 1, 60000 },
  { "start-timeout", VALUE_MS, 1, 120000 },
  { "window-wait", VALUE_MS, 0, 60000 },
  { "double-click-time", VALUE_MS, 1, 5000 },
  { "repeat-delay", VALUE_MS, 1, 5000 },
};

G_STATIC_ASSERT (G_N_ELEMENTS (replay_options) < 32);

static const ReplayOption *
find_option (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (replay_options); i++)
    if (g_str_equal (replay_options[i].name, name))
      return &replay_options[i];
  return NULL;
}

/* A whole number of at most 6 digits, no sign, no leading zero but "0". */
static gboolean
parse_small_uint (const char *text, guint *value)
{
  gsize n = strlen (text);

  if (n == 0 || n > 6 || (n > 1 && text[0] == '0'))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isdigit (text[i]))
      return FALSE;
  *value = (guint) g_ascii_strtoull (text, NULL, 10);
  return TRUE;
}

/* "0.5", "2", "1.25": digits, and at most three after a point, as
 * thousandths. */
static gboolean
parse_thousandths (const char *text, guint *thousandths)
{
  const char *point = strchr (text, '.');
  g_autofree char *whole = point != NULL ? g_strndup (text, (gsize) (point - text))
                                         : g_strdup (text);
  guint units, fraction = 0;

  if (!parse_small_uint (whole, &units) || units > 1000)
    return FALSE;
  if (point != NULL)
    {
      gsize digits = strlen (point + 1);

      if (digits == 0 || digits > 3)
        return FALSE;
      for (gsize i = 0; i < 3; i++)
        {
          char c = i < digits ? point[1 + i] : '0';

          if (!g_ascii_isdigit (c))
            return FALSE;
          fraction = fraction * 10 + (guint) (c - '0');
        }
    }
  *thousandths = units * 1000 + fraction;
  return TRUE;
}

gboolean
session_replay_option_check (const char *name, const char *value, GError **error)
{
  const ReplayOption *option = find_option (name);
  g_autofree char *shown_value = quote_terminal (value);
  guint number;

  if (option == NULL)
    {
      g_autofree char *shown = quote_terminal (name);

      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "replay: '%s' is not an option a session may carry (only how the replay is "
                   "timed: pace, speed, max-gap, min-gap, settle, timeout, start-timeout, "
                   "window-wait, double-click-time, repeat-delay)", shown);
      return FALSE;
    }
  switch (option->kind)
    {
    case VALUE_PACE:
      if (g_str_equal (value, "app") || g_str_equal (value, "recorded"))
        return TRUE;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "replay: pace '%s' is not app or recorded", shown_value);
      return FALSE;
    case VALUE_FACTOR:
      if (parse_thousandths (value, &number) && number >= option->min && number <= option->max)
        return TRUE;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "replay: %s '%s' is not a factor from %g to %g", name, shown_value,
                   option->min / 1000.0, option->max / 1000.0);
      return FALSE;
    case VALUE_MS:
    default:
      if (parse_small_uint (value, &number) && number >= option->min && number <= option->max)
        return TRUE;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "replay: %s '%s' is not a number of milliseconds from %u to %u", name,
                   shown_value, option->min, option->max);
      return FALSE;
    }
}

const char *const *
session_get_replay_options (const Session *session)
{
  return (const char *const *) session->replay_options;
}

gboolean
session_set_replay_options (Session *session, const char *const *options, GError **error)
{
  const char *given[G_N_ELEMENTS (replay_options)] = { NULL };
  g_autoptr (GStrvBuilder) ordered = g_strv_builder_new ();
  gboolean any = FALSE;

  for (const char *const *o = options; o != NULL && *o != NULL; o++)
    {
      const char *eq = strchr (*o, '=');
      g_autofree char *name = eq != NULL ? g_strndup (*o, (gsize) (eq - *o)) : NULL;
      const ReplayOption *option;

      if (name == NULL || *name == '\0')
        {
          g_autofree char *shown = quote_terminal (*o);

          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "replay: expected NAME=VALUE, got '%s'", shown);
          return FALSE;
        }
      if (!session_replay_option_check (name, eq + 1, error))
        return FALSE;
      option = find_option (name);
      if (given[option - replay_options] != NULL)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE, "replay: %s given twice", name);
          return FALSE;
        }
      given[option - replay_options] = *o;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (replay_options); i++)
    if (given[i] != NULL)
      {
        g_strv_builder_add (ordered, given[i]);
        any = TRUE;
      }
  g_strfreev (session->replay_options);
  session->replay_options = any ? g_strv_builder_end (ordered) : NULL;
  return TRUE;
}

gboolean
session_replay_line_parse (Session *session, const char *rest, GError **error)
{
  g_auto (GStrv) words = g_strsplit (rest, " ", -1);

  if (words[0] == NULL || *words[0] == '\0')
    {
      g_set_error_literal (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                           "replay: expected one or more NAME=VALUE");
      return FALSE;
    }
  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] == '\0')
      {
        g_set_error_literal (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                             "replay: words are separated by single spaces");
        return FALSE;
      }
  return session_set_replay_options (session, (const char *const *) words, error);
}

/* ---- desktop ---- */

typedef struct
{
  const char *name;
  gsize offset;
} DesktopField;

static const DesktopField desktop_fields[] = {
  { "double-click-time", G_STRUCT_OFFSET (SessionDesktop, double_click_ms) },
  { "double-click-distance", G_STRUCT_OFFSET (SessionDesktop, double_click_distance) },
  { "repeat-delay", G_STRUCT_OFFSET (SessionDesktop, repeat_delay_ms) },
  { "repeat-interval", G_STRUCT_OFFSET (SessionDesktop, repeat_interval_ms) },
};

const SessionDesktop *
session_get_desktop (const Session *session)
{
  return &session->desktop;
}

void
session_set_desktop (Session *session, const SessionDesktop *desktop)
{
  SessionDesktop bounded = *desktop;

  for (gsize i = 0; i < G_N_ELEMENTS (desktop_fields); i++)
    {
      guint *value = &G_STRUCT_MEMBER (guint, &bounded, desktop_fields[i].offset);

      if (*value > SESSION_DESKTOP_MAX)
        *value = 0;   /* not a figure a desktop has: unknown */
    }
  session->desktop = bounded;
}

gboolean
session_desktop_parse (Session *session, const char *rest, GError **error)
{
  g_auto (GStrv) words = g_strsplit (rest, " ", -1);
  SessionDesktop desktop = { 0 };
  gboolean seen[G_N_ELEMENTS (desktop_fields)] = { FALSE };
  guint n = 0;

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *eq = strchr (words[i], '=');
      g_autofree char *name = eq != NULL ? g_strndup (words[i], (gsize) (eq - words[i])) : NULL;
      g_autofree char *shown = quote_terminal (words[i]);
      gsize f;
      guint value;

      if (name == NULL)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "desktop: expected NAME=VALUE, got '%s'", shown);
          return FALSE;
        }
      for (f = 0; f < G_N_ELEMENTS (desktop_fields); f++)
        if (g_str_equal (desktop_fields[f].name, name))
          break;
      if (f == G_N_ELEMENTS (desktop_fields))
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "desktop: unknown field in '%s'", shown);
          return FALSE;
        }
      if (seen[f])
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE, "desktop: %s given twice",
                       desktop_fields[f].name);
          return FALSE;
        }
      if (!parse_small_uint (eq + 1, &value) || value < 1 || value > SESSION_DESKTOP_MAX)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "desktop: bad value in '%s' (1 to %d)", shown, SESSION_DESKTOP_MAX);
          return FALSE;
        }
      seen[f] = TRUE;
      G_STRUCT_MEMBER (guint, &desktop, desktop_fields[f].offset) = value;
      n++;
    }
  if (n == 0)
    {
      g_set_error_literal (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                           "desktop: expected one or more NAME=VALUE");
      return FALSE;
    }
  session->desktop = desktop;
  return TRUE;
}

void
session_write_options (const Session *session, GString *out)
{
  gboolean any = FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (desktop_fields); i++)
    {
      guint value = G_STRUCT_MEMBER (guint, &session->desktop, desktop_fields[i].offset);

      if (value == 0)
        continue;
      g_string_append_printf (out, "%s %s=%u", any ? "" : "desktop", desktop_fields[i].name,
                              value);
      any = TRUE;
    }
  if (any)
    g_string_append_c (out, '\n');
  if (session->replay_options != NULL)
    {
      g_autofree char *joined = g_strjoinv (" ", session->replay_options);

      g_string_append_printf (out, "replay %s\n", joined);
    }
}
