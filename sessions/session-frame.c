/* session-frame.c — a session read from a pipe, framed or not (frame.h).
 *
 * frame_read() reads the first line a byte at a time (at most
 * FRAME_HEADER_MAX bytes), so that nothing past a frame's header is taken
 * before its length is known and checked; then the body, or the rest of a
 * plain session, in chunks.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "frame.h"
#include "session.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

char *
frame_header (gsize len)
{
  return g_strdup_printf (FRAME_MAGIC " %" G_GSIZE_FORMAT "\n", len);
}

/* read() again after EINTR; -1 with errno otherwise. */
static gssize
read_some (int fd, guint8 *buf, gsize len)
{
  gssize n;

  do
    n = read (fd, buf, len);
  while (n < 0 && errno == EINTR);
  return n;
}

static void
set_too_large (GError **error, const char *name, gsize max_bytes, const char *what)
{
  g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
               "%s: %s is too large for a session log (at most %" G_GSIZE_FORMAT
               " MiB; --max-session-size reads more)", name, what, max_bytes / (1024 * 1024));
}

/* A frame's header, "MAGIC LEN" without its newline: TRUE and *@len, or
 * FALSE if @line is not one. */
static gboolean
parse_header (const char *line, gsize *len)
{
  guint64 value;

  if (!g_str_has_prefix (line, FRAME_MAGIC " "))
    return FALSE;
  line += strlen (FRAME_MAGIC " ");
  if (!g_ascii_isdigit (*line)
      || !g_ascii_string_to_unsigned (line, 10, 0, G_MAXSIZE, &value, NULL))
    return FALSE;
  *len = (gsize) value;
  return TRUE;
}

GBytes *
frame_read (int fd, gsize max_bytes, const char *name, gboolean *framed, GError **error)
{
  g_autoptr (GByteArray) data = g_byte_array_new ();
  guint8 byte, chunk[65536];
  gsize len = 0;
  gssize n;

  *framed = FALSE;
  /* The first line, up to FRAME_HEADER_MAX bytes. */
  while (data->len < FRAME_HEADER_MAX)
    {
      n = read_some (fd, &byte, 1);
      if (n < 0)
        goto io_error;
      if (n == 0)
        break;
      g_byte_array_append (data, &byte, 1);
      if (byte == '\n')
        break;
    }
  if (data->len > 0 && data->data[data->len - 1] == '\n')
    {
      g_autofree char *line = g_strndup ((const char *) data->data, data->len - 1);

      if (parse_header (line, &len))
        {
          *framed = TRUE;
          if (len > max_bytes)
            {
              g_autofree char *what = g_strdup_printf ("a frame of %" G_GSIZE_FORMAT " bytes",
                                                       len);
              set_too_large (error, name, max_bytes, what);
              return NULL;
            }
          g_byte_array_set_size (data, 0);
          while (data->len < len)
            {
              n = read_some (fd, chunk, MIN (sizeof chunk, len - data->len));
              if (n < 0)
                goto io_error;
              if (n == 0)
                {
                  g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO,
                               "%s: the framed session ends after %u of its %" G_GSIZE_FORMAT
                               " bytes (the sender stopped)", name, data->len, len);
                  return NULL;
                }
              g_byte_array_append (data, chunk, (guint) n);
            }
          if (len == 0)
            {
              g_set_error (error, SESSION_ERROR, SESSION_ERROR_EMPTY,
                           "%s: an empty framed session", name);
              return NULL;
            }
          return g_byte_array_free_to_bytes (g_steal_pointer (&data));
        }
      if (g_str_has_prefix (line, FRAME_MAGIC))
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO,
                       "%s: a malformed frame header (not '" FRAME_MAGIC " LENGTH')", name);
          return NULL;
        }
    }
  /* A plain session: everything to EOF, one byte over the limit at most. */
  for (;;)
    {
      n = read_some (fd, chunk, MIN (sizeof chunk, max_bytes + 1 - MIN (data->len, max_bytes)));
      if (n < 0)
        goto io_error;
      if (n == 0)
        break;
      g_byte_array_append (data, chunk, (guint) n);
      if (data->len > max_bytes)
        {
          set_too_large (error, name, max_bytes, "the input");
          return NULL;
        }
    }
  if (data->len == 0)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_EMPTY,
                   "%s: empty input: no session to read", name);
      return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&data));

io_error:
  {
    int saved = errno;
    g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s", name, g_strerror (saved));
    return NULL;
  }
}
