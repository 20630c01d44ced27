/* xtest-proc.c — an X11 test's processes and files: running the
 * project's programs, reading what they say, orphan checks, temporary
 * folders (xtest-proc.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "proc.h"
#include "proctree.h"
#include "xtest-proc.h"

const char *
env (const char *name)
{
  const char *value = g_getenv (name);

  if (value == NULL)
    g_error ("%s is not set: run this test with meson test", name);
  return value;
}

char *
data_path (const char *name)
{
  return g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "data", name, NULL);
}

char *
test_app_path (const char *name)
{
  return g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "apps", name, NULL);
}

int
test_run_sync_status (const char *const *argv, const char *const *envp, GSpawnFlags flags,
                      char **out, char **err)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *own_out = NULL, *own_err = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, (char **) envp, flags, NULL, NULL,
                               (flags & G_SPAWN_STDOUT_TO_DEV_NULL) ? NULL : &own_out,
                               (flags & G_SPAWN_STDERR_TO_DEV_NULL) ? NULL : &own_err,
                               &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s said:\n%s%s", argv[0], own_out != NULL ? own_out : "",
                  own_err != NULL ? own_err : "");
  if (out != NULL)
    *out = g_steal_pointer (&own_out);
  if (err != NULL)
    *err = g_steal_pointer (&own_err);
  return status;
}

int
test_run_sync (const char *const *argv, const char *const *envp, GSpawnFlags flags,
               char **out, char **err)
{
  int status = test_run_sync_status (argv, envp, flags, out, err);

  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

gboolean
test_run_on_own_disk (const char *dir, const char *script, const char *const *args,
                      const char *const *envp, int *exit_status, char **out, char **err)
{
  g_autofree char *path = g_build_filename (dir, "own-disk.sh", NULL);
  g_autofree char *disk = g_build_filename (dir, "disk", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_mkdir (disk, 0700), ==, 0);
  for (const char *const *a = (const char *const[]) { "unshare", "-rm", "sh", path, disk, NULL };
       *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  *exit_status = test_run_sync ((const char *const *) argv->pdata, envp, G_SPAWN_SEARCH_PATH,
                                out, err);
  g_rmdir (disk);
  g_unlink (path);
  if (*exit_status == 99)
    {
      g_test_skip ("no tmpfs in a mount namespace here (unshare -rm)");
      return FALSE;
    }
  return TRUE;
}

void
test_kill_child (GPid *pid)
{
  if (*pid > 0)
    {
      kill (*pid, SIGKILL);
      waitpid (*pid, NULL, 0);
    }
  *pid = 0;
}

void
test_kill_talking (GPid *pid, int *err_fd)
{
  test_kill_child (pid);
  if (*err_fd >= 0)
    close (*err_fd);
  *err_fd = -1;
}

void
test_become_subreaper (void)
{
  g_assert_cmpint (prctl (PR_SET_CHILD_SUBREAPER, 1), ==, 0);
}

gboolean
test_pid_alive (pid_t pid)
{
  return pid > 0 && !proc_is_gone (pid);
}

guint
test_orphans_alive (pid_t keep)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint alive = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL, *stat = NULL;
      pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);
      const char *p;
      char state;
      int ppid, pgrp, session, tty, tpgid;
      unsigned int flags = 0;

      if (pid <= 0 || pid == keep || pid == proc_keeper_get_pid ())
        continue;
      path = g_strdup_printf ("/proc/%s/stat", name);
      if (!g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      p = strrchr (stat, ')');
      if (p == NULL || sscanf (p + 1, " %c %d %d %d %d %d %u", &state, &ppid, &pgrp, &session,
                               &tty, &tpgid, &flags) < 2 || ppid != getpid ())
        continue;
      if (state == 'Z')
        waitpid (pid, NULL, WNOHANG);
      else if (flags & 0x4)
        {
          /* PF_EXITING: in its exit already, a zombie in a moment (the
           * pid-1 of a bwrap sandbox ends just after the bwrap that
           * waited for it, and comes to us, the subreaper): not one
           * that outlived its program. */
          g_test_message ("exiting: %s", stat);
        }
      else
        {
          g_test_message ("still running: %s", stat);
          alive++;
        }
    }
  return alive;
}

guint
test_orphans_gone (pid_t keep, int timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint alive;

  while ((alive = test_orphans_alive (keep)) > 0 && g_get_monotonic_time () < deadline)
    g_usleep (20000);
  return alive;
}

void
test_wait_idle (pid_t pid, int timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (guint quiet = 0; quiet < 2;)
    {
      ProcTreeSample sample;

      if (g_get_monotonic_time () > deadline)
        g_error ("process %d did not come to rest within %d ms", (int) pid, timeout_ms);
      g_usleep (20000);
      proctree_sample (pid, &sample);
      quiet = sample.n_active == 0 ? quiet + 1 : 0;
    }
}

gboolean
test_read_until (int fd, GString *said, const char *what, int timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (strstr (said->str, what) == NULL)
    {
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      char buf[512];
      ssize_t n;
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);

      if (left <= 0 || poll (&pfd, 1, left) <= 0)
        return FALSE;
      n = read (fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      g_string_append_len (said, buf, n);
    }
  return TRUE;
}

int
test_wait_said (GPid *pid, int fd, GString *said, int timeout_ms)
{
  int status = -1;

  test_read_until (fd, said, "\xff", timeout_ms);
  g_assert_cmpint (waitpid (*pid, &status, 0), ==, *pid);
  *pid = 0;
  g_test_message ("it said: %s", said->str);
  return status;
}

GPid
test_spawn_talking (const char *cwd, const char *const *argv, char **envp, int *err_fd)
{
  g_autoptr (GError) error = NULL;
  GPid pid = 0;

  g_assert_true (g_spawn_async_with_pipes (cwd, (char **) argv, envp,
                                           G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                           NULL, NULL, &pid, NULL, NULL, err_fd, &error));
  g_assert_no_error (error);
  return pid;
}

GPid
test_spawn_quiet (const char *cwd, const char *const *argv, char **envp, GSpawnFlags flags)
{
  g_autoptr (GError) error = NULL;
  GPid pid = 0;

  g_assert_true (g_spawn_async (cwd, (char **) argv, envp,
                                flags | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL
                                | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

void
test_wait_line (int fd, GString *said, const char *what, int timeout_ms)
{
  if (!test_read_until (fd, said, what, timeout_ms))
    g_error ("no \"%s\" within %d ms; it said: %s", what, timeout_ms, said->str);
}

char *
test_make_tmp (const char *template)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return dir;
}

void
test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

char *
test_write_file (const char *dir, const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}
