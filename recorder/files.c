/* files.c — the files the app read (see files.h).
 *
 * Start reading at rec_files_start(): fanotify if it can be had, else a
 * timer that looks at /proc. Both hand each file they see, with a
 * descriptor open on it, to consider(), which decides whether it is the
 * user's input (the rules are in wanted()), reads it once for its
 * checksum (and its copy), and hands the record on.
 */
#define _GNU_SOURCE
#define G_LOG_DOMAIN "xreduce-recorder"

#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "output.h"
#include "proctree.h"

struct RecFiles
{
  char *session_path;        /* owned, absolute */
  char *copy_dir;            /* owned, absolute, or NULL */
  gboolean copy_dir_made;
  RecFilesFunc func;
  gpointer user_data;

  char *home, *cache_dir, *runtime_dir;  /* owned, or NULL */
  GHashTable *excluded;      /* real paths never listed (the program, its arguments) */
  GHashTable *seen;          /* paths considered already */
  GHashTable *in_tree;       /* pid -> 1 (in the app's tree) or 2 (not) */
  pid_t app;
  struct timespec started;

  int fan_fd;                /* fanotify, or -1 */
  guint fan_watch, timer;
  RecFilesStats stats;
};

RecFiles *
rec_files_new (const RecFilesOptions *options)
{
  RecFiles *files = g_new0 (RecFiles, 1);
  const char *runtime = g_getenv ("XDG_RUNTIME_DIR");

  files->session_path = g_canonicalize_filename (options->session_path, NULL);
  files->copy_dir = options->copy_dir != NULL ? g_canonicalize_filename (options->copy_dir, NULL)
                                              : NULL;
  files->func = options->func;
  files->user_data = options->user_data;
  files->home = g_strdup (g_get_home_dir ());
  files->cache_dir = g_strdup (g_get_user_cache_dir ());
  files->runtime_dir = runtime != NULL && g_path_is_absolute (runtime) ? g_strdup (runtime) : NULL;
  files->excluded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  files->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  files->in_tree = g_hash_table_new (NULL, NULL);
  files->fan_fd = -1;
  /* The program and whatever its command line names (the script an
   * interpreter runs, a document given): the command's, not what the user
   * gave the app while it ran; a replay runs the same command line. */
  for (const char *const *a = options->argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *found = a == options->argv && strchr (*a, '/') == NULL
                                 ? g_find_program_in_path (*a) : g_canonicalize_filename (*a, NULL);
      char *real = found != NULL ? realpath (found, NULL) : NULL;

      if (real != NULL)
        g_hash_table_add (files->excluded, real);
    }
  return files;
}

void
rec_files_free (RecFiles *files)
{
  if (files == NULL)
    return;
  rec_files_stop (files);
  g_free (files->session_path);
  g_free (files->copy_dir);
  g_free (files->home);
  g_free (files->cache_dir);
  g_free (files->runtime_dir);
  g_free (files->stats.copy_error);
  g_hash_table_unref (files->excluded);
  g_hash_table_unref (files->seen);
  g_hash_table_unref (files->in_tree);
  g_free (files);
}

void
rec_files_get_stats (RecFiles *files, RecFilesStats *stats)
{
  *stats = files->stats;
}

/* ---- which files ---- */

static gboolean
below (const char *path, const char *dir)
{
  gsize n = dir != NULL ? strlen (dir) : 0;

  return n > 1 && strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* A part of the path that names a secret: a key, a password store, a
 * cookie jar, an X or ICE authority, ssh's and gpg's folders. */
static gboolean
looks_secret (const char *path)
{
  static const char *const words[] = { "key", "token", "secret", "pass", "auth", "credential",
                                       "cookie", "login", "cert", "wallet", ".ssh", ".gnupg",
                                       ".pki", ".netrc", "private" };
  g_autofree char *lower = g_ascii_strdown (path, -1);

  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (lower, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Whether @path (absolute, the file open on @fd, @st) is the user's
 * input: FALSE for what files.h lists. */
static gboolean
wanted (RecFiles *files, const char *path, int fd, const struct stat *st)
{
  g_autofree char *shown = session_file_path_from (path, files->home);
  char magic[4] = { 0 };

  if (!S_ISREG (st->st_mode) || (guint64) st->st_size > REC_FILES_MAX_FILE)
    return FALSE;
  if (!session_file_path_check (shown, NULL))
    return FALSE;
  if (g_hash_table_contains (files->excluded, path) || strcmp (path, files->session_path) == 0
      || g_str_has_prefix (path, files->session_path)    /* its temporary twin */
      || below (path, files->copy_dir) || below (path, files->cache_dir)
      || below (path, files->runtime_dir) || below (path, "/run/user")
      || strstr (path, "/.cache/") != NULL    /* anyone's: Mesa's shader cache in the real HOME */
      || strstr (path, "/__pycache__/") != NULL || g_str_has_suffix (path, ".pyc"))
    return FALSE;
  /* Changed since the app started: its output, not its input. (In the
   * second it started it counts as input: file systems keep times
   * coarser than the clock, and a file made just before is the user's.) */
  if (st->st_mtim.tv_sec > files->started.tv_sec)
    return FALSE;
  if (looks_secret (path))
    {
      files->stats.n_secret++;
      return FALSE;
    }
  /* Programs and libraries: the app's, not the user's. */
  if (pread (fd, magic, sizeof magic, 0) == (ssize_t) sizeof magic
      && memcmp (magic, "\177ELF", 4) == 0)
    return FALSE;
  return TRUE;
}

/* ---- reading one ---- */

static gboolean
make_copy_dir (RecFiles *files, GError **error)
{
  if (files->copy_dir_made)
    return TRUE;
  if (g_mkdir (files->copy_dir, 0700) != 0 && errno != EEXIST)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot make %s: %s",
                   files->copy_dir, g_strerror (saved));
      return FALSE;
    }
  files->copy_dir_made = TRUE;
  return TRUE;
}

/* Reads @fd (a regular file of @size bytes) from its start: its sha256
 * into @sum, its bytes into *@copy when @copy is not NULL. */
static gboolean
read_file (int fd, guint64 size, GChecksum *sum, GByteArray **copy)
{
  guint8 buf[65536];
  guint64 done = 0;

  while (TRUE)
    {
      ssize_t n = pread (fd, buf, sizeof buf, (off_t) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      if (n == 0)
        break;
      g_checksum_update (sum, buf, n);
      if (copy != NULL)
        g_byte_array_append (*copy, buf, (guint) n);
      done += (guint64) n;
      if (done > REC_FILES_MAX_FILE)
        return FALSE;
    }
  return TRUE;
}

static void
consider (RecFiles *files, const char *path, int fd)
{
  g_autoptr (GChecksum) sum = NULL;
  g_autoptr (GByteArray) bytes = NULL;
  g_autofree char *shown = NULL;
  SessionEvent ev = { .kind = SESSION_EVENT_FILE, .window = -1 };
  struct stat st;
  gboolean copy;

  if (path[0] != '/' || g_hash_table_contains (files->seen, path))
    return;
  g_hash_table_add (files->seen, g_strdup (path));
  if (fstat (fd, &st) != 0 || !wanted (files, path, fd, &st))
    return;
  copy = files->copy_dir != NULL;
  if (copy && files->stats.bytes_copied + (guint64) st.st_size > REC_FILES_MAX_COPY)
    {
      files->stats.n_over_limit++;
      copy = FALSE;
    }
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  bytes = copy ? g_byte_array_sized_new ((guint) st.st_size) : NULL;
  if (!read_file (fd, (guint64) st.st_size, sum, copy ? &bytes : NULL))
    return;
  shown = session_file_path_from (path, files->home);
  ev.path = shown;
  ev.sha256 = (char *) g_checksum_get_string (sum);
  ev.size = copy ? bytes->len : (guint64) st.st_size;
  if (copy)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *to = g_build_filename (files->copy_dir, ev.sha256, NULL);

      /* The user's data: private, and complete or not there. */
      if (make_copy_dir (files, &error)
          && output_file_write (to, (const char *) bytes->data, (gssize) bytes->len,
                                OUTPUT_FILE_MODE, &error))
        {
          ev.copied = TRUE;
          files->stats.n_copied++;
          files->stats.bytes_copied += bytes->len;
        }
      else if (files->stats.copy_error == NULL)
        files->stats.copy_error = g_strdup (error->message);
    }
  files->stats.n_listed++;
  g_debug ("file %s (%" G_GUINT64_FORMAT " bytes)%s", path, ev.size, ev.copied ? ", copied" : "");
  files->func (&ev, files->user_data);
}

/* ---- seeing them: fanotify ---- */

static gboolean
in_app_tree (RecFiles *files, pid_t pid)
{
  gpointer known = g_hash_table_lookup (files->in_tree, GINT_TO_POINTER (pid));

  if (known == NULL)
    {
      /* fanotify reports every process's opens: each pid is asked once
       * (a new process has a new pid), the table forgotten now and then
       * (pids are reused). */
      if (g_hash_table_size (files->in_tree) > 4096)
        g_hash_table_remove_all (files->in_tree);
      known = GINT_TO_POINTER (proctree_is_in (files->app, pid) ? 1 : 2);
      g_hash_table_insert (files->in_tree, GINT_TO_POINTER (pid), known);
    }
  return GPOINTER_TO_INT (known) == 1;
}

static void
read_fanotify (RecFiles *files)
{
  char buf[16384] __attribute__ ((aligned (__alignof__ (struct fanotify_event_metadata))));

  for (;;)
    {
      ssize_t len = read (files->fan_fd, buf, sizeof buf);
      struct fanotify_event_metadata *meta = (struct fanotify_event_metadata *) buf;

      if (len <= 0)
        break;
      for (; FAN_EVENT_OK (meta, len); meta = FAN_EVENT_NEXT (meta, len))
        {
          if (meta->mask & FAN_Q_OVERFLOW)
            files->stats.every_open = FALSE;
          if (meta->fd < 0)
            continue;
          if (meta->pid != getpid () && files->app > 0 && in_app_tree (files, meta->pid))
            {
              g_autofree char *link = g_strdup_printf ("/proc/self/fd/%d", meta->fd);
              g_autofree char *path = g_file_read_link (link, NULL);

              if (path != NULL)
                consider (files, path, meta->fd);
            }
          close (meta->fd);
        }
    }
}

static gboolean
on_fanotify (int fd, GIOCondition condition, gpointer user_data)
{
  read_fanotify (user_data);
  return G_SOURCE_CONTINUE;
}

/* fanotify on every mount that holds files (not /proc, /sys, /dev):
 * FALSE where it is not allowed (not root). */
static gboolean
start_fanotify (RecFiles *files)
{
  g_autofree char *mounts = NULL;
  g_auto (GStrv) lines = NULL;
  guint marked = 0;

  files->fan_fd = fanotify_init (FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
                                 O_RDONLY | O_LARGEFILE | O_CLOEXEC | O_NOATIME);
  if (files->fan_fd < 0)
    files->fan_fd = fanotify_init (FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
                                   O_RDONLY | O_LARGEFILE | O_CLOEXEC);
  if (files->fan_fd < 0 || !g_file_get_contents ("/proc/self/mountinfo", &mounts, NULL, NULL))
    goto fail;
  lines = g_strsplit (mounts, "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    {
      g_auto (GStrv) f = g_strsplit (*l, " ", -1);
      guint n = g_strv_length (f), dash = 0;

      for (guint i = 6; i < n && dash == 0; i++)
        if (strcmp (f[i], "-") == 0)
          dash = i;
      if (n < 5 || dash == 0 || dash + 1 >= n)
        continue;
      /* Mount points are escaped (\040 for a space). */
      {
        g_autofree char *point = g_strcompress (f[4]);
        const char *type = f[dash + 1];

        if (below (point, "/proc") || below (point, "/sys") || below (point, "/dev")
            || strcmp (type, "proc") == 0 || strcmp (type, "sysfs") == 0
            || g_str_has_prefix (type, "cgroup") || strcmp (type, "devpts") == 0
            || strcmp (type, "devtmpfs") == 0 || strcmp (type, "mqueue") == 0)
          continue;
        if (fanotify_mark (files->fan_fd, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN, AT_FDCWD,
                           point) == 0)
          marked++;
      }
    }
  if (marked == 0)
    goto fail;
  files->fan_watch = g_unix_fd_add (files->fan_fd, G_IO_IN, on_fanotify, files);
  files->stats.every_open = TRUE;
  g_debug ("fanotify on %u mounts", marked);
  return TRUE;

fail:
  g_debug ("no fanotify (%s): the app's files are looked at every %d ms", g_strerror (errno),
           REC_FILES_LOOK_MS);
  if (files->fan_fd >= 0)
    close (files->fan_fd);
  files->fan_fd = -1;
  return FALSE;
}

/* ---- seeing them: looks at /proc ---- */

/* @pid and its descendants (through each thread's children list). */
static void
tree_pids (pid_t pid, GArray *pids, guint depth)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (GDir) dir = NULL;
  const char *tid;

  g_array_append_val (pids, pid);
  if (depth > 64 || (dir = g_dir_open (task, 0, NULL)) == NULL)
    return;
  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/children", task, tid);
      g_autofree char *children = NULL;
      g_auto (GStrv) each = NULL;

      if (!g_file_get_contents (path, &children, NULL, NULL))
        continue;
      each = g_strsplit (g_strstrip (children), " ", -1);
      for (char **c = each; *c != NULL; c++)
        if (**c != '\0')
          tree_pids ((pid_t) g_ascii_strtoll (*c, NULL, 10), pids, depth + 1);
    }
}

static void
look_at_proc (RecFiles *files)
{
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));

  if (files->app <= 0)
    return;
  tree_pids (files->app, pids, 0);
  for (guint i = 0; i < pids->len; i++)
    {
      g_autofree char *fds = g_strdup_printf ("/proc/%d/fd", (int) g_array_index (pids, pid_t, i));
      g_autoptr (GDir) dir = g_dir_open (fds, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *link = g_build_filename (fds, name, NULL);
          g_autofree char *path = g_file_read_link (link, NULL);
          int fd;

          if (path == NULL || path[0] != '/' || g_hash_table_contains (files->seen, path))
            continue;
          /* The same file, whatever became of its name since. */
          fd = open (link, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
          if (fd < 0)
            continue;
          consider (files, path, fd);
          close (fd);
        }
    }
}

static gboolean
on_look (gpointer user_data)
{
  look_at_proc (user_data);
  return G_SOURCE_CONTINUE;
}

void
rec_files_start (RecFiles *files, pid_t app_pid)
{
  files->app = app_pid;
  clock_gettime (CLOCK_REALTIME, &files->started);
  if (!start_fanotify (files))
    files->timer = g_timeout_add (REC_FILES_LOOK_MS, on_look, files);
}

void
rec_files_look (RecFiles *files, guint64 time_ms)
{
  if (files->fan_fd >= 0)
    read_fanotify (files);
  else
    look_at_proc (files);
}

void
rec_files_stop (RecFiles *files)
{
  if (files->fan_fd >= 0)
    read_fanotify (files);
  g_clear_handle_id (&files->fan_watch, g_source_remove);
  g_clear_handle_id (&files->timer, g_source_remove);
  if (files->fan_fd >= 0)
    close (files->fan_fd);
  files->fan_fd = -1;
}
