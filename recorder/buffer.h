/* buffer.h — one app's recent events, in memory, bounded (xrecord --all).
 *
 * The last keep_ms of the stream's clock or the last keep_actions user
 * actions, whichever is smaller, with at most RECBUF_SERVER_PER_ACTION
 * server events an action beside them, and at most RECBUF_GIVEN_BYTES of
 * what other clients gave the app (the Selection lines of its pastes):
 * the oldest go first. Nothing of it touches the disk. X-free: unit-tested (tests/unit/test-buffer.c).
 */
#pragma once

#include <glib.h>

#include "session.h"

G_BEGIN_DECLS

/* A buffer holds at most this many server events per action it may keep
 * (an app that redraws while nobody touches it drops its oldest). */
#define RECBUF_SERVER_PER_ACTION 4
/* ... and at most this many bytes of pasted data, with the lines that
 * hold it (a paste is up to SESSION_MAX_SELECTION_BYTES). */
#define RECBUF_GIVEN_BYTES (4 * 1024 * 1024)
/* What one such line costs beside its data. */
#define RECBUF_GIVEN_LINE_BYTES 128

typedef struct RecBuffer RecBuffer;

RecBuffer *rec_buffer_new (guint keep_actions, guint64 keep_ms);
void rec_buffer_free (RecBuffer *buffer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecBuffer, rec_buffer_free)

/* A copy of @ev at the end (no earlier than the event before it: what
 * the app was given is known after the request that asked for it); then
 * rec_buffer_trim (@now_ms). */
void rec_buffer_append (RecBuffer *buffer, const SessionEvent *ev, guint64 now_ms);
/* Drops from the front what is past the bounds at @now_ms (the stream's
 * clock, as the events' times). */
void rec_buffer_trim (RecBuffer *buffer, guint64 now_ms);

guint rec_buffer_get_n_actions (const RecBuffer *buffer);
/* Actions dropped from the front so far. */
guint rec_buffer_get_n_dropped (const RecBuffer *buffer);

/* Appends the events to @session, oldest first; a key or button release
 * whose press was dropped from the front is left out. */
void rec_buffer_to_session (const RecBuffer *buffer, Session *session);

G_END_DECLS
