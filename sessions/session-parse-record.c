/* session-parse-record.c — a record line of the session text format:
 * "TIME EVENT FIELDS", its time (never back), its event's name, then the
 * server's events (kept as written), the selections and files (version
 * 2, session-world.c), or a user action (session-parse-action.c); the
 * checks that span lines, and the limits on how many.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-parse-private.h"

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

/* The kind of the record named @name: an action's, a server event's,
 * Selection, File; SESSION_EVENT_COMMENT for none. */
static SessionEventKind
record_kind (const char *name)
{
  SessionEventKind kind = SESSION_EVENT_COMMENT;

  for (guint k = 0; k < G_N_ELEMENTS (session_action_names); k++)
    if (g_str_equal (name, session_action_names[k]))
      kind = k;
  if (kind == SESSION_EVENT_COMMENT)
    for (guint k = 0; k < G_N_ELEMENTS (server_event_names); k++)
      if (g_str_equal (name, server_event_names[k]))
        kind = SESSION_EVENT_SERVER;
  if (kind == SESSION_EVENT_COMMENT && g_str_equal (name, "Selection"))
    kind = SESSION_EVENT_SELECTION;
  if (kind == SESSION_EVENT_COMMENT && g_str_equal (name, "File"))
    kind = SESSION_EVENT_FILE;
  return kind;
}

/* @ev counted against --max-actions: FALSE and TOO_LARGE past it. */
static gboolean
count_record (Parser *parser, const SessionEvent *ev, GError **error)
{
  if (session_event_is_action (ev) && ++parser->n_actions > parser->max_actions)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                   "%s:%u: more than %u user actions (--max-actions raises the limit)",
                   parser->name, parser->line, parser->max_actions);
      return FALSE;
    }
  /* The app's events cost as much memory and time as the actions (a
   * recording has a few a user action): as many at most. */
  if (ev->kind == SESSION_EVENT_SERVER && ++parser->n_server > parser->max_actions)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                   "%s:%u: more than %u events of the app (such as MapNotify; "
                   "--max-actions raises the limit)",
                   parser->name, parser->line, parser->max_actions);
      return FALSE;
    }
  return TRUE;
}

gboolean
parser_record (Parser *parser, const char *line, GError **error)
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
    if (*p != ' ' || !parser_uint (digits, MAX_TIME_MS, &time_ms))
      {
        g_autofree char *word = parser_excerpt (line);
        return parser_fail (parser, error, "bad timestamp in '%s'", word);
      }
  }
  if (parser->footer != NULL)
    return parser_fail (parser, error, "record after the '%s' footer", parser->footer);
  if (!parser->seen_screen)
    return parser_fail (parser, error, "missing 'screen WxH' header line before the records");
  if (time_ms < parser->last_time)
    return parser_fail (parser, error, "time goes backwards (%" G_GUINT64_FORMAT
                        " after %" G_GUINT64_FORMAT ")", time_ms, parser->last_time);
  parser->last_time = time_ms;
  p++;
  name_start = p;
  while (*p != '\0' && *p != ' ')
    p++;
  name = g_strndup (name_start, p - name_start);
  ev.time_ms = time_ms;
  ev.kind = record_kind (name);
  if (ev.kind == SESSION_EVENT_COMMENT)
    {
      g_autofree char *word = parser_excerpt (name);
      return parser_fail (parser, error, "unknown event '%s'", word);
    }

  fields = parser_tokenize (parser, p, error);
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
      if (!parser_needs_version_2 (parser, name, error)
          || (!session_world_parse_record (&ev, fields, &why)
              && parser_fail (parser, error, "%s", why) == FALSE)
          || !parser_fits_when_written (parser, &ev, error))
        {
          session_event_clear (&ev);
          return FALSE;
        }
    }
  else if ((ev.kind == SESSION_EVENT_DROP && !parser_needs_version_2 (parser, name, error))
           || !parser_action (parser, &ev, fields, error) || !parser_fits_when_written (parser, &ev, error))
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
        return parser_fail (parser, error, "%s", why);
      }
  }
  if (!count_record (parser, &ev, error))
    {
      session_event_clear (&ev);
      return FALSE;
    }
  g_array_append_val (parser->session->events, ev);
  session_note_event (parser->session, &ev);
  parser->last_record = parser->session->events->len;
  return TRUE;
}
