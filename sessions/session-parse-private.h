/* session-parse-private.h — the parser of the session text format
 * (session-parse.c), shared with the files that take its parts: the
 * words of a line and the errors that name "file:line"
 * (session-parse-fields.c), the header lines (session-parse-header.c),
 * the records (session-parse-record.c) and the user actions among them
 * (session-parse-action.c). Not a module's interface: only those files
 * include it.
 */
#pragma once

#include "session-private.h"

G_BEGIN_DECLS

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
  gboolean seen_outcome, seen_glx, in_records;
  const char *footer;         /* the first footer line's key (after the records), or NULL */
  guint64 last_time;
  gboolean world_seen;        /* a line of version 2 was read */
  guint last_record;          /* 1 + the event index of the record before, or 0 */
} Parser;

typedef SessionField Field;

/* session-parse-fields.c: a PARSE error "file:line: message" (FALSE);
 * a printable excerpt of untrusted text for one (its first 40
 * characters, quote_terminal()'d); a number in decimal or 0x-hex up to
 * @max; a record's NAME=VALUE fields (of Field, NULL on error); whether
 * @ev's line, written back, stays within SESSION_MAX_LINE; whether the
 * file is of version 2 for a line of @what (noted as seen). */
gboolean parser_fail (Parser *parser, GError **error, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
char *parser_excerpt (const char *text);
gboolean parser_uint (const char *text, guint64 max, guint64 *value);
GArray *parser_tokenize (Parser *parser, const char *p, GError **error);
gboolean parser_fits_when_written (Parser *parser, const SessionEvent *ev, GError **error);
gboolean parser_needs_version_2 (Parser *parser, const char *what, GError **error);

/* session-parse-header.c: a header line (screen, command, keymap,
 * desktop, replay, outcome, and version 2's). */
gboolean parser_header_line (Parser *parser, const char *line, GError **error);

/* session-parse-action.c: a user action's @fields into @ev (its kind and
 * time set). */
gboolean parser_action (Parser *parser, SessionEvent *ev, GArray *fields, GError **error);

/* session-parse-record.c: a record line "TIME EVENT FIELDS", appended to
 * the session. */
gboolean parser_record (Parser *parser, const char *line, GError **error);

G_END_DECLS
