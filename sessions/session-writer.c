/* session-writer.c — writing a session line by line as events arrive.
 *
 * The recorder cannot know the outcome before the app dies, and must lose
 * nothing when it is killed: the header goes out at once, every record is a
 * complete line written with one write(2), and the outcome is a footer.
 * The file is a new one (output.h): made 0600 under a temporary name
 * beside the path, the header written, then renamed over the path, which
 * it replaces whatever it was (a link is not followed).
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

struct SessionWriter
{
  char *path;
  int fd;
};

static gboolean
write_all (SessionWriter *writer, const char *data, gsize len, GError **error)
{
  while (len > 0)
    {
      ssize_t n = write (writer->fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO,
                       "%s: cannot write: %s", writer->path, g_strerror (saved));
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

SessionWriter *
session_writer_open (const char *path, const Session *header, GError **error)
{
  g_autoptr (SessionWriter) writer = g_new0 (SessionWriter, 1);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *tmp = NULL;
  GError *local = NULL;

  for (guint i = 0; i < header->n_preamble && i < header->events->len; i++)
    {
      char *line = session_event_to_line (session_get_event (header, i));
      g_string_append_printf (text, "%s\n", line);
      g_free (line);
    }
  {
    Session copy = *header;
    /* The outcome, if any, belongs at the end. */
    copy.outcome.kind = SESSION_OUTCOME_UNKNOWN;
    session_write_header (&copy, text);
  }
  /* Every line written loads again: a command line that does not fit
   * is refused before anything is written. */
  for (const char *line = text->str, *eol; *line != '\0'; line = eol + 1)
    {
      eol = strchr (line, '\n');
      if (eol - line > SESSION_MAX_LINE)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID,
                       "%s: the header would hold a line longer than %d bytes (the command "
                       "line?)", path, SESSION_MAX_LINE);
          return NULL;
        }
    }
  writer->path = g_strdup (path);
  /* 0600: a session holds everything the user typed into the app. */
  writer->fd = output_file_create_temp (path, OUTPUT_FILE_MODE, &tmp, &local);
  if (writer->fd < 0)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return NULL;
    }
  if (!write_all (writer, text->str, text->len, error))
    {
      g_unlink (tmp);
      return NULL;
    }
  /* From here on the file is at @path: a writer killed at any point
   * leaves a loadable log there. */
  if (!output_file_rename (tmp, path, &local))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return NULL;
    }
  return g_steal_pointer (&writer);
}

/* @ev's line, within SESSION_MAX_LINE so that it loads again: a title (a
 * window's WM_NAME, up to 4096 bytes, whose control characters take 4
 * bytes each once escaped), then a class, that would make it longer is
 * cut at a character's boundary. */
static char *
fitted_line (const SessionEvent *ev)
{
  SessionEvent copy = *ev;
  g_autofree char *name = g_strdup (ev->wm_name);
  g_autofree char *klass = g_strdup (ev->wm_class);
  char *line = session_event_to_line (ev);

  while (strlen (line) > SESSION_MAX_LINE)
    {
      char *cut = name != NULL && *name != '\0' ? name : klass != NULL && *klass != '\0' ? klass
                                                                                      : NULL;
      gsize len, drop, keep;

      if (cut == NULL)
        break;   /* cannot be: without them, a line is short */
      len = strlen (cut);
      drop = MAX ((strlen (line) - SESSION_MAX_LINE) / 4, 1);
      keep = len > drop ? len - drop : 0;
      while (keep > 0 && ((guchar) cut[keep] & 0xc0) == 0x80)
        keep--;
      cut[keep] = '\0';
      copy.wm_name = name;
      copy.wm_class = klass;
      g_free (line);
      line = session_event_to_line (&copy);
    }
  return line;
}

gboolean
session_writer_append (SessionWriter *writer, const SessionEvent *ev,
                       GError **error)
{
  g_autofree char *line = fitted_line (ev);
  g_autofree char *with_newline = g_strconcat (line, "\n", NULL);

  return write_all (writer, with_newline, strlen (with_newline), error);
}

gboolean
session_writer_note_glx (SessionWriter *writer, SessionGlx glx, GError **error)
{
  g_autofree char *line = NULL;

  if (glx == SESSION_GLX_UNKNOWN)
    return TRUE;
  line = g_strdup_printf ("glx %s\n", session_glx_to_string (glx));
  return write_all (writer, line, strlen (line), error);
}

gboolean
session_writer_finish (SessionWriter *writer, SessionOutcome outcome,
                       GError **error)
{
  g_autofree char *text = session_outcome_to_string (outcome);
  g_autofree char *line = g_strdup_printf ("outcome %s\n", text);
  int fd = writer->fd;

  if (outcome.kind != SESSION_OUTCOME_UNKNOWN
      && !write_all (writer, line, strlen (line), error))
    return FALSE;
  writer->fd = -1;
  if (fsync (fd) != 0 && errno != EINVAL)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s",
                   writer->path, g_strerror (saved));
      return FALSE;
    }
  if (close (fd) != 0)
    {
      int saved = errno;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s",
                   writer->path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

void
session_writer_free (SessionWriter *writer)
{
  if (writer == NULL)
    return;
  if (writer->fd >= 0)
    close (writer->fd);
  g_free (writer->path);
  g_free (writer);
}
