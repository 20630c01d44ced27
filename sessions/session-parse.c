/* session-parse.c — reading the session text format
 * (docs/session-format.md); session-print.c writes it.
 *
 * session_parse() walks the buffer line by line: comments and blank lines
 * become COMMENT events, the version line comes first, the header lines
 * fill the Session's fields (session-parse-header.c), records are
 * tokenised into NAME=VALUE fields and checked field by field
 * (session-parse-record.c, session-parse-action.c). Every error names
 * "file:line" (session-parse-fields.c). Loading a file, bounded, is here
 * too.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-parse-private.h"
#include "quote.h"
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <errno.h>
#include <string.h>
#include <gio/gio.h>

static void
flush_comments (Parser *parser)
{
  SessionEvent comment = { .kind = SESSION_EVENT_COMMENT, .window = -1 };

  if (parser->comments == NULL)
    return;
  comment.time_ms = parser->comments_time;
  comment.text = g_string_free (g_steal_pointer (&parser->comments), FALSE);
  g_array_append_val (parser->session->events, comment);
  if (parser->comments_in_preamble)
    parser->session->n_preamble++;
}

static gboolean
parse_line (Parser *parser, const char *line, GError **error)
{
  const char *p = line;

  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '\0' || *p == '#')
    {
      /* A run of comment and blank lines is one event, its lines joined
       * by newlines: ten million blank lines cost their bytes, not ten
       * million events. */
      if (parser->comments == NULL)
        {
          parser->comments = g_string_new (line);
          parser->comments_in_preamble = !parser->seen_version;
          if (parser->session->events->len > 0 || parser->seen_version || parser->in_records)
            parser->comments_time = parser->last_time;
          else
            parser->comments_time = 0;
        }
      else
        {
          g_string_append_c (parser->comments, '\n');
          g_string_append (parser->comments, line);
        }
      return TRUE;
    }
  flush_comments (parser);
  if (!parser->seen_version)
    {
      guint64 version;
      g_autofree char *word = parser_excerpt (line);

      if (!g_str_has_prefix (line, "xreduce-session "))
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_VERSION,
                       "%s:%u: not a session log: expected 'xreduce-session %d' first, got '%s'",
                       parser->name, parser->line, SESSION_FORMAT_VERSION, word);
          return FALSE;
        }
      if (!parser_uint (line + strlen ("xreduce-session "), G_MAXINT, &version)
          || version == 0)
        return parser_fail (parser, error, "bad format version in '%s'", word);
      if (version > SESSION_FORMAT_VERSION)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_VERSION,
                       "%s:%u: format version %" G_GUINT64_FORMAT
                       " is newer than this xreduce reads (%d): update xreduce",
                       parser->name, parser->line, version, SESSION_FORMAT_VERSION);
          return FALSE;
        }
      parser->session->version = (int) version;
      parser->seen_version = TRUE;
      return TRUE;
    }
  if (g_ascii_isdigit (*line))
    {
      parser->in_records = TRUE;
      return parser_record (parser, line, error);
    }
  /* The footer's lines (the recorder knows them only at the end). */
  if (parser->in_records && !g_str_has_prefix (line, "outcome ") && !g_str_has_prefix (line, "glx "))
    {
      g_autofree char *word = parser_excerpt (line);
      return parser_fail (parser, error, "expected a record 'TIME EVENT ...', got '%s'", word);
    }
  return parser_header_line (parser, line, error);
}

/* The @len bytes at @line are blank, or a comment. */
static gboolean
line_is_comment (const char *line, gsize len)
{
  gsize i = 0;

  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i == len || line[i] == '#';
}

static Session *parse_all (Parser *parser, const char *data, gsize len, GError **error);

/* Lines between two looks at the parser's cancellable. */
#define PARSE_CANCEL_EVERY 4096
/* Bytes read (and summed) between two looks at it. */
#define SESSION_READ_PIECE (4 * 1024 * 1024)

Session *
session_parse (const char *data, gsize len, const char *name, GError **error)
{
  return session_parse_bounded (data, len, name, SESSION_MAX_ACTIONS, error);
}

static Session *
parse_cancellable (const char *data, gsize len, const char *name, guint max_actions,
                   GCancellable *cancellable, GError **error)
{
  /* The file name is the user's, but it may come from a stranger too (an
   * attachment's name): shown quoted, like all else. */
  g_autofree char *shown = quote_terminal (name);
  Parser parser = { .name = shown, .max_actions = max_actions, .cancellable = cancellable };
  Session *session = parse_all (&parser, data, len, error);

  if (parser.comments != NULL)
    g_string_free (parser.comments, TRUE);
  return session;
}

Session *
session_parse_bounded (const char *data, gsize len, const char *name, guint max_actions,
                       GError **error)
{
  return parse_cancellable (data, len, name, max_actions, NULL, error);
}

Session *
session_parse_cancellable (const char *data, gsize len, const char *name, guint max_actions,
                           GCancellable *cancellable, GError **error)
{
  return parse_cancellable (data, len, name, max_actions, cancellable, error);
}

/* At the end of the file: what spans lines is complete, the version and
 * the screen were said. */
static gboolean
check_end (Parser *parser, GError **error)
{
  static const char cut_note[] = " (its last line, cut short, was ignored)";
  Session *session = parser->session;
  const char *name = parser->name;

  {
    g_autofree char *why = NULL;
    const SessionEvent *prev = parser->last_record > 0
      ? session_get_event (session, parser->last_record - 1) : NULL;

    if (!session_world_check_sequence (prev, NULL, &why))
      {
        g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE, "%s: %s%s", name, why,
                     session->warning != NULL ? cut_note : "");
        return FALSE;
      }
  }
  if (!parser->seen_version)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_VERSION,
                   "%s: no 'xreduce-session %d' line, not a session log%s",
                   name, SESSION_FORMAT_VERSION, session->warning != NULL ? cut_note : "");
      return FALSE;
    }
  if (!parser->seen_screen)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "%s: missing 'screen WxH' header line%s", name,
                   session->warning != NULL ? cut_note : "");
      return FALSE;
    }
  return TRUE;
}

static Session *
parse_all (Parser *parser, const char *data, gsize len, GError **error)
{
  g_autoptr (Session) session = session_new ();
  const char *name = parser->name;
  const char *p = data, *end = data + len;
  const char *nul;

  parser->session = session;

  if (len == 0)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_EMPTY,
                   "%s: empty file, not a session log", name);
      return NULL;
    }
  /* The caller holds the bytes already (session_load_limited checked its
   * limit before reading): only the ceiling of any limit here. */
  if (len > SESSION_MAX_FILE_SIZE_CEILING)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                   "%s: %" G_GSIZE_FORMAT " bytes is too large for a session log (at most %"
                   G_GSIZE_FORMAT " MiB)", name, len, SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024));
      return NULL;
    }
  nul = memchr (data, '\0', len);
  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      gsize line_len = (eol != NULL ? eol : end) - p;
      g_autofree char *line = NULL;

      parser->line++;
      if (parser->line % PARSE_CANCEL_EVERY == 0
          && g_cancellable_set_error_if_cancelled (parser->cancellable, error))
        return NULL;
      if (nul != NULL && nul < p + line_len + 1)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "%s:%u: binary data (NUL byte), not a session log",
                       name, parser->line);
          return NULL;
        }
      /* Every trailing CR goes, so that printing and parsing again is
       * stable (a comment "#a\r\r" would otherwise lose one per trip). */
      while (line_len > 0 && p[line_len - 1] == '\r')
        line_len--;
      /* Every line a writer writes ends with '\n': a last line without
       * one was cut (a log cut short, a file cut in transit), maybe in
       * the middle of a character, and may still parse with a wrong value
       * (keycode=6 of keycode=64). It is dropped, and the session says so
       * (session_get_warning). A whole comment or a blank line carries no
       * value: kept. */
      if (eol == NULL && !(line_is_comment (p, line_len) && line_len <= SESSION_MAX_LINE
                           && g_utf8_validate_len (p, line_len, NULL)))
        {
          session->warning = g_strdup_printf ("%s:%u: the last line does not end with a "
                                              "newline (cut short?): ignored", name,
                                              parser->line);
          break;
        }
      if (line_len > SESSION_MAX_LINE)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "%s:%u: line longer than %d bytes", name, parser->line,
                       SESSION_MAX_LINE);
          return NULL;
        }
      if (!g_utf8_validate_len (p, line_len, NULL))
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "%s:%u: invalid UTF-8 (binary data?), not a session log",
                       name, parser->line);
          return NULL;
        }
      line = g_strndup (p, line_len);
      p = eol != NULL ? eol + 1 : end;
      if (!parse_line (parser, line, error))
        return NULL;
    }
  flush_comments (parser);
  if (!check_end (parser, error))
    return NULL;
  return g_steal_pointer (&session);
}

gboolean
session_max_actions_parse (const char *text, guint *max_actions)
{
  guint64 n = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, SESSION_MAX_ACTIONS_CEILING, &n, NULL))
    return FALSE;
  *max_actions = (guint) n;
  return TRUE;
}

gboolean
session_max_size_parse (const char *text, gsize *max_bytes)
{
  guint64 mib = 0;

  if (text == NULL
      || !g_ascii_string_to_unsigned (text, 10, 1, SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024),
                                      &mib, NULL))
    return FALSE;
  *max_bytes = (gsize) mib * 1024 * 1024;
  return TRUE;
}

Session *
session_load (const char *path, GError **error)
{
  return session_load_limited (path, SESSION_MAX_FILE_SIZE, error);
}

Session *
session_load_limited (const char *path, gsize max_bytes, GError **error)
{
  return session_load_bounded (path, max_bytes, SESSION_MAX_ACTIONS, error);
}

Session *
session_load_bounded (const char *path, gsize max_bytes, guint max_actions, GError **error)
{
  return session_load_cancellable (path, max_bytes, max_actions, NULL, error);
}

Session *
session_load_cancellable (const char *path, gsize max_bytes, guint max_actions,
                          GCancellable *cancellable, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *shown = quote_terminal (path);
  g_autoptr (GChecksum) sum = NULL;
  Session *session;
  struct stat st;
  gsize len = 0;
  int fd;

  /* A FIFO or a device would block or never end: only a regular file (a
   * link to one is fine), opened without waiting, checked on the opened
   * descriptor, read to at most the limit. */
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s", shown, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s, not a session log", shown,
                   S_ISDIR (st.st_mode) ? "is a directory" : "not a regular file");
      close (fd);
      return NULL;
    }
  /* Check the size first: never read a 1 GB file into memory. */
  if ((guint64) st.st_size > max_bytes)
    {
      guint64 need = ((guint64) st.st_size + 1024 * 1024 - 1) / (1024 * 1024);

      if (need <= SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024))
        g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                     "%s: %" G_GINT64_FORMAT " bytes is too large for a session log (at most %"
                     G_GSIZE_FORMAT " MiB): --max-session-size %" G_GUINT64_FORMAT " reads it",
                     shown, (gint64) st.st_size, max_bytes / (1024 * 1024), need);
      else
        g_set_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE,
                     "%s: %" G_GINT64_FORMAT " bytes is too large for a session log (at most %"
                     G_GSIZE_FORMAT " MiB, at most %" G_GSIZE_FORMAT " MiB with "
                     "--max-session-size)", shown, (gint64) st.st_size,
                     max_bytes / (1024 * 1024), SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024));
      close (fd);
      return NULL;
    }
  data = g_malloc ((gsize) st.st_size + 1);
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  /* In pieces, each one summed as it comes: a large file is a second of
   * reading and hashing, and a signal must not wait for all of it. */
  while (len < (gsize) st.st_size)
    {
      ssize_t n = read (fd, data + len, MIN ((gsize) st.st_size - len, SESSION_READ_PIECE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "%s: %s", shown, g_strerror (saved));
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;   /* it shrank meanwhile: what there is */
      g_checksum_update (sum, (const guchar *) data + len, n);
      len += (gsize) n;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return NULL;
        }
    }
  close (fd);
  data[len] = '\0';
  session = parse_cancellable (data, len, path, max_actions, cancellable, error);
  if (session != NULL)
    session->digest = g_strdup (g_checksum_get_string (sum));
  return session;
}

