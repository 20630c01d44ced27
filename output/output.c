/* output.c — private outputs: new files and folders under temporary names,
 * renamed into place (see output.h).
 */
#define G_LOG_DOMAIN "xreduce-output"
#define _GNU_SOURCE 1   /* nftw */

#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

static gboolean
set_errno_error (GError **error, int saved, const char *path, const char *what)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s: %s", path, what,
               g_strerror (saved));
  return FALSE;
}

int
output_file_create_temp (const char *path, mode_t mode, char **tmp_path, GError **error)
{
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  int fd;

  /* g_mkstemp_full opens with O_CREAT | O_EXCL: a name that exists, a
   * link included, is never opened, another name is tried. */
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC | O_NOFOLLOW, (int) mode);
  if (fd < 0)
    {
      set_errno_error (error, errno, path, "cannot create");
      return -1;
    }
  /* Whatever the umask left: exactly @mode. */
  if (fchmod (fd, mode) != 0)
    {
      int saved = errno;
      close (fd);
      g_unlink (tmp);
      set_errno_error (error, saved, path, "cannot create");
      return -1;
    }
  *tmp_path = g_steal_pointer (&tmp);
  return fd;
}

gboolean
output_file_rename (const char *tmp_path, const char *path, GError **error)
{
  if (rename (tmp_path, path) != 0)
    {
      int saved = errno;
      g_unlink (tmp_path);
      return set_errno_error (error, saved, path, "cannot write");
    }
  return TRUE;
}

int
output_write_all (int fd, const char *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno;
      data += n;
      len -= (gsize) n;
    }
  return 0;
}

gboolean
output_file_write (const char *path, const char *data, gssize len, mode_t mode,
                   GError **error)
{
  g_autofree char *tmp = NULL;
  gsize left = len < 0 ? strlen (data) : (gsize) len;
  int fd = output_file_create_temp (path, mode, &tmp, error);

  if (fd < 0)
    return FALSE;
  {
    int saved = output_write_all (fd, data, left);

    if (saved != 0)
      {
        close (fd);
        g_unlink (tmp);
        return set_errno_error (error, saved, path, "cannot write");
      }
  }
  /* Synced before the rename: a crash leaves the old file or the whole
   * new one, never an empty one. */
  {
    int saved = fsync (fd) != 0 && errno != EINVAL ? errno : 0;

    if (close (fd) != 0 && saved == 0)
      saved = errno;
    if (saved != 0)
      {
        g_unlink (tmp);
        return set_errno_error (error, saved, path, "cannot write");
      }
  }
  return output_file_rename (tmp, path, error);
}

/* The names in @path's manifest, or NULL if it has none. */
static GHashTable *
read_manifest (const char *path)
{
  g_autofree char *manifest = g_build_filename (path, OUTPUT_MANIFEST, NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *names;
  struct stat st;

  if (lstat (manifest, &st) != 0 || !S_ISREG (st.st_mode)
      || !g_file_get_contents (manifest, &text, NULL, NULL))
    return NULL;
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    if (**l != '\0')
      g_hash_table_add (names, g_strdup (*l));
  g_hash_table_add (names, g_strdup (OUTPUT_MANIFEST));
  return names;
}

gboolean
output_dir_check (const char *path, const char *marker, GError **error)
{
  g_autofree char *marker_path = g_build_filename (path, marker, NULL);
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GHashTable) written = NULL;
  struct stat st;

  if (lstat (path, &st) != 0)
    return errno == ENOENT || set_errno_error (error, errno, path, "cannot check");
  if (S_ISLNK (st.st_mode))
    return TRUE;
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   "%s exists and is not a folder: remove it or choose another path", path);
      return FALSE;
    }
  dir = g_dir_open (path, 0, NULL);
  if (dir != NULL && g_dir_read_name (dir) == NULL)
    return TRUE;
  if (lstat (marker_path, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   "%s is a folder with other things than a report in it (no %s): it would be "
                   "replaced; remove it or choose another path", path, marker);
      return FALSE;
    }
  /* A report written before: replaced whole, so it may hold only what its
   * writer put there (its manifest), not a file someone added since. */
  written = read_manifest (path);
  if (written == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   "%s has no list of the files its writer put there (%s; written by hand, or "
                   "by an older version?): it would be replaced; remove it or choose another "
                   "path", path, OUTPUT_MANIFEST);
      return FALSE;
    }
  g_dir_rewind (dir);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    if (!g_hash_table_contains (written, name))
      {
        g_autofree char *shown = g_build_filename (path, name, NULL);
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     "%s holds %s, which no report wrote: it would be deleted with the old "
                     "report; move it, or choose another path", path, shown);
        return FALSE;
      }
  return TRUE;
}

/* The names of the entries of the folder @fresh into its manifest. */
static gboolean
write_manifest (const char *fresh, GError **error)
{
  g_autofree char *manifest = g_build_filename (fresh, OUTPUT_MANIFEST, NULL);
  g_autoptr (GDir) dir = g_dir_open (fresh, 0, error);
  g_autoptr (GString) names = g_string_new (NULL);

  if (dir == NULL)
    return FALSE;
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    if (!g_str_equal (name, OUTPUT_MANIFEST) && strchr (name, '\n') == NULL)
      g_string_append_printf (names, "%s\n", name);
  return output_file_write (manifest, names->str, (gssize) names->len, OUTPUT_FILE_MODE, error);
}

static int
remove_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  if (remove (path) != 0 && errno != ENOENT)
    g_warning ("cannot remove %s: %s", path, g_strerror (errno));
  return 0;
}

void
output_remove_tree (const char *path)
{
  /* Depth first, links removed as links, never crossing into another
   * filesystem. */
  nftw (path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

gboolean
output_dir_install (const char *fresh, const char *path, GError **error)
{
  g_autofree char *old = NULL;
  struct stat st;

  if (!write_manifest (fresh, error))
    return FALSE;
  /* Nothing there, or an empty folder: replaced at once. */
  if (rename (fresh, path) == 0)
    return TRUE;
  if (lstat (path, &st) != 0)
    return set_errno_error (error, errno, path, "cannot write the folder");
  if (!S_ISDIR (st.st_mode))
    {
      /* A link (or a file): the link goes, not what it points to. */
      if (unlink (path) != 0)
        return set_errno_error (error, errno, path, "cannot replace");
    }
  else
    {
      /* A folder written before: moved aside onto a fresh empty name. */
      old = g_strconcat (path, ".old-XXXXXX", NULL);
      if (g_mkdtemp_full (old, OUTPUT_DIR_MODE) == NULL || rename (path, old) != 0)
        {
          int saved = errno;
          g_rmdir (old);
          return set_errno_error (error, saved, path, "cannot replace");
        }
    }
  if (rename (fresh, path) != 0)
    {
      int saved = errno;
      if (old != NULL)
        rename (old, path);
      return set_errno_error (error, saved, path, "cannot write the folder");
    }
  if (old != NULL)
    output_remove_tree (old);
  return TRUE;
}

char *
output_relative_path (const char *from_dir, const char *path)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *dir = g_canonicalize_filename (from_dir, cwd);
  g_autofree char *target = g_canonicalize_filename (path, cwd);
  g_auto (GStrv) a = g_strsplit (dir, "/", -1);
  g_auto (GStrv) b = g_strsplit (target, "/", -1);
  g_autoptr (GString) out = g_string_new (NULL);
  guint common = 0;

  while (a[common] != NULL && b[common] != NULL && g_str_equal (a[common], b[common]))
    common++;
  for (guint i = common; a[i] != NULL; i++)
    if (*a[i] != '\0')
      g_string_append (out, "../");
  for (guint i = common; b[i] != NULL; i++)
    g_string_append_printf (out, "%s%s", b[i], b[i + 1] != NULL ? "/" : "");
  if (out->len == 0)
    g_string_append_c (out, '.');
  return g_string_free (g_steal_pointer (&out), FALSE);
}
