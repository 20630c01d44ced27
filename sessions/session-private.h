/* session-private.h — the Session struct, shared by the sessions/ files
 * only. Everyone else goes through session.h. */
#pragma once

#include "session.h"

struct Session
{
  int version;
  int screen_width, screen_height;
  char **command;            /* NULL-terminated, or NULL */
  char *keymap;              /* or NULL */
  SessionOutcome outcome;
  gboolean outcome_at_end;   /* written as a footer */
  guint n_preamble;          /* leading comment events before the version line */
  GArray *events;            /* of SessionEvent, owns their strings */
  char *warning;             /* or NULL: what the parser dropped (a cut last line) */
};

void session_event_clear (SessionEvent *ev);
void session_event_copy (SessionEvent *dest, const SessionEvent *src);
/* The header lines (version to outcome, unless at the end) as written. */
void session_write_header (const Session *session, GString *out);
