/* buffer.c — one app's recent events, bounded (see buffer.h). */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "buffer.h"

struct RecBuffer
{
  guint keep_actions;
  guint64 keep_ms;
  GQueue events;             /* SessionEvent* (owned), oldest first */
  guint n_actions, n_server;
  gsize given_bytes;         /* the other events' cost (given_cost) */
  guint n_dropped;
};

/* What a line that is neither an action nor a server event (a Selection
 * line, a File) costs the buffer. */
static gsize
given_cost (const SessionEvent *ev)
{
  return RECBUF_GIVEN_LINE_BYTES + ev->data_len;
}

static void
event_free (SessionEvent *ev)
{
  session_event_clear (ev);
  g_free (ev);
}

RecBuffer *
rec_buffer_new (guint keep_actions, guint64 keep_ms)
{
  RecBuffer *buffer = g_new0 (RecBuffer, 1);

  buffer->keep_actions = MAX (keep_actions, 1);
  buffer->keep_ms = keep_ms;
  g_queue_init (&buffer->events);
  return buffer;
}

void
rec_buffer_free (RecBuffer *buffer)
{
  SessionEvent *ev;

  if (buffer == NULL)
    return;
  while ((ev = g_queue_pop_head (&buffer->events)) != NULL)
    event_free (ev);
  g_free (buffer);
}

static void
drop_head (RecBuffer *buffer)
{
  SessionEvent *ev = g_queue_pop_head (&buffer->events);

  if (ev == NULL)
    return;
  if (session_event_is_action (ev))
    {
      buffer->n_actions--;
      buffer->n_dropped++;
    }
  else if (ev->kind == SESSION_EVENT_SERVER)
    buffer->n_server--;
  else
    buffer->given_bytes -= given_cost (ev);
  event_free (ev);
}

void
rec_buffer_trim (RecBuffer *buffer, guint64 now_ms)
{
  guint max_server = RECBUF_SERVER_PER_ACTION * buffer->keep_actions;

  while (buffer->n_actions > buffer->keep_actions || buffer->n_server > max_server
         || buffer->given_bytes > RECBUF_GIVEN_BYTES)
    drop_head (buffer);
  while (!g_queue_is_empty (&buffer->events)
         && ((SessionEvent *) g_queue_peek_head (&buffer->events))->time_ms + buffer->keep_ms
              < now_ms)
    drop_head (buffer);
}

void
rec_buffer_append (RecBuffer *buffer, const SessionEvent *ev, guint64 now_ms)
{
  SessionEvent *copy = g_new0 (SessionEvent, 1);
  const SessionEvent *last = g_queue_peek_tail (&buffer->events);

  session_event_copy (copy, ev);
  if (last != NULL)
    copy->time_ms = MAX (copy->time_ms, last->time_ms);
  g_queue_push_tail (&buffer->events, copy);
  if (session_event_is_action (ev))
    buffer->n_actions++;
  else if (ev->kind == SESSION_EVENT_SERVER)
    buffer->n_server++;
  else
    buffer->given_bytes += given_cost (ev);
  rec_buffer_trim (buffer, now_ms);
}

guint
rec_buffer_get_n_actions (const RecBuffer *buffer)
{
  return buffer->n_actions;
}

guint
rec_buffer_get_n_dropped (const RecBuffer *buffer)
{
  return buffer->n_dropped;
}

void
rec_buffer_to_session (const RecBuffer *buffer, Session *session)
{
  gboolean keys[256] = { FALSE };
  guint32 buttons = 0;

  for (GList *l = buffer->events.head; l != NULL; l = l->next)
    {
      const SessionEvent *ev = l->data;

      switch (ev->kind)
        {
        case SESSION_EVENT_KEY_PRESS:
          keys[ev->keycode & 0xff] = TRUE;
          break;
        case SESSION_EVENT_KEY_RELEASE:
          if (!keys[ev->keycode & 0xff])
            continue;
          keys[ev->keycode & 0xff] = FALSE;
          break;
        case SESSION_EVENT_BUTTON_PRESS:
          buttons |= 1u << (ev->button & 31);
          break;
        case SESSION_EVENT_BUTTON_RELEASE:
          if (!(buttons & (1u << (ev->button & 31))))
            continue;
          buttons &= ~(1u << (ev->button & 31));
          break;
        default:
          break;
        }
      session_append (session, ev);
    }
}
