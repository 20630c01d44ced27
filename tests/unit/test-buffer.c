/* test-buffer.c — an app's buffer under xrecord --all (recorder/buffer.h):
 * bounded by actions, by time and by server events, the oldest dropped
 * first, and by what the app pasted; a release whose press was dropped
 * is no part of the session it makes; a paste's lines come no earlier
 * than the event before them. No display.
 */
#include "buffer.h"

#include <string.h>

static void
key (RecBuffer *buffer, SessionEventKind kind, guint keycode, guint64 time_ms)
{
  char name[2] = { (char) ('a' + keycode - 38), '\0' };
  SessionEvent ev = { .kind = kind, .time_ms = time_ms, .keycode = keycode, .keysym = name,
                      .window = -1 };

  rec_buffer_append (buffer, &ev, time_ms);
}

static void
server (RecBuffer *buffer, guint64 time_ms)
{
  SessionEvent ev = { .kind = SESSION_EVENT_SERVER, .time_ms = time_ms, .name = "Expose",
                      .args = "window=0x200002", .window = -1 };

  rec_buffer_append (buffer, &ev, time_ms);
}

/* The session the buffer makes: its events' kinds and times, as text. */
static char *
contents (RecBuffer *buffer)
{
  g_autoptr (Session) session = session_new ();
  g_autoptr (GString) out = g_string_new (NULL);

  rec_buffer_to_session (buffer, session);
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      g_string_append_printf (out, "%s%s%" G_GUINT64_FORMAT, i > 0 ? " " : "",
                              ev->kind == SESSION_EVENT_KEY_PRESS ? "P"
                              : ev->kind == SESSION_EVENT_KEY_RELEASE ? "R" : "S", ev->time_ms);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_keep_actions (void)
{
  g_autoptr (RecBuffer) buffer = rec_buffer_new (3, 600000);
  g_autofree char *text = NULL;

  key (buffer, SESSION_EVENT_KEY_PRESS, 38, 10);
  server (buffer, 11);
  key (buffer, SESSION_EVENT_KEY_PRESS, 39, 20);
  key (buffer, SESSION_EVENT_KEY_RELEASE, 38, 30);
  key (buffer, SESSION_EVENT_KEY_RELEASE, 39, 40);
  /* The 4th action drops the 1st (and nothing else). */
  g_assert_cmpuint (rec_buffer_get_n_actions (buffer), ==, 3);
  g_assert_cmpuint (rec_buffer_get_n_dropped (buffer), ==, 1);
  /* The release of the dropped press is left out of the session. */
  text = contents (buffer);
  g_assert_cmpstr (text, ==, "S11 P20 R40");
}

static void
test_keep_time (void)
{
  g_autoptr (RecBuffer) buffer = rec_buffer_new (100, 1000);
  g_autofree char *text = NULL;

  key (buffer, SESSION_EVENT_KEY_PRESS, 38, 0);
  key (buffer, SESSION_EVENT_KEY_RELEASE, 38, 100);
  key (buffer, SESSION_EVENT_KEY_PRESS, 39, 900);
  key (buffer, SESSION_EVENT_KEY_RELEASE, 39, 1050);
  /* At 1050, what is older than 50 is gone. */
  g_assert_cmpuint (rec_buffer_get_n_actions (buffer), ==, 3);
  /* Later, with nothing new: trimmed to the clock of the save. */
  rec_buffer_trim (buffer, 2000);
  g_assert_cmpuint (rec_buffer_get_n_actions (buffer), ==, 1);
  text = contents (buffer);
  /* (The press of that release went: no release alone.) */
  g_assert_cmpstr (text, ==, "");
  rec_buffer_trim (buffer, 2051);
  g_assert_cmpuint (rec_buffer_get_n_actions (buffer), ==, 0);
  g_assert_cmpuint (rec_buffer_get_n_dropped (buffer), ==, 4);
}

/* An app that redraws while nobody touches it: its server events are
 * bounded too, RECBUF_SERVER_PER_ACTION an action it may keep. */
static void
test_server_bound (void)
{
  g_autoptr (RecBuffer) buffer = rec_buffer_new (2, 600000);
  g_autofree char *text = NULL;

  for (guint64 t = 0; t < 1000; t++)
    server (buffer, t);
  text = contents (buffer);
  g_assert_cmpstr (text, ==, "S992 S993 S994 S995 S996 S997 S998 S999");
}

/* A Selection line of @len bytes of data at @time_ms. */
static void
pasted (RecBuffer *buffer, gsize len, guint64 time_ms)
{
  g_autofree char *data = g_malloc0 (len + 1);
  SessionEvent ev = { .kind = SESSION_EVENT_SELECTION, .time_ms = time_ms, .window = -1,
                      .selection = "CLIPBOARD", .target = "UTF8_STRING",
                      .type = "UTF8_STRING", .format = 8, .data = data, .data_len = len };

  memset (data, 'x', len);
  rec_buffer_append (buffer, &ev, time_ms);
}

/* An app that pastes a megabyte again and again: what it was given is
 * bounded by RECBUF_GIVEN_BYTES, with the actions before it; a paste's
 * line answered after a later event keeps the session's time in order. */
static void
test_given_bound (void)
{
  g_autoptr (RecBuffer) buffer = rec_buffer_new (2000, 600000);
  g_autofree char *text = NULL;
  gsize mib = 1024 * 1024;

  for (guint64 t = 0; t < 40; t += 2)
    {
      key (buffer, SESSION_EVENT_KEY_PRESS, 38, t * 10);
      pasted (buffer, mib - RECBUF_GIVEN_LINE_BYTES, t * 10 + 1);
      key (buffer, SESSION_EVENT_KEY_RELEASE, 38, t * 10 + 10);
    }
  g_assert_cmpuint (RECBUF_GIVEN_BYTES / mib, ==, 4);
  text = contents (buffer);
  /* The last 4 pastes; R310, whose press went, is left out. */
  g_assert_cmpstr (text, ==, "P320 S321 R330 P340 S341 R350 P360 S361 R370 P380 S381 R390");
  g_clear_pointer (&text, g_free);

  key (buffer, SESSION_EVENT_KEY_PRESS, 38, 500);
  pasted (buffer, 10, 450);
  text = contents (buffer);
  g_assert_true (g_str_has_suffix (text, "R390 P500 S500"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/buffer/keep-actions", test_keep_actions);
  g_test_add_func ("/buffer/keep-time", test_keep_time);
  g_test_add_func ("/buffer/server-bound", test_server_bound);
  g_test_add_func ("/buffer/given-bound", test_given_bound);
  return g_test_run ();
}
