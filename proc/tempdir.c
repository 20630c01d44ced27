/* tempdir.c — temporary folders that go when their owner goes, however
 * it goes (see proc.h, ProcTempDir).
 *
 * Start reading at tempdir_guard(): the folder is made, then its cleaner
 * (a child that outlives us, keeper.c's proc_spawn()) waits for the end
 * of a pipe whose only write end is ours, and removes it.
 */
#define G_LOG_DOMAIN "xreduce-proc"
#define _GNU_SOURCE             /* nftw() */

#include "proc.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

/* How long removing a directory may take (a browser profile). */
#define PROC_CLEAN_TIMEOUT_MS 30000
/* Cleaning at once (clean_now): this many tries, this long apart while
 * the folder's processes die, before the cleaner is left the rest. */
#define PROC_CLEAN_NOW_ROUNDS 5
#define PROC_CLEAN_NOW_PAUSE_MS 5

struct ProcTempDir
{
  char *path;
  char *marker;              /* NAME=VALUE of the processes working in it, or NULL */
  ProcChild *cleaner;        /* sh: waits for EOF on its stdin, then rm -rf path */
  int pipe;                  /* the write end; closing it (or dying) starts the cleaning */
};

/* The cleaner's script: $1 the folder, $2 an environment entry
 * (NAME=VALUE, or empty) that marks the processes working in it. Once
 * its owner is done (its stdin ends), those processes are killed and
 * waited for, then the folder goes; a file one of them was still writing
 * (bash's history as its terminal closes) makes rm fail on the folder
 * it lands in: the whole is done again, a few seconds at most. */
static const char cleaner_script[] =
  "read -r _; n=0\n"
  "[ -e \"$1\" ] || exit 0\n"
  "while [ $n -lt 100 ]; do\n"
  "  n=$((n + 1))\n"
  "  if [ -n \"$2\" ]; then\n"
  "    left=$(grep -lzxF -- \"$2\" /proc/[0-9]*/environ 2>/dev/null | sed 's|^/proc/||; s|/environ$||')\n"
  "    if [ -n \"$left\" ]; then kill -9 $left 2>/dev/null; sleep 0.05; continue; fi\n"
  "  fi\n"
  "  rm -rf -- \"$1\" 2>/dev/null\n"
  "  [ -e \"$1\" ] || exit 0\n"
  "  sleep 0.05\n"
  "done\n"
  "exec rm -rf -- \"$1\"\n";

/* The cleaner for @path, a folder just made; @marker: see cleaner_script. */
static ProcTempDir *
tempdir_guard (char *path, const char *marker, GError **error)
{
  g_autoptr (ProcTempDir) dir = g_new0 (ProcTempDir, 1);
  ProcSpawnOptions spawn;
  int fds[2];

  dir->pipe = -1;
  dir->path = path;
  dir->marker = g_strdup (marker);
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    {
      g_rmdir (dir->path);
      return NULL;
    }
  /* The cleaner outlives us on purpose, in a process group of its own
   * (a Ctrl-C to ours does not stop it first). The path is an argument,
   * never part of the script. */
  {
    const char *argv[] = { "sh", "-c", cleaner_script, "xreduce-cleaner", dir->path,
                           marker != NULL ? marker : "", NULL };

    proc_spawn_options_init (&spawn);
    spawn.argv = argv;
    spawn.stdin_fd = fds[0];
    spawn.err = PROC_OUTPUT_INHERIT;
    spawn.outlive = TRUE;
    dir->cleaner = proc_spawn (&spawn, error);
  }
  close (fds[0]);
  if (dir->cleaner == NULL)
    {
      close (fds[1]);
      g_rmdir (dir->path);
      return NULL;
    }
  dir->pipe = fds[1];
  return g_steal_pointer (&dir);
}

ProcTempDir *
proc_tempdir_new (const char *tmpl, GError **error)
{
  char *path = g_dir_make_tmp (tmpl, error);

  return path != NULL ? tempdir_guard (path, NULL, error) : NULL;
}

ProcTempDir *
proc_tempdir_new_for_processes (const char *tmpl, const char *name, const char *suffix,
                                GError **error)
{
  char *path = g_dir_make_tmp (tmpl, error);
  g_autofree char *marker = NULL;

  if (path == NULL)
    return NULL;
  marker = g_strconcat (name, "=", path, suffix, NULL);
  return tempdir_guard (path, marker, error);
}

ProcTempDir *
proc_tempdir_new_at (const char *path_tmpl, GError **error)
{
  g_autofree char *path = g_strdup (path_tmpl);

  if (g_mkdtemp_full (path, 0700) == NULL)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot create the folder %s: %s", path_tmpl, g_strerror (saved));
      return NULL;
    }
  return tempdir_guard (g_steal_pointer (&path), NULL, error);
}

const char *
proc_tempdir_get_path (const ProcTempDir *dir)
{
  return dir->path;
}

/* Kills the processes whose environment holds @marker (an entry of
 * /proc/PID/environ, whole); TRUE if there were none. */
static gboolean
kill_marked (const char *marker)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  gsize marker_len = strlen (marker);
  gboolean none = TRUE;
  const char *name;

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL, *environ = NULL;
      gsize len;
      char *end;
      long pid = strtol (name, &end, 10);

      if (*end != '\0' || pid <= 0)
        continue;
      path = g_strdup_printf ("/proc/%ld/environ", pid);
      if (!g_file_get_contents (path, &environ, &len, NULL))
        continue;
      for (gsize at = 0; at < len; at += strnlen (environ + at, len - at) + 1)
        if (len - at > marker_len && memcmp (environ + at, marker, marker_len + 1) == 0)
          {
            kill ((pid_t) pid, SIGKILL);
            none = FALSE;
            break;
          }
    }
  return none;
}

static int
remove_entry (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  return remove (path) == 0 || errno == ENOENT ? 0 : -1;
}

/* What the cleaner does, done here first, at once, when its owner is
 * done with the folder: a shell, grep over /proc, rm and their sleeps
 * cost each replay tens of milliseconds that its owner waited for. What
 * this leaves (a process that will not die at once, a file it still
 * writes) the cleaner does, as it does after a SIGKILL of the owner. */
static void
clean_now (ProcTempDir *dir)
{
  for (guint round = 0; round < PROC_CLEAN_NOW_ROUNDS; round++)
    {
      if (dir->marker != NULL && !kill_marked (dir->marker))
        {
          g_usleep (PROC_CLEAN_NOW_PAUSE_MS * 1000);
          continue;
        }
      if (nftw (dir->path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) == 0
          || errno == ENOENT)
        return;
    }
}

void
proc_tempdir_free (ProcTempDir *dir)
{
  if (dir == NULL)
    return;
  clean_now (dir);
  if (dir->pipe >= 0)
    close (dir->pipe);
  if (dir->cleaner != NULL && !proc_child_wait (dir->cleaner, PROC_CLEAN_TIMEOUT_MS))
    g_warning ("%s is still being removed", dir->path);
  g_clear_pointer (&dir->cleaner, proc_child_free);
  g_free (dir->path);
  g_free (dir->marker);
  g_free (dir);
}
