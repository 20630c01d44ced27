/* sandbox.c — a fresh HOME and a private session bus (see sandbox.h).
 *
 * Start reading at sandbox_new(): the directory (a ProcTempDir, whose
 * cleaner removes it even after a SIGKILL), then the seed copy and the
 * bus, which says it is ready by printing its address.
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "sandbox.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xreduce-sandbox-error-quark, sandbox_error)

/* A profile of a few hundred MB on a filesystem without reflinks. */
#define SANDBOX_COPY_TIMEOUT_MS 120000
#define SANDBOX_BUS_TIMEOUT_MS 10000

struct Sandbox
{
  ProcTempDir *dir;          /* everything below, removed with it */
  const char *root;          /* dir's */
  char *home, *runtime, *tmp;
  char *bus_address;
  ProcChild *bus;            /* dbus-daemon, or NULL */
  gboolean accessibility;
};

gboolean
sandbox_check_home_seed (const char *dir, GError **error)
{
  struct stat st;

  if (stat (dir, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME, "--home %s: %s", dir,
                   g_strerror (saved));
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME,
                   "--home %s: not a directory", dir);
      return FALSE;
    }
  if (access (dir, R_OK | X_OK) != 0)
    {
      int saved = errno;
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME, "--home %s: %s", dir,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static gboolean
make_dirs (Sandbox *sandbox, GError **error)
{
  const char *home_dirs[] = { ".config", ".cache", ".local/share", ".local/state" };

  sandbox->home = g_build_filename (sandbox->root, "home", NULL);
  sandbox->runtime = g_build_filename (sandbox->root, "run", NULL);
  sandbox->tmp = g_build_filename (sandbox->root, "tmp", NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (home_dirs) + 3; i++)
    {
      g_autofree char *path = i < G_N_ELEMENTS (home_dirs)
        ? g_build_filename (sandbox->home, home_dirs[i], NULL)
        : g_strdup (i == G_N_ELEMENTS (home_dirs) ? sandbox->home
                    : i == G_N_ELEMENTS (home_dirs) + 1 ? sandbox->runtime : sandbox->tmp);
      if (g_mkdir_with_parents (path, 0700) != 0)
        {
          int saved = errno;
          g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "cannot make %s: %s", path,
                       g_strerror (saved));
          return FALSE;
        }
    }
  /* XDG_RUNTIME_DIR must be ours alone, whatever the umask. */
  if (g_chmod (sandbox->runtime, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "cannot make %s private: %s",
                   sandbox->runtime, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static gboolean
copy_seed (Sandbox *sandbox, const char *seed, GError **error)
{
  g_autofree char *from = g_build_filename (seed, ".", NULL);
  const char *argv[] = { "cp", "-a", "--reflink=auto", "--", from, sandbox->home, NULL };
  g_autoptr (GError) local = NULL;

  if (!sandbox_check_home_seed (seed, error))
    return FALSE;
  if (!proc_run (argv, SANDBOX_COPY_TIMEOUT_MS, &local))
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME,
                   "--home %s cannot be copied: %s", seed, local->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
start_bus (Sandbox *sandbox, GError **error)
{
  g_autofree char *listen = g_strdup_printf ("--address=unix:path=%s/bus", sandbox->runtime);
  const char *argv[] = { "dbus-daemon", "--session", "--nofork", "--nopidfile", listen,
                         "--print-address=3", NULL };
  g_autoptr (GError) local = NULL;
  ProcSpawnOptions spawn;
  int fds[2];

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    return FALSE;
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.pass_fd = fds[1];
  spawn.death_signal = SIGTERM;
  sandbox->bus = proc_spawn (&spawn, &local);
  close (fds[1]);
  if (sandbox->bus == NULL)
    {
      close (fds[0]);
      if (g_error_matches (local, PROC_ERROR, PROC_ERROR_NOT_FOUND))
        g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_NO_DBUS,
                     "dbus-daemon is not installed, and each replay needs a private session "
                     "bus (Debian: apt install dbus-daemon; or --share-home to run the app "
                     "without a sandbox, with your HOME and bus)");
      else
        g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "cannot start dbus-daemon: %s",
                     local->message);
      return FALSE;
    }
  sandbox->bus_address = proc_read_line (fds[0], SANDBOX_BUS_TIMEOUT_MS, 4096, &local);
  close (fds[0]);
  if (sandbox->bus_address == NULL)
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED,
                   "the private dbus-daemon did not start: %s", local->message);
      return FALSE;
    }
  g_strstrip (sandbox->bus_address);
  return TRUE;
}

Sandbox *
sandbox_new (const SandboxOptions *options, GError **error)
{
  g_autoptr (Sandbox) sandbox = g_new0 (Sandbox, 1);
  g_autoptr (GError) local = NULL;

  sandbox->dir = proc_tempdir_new ("xreduce-sandbox-XXXXXX", &local);
  if (sandbox->dir == NULL)
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "%s", local->message);
      return NULL;
    }
  sandbox->root = proc_tempdir_get_path (sandbox->dir);
  if (!make_dirs (sandbox, error))
    return NULL;
  if (options->home_seed != NULL && !copy_seed (sandbox, options->home_seed, error))
    return NULL;
  if (!start_bus (sandbox, error))
    return NULL;
  sandbox->accessibility = options->accessibility;
  g_debug ("sandbox %s, bus %s", sandbox->root, sandbox->bus_address);
  return g_steal_pointer (&sandbox);
}

char **
sandbox_apply (const Sandbox *sandbox, char **envp)
{
  g_autofree char *config = g_build_filename (sandbox->home, ".config", NULL);
  g_autofree char *cache = g_build_filename (sandbox->home, ".cache", NULL);
  g_autofree char *data = g_build_filename (sandbox->home, ".local", "share", NULL);
  g_autofree char *state = g_build_filename (sandbox->home, ".local", "state", NULL);

  envp = g_environ_setenv (envp, "HOME", sandbox->home, TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", data, TRUE);
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", state, TRUE);
  envp = g_environ_setenv (envp, "XDG_RUNTIME_DIR", sandbox->runtime, TRUE);
  envp = g_environ_setenv (envp, "TMPDIR", sandbox->tmp, TRUE);
  envp = g_environ_setenv (envp, "DBUS_SESSION_BUS_ADDRESS", sandbox->bus_address, TRUE);
  /* Nothing of the user's desktop session: no session manager to
   * register with, no second address for the bus. */
  envp = g_environ_unsetenv (envp, "SESSION_MANAGER");
  envp = g_environ_unsetenv (envp, "DBUS_STARTER_ADDRESS");
  envp = g_environ_unsetenv (envp, "DBUS_STARTER_BUS_TYPE");
  envp = g_environ_unsetenv (envp, "XDG_SESSION_ID");
  if (!sandbox->accessibility)
    envp = g_environ_setenv (envp, "NO_AT_BRIDGE", "1", TRUE);
  /* Xlib looks for the display's cookie in $HOME/.Xauthority when
   * XAUTHORITY is unset: keep pointing at the user's (a replay onto a
   * live desktop with --display needs it; a private Xvfb needs none). */
  if (g_environ_getenv (envp, "XAUTHORITY") == NULL)
    {
      g_autofree char *cookie = g_build_filename (g_get_home_dir (), ".Xauthority", NULL);
      if (g_file_test (cookie, G_FILE_TEST_EXISTS))
        envp = g_environ_setenv (envp, "XAUTHORITY", cookie, TRUE);
    }
  return envp;
}

const char *
sandbox_get_home (const Sandbox *sandbox)
{
  return sandbox->home;
}

void
sandbox_free (Sandbox *sandbox)
{
  if (sandbox == NULL)
    return;
  g_clear_pointer (&sandbox->bus, proc_child_free);
  g_clear_pointer (&sandbox->dir, proc_tempdir_free);
  g_free (sandbox->home);
  g_free (sandbox->runtime);
  g_free (sandbox->tmp);
  g_free (sandbox->bus_address);
  g_free (sandbox);
}
