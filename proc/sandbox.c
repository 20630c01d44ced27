/* sandbox.c — a fresh HOME, a private session bus, and bubblewrap around
 * the app (see sandbox.h).
 *
 * Start reading at sandbox_new(): the directory (a ProcTempDir, whose
 * cleaner removes it even after a SIGKILL), then the seed copy and the
 * bus, which says it is ready by printing its address. The app's side is
 * sandbox_environ() (the allowlist) here and sandbox_command() (bwrap's
 * command line) in sandbox-view.c, with what of the caller's files the
 * isolated app sees.
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "sandbox.h"
#include "sandbox-private.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xreduce-sandbox-error-quark, sandbox_error)

/* A profile of a few hundred MB on a filesystem without reflinks. */
#define SANDBOX_COPY_TIMEOUT_MS 120000
#define SANDBOX_BUS_TIMEOUT_MS 10000
#define SANDBOX_CHECK_TIMEOUT_MS 10000

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
  if (sandbox->bus_address == NULL
      && g_error_matches (local, PROC_ERROR, PROC_ERROR_INTERRUPTED))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (sandbox->bus_address == NULL)
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED,
                   "the private dbus-daemon did not start: %s", local->message);
      return FALSE;
    }
  g_strstrip (sandbox->bus_address);
  return TRUE;
}

/* ---- isolation ---- */

/* The namespaces and the lifetime, the same for the check and the app:
 * its own PID, UTS and cgroup namespaces;
 * killed when bwrap dies (it dies with us); a session of its own (no
 * TIOCSTI into a terminal of ours). IPC stays shared: MIT-SHM needs the
 * X server to see the app's segments. */
static const char *const bwrap_unshare[] = {
  "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try",
  "--die-with-parent", "--new-session",
};

/* A user namespace only where bwrap needs one (we are not root): as root
 * bwrap needs none and drops every capability anyway, and in one only
 * uid and gid 0 are mapped, so that xterm cannot give its pty to the
 * tty group (EINVAL) and gives up. */
void
sandbox_add_unshare (GStrvBuilder *argv)
{
  if (getuid () != 0)
    g_strv_builder_add (argv, "--unshare-user-try");
  for (gsize i = 0; i < G_N_ELEMENTS (bwrap_unshare); i++)
    g_strv_builder_add (argv, bwrap_unshare[i]);
}

static gsize isolation_checked;
static char *isolation_problem;    /* NULL: bwrap works */

gboolean
sandbox_can_isolate (GError **error)
{
  if (g_once_init_enter (&isolation_checked))
    {
      g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
      g_auto (GStrv) args = NULL;
      g_autoptr (GError) local = NULL;

      if (g_strcmp0 (g_getenv (SANDBOX_CHECKED_ENV), g_get_host_name ()) == 0)
        {
          g_once_init_leave (&isolation_checked, 1);
          return TRUE;
        }
      g_strv_builder_add_many (argv, "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
                               "--proc", "/proc", "--unshare-net", NULL);
      sandbox_add_unshare (argv);
      /* `true` the sandbox's pid 1, without bwrap's reaper: the reaper
       * outlives the bwrap we wait for by a moment, a process of ours
       * still running after xreduce has said its error and exited
       * (/reduce/bad-input's orphan under load). */
      g_strv_builder_add_many (argv, "--as-pid-1", "--", "true", NULL);
      args = g_strv_builder_end (argv);
      if (!proc_run ((const char *const *) args, SANDBOX_CHECK_TIMEOUT_MS, &local))
        isolation_problem = g_error_matches (local, PROC_ERROR, PROC_ERROR_NOT_FOUND)
          ? g_strdup ("bubblewrap is not installed (Debian: apt install bubblewrap)")
          : g_strdup_printf ("bubblewrap cannot make a sandbox here (are user namespaces "
                             "allowed?): %s", local->message);
      g_once_init_leave (&isolation_checked, 1);
    }
  if (isolation_problem != NULL)
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_NO_ISOLATION, "%s", isolation_problem);
      return FALSE;
    }
  return TRUE;
}

const char *
sandbox_checked_mark (void)
{
  return g_atomic_pointer_get (&isolation_checked) != 0 && isolation_problem == NULL
         ? g_get_host_name () : NULL;
}

gboolean
sandbox_is_isolated (const Sandbox *sandbox)
{
  return sandbox->isolated;
}

guint
sandbox_helper_processes (const Sandbox *sandbox)
{
  return sandbox != NULL && sandbox->isolated ? 2 : 0;
}

Sandbox *
sandbox_new (const SandboxOptions *options, GError **error)
{
  g_autoptr (Sandbox) sandbox = g_new0 (Sandbox, 1);
  g_autoptr (GError) local = NULL;

  if (options->isolate != SANDBOX_ISOLATE_OFF)
    {
      sandbox->isolated = sandbox_can_isolate (&local);
      if (!sandbox->isolated && options->isolate == SANDBOX_ISOLATE_REQUIRE)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_clear_error (&local);
    }
  sandbox->share_net = options->share_net;
  sandbox->notes = g_ptr_array_new_with_free_func (g_free);
  sandbox->keep_env = g_strdupv ((char **) options->keep_env);
  sandbox->app_env = g_strdupv ((char **) options->app_env);
  sandbox->binds = g_ptr_array_new_with_free_func (g_free);
  sandbox->set_env = g_strdupv ((char **) options->set_env);

  /* Every process of the app's has the sandbox's runtime folder in its
   * environment (sandbox_environ()): the folder goes once they are gone,
   * however the replay ended (a bash whose terminal closed writes its
   * history into HOME as it goes). */
  sandbox->dir = proc_tempdir_new_for_processes ("xreduce-sandbox-XXXXXX", "XDG_RUNTIME_DIR",
                                                 "/run", &local);
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

pid_t
sandbox_get_bus_pid (const Sandbox *sandbox)
{
  return sandbox != NULL && sandbox->bus != NULL ? proc_child_get_pid (sandbox->bus) : 0;
}

const char *
sandbox_get_home (const Sandbox *sandbox)
{
  return sandbox->home;
}

const char *
sandbox_get_tmpdir (const Sandbox *sandbox)
{
  return sandbox->tmp;
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
  g_free (sandbox->xauthority);
  g_free (sandbox->x_socket);
  g_free (sandbox->x_socket_link);
  g_strfreev (sandbox->keep_env);
  g_strfreev (sandbox->app_env);
  g_strfreev (sandbox->set_env);
  g_clear_pointer (&sandbox->notes, g_ptr_array_unref);
  if (sandbox->binds != NULL)
    g_ptr_array_unref (sandbox->binds);
  g_free (sandbox);
}

/* ---- the app's side ---- */

gboolean
sandbox_set_xauthority (Sandbox *sandbox, const guint8 *data, gsize len, GError **error)
{
  g_autofree char *path = g_build_filename (sandbox->runtime, "Xauthority", NULL);
  g_autoptr (GError) local = NULL;

  /* In the private runtime folder (0700): the cookie is the key to the
   * replay's display. */
  if (!g_file_set_contents_full (path, (const char *) data, (gssize) len,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local))
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED,
                   "cannot write the app's X authority: %s", local->message);
      return FALSE;
    }
  g_free (sandbox->xauthority);
  sandbox->xauthority = g_steal_pointer (&path);
  return TRUE;
}

/* The sanitizers' options: how an app built with them reports (a
 * sanitizer build of the app under test dies of its own SIGSEGV only with
 * ASAN_OPTIONS=handle_segv=0); no secret lives there. */
static gboolean
is_sanitizer_option (const char *name)
{
  static const char *const names[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                                       "MSAN_OPTIONS", "TSAN_OPTIONS" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_locale (const char *name)
{
  return strcmp (name, "LANG") == 0 || strcmp (name, "LANGUAGE") == 0
         || g_str_has_prefix (name, "LC_");
}

/* Ours that the app gets: the locale only when the recording did not say
 * its own. */
static gboolean
passes_env (const Sandbox *sandbox, const char *name)
{
  gboolean recorded = sandbox->app_env != NULL && sandbox->app_env[0] != NULL;

  return strcmp (name, "PATH") == 0 || strcmp (name, "TERM") == 0
         || (is_locale (name) && !recorded) || is_sanitizer_option (name);
}

char **
sandbox_without_crash_reporters (char **envp)
{
  envp = g_environ_setenv (envp, "MOZ_CRASHREPORTER_DISABLE", "1", FALSE);
  return g_environ_setenv (envp, "KDE_DEBUG", "1", FALSE);
}

char **
sandbox_environ (const Sandbox *sandbox, const char *display)
{
  g_auto (GStrv) ours = g_get_environ ();
  char **envp = g_new0 (char *, 1);

  for (char **e = ours; *e != NULL; e++)
    {
      const char *eq = strchr (*e, '=');
      g_autofree char *name = eq != NULL ? g_strndup (*e, (gsize) (eq - *e)) : NULL;

      if (name != NULL && passes_env (sandbox, name))
        envp = g_environ_setenv (envp, name, eq + 1, TRUE);
    }
  /* The recording's (its locale and toolkit variables), as recorded. */
  for (char **s = sandbox->app_env; s != NULL && *s != NULL; s++)
    {
      const char *eq = strchr (*s, '=');
      g_autofree char *name = eq != NULL ? g_strndup (*s, (gsize) (eq - *s)) : NULL;

      if (name != NULL && *name != '\0')
        envp = g_environ_setenv (envp, name, eq + 1, TRUE);
    }
  for (char **k = sandbox->keep_env; k != NULL && *k != NULL; k++)
    {
      const char *value = g_environ_getenv (ours, *k);
      if (value != NULL)
        envp = g_environ_setenv (envp, *k, value, TRUE);
    }
  envp = sandbox_without_crash_reporters (envp);
  envp = sandbox_apply (sandbox, envp);
  /* sandbox_apply keeps a caller's XAUTHORITY: here there is none but
   * the sandbox's own. */
  envp = g_environ_unsetenv (envp, "XAUTHORITY");
  if (sandbox->xauthority != NULL)
    envp = g_environ_setenv (envp, "XAUTHORITY", sandbox->xauthority, TRUE);
  if (display != NULL)
    envp = g_environ_setenv (envp, "DISPLAY", display, TRUE);
  for (char **s = sandbox->set_env; s != NULL && *s != NULL; s++)
    {
      const char *eq = strchr (*s, '=');
      g_autofree char *name = eq != NULL ? g_strndup (*s, (gsize) (eq - *s)) : NULL;

      if (name != NULL && *name != '\0')
        envp = g_environ_setenv (envp, name, eq + 1, TRUE);
    }
  return envp;
}
int
sandbox_app_wait_status (const Sandbox *sandbox, int wait_status)
{
  if (sandbox != NULL && sandbox->isolated && WIFEXITED (wait_status)
      && WEXITSTATUS (wait_status) > 128 && WEXITSTATUS (wait_status) < 128 + 65)
    return WEXITSTATUS (wait_status) - 128;   /* the status of a death by that signal */
  return wait_status;
}
