/* journal.h — what an interrupted reduction had found out, so that the
 * same command run again goes on from there: every candidate's outcome,
 * appended to OUT.journal (0600) as it is known. X-free.
 *
 * A journal belongs to one reduction: its first line holds a key made of
 * everything the outcomes depend on (the session's bytes, the app, the
 * replay options, the failure sought); a journal with another key is
 * started afresh. It goes when the reduction completes.
 */
#pragma once

#include <glib.h>
#include "dd.h"

G_BEGIN_DECLS

typedef struct Journal Journal;

/* Opens @path for the reduction @key: the outcomes of an earlier run with
 * the same key are loaded (journal_get_n_loaded), anything else there is
 * replaced by a new 0600 file (a link is replaced, not followed). */
Journal *journal_open (const char *path, const char *key, GError **error);
void journal_free (Journal *journal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Journal, journal_free)

/* The outcome recorded for the candidate @elems (ascending), or
 * DD_CANCELLED if none is. */
DdOutcome journal_lookup (Journal *journal, const guint *elems, guint n);
/* Records an outcome (DD_CANCELLED is not one: ignored), on disk at once.
 * A failure to write is remembered and said once, not fatal. */
void journal_record (Journal *journal, const guint *elems, guint n, DdOutcome outcome);

guint journal_get_n_loaded (const Journal *journal);
const char *journal_get_path (const Journal *journal);
/* The reduction is complete (or its result needs the room): the journal
 * goes, and records nothing more. TRUE if this call removed the file. */
gboolean journal_remove (Journal *journal);

/* The key of a reduction: a SHA-256 over @parts (NULL-terminated), each
 * with its length, so that no two lists give the same text. */
char *journal_make_key (const char *const *parts, gsize n_parts, const gsize *lengths);

G_END_DECLS
