/* session-print.c — writing the session text format: the canonical
 * form (session_to_string()), which parses back to the same bytes, one
 * event's line, the header, and saving to a private file (output.h).
 * session-parse.c reads what this writes. Start reading at
 * session_to_string().
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "output.h"
#include "quote.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

const char *const session_action_names[] = {
  [SESSION_EVENT_KEY_PRESS] = "KeyPress",
  [SESSION_EVENT_KEY_RELEASE] = "KeyRelease",
  [SESSION_EVENT_BUTTON_PRESS] = "ButtonPress",
  [SESSION_EVENT_BUTTON_RELEASE] = "ButtonRelease",
  [SESSION_EVENT_MOTION] = "MotionNotify",
  [SESSION_EVENT_DROP] = "Drop",
};

/* The character at @p (valid UTF-8 up to @end, or one byte) is one a
 * terminal or a reader acts on beyond C0 and DEL (quote_is_hidden(): C1
 * such as CSI U+009B, the bidi controls such as U+202E, the line
 * separators): its bytes as \xHH, the format's one escape for them, so
 * that no file written holds one raw. Returns the bytes it took, or 0. */
static gsize
append_hidden_bytes (GString *out, const char *p, const char *end)
{
  gunichar c = g_utf8_get_char_validated (p, end - p);
  const char *next;

  if ((guchar) *p < 0x80 || c == (gunichar) -1 || c == (gunichar) -2 || !quote_is_hidden (c))
    return 0;
  next = g_utf8_next_char (p);
  for (const char *b = p; b < next; b++)
    g_string_append_printf (out, "\\x%02x", (guchar) *b);
  return next - p;
}

void
session_append_quoted (GString *out, const char *text)
{
  const char *end = text + strlen (text);

  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0';)
    {
      gsize taken = append_hidden_bytes (out, p, end);

      if (taken > 0)
        {
          p += taken;
          continue;
        }
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\r': g_string_append (out, "\\r"); break;
        default:
          if ((guchar) *p < 0x20 || *p == 0x7f)
            g_string_append_printf (out, "\\x%02x", (guchar) *p);
          else
            g_string_append_c (out, *p);
        }
      p++;
    }
  g_string_append_c (out, '"');
}

/* Text written as it is (a comment, a server event's fields), but for
 * what a terminal or a reader acts on: C0 but the tab (and the newlines
 * between a run of comment lines, with @lines), DEL, and
 * append_hidden_bytes()'s, as \xHH. A comment of a stranger's file, or
 * one naming a file whose name holds ESC or a newline, stays one line
 * and shows as it is. */
void
session_append_unquoted (GString *out, const char *text, gboolean lines)
{
  const char *end = text + strlen (text);

  for (const char *p = text; *p != '\0';)
    {
      gsize taken = append_hidden_bytes (out, p, end);

      if (taken > 0)
        p += taken;
      else if (((guchar) *p < 0x20 && *p != '\t' && !(lines && *p == '\n')) || *p == 0x7f)
        g_string_append_printf (out, "\\x%02x", (guchar) *p++);
      else
        g_string_append_c (out, *p++);
    }
}

/* In session.c it would call back into the printer (check-layers). */
void
session_add_header_comment (Session *session, const char *text)
{
  SessionEvent comment = { .kind = SESSION_EVENT_COMMENT, .window = -1 };
  g_autoptr (GString) line = g_string_new (g_str_has_prefix (text, "#") ? NULL : "# ");

  /* One line, whatever the text holds (a file name with a newline). */
  session_append_unquoted (line, text, FALSE);
  comment.text = g_string_free (g_steal_pointer (&line), FALSE);
  g_array_insert_val (session->events, session->n_preamble, comment);
  session->n_preamble++;
}

static void
append_quoted_field (GString *out, const char *key, const char *value)
{
  g_string_append_printf (out, " %s=", key);
  session_append_quoted (out, value);
}

/* The fields of a record of version 2 (session-world.h), after its name. */
static void
append_world_fields (GString *out, const SessionEvent *ev)
{
  switch (ev->kind)
    {
    case SESSION_EVENT_DROP:
      append_quoted_field (out, "types", ev->types);
      if (ev->action != NULL)
        append_quoted_field (out, "action", ev->action);
      break;
    case SESSION_EVENT_FILE:
      append_quoted_field (out, "path", ev->path);
      g_string_append_printf (out, " size=%" G_GUINT64_FORMAT " sha256=%s", ev->size, ev->sha256);
      if (ev->copied)
        g_string_append (out, " copied=1");
      break;
    case SESSION_EVENT_SELECTION:
      g_string_append_printf (out, " selection=%s", ev->selection);
      append_quoted_field (out, "target", ev->target);
      if (ev->type == NULL)
        {
          g_string_append_printf (out, " omitted=1 size=%" G_GUINT64_FORMAT, ev->size);
          break;
        }
      append_quoted_field (out, "type", ev->type);
      if (g_str_equal (ev->type, "None"))
        break;
      g_string_append_printf (out, " format=%d", ev->format);
      if (g_str_equal (ev->type, "ATOM") && ev->size == 0 && ev->offset == 0
          && ev->format == 32 && ev->data != NULL)
        {
          append_quoted_field (out, "atoms", ev->data);
          break;
        }
      g_string_append_printf (out, " size=%" G_GUINT64_FORMAT " offset=%" G_GUINT64_FORMAT,
                              ev->size, ev->offset);
      if (g_utf8_validate (ev->data, (gssize) ev->data_len, NULL)
          && memchr (ev->data, '\0', ev->data_len) == NULL)
        append_quoted_field (out, "text", ev->data);
      else
        {
          g_autofree char *b64 = g_base64_encode ((const guchar *) ev->data, ev->data_len);
          g_string_append_printf (out, " base64=%s", b64);
        }
      break;
    case SESSION_EVENT_KEY_PRESS:
    case SESSION_EVENT_KEY_RELEASE:
    case SESSION_EVENT_BUTTON_PRESS:
    case SESSION_EVENT_BUTTON_RELEASE:
    case SESSION_EVENT_MOTION:
    case SESSION_EVENT_SERVER:
    case SESSION_EVENT_COMMENT:
    default:
      break;
    }
}

static void
write_quoted_line (GString *out, const char *key, const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (out, "%s ", key);
  session_append_quoted (out, value);
  g_string_append_c (out, '\n');
}

/* Version 2's header lines (session-world.h). */
static void
append_world_header (const Session *session, GString *out)
{
  write_quoted_line (out, "home", session->home);
  write_quoted_line (out, "cwd", session->cwd);
  write_quoted_line (out, "host", session->host);
  write_quoted_line (out, "date", session->date);
  write_quoted_line (out, "wm", session->wm);
  for (guint i = 0; session->env != NULL && i < session->env->len; i++)
    {
      const char *e = g_ptr_array_index (session->env, i);
      const char *eq = strchr (e, '=');

      g_string_append_printf (out, "env %.*s ", (int) (eq - e), e);
      session_append_quoted (out, eq + 1);
      g_string_append_c (out, '\n');
    }
}

/* Whether the session holds anything of version 2. */
static gboolean
uses_world (const Session *session)
{
  if (session->home != NULL || session->cwd != NULL || session->host != NULL
      || session->date != NULL || session->wm != NULL
      || (session->env != NULL && session->env->len > 0))
    return TRUE;
  for (guint i = 0; i < session->events->len; i++)
    {
      SessionEventKind kind = session_get_event (session, i)->kind;

      if (kind == SESSION_EVENT_DROP || kind == SESSION_EVENT_SELECTION
          || kind == SESSION_EVENT_FILE)
        return TRUE;
    }
  return FALSE;
}

static void
append_event (GString *out, const SessionEvent *ev)
{
  gboolean is_key = ev->kind == SESSION_EVENT_KEY_PRESS
                    || ev->kind == SESSION_EVENT_KEY_RELEASE;

  if (ev->kind == SESSION_EVENT_COMMENT)
    {
      session_append_unquoted (out, ev->text != NULL ? ev->text : "", TRUE);
      return;
    }
  g_string_append_printf (out, "%" G_GUINT64_FORMAT " ", ev->time_ms);
  if (ev->kind == SESSION_EVENT_SELECTION || ev->kind == SESSION_EVENT_FILE)
    {
      g_string_append (out, ev->kind == SESSION_EVENT_FILE ? "File" : "Selection");
      append_world_fields (out, ev);
      return;
    }
  if (ev->kind == SESSION_EVENT_SERVER)
    {
      g_string_append (out, ev->name);
      if (ev->args != NULL && *ev->args != '\0')
        {
          g_string_append_c (out, ' ');
          session_append_unquoted (out, ev->args, FALSE);
        }
      return;
    }
  g_string_append (out, session_action_names[ev->kind]);
  if (is_key)
    g_string_append_printf (out, " keysym=%s keycode=%u", ev->keysym, ev->keycode);
  if (ev->kind == SESSION_EVENT_BUTTON_PRESS || ev->kind == SESSION_EVENT_BUTTON_RELEASE)
    g_string_append_printf (out, " button=%u", ev->button);
  if (ev->kind != SESSION_EVENT_DROP)
    g_string_append_printf (out, " state=0x%x", ev->state);
  if (ev->has_pos)
    {
      g_string_append_printf (out, " root=%d,%d", ev->root_x, ev->root_y);
      if (ev->window >= 0)
        g_string_append_printf (out, " pos=%d,%d", ev->x, ev->y);
    }
  if (ev->window >= 0)
    g_string_append_printf (out, " window=%d", ev->window);
  if (ev->window >= 0 && ev->width > 0)
    g_string_append_printf (out, " size=%dx%d", ev->width, ev->height);
  if (ev->wm_class != NULL)
    {
      g_string_append (out, " class=");
      session_append_quoted (out, ev->wm_class);
    }
  if (ev->wm_name != NULL)
    {
      g_string_append (out, " title=");
      session_append_quoted (out, ev->wm_name);
    }
  if (ev->added)
    g_string_append (out, " added=1");
  if (ev->kind == SESSION_EVENT_DROP)
    append_world_fields (out, ev);
}

char *
session_event_to_line (const SessionEvent *ev)
{
  GString *out = g_string_new (NULL);

  append_event (out, ev);
  return g_string_free (out, FALSE);
}

void
session_write_header (const Session *session, GString *out)
{
  /* What the session holds decides: a session with nothing of version 2
   * loads in a reader of version 1. */
  g_string_append_printf (out, "xreduce-session %d\n",
                          MAX (session->version, uses_world (session) ? 2 : 1));
  g_string_append_printf (out, "screen %dx%d\n", session->screen_width,
                          session->screen_height);
  if (session->command != NULL)
    {
      g_string_append (out, "command");
      for (char **arg = session->command; *arg != NULL; arg++)
        {
          g_string_append_c (out, ' ');
          session_append_quoted (out, *arg);
        }
      g_string_append_c (out, '\n');
    }
  if (session->keymap != NULL)
    {
      g_string_append (out, "keymap ");
      session_append_quoted (out, session->keymap);
      g_string_append_c (out, '\n');
    }
  session_write_options (session, out);
  if (session->outcome.kind != SESSION_OUTCOME_UNKNOWN && !session->outcome_at_end)
    {
      g_autofree char *text = session_outcome_to_string (session->outcome);
      g_string_append_printf (out, "outcome %s\n", text);
    }
  append_world_header (session, out);
}

/* How much text is built before it is written out (session_save_scratch),
 * and how many events between two looks at the cancellable. */
#define PRINT_FLUSH_BYTES (1 << 20)
#define PRINT_CANCEL_EVERY 65536

/* Writes what @out holds to @fd (if not -1) and empties it. */
static gboolean
flush_to (GString *out, int fd, GError **error)
{
  int saved;

  if (fd < 0)
    return TRUE;
  saved = output_write_all (fd, out->str, out->len);
  if (saved != 0)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "cannot write: %s",
                   g_strerror (saved));
      return FALSE;
    }
  g_string_truncate (out, 0);
  return TRUE;
}

static gboolean
print_events (const Session *session, guint from, guint to, GString *out, int fd,
              GCancellable *cancellable, GError **error)
{
  for (guint i = from; i < to; i++)
    {
      append_event (out, session_get_event (session, i));
      g_string_append_c (out, '\n');
      if (i % PRINT_CANCEL_EVERY == PRINT_CANCEL_EVERY - 1
          && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (fd >= 0 && out->len >= PRINT_FLUSH_BYTES && !flush_to (out, fd, error))
        return FALSE;
    }
  return TRUE;
}

/* The session as text into @out, written out to @fd as it grows if @fd
 * is not -1. */
static gboolean
print_session (const Session *session, GString *out, int fd, GCancellable *cancellable,
               GError **error)
{
  guint preamble = MIN (session->n_preamble, session->events->len);

  if (!print_events (session, 0, preamble, out, fd, cancellable, error))
    return FALSE;
  session_write_header (session, out);
  if (!print_events (session, preamble, session->events->len, out, fd, cancellable, error))
    return FALSE;
  /* Known at the end of a recording, where it is written (before the
   * outcome, as the recorder writes them). */
  if (session->glx != SESSION_GLX_UNKNOWN)
    g_string_append_printf (out, "glx %s\n", session_glx_to_string (session->glx));
  if (session->outcome.kind != SESSION_OUTCOME_UNKNOWN && session->outcome_at_end)
    {
      g_autofree char *text = session_outcome_to_string (session->outcome);
      g_string_append_printf (out, "outcome %s\n", text);
    }
  return flush_to (out, fd, error);
}

char *
session_to_string (const Session *session)
{
  GString *out = g_string_new (NULL);

  print_session (session, out, -1, NULL, NULL);
  return g_string_free (out, FALSE);
}

gboolean
session_save_scratch (const Session *session, const char *path, GCancellable *cancellable,
                      GError **error)
{
  g_autoptr (GString) out = g_string_sized_new (PRINT_FLUSH_BYTES + 4096);
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  gboolean ok;

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "cannot create %s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  ok = print_session (session, out, fd, cancellable, error);
  if (close (fd) != 0 && ok)
    {
      int saved = errno;
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_IO, "cannot write %s: %s", path,
                   g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (path);
  return ok;
}

gboolean
session_save (const Session *session, const char *path, GError **error)
{
  g_autofree char *text = session_to_string (session);
  GError *local = NULL;

  /* A new 0600 file under a temporary name, renamed over @path: a reader
   * (or a Ctrl-C) never sees half a session, a link at @path is replaced,
   * not followed, and the keystrokes are the owner's only. */
  if (!output_file_write (path, text, -1, OUTPUT_FILE_MODE, &local))
    {
      g_set_error (error, SESSION_ERROR,
                   g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE)
                   ? SESSION_ERROR_NO_SPACE : SESSION_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}
