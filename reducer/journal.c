/* journal.c — the resume journal of a reduction (see journal.h).
 *
 * The format: a first line "xreduce-journal 1 KEY", then one line per
 * candidate, "F 0-2,5,9" (its outcome, F fail, P pass, U unresolved, and
 * its action numbers as ranges). Lines that do not read so are ignored: a
 * last line cut by a kill, or a file edited by hand.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#define JOURNAL_MAGIC "xreduce-journal 1 "

struct Journal
{
  char *path;
  int fd;                    /* appended to, or -1 after a write failed */
  GHashTable *outcomes;      /* "0-2,5" -> GINT_TO_POINTER (DdOutcome + 1) */
  guint n_loaded;
  gboolean removed;          /* journal_remove() was called */
};

static char *
candidate_key (const guint *elems, guint n)
{
  return dd_elems_to_ranges (elems, n, 0, "-");
}

static gboolean
valid_candidate_key (const char *key)
{
  if (g_str_equal (key, "-"))
    return TRUE;
  for (const char *p = key; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && *p != ',' && *p != '-')
      return FALSE;
  return *key != '\0';
}

static void
load (Journal *journal, const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  /* The last piece has no newline: written in part, or empty. */
  for (guint i = 1; lines[i] != NULL && lines[i + 1] != NULL; i++)
    {
      const char *line = lines[i];
      DdOutcome outcome;

      if (strlen (line) < 3 || line[1] != ' ' || !valid_candidate_key (line + 2))
        continue;
      switch (line[0])
        {
        case 'F': outcome = DD_FAIL; break;
        case 'P': outcome = DD_PASS; break;
        case 'U': outcome = DD_UNRESOLVED; break;
        default: continue;
        }
      if (!g_hash_table_contains (journal->outcomes, line + 2))
        journal->n_loaded++;
      g_hash_table_insert (journal->outcomes, g_strdup (line + 2),
                           GINT_TO_POINTER (outcome + 1));
    }
}

Journal *
journal_open (const char *path, const char *key, GError **error)
{
  g_autoptr (Journal) journal = g_new0 (Journal, 1);
  g_autofree char *header = g_strconcat (JOURNAL_MAGIC, key, "\n", NULL);
  g_autofree char *text = NULL;
  int fd;

  journal->path = g_strdup (path);
  journal->fd = -1;
  journal->outcomes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Ours only if a regular file we can read whole (at most 64 MiB). */
  fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd >= 0)
    {
      struct stat st;
      g_autoptr (GMappedFile) mapped = NULL;

      if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && st.st_uid == getuid ()
          && st.st_size < 64 * 1024 * 1024
          && (mapped = g_mapped_file_new_from_fd (fd, FALSE, NULL)) != NULL)
        text = g_strndup (g_mapped_file_get_contents (mapped),
                          g_mapped_file_get_length (mapped));
      close (fd);
    }
  if (text != NULL && g_str_has_prefix (text, header))
    {
      load (journal, text);
      journal->fd = open (path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    }
  if (journal->fd < 0)
    {
      /* Afresh: a new file in place of whatever was there. */
      g_hash_table_remove_all (journal->outcomes);
      journal->n_loaded = 0;
      if (g_unlink (path) != 0 && errno != ENOENT)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "cannot replace %s: %s", path, g_strerror (saved));
          return NULL;
        }
      journal->fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW
                                | O_CLOEXEC, 0600);
      if (journal->fd < 0 || write (journal->fd, header, strlen (header))
                               != (ssize_t) strlen (header))
        {
          int saved = errno != 0 ? errno : ENOSPC;

          /* (A full disk makes the file, not its header: no empty
           * journal is left beside the output.) */
          if (journal->fd >= 0)
            {
              close (journal->fd);
              journal->fd = -1;
              g_unlink (path);
            }
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "cannot write %s: %s", path, g_strerror (saved));
          return NULL;
        }
    }
  return g_steal_pointer (&journal);
}

void
journal_free (Journal *journal)
{
  if (journal == NULL)
    return;
  if (journal->fd >= 0)
    close (journal->fd);
  g_hash_table_unref (journal->outcomes);
  g_free (journal->path);
  g_free (journal);
}

DdOutcome
journal_lookup (Journal *journal, const guint *elems, guint n)
{
  g_autofree char *key = candidate_key (elems, n);
  gpointer value = g_hash_table_lookup (journal->outcomes, key);

  return value != NULL ? (DdOutcome) (GPOINTER_TO_INT (value) - 1) : DD_CANCELLED;
}

void
journal_record (Journal *journal, const guint *elems, guint n, DdOutcome outcome)
{
  g_autofree char *key = candidate_key (elems, n);
  g_autofree char *line = NULL;
  char letter;

  switch (outcome)
    {
    case DD_FAIL: letter = 'F'; break;
    case DD_PASS: letter = 'P'; break;
    case DD_UNRESOLVED: letter = 'U'; break;
    case DD_CANCELLED:
    default:
      return;
    }
  if (g_hash_table_contains (journal->outcomes, key))
    return;
  line = g_strdup_printf ("%c %s\n", letter, key);
  g_hash_table_insert (journal->outcomes, g_steal_pointer (&key),
                       GINT_TO_POINTER (outcome + 1));
  /* One write a line (O_APPEND): a kill leaves at most a cut last line. */
  if (journal->fd >= 0 && write (journal->fd, line, strlen (line)) != (ssize_t) strlen (line))
    {
      g_warning ("cannot write the journal %s: %s; an interruption now cannot be resumed",
                 journal->path, g_strerror (errno));
      close (journal->fd);
      journal->fd = -1;
    }
}

guint
journal_get_n_loaded (const Journal *journal)
{
  return journal->n_loaded;
}

const char *
journal_get_path (const Journal *journal)
{
  return journal->path;
}

gboolean
journal_remove (Journal *journal)
{
  if (journal->fd >= 0)
    close (journal->fd);
  journal->fd = -1;
  if (journal->removed)
    return FALSE;
  journal->removed = TRUE;
  return g_unlink (journal->path) == 0;
}

char *
journal_make_key (const char *const *parts, gsize n_parts, const gsize *lengths)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  for (gsize i = 0; i < n_parts; i++)
    {
      guint64 len = lengths != NULL ? lengths[i] : strlen (parts[i]);
      g_checksum_update (sum, (const guchar *) &len, sizeof len);
      g_checksum_update (sum, (const guchar *) parts[i], (gssize) len);
    }
  return g_strdup (g_checksum_get_string (sum));
}
