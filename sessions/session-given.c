/* session-given.c — what the app was given, as records of version 2
 * (see session-world.h): the files it read (File), the selection data it
 * pasted from other clients (Selection), the drops of other apps (Drop,
 * a user action: its pointer and window fields are an action's,
 * session-parse-action.c; its types and action are here).
 *
 * One conversion of a selection (a target and the owner's answer) may
 * take several lines: its bytes are cut so that every line stays within
 * SESSION_MAX_LINE, as text (UTF-8, escaped) or base64, each line saying
 * where its bytes start (offset=) in the whole (size=). The lines of one
 * conversion follow each other; session_world_check_sequence() checks it.
 * A paste is the conversions of one selection after one user action
 * (session_get_pastes()); it belongs to that action's gesture: a
 * reduction keeps it with the gesture and drops it without
 * (session_world_subset()), and a replay owns the selection with its
 * data before the gesture.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <errno.h>
#include <string.h>

/* A line's data, encoded, at most: the rest of the line (the selection,
 * target, type and numbers) takes at most some 500 bytes. */
#define CHUNK_ENCODED 3000
#define MAX_ATOM_NAME 200
#define MAX_DROP_TYPES 64

/* ---- names and paths ---- */

gboolean
session_selection_name_check (const char *name)
{
  static const char *const names[] = { "CLIPBOARD", "PRIMARY", "SECONDARY", "XdndSelection" };

  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (names); i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
session_atom_name_check (const char *name)
{
  gsize n = name != NULL ? strlen (name) : 0;

  if (n == 0 || n > MAX_ATOM_NAME)
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (*p <= ' ' || *p > '~' || *p == '"' || *p == '\\')
      return FALSE;
  return TRUE;
}

gboolean
session_sha256_check (const char *text)
{
  if (text == NULL || strlen (text) != 64)
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && !(*p >= 'a' && *p <= 'f'))
      return FALSE;
  return TRUE;
}

/* @path (absolute) is @dir or below it. */
static gboolean
below (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

gboolean
session_file_path_check (const char *path, char **why)
{
  /* The system's: the app's own files, never the user's data, and never
   * to be replaced in a replay's view. */
  static const char *const system[] = {
    "/usr", "/etc", "/proc", "/sys", "/dev", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
    "/libx32", "/boot", "/run", "/var/lib", "/var/cache", "/var/run", "/var/lock", "/snap",
    "/nix", "/gnu", "/tmp/.X11-unix", "/tmp/.ICE-unix", "/tmp/.XIM-unix", "/tmp/.font-unix",
  };
  const char *rest = path;
  g_autofree char *shown = NULL;

  if (path == NULL || strlen (path) > SESSION_MAX_PATH)
    goto bad;
  if (g_str_has_prefix (path, "~/"))
    rest = path + 1;
  else if (path[0] != '/')
    goto bad;
  /* Canonical: no empty, "." or ".." part, no "/" at the end. */
  for (const char *p = rest; *p != '\0';)
    {
      const char *part = p + 1;
      gsize n = strcspn (part, "/");

      if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && part[0] == '.' && part[1] == '.'))
        goto bad;
      p = part + n;
    }
  if (rest == path)
    for (gsize i = 0; i < G_N_ELEMENTS (system); i++)
      if (below (path, system[i])
          && !(strcmp (system[i], "/run") == 0 && below (path, "/run/user")))
        {
          shown = quote_terminal (path);
          if (why != NULL)
            *why = g_strdup_printf ("'%s' is in a system folder (%s): not a file the user "
                                    "gave the app", shown, system[i]);
          return FALSE;
        }
  return TRUE;

bad:
  shown = quote_terminal (path != NULL ? path : "");
  if (why != NULL)
    *why = g_strdup_printf ("'%s' is not a file's path (absolute, or ~/ under HOME; no . or "
                            ".. parts; at most %d bytes)", shown, SESSION_MAX_PATH);
  return FALSE;
}

char *
session_file_path_from (const char *path, const char *home)
{
  if (home != NULL && strcmp (home, "/") != 0 && below (path, home))
    return path[strlen (home)] == '\0' ? g_strdup ("~")
                                       : g_strconcat ("~", path + strlen (home), NULL);
  return g_strdup (path);
}

char *
session_file_path_at (const char *path, const char *home)
{
  if (g_str_has_prefix (path, "~/") && home != NULL)
    return g_build_filename (home, path + 2, NULL);
  return g_strdup (path);
}

GPtrArray *
session_get_files (const Session *session)
{
  GPtrArray *files = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind == SESSION_EVENT_FILE && g_hash_table_add (seen, ev->path))
        g_ptr_array_add (files, (gpointer) ev);
    }
  return files;
}

/* ---- parsing ---- */

static gboolean
parse_number (const char *text, guint64 max, guint64 *value)
{
  char *end = NULL;

  if (!g_ascii_isdigit (*text) || (text[0] == '0' && text[1] != '\0'))
    return FALSE;
  errno = 0;
  *value = g_ascii_strtoull (text, &end, 10);
  return errno == 0 && *end == '\0' && *value <= max;
}

static gboolean
fail (char **why, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (char **why, const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  *why = g_strdup_vprintf (format, ap);
  va_end (ap);
  return FALSE;
}

/* "A B C": each an atom's name, at most @max of them. */
static gboolean
check_atom_list (const char *list, guint max)
{
  g_auto (GStrv) names = g_strsplit (list, " ", -1);
  guint n = g_strv_length (names);

  if (n == 0 || n > max)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!session_atom_name_check (names[i]))
      return FALSE;
  return TRUE;
}

gboolean
session_world_parse_drop_field (SessionEvent *ev, const SessionField *f, char **why)
{
  if (!f->quoted)
    return fail (why, "field '%s' must be a quoted string", f->key);
  if (g_str_equal (f->key, "types"))
    {
      if (!check_atom_list (f->value, MAX_DROP_TYPES))
        return fail (why, "bad types (1 to %d atom names, one space between)", MAX_DROP_TYPES);
      ev->types = g_strdup (f->value);
    }
  else
    {
      if (!session_atom_name_check (f->value))
        return fail (why, "bad action (an atom's name)");
      ev->action = g_strdup (f->value);
    }
  return TRUE;
}

static gboolean
parse_file (SessionEvent *ev, GArray *fields, char **why)
{
  gboolean has_size = FALSE;

  for (guint i = 0; i < fields->len; i++)
    {
      SessionField *f = &g_array_index (fields, SessionField, i);

      if (g_str_equal (f->key, "path") && f->quoted)
        {
          if (!session_file_path_check (f->value, why))
            return FALSE;
          ev->path = g_strdup (f->value);
        }
      else if (g_str_equal (f->key, "size"))
        {
          if (!parse_number (f->value, (guint64) 1 << 53, &ev->size))
            return fail (why, "bad size '%s'", f->value);
          has_size = TRUE;
        }
      else if (g_str_equal (f->key, "sha256"))
        {
          if (!session_sha256_check (f->value))
            return fail (why, "bad sha256 (64 lowercase hex digits)");
          ev->sha256 = g_strdup (f->value);
        }
      else if (g_str_equal (f->key, "copied"))
        {
          if (!g_str_equal (f->value, "1"))
            return fail (why, "bad copied '%s' (1)", f->value);
          ev->copied = TRUE;
        }
      else if (g_str_equal (f->key, "path"))
        return fail (why, "field 'path' must be a quoted string");
      else
        {
          g_autofree char *word = quote_terminal (f->key);
          return fail (why, "unknown field '%s' for File", word);
        }
    }
  if (ev->path == NULL || !has_size || ev->sha256 == NULL)
    return fail (why, "File without %s", ev->path == NULL ? "path=" : !has_size ? "size="
                                                                                : "sha256=");
  return TRUE;
}

/* The bytes of base64 @text; FALSE if it is not base64. */
static gboolean
decode_base64 (const char *text, char **data, gsize *len)
{
  gsize n = strlen (text);

  if (n == 0 || n % 4 != 0)
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/'
        && !(*p == '=' && (p[1] == '\0' || (p[1] == '=' && p[2] == '\0'))))
      return FALSE;
  *data = (char *) g_base64_decode (text, len);
  /* One more byte, a NUL, as for text. */
  *data = g_realloc (*data, *len + 1);
  (*data)[*len] = '\0';
  return TRUE;
}

/* The fields of a Selection line, taken one by one. */
typedef struct
{
  gboolean has_size, has_offset, has_format, omitted;
  const char *text, *base64, *atoms;
} SelectionFields;

static gboolean
take_selection_field (SessionEvent *ev, const SessionField *f, SelectionFields *s, char **why)
{
  guint64 value;

  if (g_str_equal (f->key, "selection"))
    {
      if (!session_selection_name_check (f->value))
        return fail (why, "bad selection (CLIPBOARD, PRIMARY, SECONDARY or XdndSelection)");
      ev->selection = g_strdup (f->value);
    }
  else if (g_str_equal (f->key, "target") || g_str_equal (f->key, "type"))
    {
      if (!session_atom_name_check (f->value))
        return fail (why, "bad %s (an atom's name)", f->key);
      if (f->key[1] == 'a')
        ev->target = g_strdup (f->value);
      else
        ev->type = g_strdup (f->value);
    }
  else if (g_str_equal (f->key, "format"))
    {
      if (!parse_number (f->value, 32, &value) || (value != 8 && value != 16 && value != 32))
        return fail (why, "bad format '%s' (8, 16 or 32)", f->value);
      ev->format = (int) value;
      s->has_format = TRUE;
    }
  else if (g_str_equal (f->key, "size") || g_str_equal (f->key, "offset"))
    {
      /* (An omitted conversion may say a larger size: why it was omitted.) */
      if (!parse_number (f->value, (guint64) 1 << 53, &value)
          || (f->key[0] == 'o' && value > SESSION_MAX_SELECTION_BYTES))
        return fail (why, "bad %s '%s'", f->key, f->value);
      if (f->key[0] == 's')
        ev->size = value, s->has_size = TRUE;
      else
        ev->offset = value, s->has_offset = TRUE;
    }
  else if (g_str_equal (f->key, "text") && f->quoted)
    s->text = f->value;
  else if (g_str_equal (f->key, "atoms") && f->quoted)
    s->atoms = f->value;
  else if (g_str_equal (f->key, "base64") && !f->quoted)
    s->base64 = f->value;
  else if (g_str_equal (f->key, "omitted"))
    {
      if (!g_str_equal (f->value, "1"))
        return fail (why, "bad omitted '%s' (1)", f->value);
      s->omitted = TRUE;
    }
  else if (g_str_equal (f->key, "text") || g_str_equal (f->key, "atoms")
           || g_str_equal (f->key, "base64"))
    return fail (why, "field '%s' must be %s", f->key,
                 f->key[0] == 'b' ? "bare base64" : "a quoted string");
  else
    {
      g_autofree char *word = quote_terminal (f->key);
      return fail (why, "unknown field '%s' for Selection", word);
    }
  return TRUE;
}

static gboolean
parse_selection (SessionEvent *ev, GArray *fields, char **why)
{
  SelectionFields s = { 0 };
  guint n_data;

  for (guint i = 0; i < fields->len; i++)
    if (!take_selection_field (ev, &g_array_index (fields, SessionField, i), &s, why))
      return FALSE;
  if (ev->selection == NULL || ev->target == NULL)
    return fail (why, "Selection without %s", ev->selection == NULL ? "selection=" : "target=");
  n_data = (s.text != NULL) + (s.base64 != NULL) + (s.atoms != NULL);
  if (s.omitted)
    {
      /* Not recorded: what the recording saw of it, at most its size. */
      if (ev->type != NULL || s.has_format || s.has_offset || n_data > 0)
        return fail (why, "an omitted Selection has no type, format, offset or data");
      return TRUE;
    }
  if (ev->type == NULL)
    return fail (why, "Selection without type= (or omitted=1)");
  if (g_str_equal (ev->type, "None"))
    {
      /* The owner refused. */
      if (s.has_format || s.has_size || s.has_offset || n_data > 0)
        return fail (why, "a refused Selection (type None) has no format, size or data");
      return TRUE;
    }
  if (!s.has_format || n_data != 1)
    return fail (why, "Selection of type %s needs format= and one of text=, base64=, atoms=",
                 ev->type);
  if (s.atoms != NULL)
    {
      if (!g_str_equal (ev->type, "ATOM") || ev->format != 32 || s.has_size || s.has_offset)
        return fail (why, "atoms= is for type ATOM, format 32, without size or offset");
      if (!check_atom_list (s.atoms, 1024))
        return fail (why, "bad atoms (atom names, one space between)");
      ev->data = g_strdup (s.atoms);
      ev->data_len = strlen (s.atoms);
      return TRUE;
    }
  if (!s.has_size)
    return fail (why, "Selection without size=");
  if (ev->size > SESSION_MAX_SELECTION_BYTES)
    return fail (why, "size %" G_GUINT64_FORMAT " is more than a session holds of a "
                 "selection (%d)", ev->size, SESSION_MAX_SELECTION_BYTES);
  if (s.text != NULL)
    {
      ev->data = g_strdup (s.text);
      ev->data_len = strlen (s.text);
    }
  else if (!decode_base64 (s.base64, &ev->data, &ev->data_len))
    return fail (why, "bad base64");
  if (ev->offset + ev->data_len > ev->size)
    return fail (why, "its bytes end at %" G_GUINT64_FORMAT ", beyond size=%" G_GUINT64_FORMAT,
                 ev->offset + ev->data_len, ev->size);
  if (ev->data_len == 0 && ev->size > 0)
    return fail (why, "a Selection line with no bytes");
  if (ev->size % (guint64) (ev->format / 8) != 0 || ev->offset % (guint64) (ev->format / 8) != 0)
    return fail (why, "size and offset must be whole items of format %d", ev->format);
  return TRUE;
}

gboolean
session_world_parse_record (SessionEvent *ev, GArray *fields, char **why)
{
  if (ev->kind == SESSION_EVENT_FILE)
    return parse_file (ev, fields, why);
  return parse_selection (ev, fields, why);
}

/* A chunk of a conversion that more lines must complete. */
static gboolean
open_chunk (const SessionEvent *ev)
{
  return ev != NULL && ev->kind == SESSION_EVENT_SELECTION && ev->type != NULL
         && ev->data != NULL && !g_str_equal (ev->type, "ATOM")
         && ev->offset + ev->data_len < ev->size;
}

gboolean
session_world_check_sequence (const SessionEvent *prev, const SessionEvent *ev, char **why)
{
  gboolean continues = ev != NULL && ev->kind == SESSION_EVENT_SELECTION && ev->offset > 0;

  if (open_chunk (prev))
    {
      if (!continues || g_strcmp0 (ev->selection, prev->selection) != 0
          || g_strcmp0 (ev->target, prev->target) != 0 || g_strcmp0 (ev->type, prev->type) != 0
          || ev->format != prev->format || ev->size != prev->size
          || ev->offset != prev->offset + prev->data_len)
        return fail (why, "the Selection lines of %s %s end at %" G_GUINT64_FORMAT " of its %"
                     G_GUINT64_FORMAT " bytes", prev->selection, prev->target,
                     prev->offset + prev->data_len, prev->size);
      return TRUE;
    }
  if (continues)
    return fail (why, "a Selection line at offset %" G_GUINT64_FORMAT " without the lines "
                 "before it", ev->offset);
  return TRUE;
}

/* ---- lines of a conversion ---- */

/* The bytes one character (@len bytes at @data) takes in a quoted
 * string as the file has it: measured with the writer's own quoting, so
 * that whatever it escapes, a line stays within the limit. */
static gsize
quoted_len (const char *data, gsize len)
{
  g_autofree char *one = g_strndup (data, len);
  g_autoptr (GString) out = g_string_new (NULL);

  session_append_quoted (out, one);
  return out->len - 2;
}

static SessionEvent *
append_line (GArray *out, guint64 time_ms, const char *selection, const char *target,
             const char *type)
{
  SessionEvent ev = { .kind = SESSION_EVENT_SELECTION, .time_ms = time_ms, .window = -1 };

  ev.selection = g_strdup (selection);
  ev.target = g_strdup (target);
  ev.type = g_strdup (type);
  g_array_append_val (out, ev);
  return &g_array_index (out, SessionEvent, out->len - 1);
}

void
session_selection_to_events (GArray *out, guint64 time_ms, const char *selection,
                             const char *target, const char *type, int format,
                             const guint8 *data, gsize len)
{
  const char *bytes = (const char *) data;
  gboolean text;
  gsize offset = 0;
  SessionEvent *ev;

  if (type == NULL || g_str_equal (type, "None") || len > SESSION_MAX_SELECTION_BYTES)
    {
      ev = append_line (out, time_ms, selection, target,
                        len > SESSION_MAX_SELECTION_BYTES ? NULL : type);
      if (ev->type == NULL)
        ev->size = len;
      return;
    }
  if (g_str_equal (type, "ATOM"))
    {
      /* The names, as many as the line holds. */
      gsize n = MIN (len, (gsize) CHUNK_ENCODED);

      while (n < len && n > 0 && bytes[n] != ' ')
        n--;
      ev = append_line (out, time_ms, selection, target, type);
      ev->format = 32;
      ev->data = g_strndup (bytes, n);
      ev->data_len = n;
      return;
    }
  text = g_utf8_validate (bytes, (gssize) len, NULL) && memchr (bytes, '\0', len) == NULL;
  do
    {
      gsize n;

      if (text)
        {
          /* Whole characters, as many as fit escaped. */
          const char *p = bytes + offset, *end = bytes + len;
          gsize width = 2;

          while (p < end)
            {
              const char *next = g_utf8_next_char (p);
              gsize w = quoted_len (p, (gsize) (next - p));

              if (width + w > CHUNK_ENCODED)
                break;
              width += w;
              p = next;
            }
          n = (gsize) (p - (bytes + offset));
        }
      else
        n = MIN (len - offset, (gsize) CHUNK_ENCODED / 4 * 3);
      /* Whole items of the format. */
      n -= n % (gsize) (format / 8);
      if (n == 0 && len - offset > 0)
        n = MIN (len - offset, (gsize) (format / 8));
      ev = append_line (out, time_ms, selection, target, type);
      ev->format = format;
      ev->size = len;
      ev->offset = offset;
      ev->data = g_malloc (n + 1);
      memcpy (ev->data, bytes + offset, n);
      ev->data[n] = '\0';
      ev->data_len = n;
      offset += n;
    }
  while (offset < len);
}

/* ---- pastes ---- */

static void
conversion_free (SessionConversion *c)
{
  g_free (c->target);
  g_free (c->type);
  g_clear_pointer (&c->data, g_bytes_unref);
  g_free (c);
}

static void
paste_free (SessionPaste *paste)
{
  g_free (paste->selection);
  g_ptr_array_unref (paste->conversions);
  g_free (paste);
}

/* For each action, the first action of its gesture (an array of guint). */
static GArray *
gesture_starts (const Session *session, GArray **gesture_of)
{
  g_autoptr (GPtrArray) gestures = session_get_gestures (session);
  guint n = session_get_n_actions (session);
  GArray *starts = g_array_new (FALSE, TRUE, sizeof (guint));

  g_array_set_size (starts, n);
  if (gesture_of != NULL)
    {
      *gesture_of = g_array_new (FALSE, TRUE, sizeof (guint));
      g_array_set_size (*gesture_of, n);
    }
  for (guint g = 0; g < gestures->len; g++)
    {
      const SessionGesture *gesture = g_ptr_array_index (gestures, g);
      guint first = g_array_index (gesture->actions, guint, 0);

      for (guint k = 0; k < gesture->actions->len; k++)
        {
          guint a = g_array_index (gesture->actions, guint, k);
          g_array_index (starts, guint, a) = first;
          if (gesture_of != NULL)
            g_array_index (*gesture_of, guint, a) = g;
        }
    }
  return starts;
}

static gboolean
has_selections (const Session *session)
{
  for (guint i = 0; i < session_get_n_events (session); i++)
    if (session_get_event (session, i)->kind == SESSION_EVENT_SELECTION)
      return TRUE;
  return FALSE;
}

GPtrArray *
session_get_pastes (const Session *session)
{
  GPtrArray *pastes = g_ptr_array_new_with_free_func ((GDestroyNotify) paste_free);
  g_autoptr (GArray) starts = NULL;
  g_autoptr (GHashTable) open = NULL;   /* selection -> its paste since the last action */
  guint action = G_MAXUINT;
  SessionConversion *conversion = NULL;
  GByteArray *bytes = NULL;

  if (!has_selections (session))
    return pastes;
  starts = gesture_starts (session, NULL);
  open = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      SessionPaste *paste;

      if (session_event_is_action (ev))
        {
          action = action == G_MAXUINT ? 0 : action + 1;
          g_hash_table_remove_all (open);
          continue;
        }
      if (ev->kind != SESSION_EVENT_SELECTION)
        continue;
      paste = g_hash_table_lookup (open, ev->selection);
      if (paste == NULL)
        {
          paste = g_new0 (SessionPaste, 1);
          paste->selection = g_strdup (ev->selection);
          paste->after_action = action;
          paste->own_before = action == G_MAXUINT ? 0 : g_array_index (starts, guint, action);
          paste->first_event = i;
          paste->conversions = g_ptr_array_new_with_free_func ((GDestroyNotify) conversion_free);
          g_ptr_array_add (pastes, paste);
          g_hash_table_insert (open, paste->selection, paste);
        }
      paste->last_event = i;
      if (ev->offset == 0 || conversion == NULL)
        {
          if (bytes != NULL)
            g_byte_array_unref (bytes);
          conversion = g_new0 (SessionConversion, 1);
          conversion->target = g_strdup (ev->target);
          conversion->type = g_strdup (ev->type);
          conversion->format = ev->format;
          conversion->size = ev->size;
          g_ptr_array_add (paste->conversions, conversion);
          bytes = g_byte_array_new ();
        }
      if (ev->data != NULL)
        g_byte_array_append (bytes, (const guint8 *) ev->data, (guint) ev->data_len);
      /* The last line of the conversion (the parser checked the rest). */
      if (ev->type == NULL || g_str_equal (ev->type, "None") || g_str_equal (ev->type, "ATOM")
          || ev->offset + ev->data_len >= ev->size)
        {
          if (ev->type != NULL && !g_str_equal (ev->type, "None"))
            conversion->data = g_byte_array_free_to_bytes (bytes);
          else
            g_byte_array_unref (bytes);
          bytes = NULL;
          conversion = NULL;
        }
    }
  if (bytes != NULL)
    g_byte_array_unref (bytes);
  return pastes;
}

void
session_world_subset (const Session *session, const gboolean *kept_action, gboolean *keep_event)
{
  g_autoptr (GArray) gesture_of = NULL;
  g_autoptr (GArray) starts = NULL;
  g_autofree gboolean *gesture_kept = NULL;
  guint action = G_MAXUINT, n_actions;

  if (!has_selections (session))
    return;
  n_actions = session_get_n_actions (session);
  starts = gesture_starts (session, &gesture_of);
  gesture_kept = g_new0 (gboolean, n_actions + 1);
  for (guint a = 0; a < n_actions; a++)
    if (kept_action[a])
      gesture_kept[g_array_index (gesture_of, guint, a)] = TRUE;
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (session_event_is_action (ev))
        action = action == G_MAXUINT ? 0 : action + 1;
      else if (ev->kind == SESSION_EVENT_SELECTION)
        keep_event[i] = action == G_MAXUINT
                        || gesture_kept[g_array_index (gesture_of, guint, action)];
    }
}

/* The targets whose data people read, best first. */
static const char *const text_targets[] = {
  "UTF8_STRING", "text/plain;charset=utf-8", "text/plain;charset=UTF-8", "STRING", "TEXT",
  "text/plain", "text/uri-list", "text/x-moz-url", "text/html",
};

char *
session_paste_text (const SessionPaste *paste, guint max_chars)
{
  for (gsize t = 0; t < G_N_ELEMENTS (text_targets); t++)
    for (guint i = 0; i < paste->conversions->len; i++)
      {
        const SessionConversion *c = g_ptr_array_index (paste->conversions, i);
        g_autofree char *text = NULL;
        gsize len = 0;
        const char *data;

        if (c->data == NULL || strcmp (c->target, text_targets[t]) != 0 || c->format != 8)
          continue;
        data = g_bytes_get_data (c->data, &len);
        if (g_strcmp0 (c->type, "STRING") == 0)
          text = g_convert (data, (gssize) len, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
        if (text == NULL)
          text = g_utf8_make_valid (data, (gssize) len);
        if (max_chars > 0 && g_utf8_strlen (text, -1) > (glong) max_chars)
          {
            g_autofree char *cut = g_utf8_substring (text, 0, max_chars);
            return g_strconcat (cut, "...", NULL);
          }
        return g_steal_pointer (&text);
      }
  return NULL;
}

gboolean
session_paste_has_data (const SessionPaste *paste)
{
  g_autofree char *summary = NULL;

  for (guint i = 0; i < paste->conversions->len; i++)
    {
      const SessionConversion *c = g_ptr_array_index (paste->conversions, i);

      if (c->type == NULL || (c->data != NULL && !g_str_equal (c->target, "TARGETS")
                              && !g_str_equal (c->target, "TIMESTAMP")))
        return TRUE;
    }
  return FALSE;
}

char *
session_paste_summary (const SessionPaste *paste)
{
  for (guint i = 0; i < paste->conversions->len; i++)
    {
      const SessionConversion *c = g_ptr_array_index (paste->conversions, i);

      if (c->data != NULL && !g_str_equal (c->target, "TARGETS")
          && !g_str_equal (c->target, "TIMESTAMP"))
        return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes of %s", g_bytes_get_size (c->data),
                                c->target);
    }
  for (guint i = 0; i < paste->conversions->len; i++)
    if (((const SessionConversion *) g_ptr_array_index (paste->conversions, i))->type == NULL)
      return g_strdup ("data not recorded");
  return g_strdup ("nothing");
}
