/* tempdir.c — temporary folders that go when their owner goes, however
 * it goes (see proc.h, ProcTempDir).
 *
 * Start reading at tempdir_guard(): the folder is made, then its cleaner
 * (a child that outlives us, keeper.c's proc_spawn()) waits for the end
 * of a pipe whose only write end is ours, and removes it.
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proc.h"

#include <errno.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

/* How long removing a directory may take (a browser profile). */
#define PROC_CLEAN_TIMEOUT_MS 30000

struct ProcTempDir
{
  char *path;
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

void
proc_tempdir_free (ProcTempDir *dir)
{
  if (dir == NULL)
    return;
  if (dir->pipe >= 0)
    close (dir->pipe);
  if (dir->cleaner != NULL && !proc_child_wait (dir->cleaner, PROC_CLEAN_TIMEOUT_MS))
    g_warning ("%s is still being removed", dir->path);
  g_clear_pointer (&dir->cleaner, proc_child_free);
  g_free (dir->path);
  g_free (dir);
}
