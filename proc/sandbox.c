/* sandbox.c — a fresh HOME, a private session bus, and bubblewrap around
 * the app (see sandbox.h).
 *
 * Start reading at sandbox_new(): the directory (a ProcTempDir, whose
 * cleaner removes it even after a SIGKILL), then the seed copy and the
 * bus, which says it is ready by printing its address. The app's side is
 * sandbox_command() (bwrap's command line) and sandbox_environ() (the
 * allowlist).
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "sandbox.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xreduce-sandbox-error-quark, sandbox_error)

/* A profile of a few hundred MB on a filesystem without reflinks. */
#define SANDBOX_COPY_TIMEOUT_MS 120000
#define SANDBOX_BUS_TIMEOUT_MS 10000
#define SANDBOX_CHECK_TIMEOUT_MS 10000

struct Sandbox
{
  ProcTempDir *dir;          /* everything below, removed with it */
  const char *root;          /* dir's */
  char *home, *runtime, *tmp;
  char *bus_address;
  ProcChild *bus;            /* dbus-daemon, or NULL */
  gboolean accessibility;
  gboolean isolated;         /* the app runs under bwrap */
  gboolean share_net;
  char *xauthority;          /* the app's Xauthority file, or NULL */
  char **app_env, **keep_env, **set_env;
  GPtrArray *notes;          /* of char*: what sandbox_command() did not show the app */
  GPtrArray *binds;          /* the recording's files bound in: copy, place, copy, place... */
  guint n_files;
};

static void G_GNUC_PRINTF (2, 3)
sandbox_note (const Sandbox *sandbox, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (sandbox->notes, g_strdup_vprintf (format, args));
  va_end (args);
}

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
static void
add_unshare (GStrvBuilder *argv)
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

      g_strv_builder_add_many (argv, "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
                               "--proc", "/proc", "--unshare-net", NULL);
      add_unshare (argv);
      g_strv_builder_add_many (argv, "--", "true", NULL);
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

/* TRUE if @path is @dir or below it. */
static gboolean
path_is_below (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  while (n > 1 && dir[n - 1] == '/')
    n--;
  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/' || n == 1);
}

/* The folders the app does not see: every home, /tmp (its own is empty),
 * /run/user (the user's runtime folder: agents' sockets, the bus, the
 * Wayland socket), and the user's HOME wherever it is. */
static GPtrArray *
hidden_dirs (void)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  const char *fixed[] = { "/tmp", "/home", "/root", "/run/user" };
  const char *home = g_getenv ("HOME");
  struct passwd *pw = getpwuid (getuid ());

  for (gsize i = 0; i < G_N_ELEMENTS (fixed); i++)
    if (g_file_test (fixed[i], G_FILE_TEST_IS_DIR))
      g_ptr_array_add (dirs, g_strdup (fixed[i]));
  for (int i = 0; i < 2; i++)
    {
      const char *dir = i == 0 ? home : pw != NULL ? pw->pw_dir : NULL;
      g_autofree char *real = dir != NULL && g_path_is_absolute (dir) ? realpath (dir, NULL) : NULL;

      /* A HOME of / (a system user's) hides nothing: the view is read-only. */
      if (real != NULL && strcmp (real, "/") != 0 && g_file_test (real, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (dirs, g_steal_pointer (&real));
    }
  return dirs;
}

static gboolean
is_hidden (GPtrArray *hidden, const char *path)
{
  for (guint i = 0; i < hidden->len; i++)
    if (path_is_below (path, g_ptr_array_index (hidden, i)))
      return TRUE;
  return FALSE;
}

/* ---- what of the caller's files the app sees ---- */

/* Entries of a folder looked through for sockets before it is shown. */
#define SANDBOX_SCAN_MAX 20000

/* The folder @dir holds (is, or is above) one the app must never see
 * whole: one of @hidden (HOME, /tmp, /home, /root, /run/user) or the
 * runtime folder XDG_RUNTIME_DIR names. Which, or NULL. */
static const char *
holds_private (const char *dir, GPtrArray *hidden)
{
  static char *runtime;      /* XDG_RUNTIME_DIR's real path, once */
  static gsize runtime_once;

  if (g_once_init_enter (&runtime_once))
    {
      const char *env = g_getenv ("XDG_RUNTIME_DIR");

      runtime = env != NULL && g_path_is_absolute (env) ? realpath (env, NULL) : NULL;
      g_once_init_leave (&runtime_once, 1);
    }
  for (guint i = 0; i < hidden->len; i++)
    if (path_is_below (g_ptr_array_index (hidden, i), dir))
      return g_ptr_array_index (hidden, i);
  if (runtime != NULL && path_is_below (runtime, dir))
    return runtime;
  return NULL;
}

/* Every socket below @dir (not through symbolic links), into @sockets:
 * FALSE if @dir holds more than SANDBOX_SCAN_MAX entries (then nothing
 * is known of the rest). */
static gboolean
find_sockets (const char *dir, GPtrArray *sockets)
{
  g_autoptr (GPtrArray) todo = g_ptr_array_new_with_free_func (g_free);
  guint seen = 0;

  g_ptr_array_add (todo, g_strdup (dir));
  while (todo->len > 0)
    {
      g_autofree char *here = g_ptr_array_steal_index (todo, todo->len - 1);
      g_autoptr (GDir) entries = g_dir_open (here, 0, NULL);
      const char *name;

      while (entries != NULL && (name = g_dir_read_name (entries)) != NULL)
        {
          g_autofree char *path = g_build_filename (here, name, NULL);
          struct stat st;

          if (++seen > SANDBOX_SCAN_MAX)
            return FALSE;
          if (lstat (path, &st) != 0)
            continue;
          if (S_ISSOCK (st.st_mode))
            g_ptr_array_add (sockets, g_steal_pointer (&path));
          else if (S_ISDIR (st.st_mode))
            g_ptr_array_add (todo, g_steal_pointer (&path));
        }
    }
  return TRUE;
}

/* The one rule for what of the caller's files the isolated app is
 * shown, read-only and at their own paths (sandbox_command() asks it for
 * the program and every file named on its command line; whatever else
 * a replay needs to show the app goes through it too). @real is a real
 * path (realpath()) in one of the hidden folders (@hidden):
 *  - a regular file: that file, never the folder it is in;
 *  - a folder (@folder: the program's, for what it loads beside it, or
 *    one named on the command line): only if it holds none of HOME,
 *    /tmp, /home, /root and the runtime folders (/run/user,
 *    XDG_RUNTIME_DIR), and with every socket in it covered by /dev/null
 *    (a socket reaches its listener from any network namespace); a
 *    folder too large to look through is not shown;
 *  - anything else (a socket, a FIFO, a device): never.
 * Adds the binds to @cmd: TRUE if @real is shown, else FALSE with why in
 * *@why (for the caller to say). */
static gboolean
sandbox_bind_named (GStrvBuilder *cmd, GPtrArray *hidden, const char *real, gboolean folder,
                    char **why)
{
  g_autoptr (GPtrArray) sockets = NULL;
  const char *shown = real;   /* the caller quotes the note for where it goes */
  const char *private;
  struct stat st;

  if (stat (real, &st) != 0)
    {
      *why = g_strdup_printf ("%s: %s", shown, g_strerror (errno));
      return FALSE;
    }
  if (S_ISREG (st.st_mode) && !folder)
    {
      g_strv_builder_add_many (cmd, "--ro-bind", real, real, NULL);
      return TRUE;
    }
  if (!S_ISDIR (st.st_mode) || !folder)
    {
      *why = g_strdup_printf ("%s is not a regular file or a folder", shown);
      return FALSE;
    }
  if ((private = holds_private (real, hidden)) != NULL)
    {
      *why = g_strdup_printf ("the folder %s holds %s", shown, private);
      return FALSE;
    }
  sockets = g_ptr_array_new_with_free_func (g_free);
  if (!find_sockets (real, sockets))
    {
      *why = g_strdup_printf ("the folder %s holds more than %d files to look through for "
                              "sockets", shown, SANDBOX_SCAN_MAX);
      return FALSE;
    }
  g_strv_builder_add_many (cmd, "--ro-bind", real, real, NULL);
  for (guint i = 0; i < sockets->len; i++)
    g_strv_builder_add_many (cmd, "--ro-bind", "/dev/null", g_ptr_array_index (sockets, i),
                             NULL);
  return TRUE;
}

/* The program (or a wrapper's program) at @real, in a hidden folder: the
 * file, and its folder if it may be shown (sandbox_bind_named()). */
static void
bind_program (const Sandbox *sandbox, GStrvBuilder *cmd, GPtrArray *hidden, const char *real)
{
  g_autofree char *dir = g_path_get_dirname (real);
  g_autofree char *why = NULL;
  g_autofree char *also = NULL;

  if (sandbox_bind_named (cmd, hidden, dir, TRUE, &why))
    return;
  if (!sandbox_bind_named (cmd, hidden, real, FALSE, &also))
    {
      sandbox_note (sandbox, "%s", also);
      return;
    }
  sandbox_note (sandbox, "only the program is shown to the app, not its folder: %s", why);
}

/* The X socket of @display (":N", ":N.S", "unix:N"), or NULL for a display
 * reached over TCP (that needs --share-net). */
static char *
x_socket (const char *display)
{
  const char *colon = display != NULL ? strrchr (display, ':') : NULL;
  g_autofree char *host = NULL;
  guint64 number;
  char *end;

  if (colon == NULL)
    return NULL;
  host = g_strndup (display, (gsize) (colon - display));
  if (*host != '\0' && strcmp (host, "unix") != 0)
    return NULL;
  number = g_ascii_strtoull (colon + 1, &end, 10);
  if (end == colon + 1 || (*end != '\0' && *end != '.'))
    return NULL;
  return g_strdup_printf ("/tmp/.X11-unix/X%" G_GUINT64_FORMAT, number);
}

/* ---- the recording's files ---- */

/* Copies @source to @dest, a new private file (its folders made 0700). */
static gboolean
copy_file (const char *source, const char *dest, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (dest);
  g_autofree char *data = NULL;
  gsize len = 0;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "cannot make %s: %s", dir,
                   g_strerror (saved));
      return FALSE;
    }
  if (!g_file_get_contents (source, &data, &len, error)
      || !g_file_set_contents_full (dest, data, (gssize) len, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
                                    error))
    {
      g_prefix_error (error, "cannot copy the recording's file: ");
      (*error)->domain = SANDBOX_ERROR;
      (*error)->code = SANDBOX_ERROR_FAILED;
      return FALSE;
    }
  return TRUE;
}

gboolean
sandbox_add_file (Sandbox *sandbox, const char *dest, const char *source, GError **error)
{
  g_autoptr (GPtrArray) hidden = NULL;
  g_autofree char *copy = NULL;

  if (!g_path_is_absolute (dest) || strstr (dest, "/../") != NULL || g_str_has_suffix (dest, "/.."))
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "%s: not an absolute path", dest);
      return FALSE;
    }
  if (path_is_below (dest, sandbox->home) && strcmp (dest, sandbox->home) != 0)
    return copy_file (source, dest, error);
  hidden = hidden_dirs ();
  if (!sandbox->isolated || !is_hidden (hidden, dest) || path_is_below (dest, sandbox->root)
      || path_is_below (dest, "/tmp/.X11-unix") || path_is_below (sandbox->root, dest))
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED,
                   "%s: not placed (%s)", dest,
                   !sandbox->isolated ? "the app is not isolated: it sees this machine's files"
                   : !is_hidden (hidden, dest) ? "the app sees this machine's file there"
                   : "the sandbox's own folder");
      return FALSE;
    }
  /* A copy of its own, bound where it was: a file, never its folder. */
  copy = g_strdup_printf ("%s/files/%u", sandbox->root, sandbox->n_files++);
  if (!copy_file (source, copy, error))
    return FALSE;
  g_ptr_array_add (sandbox->binds, g_steal_pointer (&copy));
  g_ptr_array_add (sandbox->binds, g_strdup (dest));
  return TRUE;
}

char *
sandbox_get_app_cwd (const Sandbox *sandbox)
{
  g_autoptr (GPtrArray) hidden = hidden_dirs ();
  g_autofree char *cwd = g_get_current_dir ();

  if (sandbox->isolated && is_hidden (hidden, cwd))
    return g_strdup (sandbox->home);
  return g_steal_pointer (&cwd);
}

char **
sandbox_command (const Sandbox *sandbox, const char *const *argv, const char *display,
                 GError **error)
{
  g_autoptr (GStrvBuilder) cmd = g_strv_builder_new ();
  g_autoptr (GPtrArray) hidden = NULL;
  g_autofree char *program = NULL;
  g_autofree char *real = NULL;
  g_autofree char *socket = NULL;
  g_autofree char *cwd = NULL;
  const char *run = argv[0];

  if (!sandbox->isolated)
    return g_strdupv ((char **) argv);
  program = strchr (argv[0], '/') != NULL ? g_canonicalize_filename (argv[0], NULL)
            : g_find_program_in_path (argv[0]);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, PROC_ERROR, PROC_ERROR_NOT_FOUND, "%s: no such program", argv[0]);
      return NULL;
    }
  hidden = hidden_dirs ();
  g_strv_builder_add_many (cmd, "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
                           "--proc", "/proc", NULL);
  for (guint i = 0; i < hidden->len; i++)
    g_strv_builder_add_many (cmd, "--tmpfs", g_ptr_array_index (hidden, i), NULL);
  /* After the hiding: the sandbox's own folder (HOME, runtime, TMPDIR),
   * wherever it is, and the display's one socket. */
  g_strv_builder_add_many (cmd, "--bind", sandbox->root, sandbox->root, NULL);
  socket = x_socket (display);
  if (socket != NULL && g_file_test (socket, G_FILE_TEST_EXISTS))
    g_strv_builder_add_many (cmd, "--bind", socket, socket, NULL);
  /* The recording's files (sandbox_add_file), before the program's and
   * its arguments' binds, which win over them. */
  for (guint i = 0; i + 1 < sandbox->binds->len; i += 2)
    g_strv_builder_add_many (cmd, "--bind", g_ptr_array_index (sandbox->binds, i),
                             g_ptr_array_index (sandbox->binds, i + 1), NULL);
  /* The program itself, read-only, when it lives in a hidden folder (a
   * build tree in the user's home): the file, and its folder for what it
   * loads beside it where that folder may be shown (sandbox_bind_named).
   * It then runs by that path. */
  real = realpath (program, NULL);
  if (real != NULL && (is_hidden (hidden, real) || is_hidden (hidden, program)))
    {
      bind_program (sandbox, cmd, hidden, real);
      run = real;
    }
  else if (strchr (argv[0], '/') != NULL)
    run = program;
  /* A file named on the command line that lives in a hidden folder (the
   * script python3 runs, the app after xreduce-crashtrace's "--", in a
   * build tree under /tmp, a document in HOME): that file, read-only,
   * never its folder, and by its full path (the app may not start where
   * we are); a folder named so, if it may be shown (sandbox_bind_named). */
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  for (const char *const *a = argv + 1; *a != NULL; a++)
    {
      g_autofree char *path = NULL;
      g_autofree char *file = NULL;
      g_autofree char *why = NULL;

      /* After a wrapper's "--" (xreduce-crashtrace -- xdemo): a program
       * found in PATH, which may be a hidden folder (a build tree under
       * /tmp put in PATH). */
      if (strcmp (a[-1], "--") == 0 && strchr (*a, '/') == NULL)
        path = g_find_program_in_path (*a);
      if (path != NULL && (file = realpath (path, NULL)) != NULL && is_hidden (hidden, file))
        {
          bind_program (sandbox, cmd, hidden, file);
          g_ptr_array_add (args, g_steal_pointer (&file));
          continue;
        }
      g_clear_pointer (&path, g_free);
      g_clear_pointer (&file, free);
      if (**a != '-' && (path = g_canonicalize_filename (*a, NULL)) != NULL
          && g_file_test (path, G_FILE_TEST_EXISTS) && !path_is_below (path, sandbox->root)
          && (file = realpath (path, NULL)) != NULL && is_hidden (hidden, file))
        {
          if (sandbox_bind_named (cmd, hidden, file, g_file_test (file, G_FILE_TEST_IS_DIR),
                                  &why))
            g_ptr_array_add (args, g_steal_pointer (&file));
          else
            {
              sandbox_note (sandbox, "not shown to the app: %s", why);
              g_ptr_array_add (args, g_strdup (*a));
            }
        }
      else
        g_ptr_array_add (args, g_strdup (*a));
    }
  add_unshare (cmd);
  if (!sandbox->share_net)
    g_strv_builder_add (cmd, "--unshare-net");
  /* Where we are, if the app can see it; else its HOME. */
  cwd = g_get_current_dir ();
  g_strv_builder_add_many (cmd, "--chdir", is_hidden (hidden, cwd) ? sandbox->home : cwd,
                           "--", run, NULL);
  for (guint i = 0; i < args->len; i++)
    g_strv_builder_add (cmd, g_ptr_array_index (args, i));
  return g_strv_builder_end (cmd);
}

char *
sandbox_take_notes (Sandbox *sandbox)
{
  g_autoptr (GString) said = NULL;

  if (sandbox == NULL || sandbox->notes->len == 0)
    return NULL;
  said = g_string_new (NULL);
  for (guint i = 0; i < sandbox->notes->len; i++)
    g_string_append_printf (said, "%s%s", i > 0 ? "; " : "",
                            (const char *) g_ptr_array_index (sandbox->notes, i));
  g_ptr_array_set_size (sandbox->notes, 0);
  return g_string_free (g_steal_pointer (&said), FALSE);
}

int
sandbox_app_wait_status (const Sandbox *sandbox, int wait_status)
{
  if (sandbox != NULL && sandbox->isolated && WIFEXITED (wait_status)
      && WEXITSTATUS (wait_status) > 128 && WEXITSTATUS (wait_status) < 128 + 65)
    return WEXITSTATUS (wait_status) - 128;   /* the status of a death by that signal */
  return wait_status;
}
