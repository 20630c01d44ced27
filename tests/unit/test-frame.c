/* test-frame.c — a session sent through a pipe (sessions/frame.h): framed
 * or plain, bounded like a file, and every bad input refused with a clear
 * reason (empty, over the limit, a frame cut short or malformed). A framed
 * read takes nothing past its body: the pipe stays the sender's cancel.
 * No display.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "frame.h"
#include "session.h"

static const char session_text[] =
  "xreduce-session 1\nscreen 640x480\ncommand \"app\"\n"
  "10 KeyPress keysym=a keycode=38 state=0x0\n"
  "20 KeyRelease keysym=a keycode=38 state=0x0\n";

/* A descriptor that reads @len bytes of @data, then EOF (an unlinked
 * file: any size, no writer to block). */
static int
fd_with (const char *data, gsize len)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("test-frame-XXXXXX", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  g_unlink (path);
  g_assert_cmpint (write (fd, data, len), ==, (gssize) len);
  g_assert_cmpint (lseek (fd, 0, SEEK_SET), ==, 0);
  return fd;
}

static GBytes *
read_from (const char *data, gsize len, gsize max, gboolean *framed, GError **error)
{
  int fd = fd_with (data, len);
  GBytes *bytes = frame_read (fd, max, "stdin", framed, error);

  close (fd);
  return bytes;
}

static void
test_plain (void)
{
  g_autoptr (GError) error = NULL;
  gboolean framed = TRUE;
  g_autoptr (GBytes) bytes = read_from (session_text, strlen (session_text), 1 << 20, &framed,
                                        &error);
  gsize len;
  const char *text;

  g_assert_no_error (error);
  g_assert_false (framed);
  text = g_bytes_get_data (bytes, &len);
  g_assert_cmpmem (text, len, session_text, strlen (session_text));
}

static void
test_framed (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *header = frame_header (strlen (session_text));
  /* What follows the body is not the session's (the sender writes
   * nothing more; xreplay reads on for EOF). */
  g_autofree char *all = g_strconcat (header, session_text, "trailing", NULL);
  gboolean framed = FALSE;
  g_autoptr (GBytes) bytes = read_from (all, strlen (all), 1 << 20, &framed, &error);
  gsize len;
  const char *text;

  g_assert_no_error (error);
  g_assert_true (framed);
  g_assert_cmpstr (header, ==, "xreduce-session-frame 133\n");
  text = g_bytes_get_data (bytes, &len);
  g_assert_cmpmem (text, len, session_text, strlen (session_text));
}

/* A framed read stops at the body's end: the pipe stays open behind it,
 * and EOF comes only when the sender closes its end. */
static void
test_framed_pipe_open (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *header = frame_header (strlen (session_text));
  g_autoptr (GBytes) bytes = NULL;
  gboolean framed = FALSE;
  char byte;
  int fds[2];

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], header, strlen (header)), ==, (gssize) strlen (header));
  g_assert_cmpint (write (fds[1], session_text, strlen (session_text)), ==,
                   (gssize) strlen (session_text));
  bytes = frame_read (fds[0], 1 << 20, "stdin", &framed, &error);
  g_assert_no_error (error);
  g_assert_true (framed);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, strlen (session_text));
  close (fds[1]);
  g_assert_cmpint (read (fds[0], &byte, 1), ==, 0);
  close (fds[0]);
}

static void
test_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) error2 = NULL;
  gboolean framed;
  g_autoptr (GBytes) plain = read_from ("", 0, 1 << 20, &framed, &error);
  g_autoptr (GBytes) frame = read_from ("xreduce-session-frame 0\n", 24, 1 << 20, &framed,
                                        &error2);

  g_assert_null (plain);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_EMPTY);
  g_assert_nonnull (strstr (error->message, "stdin: empty input"));
  g_assert_null (frame);
  g_assert_error (error2, SESSION_ERROR, SESSION_ERROR_EMPTY);
}

/* Over the limit: a frame is refused on its header, before its body is
 * read; plain input once one byte passes the limit. */
static void
test_too_large (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) error2 = NULL;
  gsize max = 1024 * 1024;
  g_autofree char *big = g_malloc (max + 10);
  g_autofree char *header = frame_header (max + 1);
  gboolean framed;
  g_autoptr (GBytes) plain = NULL;
  g_autoptr (GBytes) frame = NULL;

  memset (big, '#', max + 10);
  plain = read_from (big, max + 10, max, &framed, &error);
  g_assert_null (plain);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "--max-session-size"));
  /* Only the header: never read, the body is not there at all. */
  frame = read_from (header, strlen (header), max, &framed, &error2);
  g_assert_null (frame);
  g_assert_error (error2, SESSION_ERROR, SESSION_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error2->message, "a frame of 1048577 bytes"));
  /* 18446744073709551616 does not fit: malformed, not a huge frame. */
  {
    g_autoptr (GError) error3 = NULL;
    const char *huge = "xreduce-session-frame 18446744073709551616\n";
    g_autoptr (GBytes) none = read_from (huge, strlen (huge), max, &framed, &error3);
    g_assert_null (none);
    g_assert_error (error3, SESSION_ERROR, SESSION_ERROR_IO);
  }
}

static void
test_cut_short (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *header = frame_header (strlen (session_text) + 50);
  g_autofree char *all = g_strconcat (header, session_text, NULL);
  gboolean framed;
  g_autoptr (GBytes) bytes = read_from (all, strlen (all), 1 << 20, &framed, &error);

  g_assert_null (bytes);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "ends after 133 of its 183 bytes"));
}

static void
test_malformed (void)
{
  const char *bad[] = { "xreduce-session-frame\n", "xreduce-session-frame -5\n",
                        "xreduce-session-frame 12x\n", "xreduce-session-frame  12\n",
                        "xreduce-session-frame+12\n" };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      gboolean framed;
      g_autoptr (GBytes) bytes = read_from (bad[i], strlen (bad[i]), 1 << 20, &framed, &error);

      g_assert_null (bytes);
      g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
      g_assert_nonnull (strstr (error->message, "malformed frame header"));
    }
}

/* A long first line (a comment of a plain session) is no header: read on. */
static void
test_long_first_line (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *comment = g_strnfill (200, '#');
  g_autofree char *all = g_strconcat (comment, "\n", session_text, NULL);
  gboolean framed = TRUE;
  g_autoptr (GBytes) bytes = read_from (all, strlen (all), 1 << 20, &framed, &error);

  g_assert_no_error (error);
  g_assert_false (framed);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, strlen (all));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/frame/plain", test_plain);
  g_test_add_func ("/frame/framed", test_framed);
  g_test_add_func ("/frame/framed-pipe-open", test_framed_pipe_open);
  g_test_add_func ("/frame/empty", test_empty);
  g_test_add_func ("/frame/too-large", test_too_large);
  g_test_add_func ("/frame/cut-short", test_cut_short);
  g_test_add_func ("/frame/malformed", test_malformed);
  g_test_add_func ("/frame/long-first-line", test_long_first_line);
  return g_test_run ();
}
