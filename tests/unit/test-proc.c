/* test-proc.c — proc/: children, their groups and deaths, X-free helpers,
 * and the sandbox (a fresh HOME and a private session bus). No display.
 *
 * The "owner dies" cases need a process that starts children through
 * proc/ and then dies by SIGKILL: this test program itself, run again as
 * `test-proc --owner spawn|sandbox` (see owner_main). It prints what it
 * started on stdout, one line, then kills itself. The test synchronises on
 * that line, on the owner's end (waitpid), and on /proc: a process is
 * gone when its /proc entry says so; only the last step polls, bounded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <gio/gio.h>
#include <glib.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "proc.h"
#include "interrupt.h"
#include "sandbox.h"
#include "xserver.h"
#include "xtest-proc.h"

/* How long a killed process may take to be gone. */
#define GONE_MS 10000

/* Polls (bounded) until @pid is gone and @path (or NULL) no longer exists. */
static gboolean
wait_gone (pid_t pid, const char *path)
{
  gint64 deadline = g_get_monotonic_time () + GONE_MS * 1000;

  while (g_get_monotonic_time () < deadline)
    {
      if (!test_pid_alive (pid) && (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS)))
        return TRUE;
      g_usleep (20 * 1000);
    }
  return FALSE;
}

static void
on_exit_quit (ProcChild *child, int status, gpointer data)
{
  *(gboolean *) data = TRUE;
}

static ProcChild *
spawn_sh (const char *script, ProcExitFunc on_exit, gpointer data)
{
  const char *argv[] = { "sh", "-c", script, NULL };
  g_autoptr (GError) error = NULL;
  ProcSpawnOptions spawn;
  ProcChild *child;

  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.out = PROC_OUTPUT_CAPTURE;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.on_exit = on_exit;
  spawn.user_data = data;
  child = proc_spawn (&spawn, &error);
  g_assert_no_error (error);
  g_assert_nonnull (child);
  return child;
}

/* The exit callback runs from the main loop with the status and all that
 * the child wrote. */
static void
test_capture (void)
{
  gboolean exited = FALSE;
  g_autoptr (ProcChild) child = spawn_sh ("echo out; echo err >&2; exit 3", on_exit_quit, &exited);
  gsize len = 0;
  const char *text;

  while (!exited)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (proc_child_has_exited (child));
  g_assert_true (WIFEXITED (proc_child_get_wait_status (child)));
  g_assert_cmpint (WEXITSTATUS (proc_child_get_wait_status (child)), ==, 3);
  text = proc_child_get_stdout (child, &len);
  g_assert_cmpmem (text, len, "out\n", 4);
  text = proc_child_get_stderr (child, &len);
  g_assert_cmpmem (text, len, "err\n", 4);
}

/* A missing program is NOT_FOUND, not a child that exits 127. */
static void
test_not_found (void)
{
  const char *argv[] = { "/nonexistent/program", NULL };
  g_autoptr (GError) error = NULL;
  ProcSpawnOptions spawn;

  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  g_assert_null (proc_spawn (&spawn, &error));
  g_assert_error (error, PROC_ERROR, PROC_ERROR_NOT_FOUND);
}

/* Killing a child takes what it started along (its process group), even
 * a grandchild that ignores SIGTERM. */
static void
test_group_kill (void)
{
  g_autoptr (ProcChild) child =
    spawn_sh ("sh -c 'trap \"\" TERM; echo $$; exec sleep 100' & wait", NULL, NULL);
  g_autofree char *line = NULL;
  gsize len = 0;
  pid_t grandchild;

  /* Its first line is the grandchild's pid. */
  for (;;)
    {
      const char *out = proc_child_get_stdout (child, &len);

      line = g_strndup (out, len);
      if (strchr (line, '\n') != NULL)
        break;
      g_clear_pointer (&line, g_free);
      g_main_context_iteration (NULL, TRUE);
    }
  grandchild = (pid_t) g_ascii_strtoll (line, NULL, 10);
  g_assert_true (test_pid_alive (grandchild));
  proc_child_kill (child, 100);
  g_assert_true (proc_child_has_exited (child));
  g_assert_true (wait_gone (grandchild, NULL));
}

/* no_core_dump: RLIMIT_CORE 0 in the child, and in what it runs. */
static void
test_no_core_dump (void)
{
  for (int no_core = 0; no_core < 2; no_core++)
    {
      const char *argv[] = { "sh", "-c", "sh -c 'ulimit -c'", NULL };
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcChild) child = NULL;
      g_autofree char *out = NULL;
      struct rlimit ours;
      ProcSpawnOptions spawn;
      const char *text;
      gsize len;

      proc_spawn_options_init (&spawn);
      spawn.argv = argv;
      spawn.out = PROC_OUTPUT_CAPTURE;
      spawn.no_core_dump = no_core;
      child = proc_spawn (&spawn, &error);
      g_assert_no_error (error);
      g_assert_true (proc_child_wait (child, GONE_MS));
      proc_child_drain (child);
      text = proc_child_get_stdout (child, &len);
      out = g_strndup (text, len);
      g_assert_cmpint (getrlimit (RLIMIT_CORE, &ours), ==, 0);
      if (no_core)
        g_assert_cmpstr (out, ==, "0\n");
      else if (ours.rlim_cur == 0)
        g_assert_cmpstr (out, ==, "0\n");
      else if (ours.rlim_cur == RLIM_INFINITY)
        g_assert_cmpstr (out, ==, "unlimited\n");
      else
        g_assert_cmpstr (out, !=, "0\n");   /* (in the shell's blocks) */
    }
}

/* Reads a child's first line of stdout: a pid it says. */
static pid_t
read_pid (ProcChild *child)
{
  g_autofree char *line = NULL;
  gsize len = 0;

  for (;;)
    {
      const char *out = proc_child_get_stdout (child, &len);

      line = g_strndup (out, len);
      if (strchr (line, '\n') != NULL)
        return (pid_t) g_ascii_strtoll (line, NULL, 10);
      g_clear_pointer (&line, g_free);
      g_main_context_iteration (NULL, TRUE);
    }
}

/* What a child started in a session of its own, deaf to SIGHUP and
 * SIGTERM, outlives the kill of the child's group, comes to us, and is
 * ended by proc_end_orphans(); a child of ours that still runs is not
 * an orphan. In a subprocess: a subreaper stays one. */
static void
test_orphans (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (ProcChild) ours = spawn_sh ("exec sleep 100", NULL, NULL);
      g_autoptr (ProcChild) child =
        spawn_sh ("setsid sh -c 'trap \"\" HUP TERM; echo $$; exec sleep 100' & wait",
                  NULL, NULL);
      pid_t escaped = read_pid (child);

      g_assert_true (proc_adopt_orphans (NULL));
      g_assert_cmpuint (proc_end_orphans (100), ==, 0);
      proc_child_kill (child, 100);
      g_assert_true (test_pid_alive (escaped));
      g_assert_cmpuint (proc_end_orphans (100), ==, 1);
      g_assert_false (test_pid_alive (escaped));
      g_assert_true (test_pid_alive (proc_child_get_pid (ours)));
      g_assert_cmpuint (proc_end_orphans (100), ==, 0);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_read_line (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  int fds[2];

  g_assert_true (g_unix_open_pipe (fds, FD_CLOEXEC, NULL));
  g_assert_cmpint (write (fds[1], "42\nmore", 7), ==, 7);
  line = proc_read_line (fds[0], 1000, 32, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "42");
  g_clear_pointer (&line, g_free);

  /* Nothing more before the deadline. */
  line = proc_read_line (fds[0], 50, 32, &error);
  g_assert_error (error, PROC_ERROR, PROC_ERROR_TIMED_OUT);
  g_clear_error (&error);

  /* EOF before a newline: the writer died. */
  close (fds[1]);
  line = proc_read_line (fds[0], 1000, 32, &error);
  g_assert_null (line);
  g_assert_error (error, PROC_ERROR, PROC_ERROR_FAILED);
  close (fds[0]);
}

static void
test_run (void)
{
  const char *ok[] = { "true", NULL };
  const char *fails[] = { "sh", "-c", "echo 'it broke' >&2; exit 2", NULL };
  g_autoptr (GError) error = NULL;

  g_assert_true (proc_run (ok, 5000, &error));
  g_assert_no_error (error);
  g_assert_false (proc_run (fails, 5000, &error));
  g_assert_error (error, PROC_ERROR, PROC_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "exited with status 2: it broke"));
}

/* ---- the owner dies ---- */

/* Runs this program as `--owner WHAT`: returns its first line of output
 * (what it started) once it has died of SIGKILL. */
static char *
run_owner (const char *what)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  const char *argv[] = { self, "--owner", what, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
  return g_strstrip (g_steal_pointer (&out));
}

static int
owner_main (const char *what)
{
  g_autoptr (GError) error = NULL;

  if (g_str_equal (what, "spawn"))
    {
      const char *argv[] = { "sleep", "100", NULL };
      ProcSpawnOptions spawn;
      ProcChild *child;

      proc_spawn_options_init (&spawn);
      spawn.argv = argv;
      child = proc_spawn (&spawn, &error);
      if (child == NULL)
        return 1;
      g_print ("%d\n", (int) proc_child_get_pid (child));
    }
  else if (g_str_equal (what, "group"))
    {
      /* A child that starts a child of its own (a --test oracle's
       * script): the grandchild's pid on stdout. */
      const char *argv[] = { "sh", "-c", "sleep 100 >/dev/null 2>&1 & echo $!; wait", NULL };
      ProcSpawnOptions spawn;
      g_autofree char *line = NULL;
      int fds[2];

      if (!g_unix_open_pipe (fds, FD_CLOEXEC, &error))
        return 1;
      proc_spawn_options_init (&spawn);
      spawn.argv = argv;
      spawn.out = PROC_OUTPUT_FD;
      spawn.output_fd = fds[1];
      if (proc_spawn (&spawn, &error) == NULL)
        return 1;
      close (fds[1]);
      line = proc_read_line (fds[0], 5000, 64, &error);
      if (line == NULL)
        return 1;
      g_print ("%s\n", line);
    }
  else
    {
      SandboxOptions options = { 0 };
      Sandbox *sandbox = sandbox_new (&options, &error);
      g_auto (GStrv) envp = NULL;

      if (sandbox == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      envp = sandbox_apply (sandbox, g_new0 (char *, 1));
      g_print ("%s\n", g_environ_getenv (envp, "HOME"));
    }
  fflush (stdout);
  kill (getpid (), SIGKILL);
  return 1;
}

/* A child dies with its owner, even a SIGKILLed one. */
static void
test_owner_killed (void)
{
  g_autofree char *line = run_owner ("spawn");
  pid_t pid = (pid_t) g_ascii_strtoll (line, NULL, 10);

  g_assert_cmpint (pid, >, 0);
  g_assert_true (wait_gone (pid, NULL));
}

/* What a child started dies with the child's owner too (PDEATHSIG alone
 * reaches the child only): the keeper kills the group. */
static void
test_owner_killed_group (void)
{
  g_autofree char *line = run_owner ("group");
  pid_t pid = (pid_t) g_ascii_strtoll (line, NULL, 10);

  g_assert_cmpint (pid, >, 0);
  g_assert_true (wait_gone (pid, NULL));
}

/* The sandbox's directory goes when its owner is SIGKILLed, and its bus
 * with it. */
static void
test_sandbox_owner_killed (void)
{
  g_autofree char *home = run_owner ("sandbox");
  g_autofree char *root = g_path_get_dirname (home);

  g_assert_true (g_str_has_suffix (home, "/home"));
  g_assert_true (wait_gone (0, root));
}

/* ---- the sandbox ---- */

static void
assert_dir_mode (const char *path, mode_t mode)
{
  struct stat st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_true (S_ISDIR (st.st_mode));
  g_assert_cmpint (st.st_mode & 0777, ==, mode);
}

static void
test_sandbox (void)
{
  SandboxOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  Sandbox *sandbox = sandbox_new (&options, &error);
  g_auto (GStrv) envp = NULL;
  g_autofree char *root = NULL;
  g_autoptr (GDBusConnection) bus = NULL;
  g_autoptr (GVariant) reply = NULL;
  g_autofree char *lock = NULL;
  const char *home;

  g_assert_no_error (error);
  envp = sandbox_apply (sandbox, g_environ_setenv (NULL, "HOME", "/root-of-the-user", TRUE));
  home = g_environ_getenv (envp, "HOME");
  g_assert_cmpstr (home, ==, sandbox_get_home (sandbox));
  root = g_path_get_dirname (home);
  assert_dir_mode (root, 0700);
  assert_dir_mode (g_environ_getenv (envp, "XDG_RUNTIME_DIR"), 0700);
  for (const char *const *v = (const char *const[]) { "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                                                      "XDG_DATA_HOME", "XDG_STATE_HOME",
                                                      "TMPDIR", NULL }; *v != NULL; v++)
    {
      const char *dir = g_environ_getenv (envp, *v);
      g_assert_nonnull (dir);
      g_assert_true (g_str_has_prefix (dir, root));
      g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
    }
  g_assert_cmpstr (g_environ_getenv (envp, "NO_AT_BRIDGE"), ==, "1");

  /* The private bus answers, at the address given. */
  bus = g_dbus_connection_new_for_address_sync (g_environ_getenv (envp, "DBUS_SESSION_BUS_ADDRESS"),
                                                G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                                                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                NULL, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "GetId", NULL, NULL,
                                       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_close_sync (bus, NULL, NULL);

  /* What the app left in it goes too. */
  lock = g_build_filename (g_environ_getenv (envp, "XDG_CONFIG_HOME"), "lock", NULL);
  g_assert_true (g_file_set_contents (lock, "1", -1, NULL));
  sandbox_free (sandbox);
  g_assert_false (g_file_test (root, G_FILE_TEST_EXISTS));
}

static void
test_sandbox_seed (void)
{
  g_autofree char *seed = g_dir_make_tmp ("test-proc-seed-XXXXXX", NULL);
  g_autofree char *sub = g_build_filename (seed, "profile", NULL);
  g_autofree char *file = g_build_filename (sub, "prefs.js", NULL);
  g_autofree char *copied = NULL, *text = NULL;
  SandboxOptions options = { .home_seed = seed };
  g_autoptr (GError) error = NULL;
  Sandbox *sandbox;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "user_pref(1);", -1, NULL));
  sandbox = sandbox_new (&options, &error);
  g_assert_no_error (error);
  copied = g_build_filename (sandbox_get_home (sandbox), "profile", "prefs.js", NULL);
  g_assert_true (g_file_get_contents (copied, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "user_pref(1);");
  sandbox_free (sandbox);
  /* The seed itself is untouched. */
  g_assert_true (g_file_test (file, G_FILE_TEST_EXISTS));
  g_unlink (file);
  g_rmdir (sub);
  g_rmdir (seed);
}

/* An isolated app reaches a local display through its socket file only
 * (no network: not the abstract socket): a display whose file is not
 * there is said, as the app's "cannot open display" does not say why;
 * with the network, nothing is. */
static void
test_sandbox_missing_socket (void)
{
  const char *const argv[] = { "/bin/true", NULL };

  for (int share_net = 0; share_net < 2; share_net++)
    {
      SandboxOptions options = { .share_net = share_net };
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) command = NULL;
      g_autofree char *notes = NULL;
      Sandbox *sandbox = sandbox_new (&options, &error);

      g_assert_no_error (error);
      if (!sandbox_is_isolated (sandbox))
        {
          sandbox_free (sandbox);
          g_test_skip ("bubblewrap cannot isolate here");
          return;
        }
      /* No server has that number's file (the largest a display may be). */
      command = sandbox_command (sandbox, argv, ":2147483647", &error);
      g_assert_no_error (error);
      notes = sandbox_take_notes (sandbox);
      if (share_net)
        g_assert_null (notes);
      else
        g_assert_nonnull (strstr (notes, "the socket file of display :2147483647 "
                                         "(/tmp/.X11-unix/X2147483647) is not there"));
      sandbox_free (sandbox);
    }
}

/* A display number whose lock and socket file no one holds. */
static guint
unused_display (void)
{
  for (guint display = 5000 + (guint) g_random_int_range (0, 1000);; display++)
    {
      g_autofree char *lock = g_strdup_printf ("/tmp/.X%u-lock", display);
      g_autofree char *socket = g_strdup_printf ("/tmp/.X11-unix/X%u", display);

      if (!g_file_test (lock, G_FILE_TEST_EXISTS) && !g_file_test (socket, G_FILE_TEST_EXISTS))
        return display;
    }
}

/* A socket file at @path (bound, not listening: a file of the kind). */
static void
make_socket_file (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  close (fd);
}

/* Something removes the display's socket file as the server starts
 * (another server's exit can: it closes its abstract socket, a new
 * server makes its file, then the old one unlinks that file): the app
 * in a sandbox could not reach it, so xserver_start() starts another.
 * The stand-in "Xvfb" says its display at once, with the socket file
 * from its @data-th start on (0: never): one start too many is an error
 * of its own, after three. */
static void
test_xserver_socket_gone (gconstpointer data)
{
  guint file_from = GPOINTER_TO_UINT (data);
  g_autofree char *dir = g_dir_make_tmp ("test-xserver-XXXXXX", NULL);
  g_autofree char *fake = g_build_filename (dir, "Xvfb", NULL);
  g_autofree char *model = g_build_filename (dir, "socket", NULL);
  g_autofree char *count = g_build_filename (dir, "count", NULL);
  g_autofree char *saved_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strdup_printf ("%s:%s", dir, saved_path);
  g_autofree char *socket_path = NULL;
  g_autofree char *script = NULL;
  g_autofree char *starts = NULL;
  g_autoptr (GError) error = NULL;
  XServer *server;
  guint display = unused_display ();

  socket_path = g_strdup_printf ("/tmp/.X11-unix/X%u", display);
  make_socket_file (model);
  script = g_strdup_printf ("#!/bin/sh\necho x >> %s\nn=$(wc -l < %s)\n"
                            "if [ %u -ne 0 ] && [ $n -ge %u ]; then\n"
                            "  mkdir -p /tmp/.X11-unix; ln -f %s %s\nfi\n"
                            "echo %u >&3\nexec sleep 1000\n",
                            count, count, file_from, file_from, model, socket_path, display);
  g_assert_true (g_file_set_contents (fake, script, -1, NULL));
  g_assert_cmpint (g_chmod (fake, 0755), ==, 0);
  g_setenv ("PATH", path, TRUE);
  server = xserver_start (&(XServerOptions) { .kind = XSERVER_XVFB, .width = 64, .height = 64 },
                          10000, &error);
  g_setenv ("PATH", saved_path, TRUE);
  g_assert_true (g_file_get_contents (count, &starts, NULL, NULL));
  if (file_from == 0)
    {
      g_assert_error (error, XSERVER_ERROR, XSERVER_ERROR_SOCKET_GONE);
      g_assert_null (server);
      g_assert_cmpstr (starts, ==, "x\nx\nx\n");
    }
  else
    {
      g_autofree char *expected = g_strdup_printf (":%u", display);

      g_assert_no_error (error);
      g_assert_cmpstr (xserver_get_display (server), ==, expected);
      g_assert_cmpuint (strlen (starts), ==, 2 * file_from);
      xserver_free (server);
    }
  g_unlink (socket_path);
  g_unlink (model);
  g_unlink (count);
  g_unlink (fake);
  g_rmdir (dir);
}

/* The sandbox holds on to the display's socket file: the app reaches it
 * through the sandbox's hard link after the file has gone. */
static void
test_sandbox_keeps_socket (void)
{
  SandboxOptions options = { 0 };
  const char *const argv[] = { "/bin/sh", "-c", "test -S \"$0\"", NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *display = NULL;
  g_auto (GStrv) command = NULL;
  g_autofree char *notes = NULL;
  Sandbox *sandbox = sandbox_new (&options, &error);
  int status = -1;
  guint number = unused_display ();

  g_assert_no_error (error);
  if (!sandbox_is_isolated (sandbox))
    {
      sandbox_free (sandbox);
      g_test_skip ("bubblewrap cannot isolate here");
      return;
    }
  display = g_strdup_printf (":%u", number);
  socket_path = g_strdup_printf ("/tmp/.X11-unix/X%u", number);
  /* Not there: said. */
  g_assert_false (sandbox_keep_display_socket (sandbox, display, &error));
  g_assert_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "is not there"));
  g_clear_error (&error);

  g_assert_cmpint (g_mkdir_with_parents ("/tmp/.X11-unix", 01777), ==, 0);
  make_socket_file (socket_path);
  g_assert_true (sandbox_keep_display_socket (sandbox, display, &error));
  g_assert_no_error (error);
  g_unlink (socket_path);
  ((const char **) argv)[3] = socket_path;
  command = sandbox_command (sandbox, argv, display, &error);
  g_assert_no_error (error);
  notes = sandbox_take_notes (sandbox);
  g_assert_null (notes);
  g_assert_true (g_spawn_sync (NULL, command, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_false (g_file_test (socket_path, G_FILE_TEST_EXISTS));
  sandbox_free (sandbox);
}

/* A seed that is missing, a file, or unreadable is the user's mistake. */
static void
test_sandbox_bad_seed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-proc-seed-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "a-file", NULL);
  g_autofree char *locked = g_build_filename (dir, "locked", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  const char *seeds[] = { missing, file, locked };

  g_assert_true (g_file_set_contents (file, "", -1, NULL));
  g_assert_cmpint (g_mkdir (locked, 0), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      SandboxOptions options = { .home_seed = seeds[i] };
      g_autoptr (GError) error = NULL;

      /* root reads a 0000 directory: that one is only checked as a user. */
      if (i == 2 && geteuid () == 0)
        continue;
      g_assert_false (sandbox_check_home_seed (seeds[i], &error));
      g_assert_error (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME);
      g_clear_error (&error);
      g_assert_null (sandbox_new (&options, &error));
      g_assert_error (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME);
      g_assert_nonnull (strstr (error->message, seeds[i]));
    }
  g_rmdir (locked);
  g_unlink (file);
  g_rmdir (dir);
}

static void
on_interrupt (int signum, gpointer data)
{
  *(int *) data = signum;
}

/* A signal ends a synchronous wait (an X server's -displayfd that never
 * answers) at once, with PROC_ERROR_INTERRUPTED, and reaches the
 * program's function in the main context; a second wait ends at once
 * too; after proc_interrupt_unwatch() the signal's default action is
 * back. The signal comes from a child that sends it as soon as it runs:
 * before or during the wait, the wait ends either way. */
static void
test_interrupt (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  int fds[2], seen = 0;
  pid_t killer;
  int status;

  g_assert_cmpint (proc_interrupt_get_fd (), ==, -1);
  g_assert_true (proc_check_interrupt (NULL));
  proc_interrupt_watch (on_interrupt, &seen);
  g_assert_cmpint (proc_interrupt_get_fd (), >=, 0);
  g_assert_cmpint (pipe (fds), ==, 0);
  killer = fork ();
  g_assert_cmpint (killer, >=, 0);
  if (killer == 0)
    {
      kill (getppid (), SIGTERM);
      _exit (0);
    }
  /* A minute: only the signal can end it in time for the test. */
  line = proc_read_line (fds[0], 60000, 32, &error);
  g_assert_null (line);
  g_assert_error (error, PROC_ERROR, PROC_ERROR_INTERRUPTED);
  g_assert_nonnull (strstr (error->message, "SIGTERM"));
  g_clear_error (&error);
  g_assert_cmpint (proc_interrupt_get_signal (), ==, SIGTERM);
  g_assert_false (proc_check_interrupt (&error));
  g_assert_error (error, PROC_ERROR, PROC_ERROR_INTERRUPTED);
  g_clear_error (&error);
  g_assert_null (proc_read_line (fds[0], 60000, 32, &error));
  g_assert_error (error, PROC_ERROR, PROC_ERROR_INTERRUPTED);
  g_assert_cmpint (waitpid (killer, &status, 0), ==, killer);
  /* The main context hears of it when it runs. */
  while (seen == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (seen, ==, SIGTERM);
  proc_interrupt_unwatch ();
  g_assert_cmpint (proc_interrupt_get_fd (), ==, -1);
  g_assert_cmpint (proc_interrupt_get_signal (), ==, 0);
  g_assert_true (proc_check_interrupt (NULL));
  {
    struct sigaction now;
    g_assert_cmpint (sigaction (SIGTERM, NULL, &now), ==, 0);
    g_assert_true (now.sa_handler == SIG_DFL);
  }
  close (fds[0]);
  close (fds[1]);
}

/* A folder's owner frees it: back from proc_tempdir_free(), the folder
 * (files, a folder in it, a read-only file) is gone, and so is a process
 * whose environment marks it as working there. */
static void
test_tempdir_free (void)
{
  g_autoptr (GError) error = NULL;
  ProcTempDir *dir = proc_tempdir_new_for_processes ("xreduce-test-XXXXXX", "XREDUCE_TEST_MARK",
                                                     "/run", &error);
  g_autofree char *path = NULL, *sub = NULL, *file = NULL, *mark = NULL;
  const char *argv[] = { "sleep", "600", NULL };
  g_auto (GStrv) envp = NULL;
  GPid pid;
  int status;

  g_assert_no_error (error);
  path = g_strdup (proc_tempdir_get_path (dir));
  sub = g_build_filename (path, "home", ".cache", NULL);
  file = g_build_filename (sub, "history", NULL);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "ls\n", -1, NULL));
  g_assert_cmpint (g_chmod (file, 0400), ==, 0);
  mark = g_strconcat (path, "/run", NULL);
  envp = g_environ_setenv (g_get_environ (), "XREDUCE_TEST_MARK", mark, TRUE);
  g_assert_true (g_spawn_async (NULL, (char **) argv, envp,
                                G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &pid, &error));
  g_assert_no_error (error);
  /* (Its environment is there once exec is done: /proc says so.) */
  {
    g_autofree char *exe = g_strdup_printf ("/proc/%d/exe", (int) pid);

    for (;;)
      {
        g_autofree char *target = g_file_read_link (exe, NULL);

        if (target != NULL && g_str_has_suffix (target, "/sleep"))
          break;
        g_usleep (1000);
      }
  }
  proc_tempdir_free (dir);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
}

/* An X server still starting takes SIGTERM only once its start is over
 * (a second or more on a loaded machine, which a Ctrl-C would wait for):
 * it is killed at once instead, and what it made (its lock file, the
 * socket of its display) goes, as its own exit would remove them. The
 * stand-in "Xvfb" makes both, ignores SIGTERM and never says its display.
 * With @data, a server listens on that display's abstract socket by the
 * time it is killed (one started since, which has made the socket file
 * its own): the file stays. */
static void
test_xserver_killed_starting (gconstpointer data)
{
  gboolean other_listens = GPOINTER_TO_INT (data);
  int listener = -1;
  g_autofree char *dir = g_dir_make_tmp ("test-xserver-XXXXXX", NULL);
  g_autofree char *fake = g_build_filename (dir, "Xvfb", NULL);
  g_autofree char *saved_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strdup_printf ("%s:%s", dir, saved_path);
  g_autofree char *lock = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *script = NULL;
  g_autoptr (GError) error = NULL;
  XServer *server;
  guint display = 4000 + (guint) g_random_int_range (0, 1000);
  pid_t pid;

  /* A display number no one holds. */
  for (;; display++)
    {
      g_free (lock);
      lock = g_strdup_printf ("/tmp/.X%u-lock", display);
      if (!g_file_test (lock, G_FILE_TEST_EXISTS))
        break;
    }
  socket_path = g_strdup_printf ("/tmp/.X11-unix/X%u", display);
  script = g_strdup_printf ("#!/bin/sh\ntrap '' TERM\nmkdir -p /tmp/.X11-unix\n"
                            ": > %s\nprintf '%%10d\\n' $$ > %s.new\nmv %s.new %s\n"
                            "exec sleep 1000\n", socket_path, lock, lock, lock);
  g_assert_true (g_file_set_contents (fake, script, -1, NULL));
  g_assert_cmpint (g_chmod (fake, 0755), ==, 0);
  g_setenv ("PATH", path, TRUE);
  server = xserver_spawn (&(XServerOptions) { .kind = XSERVER_XVFB, .width = 64, .height = 64 },
                          &error);
  g_setenv ("PATH", saved_path, TRUE);
  g_assert_no_error (error);
  pid = xserver_get_pid (server);
  /* Its lock made (renamed into place whole): it is starting. */
  while (!g_file_test (lock, G_FILE_TEST_EXISTS))
    {
      g_assert_true (test_pid_alive (pid));
      g_usleep (10000);
    }
  g_assert_true (g_file_test (socket_path, G_FILE_TEST_EXISTS));
  if (other_listens)
    {
      struct sockaddr_un addr = { .sun_family = AF_UNIX };
      int len = g_snprintf (addr.sun_path + 1, sizeof addr.sun_path - 1, "/tmp/.X11-unix/X%u",
                            display);

      listener = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      g_assert_cmpint (listener, >=, 0);
      g_assert_cmpint (bind (listener, (struct sockaddr *) &addr,
                             (socklen_t) (offsetof (struct sockaddr_un, sun_path) + 1 + len)),
                       ==, 0);
      g_assert_cmpint (listen (listener, 1), ==, 0);
    }

  xserver_free (server);
  g_assert_false (test_pid_alive (pid));
  g_assert_false (g_file_test (lock, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (socket_path, G_FILE_TEST_EXISTS) == other_listens);
  if (listener >= 0)
    {
      close (listener);
      g_unlink (socket_path);
    }
  g_unlink (fake);
  g_rmdir (dir);
}

/* @data: an int, -1 until the watch's one call sets it to gone or not. */
static void
on_gone (gboolean gone, gpointer data)
{
  int *heard = data;

  g_assert_cmpint (*heard, ==, -1);
  *heard = gone;
}

/* Runs the main loop until @watch is heard; frees it. */
static gboolean
watch_heard (ProcGoneWatch *watch, int *heard)
{
  while (*heard < 0)
    g_main_context_iteration (NULL, TRUE);
  proc_gone_watch_free (watch);
  return *heard;
}

/* A child that waits for its SIGKILL. */
static pid_t
fork_paused (void)
{
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      pause ();
      _exit (0);
    }
  return pid;
}

/* proc_watch_gone() hears once, by each of its three ways: a process
 * gone (reaped) before the watch, one that ends while watched (its
 * pidfd), one that outlives the timeout. */
static void
test_watch_gone (void)
{
  ProcGoneWatch *watch;
  int heard = -1;
  int status;
  pid_t pid;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (watch_heard (proc_watch_gone (pid, GONE_MS, on_gone, &heard), &heard));

  heard = -1;
  pid = fork_paused ();
  watch = proc_watch_gone (pid, GONE_MS, on_gone, &heard);
  kill (pid, SIGKILL);
  g_assert_true (watch_heard (watch, &heard));
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);

  /* Still running after the timeout: FALSE, and the watch is done. */
  heard = -1;
  pid = fork_paused ();
  g_assert_false (watch_heard (proc_watch_gone (pid, 50, on_gone, &heard), &heard));
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && g_str_equal (argv[1], "--owner"))
    return owner_main (argv[2]);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proc/capture", test_capture);
  g_test_add_func ("/proc/not-found", test_not_found);
  g_test_add_func ("/proc/group-kill", test_group_kill);
  g_test_add_func ("/proc/orphans", test_orphans);
  g_test_add_func ("/proc/no-core-dump", test_no_core_dump);
  g_test_add_func ("/proc/read-line", test_read_line);
  g_test_add_func ("/proc/interrupt", test_interrupt);
  g_test_add_func ("/proc/run", test_run);
  g_test_add_func ("/proc/watch-gone", test_watch_gone);
  g_test_add_func ("/proc/owner-killed", test_owner_killed);
  g_test_add_func ("/proc/owner-killed-group", test_owner_killed_group);
  g_test_add_func ("/tempdir/free", test_tempdir_free);
  g_test_add_data_func ("/xserver/killed-starting", GINT_TO_POINTER (FALSE),
                        test_xserver_killed_starting);
  g_test_add_data_func ("/xserver/killed-starting/display-taken-since", GINT_TO_POINTER (TRUE),
                        test_xserver_killed_starting);
  g_test_add_data_func ("/xserver/socket-gone/once", GUINT_TO_POINTER (2),
                        test_xserver_socket_gone);
  g_test_add_data_func ("/xserver/socket-gone/always", GUINT_TO_POINTER (0),
                        test_xserver_socket_gone);
  g_test_add_func ("/sandbox/owner-killed", test_sandbox_owner_killed);
  g_test_add_func ("/sandbox/env-and-bus", test_sandbox);
  g_test_add_func ("/sandbox/seed", test_sandbox_seed);
  g_test_add_func ("/sandbox/missing-socket", test_sandbox_missing_socket);
  g_test_add_func ("/sandbox/keeps-socket", test_sandbox_keeps_socket);
  g_test_add_func ("/sandbox/bad-seed", test_sandbox_bad_seed);
  return g_test_run ();
}
