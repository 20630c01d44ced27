/* session-format.h — a session's text format: loading (bounded), parsing,
 * saving, the outcome's words in the header, and writing as events
 * arrive (the recorder). The format is documented in
 * docs/session-format.md; start reading at session_parse() in
 * session-parse.c.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

#include "session-model.h"

G_BEGIN_DECLS

/* Loading and saving. @name is used in error messages ("name:12: ..."). */
Session *session_load (const char *path, GError **error);
/* session_load() refusing files over @max_bytes (instead of
 * SESSION_MAX_FILE_SIZE) before reading them, with a message naming
 * --max-session-size. */
Session *session_load_limited (const char *path, gsize max_bytes, GError **error);
/* The same refusing more than @max_actions user actions as soon as the
 * parser passes them (SESSION_MAX_ACTIONS by default): memory and time
 * follow the actions, and no work starts on a session over the limit. */
Session *session_load_bounded (const char *path, gsize max_bytes, guint max_actions,
                               GError **error);
/* The same, stopping with G_IO_ERROR_CANCELLED once @cancellable is
 * (checked every few thousand lines: a million-line file is seconds of
 * parsing). */
Session *session_load_cancellable (const char *path, gsize max_bytes, guint max_actions,
                                   GCancellable *cancellable, GError **error);
/* Parses a --max-session-size value: a whole number of MiB, 1 to 4096.
 * FALSE for anything else. */
gboolean session_max_size_parse (const char *text, gsize *max_bytes);
Session *session_parse (const char *data, gsize len, const char *name,
                        GError **error);
Session *session_parse_bounded (const char *data, gsize len, const char *name,
                                guint max_actions, GError **error);
/* The same, stopping with G_IO_ERROR_CANCELLED once @cancellable is. */
Session *session_parse_cancellable (const char *data, gsize len, const char *name,
                                    guint max_actions, GCancellable *cancellable,
                                    GError **error);
/* Parses a --max-actions value: 1 to SESSION_MAX_ACTIONS_CEILING. */
gboolean session_max_actions_parse (const char *text, guint *max_actions);
char *session_to_string (const Session *session);
/* Atomic and private: writes a new 0600 file beside @path and renames it
 * over @path (output.h), whatever was there (a link is not followed). */
gboolean session_save (const Session *session, const char *path,
                       GError **error);
/* For a file another process reads at once and nobody keeps (a
 * reduction's candidate, in a folder of its own): a new 0600 file at
 * @path, written as it is made, not synced; stops with
 * G_IO_ERROR_CANCELLED once @cancellable is (a million actions are
 * seconds to write). Nothing is left at @path on failure. */
gboolean session_save_scratch (const Session *session, const char *path,
                               GCancellable *cancellable, GError **error);
/* The one line for @ev, without newline, as session_to_string writes it. */
char *session_event_to_line (const SessionEvent *ev);

/* The outcome line's first word for @kind: "none", "crashed", "exited",
 * "hung", "unknown" (LOST and UNKNOWN): the one table of them. */
const char *session_outcome_kind_to_string (SessionOutcomeKind kind);
/* The header line's words: "crashed SIGSEGV". */
char *session_outcome_to_string (SessionOutcome outcome);
gboolean session_outcome_parse (const char *text, SessionOutcome *outcome,
                                GError **error);
/* Writing as events arrive (the recorder): the file is a new one of mode
 * 0600 whatever was at @path (output.h), the header (everything but events
 * and a footer outcome) is written at once, and every appended record is one flushed line, so a writer
 * killed at any point leaves a loadable file. */
typedef struct SessionWriter SessionWriter;

SessionWriter *session_writer_open (const char *path, const Session *header,
                                    GError **error);
gboolean session_writer_append (SessionWriter *writer, const SessionEvent *ev,
                                GError **error);
/* Writes the `glx` footer line (nothing for SESSION_GLX_UNKNOWN); before
 * session_writer_finish(). */
gboolean session_writer_note_glx (SessionWriter *writer, SessionGlx glx, GError **error);
/* Writes the outcome as a footer and closes the file. */
gboolean session_writer_finish (SessionWriter *writer, SessionOutcome outcome,
                                GError **error);
void session_writer_free (SessionWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SessionWriter, session_writer_free)

G_END_DECLS
