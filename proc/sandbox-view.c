/* sandbox-view.c — what the isolated app sees (see sandbox.h):
 * bubblewrap's command line (sandbox_command()), the one rule for what of
 * the caller's files it is shown (sandbox_bind_named()), the recording's
 * files placed in its view (sandbox_add_file()), and the notes on what it
 * was not shown.
 *
 * Start reading at sandbox_command(): the system read-only, the hidden
 * folders (hidden_dirs()) empty, the sandbox's own folder and the X
 * socket bound in, then the program and the files its command line names.
 * The sandbox itself (its folders, its bus, the app's environment) is
 * sandbox.c's.
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "sandbox.h"
#include "sandbox-private.h"
#include "proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pwd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

static void G_GNUC_PRINTF (2, 3)
sandbox_note (const Sandbox *sandbox, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (sandbox->notes, g_strdup_vprintf (format, args));
  va_end (args);
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

gboolean
sandbox_keep_display_socket (Sandbox *sandbox, const char *display, GError **error)
{
  g_autofree char *socket = x_socket (display);
  g_autofree char *link_path = NULL;
  struct stat st;

  if (socket == NULL)
    return TRUE;          /* over TCP: no file */
  if (lstat (socket, &st) != 0 || !S_ISSOCK (st.st_mode))
    {
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED,
                   "the socket file of display %s (%s) is not there", display, socket);
      return FALSE;
    }
  link_path = g_build_filename (sandbox->root, "X11-socket", NULL);
  g_unlink (link_path);
  if (link (socket, link_path) != 0)
    {
      int saved = errno;

      g_debug ("cannot link %s to %s (%s): the file itself is bound", socket, link_path,
               g_strerror (saved));
      if (saved != ENOENT)
        return TRUE;
      g_set_error (error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED,
                   "the socket file of display %s (%s) is not there", display, socket);
      return FALSE;
    }
  g_free (sandbox->x_socket);
  g_free (sandbox->x_socket_link);
  sandbox->x_socket = g_steal_pointer (&socket);
  sandbox->x_socket_link = g_steal_pointer (&link_path);
  return TRUE;
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

/* The display's one socket file, bound in when it is there. Without the
 * network the app reaches a local server through that file only (not its
 * abstract socket): one that is not there is said, as the app's "cannot
 * open display" that follows does not say why. */
static void
bind_display_socket (const Sandbox *sandbox, GStrvBuilder *cmd, const char *display)
{
  g_autofree char *socket = x_socket (display);

  if (socket != NULL && g_strcmp0 (socket, sandbox->x_socket) == 0)
    g_strv_builder_add_many (cmd, "--bind", sandbox->x_socket_link, socket, NULL);
  else if (socket != NULL && g_file_test (socket, G_FILE_TEST_EXISTS))
    g_strv_builder_add_many (cmd, "--bind", socket, socket, NULL);
  else if (socket != NULL && !sandbox->share_net)
    sandbox_note (sandbox, "the socket file of display %s (%s) is not there: the app in the "
                  "sandbox cannot reach the X server", display, socket);
}

char **
sandbox_command (const Sandbox *sandbox, const char *const *argv, const char *display,
                 GError **error)
{
  g_autoptr (GStrvBuilder) cmd = g_strv_builder_new ();
  g_autoptr (GPtrArray) hidden = NULL;
  g_autofree char *program = NULL;
  g_autofree char *real = NULL;
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
  bind_display_socket (sandbox, cmd, display);
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
  sandbox_add_unshare (cmd);
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

