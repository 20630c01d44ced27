/* xserver.c — starting and stopping a private X server (see xserver.h).
 *
 * Start reading at xserver_spawn(). Readiness is the server's own signal:
 * with -displayfd it writes the display number it chose once it accepts
 * connections. If it dies first the pipe reaches EOF (we hold no copy of
 * the write end), so a missing keymap compiler or a full /tmp is reported
 * at once, with the tail of the server's own messages, which go to an
 * unlinked temporary file (a pipe nobody reads could fill and stall a
 * long-lived server).
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "xserver.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xserver-error-quark, xserver_error)

/* How long a stopping server gets after SIGTERM. */
#define XSERVER_STOP_GRACE_MS 3000
/* How long a server killed while starting is waited for before its files
 * are looked for. */
#define XSERVER_KILL_WAIT_MS 5000
/* How many servers xserver_start() starts when one's socket file goes. */
#define XSERVER_START_ATTEMPTS 3

struct XServer
{
  const char *name;          /* "Xvfb", "Xephyr" */
  ProcChild *child;          /* owned */
  char *display;             /* ":N" once ready */
  int log_fd;                /* owned: the server's stdout and stderr */
  int ready_fd;              /* owned until ready: where it writes its display, or -1 */
  guint8 cookie[16];
  GByteArray *xauthority;    /* owned, or NULL: an Xauthority file holding the cookie */
};

#define XAUTH_FAMILY_WILD 0xffff
#define XAUTH_NAME "MIT-MAGIC-COOKIE-1"

static void
xauth_put_counted (GByteArray *out, const guint8 *data, guint16 len)
{
  guint8 be[2] = { (guint8) (len >> 8), (guint8) (len & 0xff) };

  g_byte_array_append (out, be, 2);
  if (len > 0)
    g_byte_array_append (out, data, len);
}

/* A fresh cookie, and the Xauthority entry for it: family FamilyWild,
 * empty address and display number (libXau: any address, any display),
 * the name, the cookie; each a 16-bit big-endian count and bytes. */
static void
xauth_make (XServer *server)
{
  guint8 family[2] = { XAUTH_FAMILY_WILD >> 8, XAUTH_FAMILY_WILD & 0xff };

  /* From the kernel's generator, not GLib's (a Mersenne twister whose
   * state its outputs give away). */
  if (getrandom (server->cookie, sizeof server->cookie, 0) != (ssize_t) sizeof server->cookie)
    for (gsize i = 0; i < sizeof server->cookie; i += 4)
      {
        guint32 r = g_random_int ();
        memcpy (server->cookie + i, &r, 4);
      }
  server->xauthority = g_byte_array_new ();
  g_byte_array_append (server->xauthority, family, 2);
  xauth_put_counted (server->xauthority, NULL, 0);
  xauth_put_counted (server->xauthority, NULL, 0);
  xauth_put_counted (server->xauthority, (const guint8 *) XAUTH_NAME, strlen (XAUTH_NAME));
  xauth_put_counted (server->xauthority, server->cookie, sizeof server->cookie);
}

/* An unlinked file holding the Xauthority, read from the start: what the
 * server gets as fd 4. */
static int
xauth_fd (XServer *server, GError **error)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("xreduce-xauth-XXXXXX", &path, error);

  if (fd < 0)
    return -1;
  g_unlink (path);
  if (write (fd, server->xauthority->data, server->xauthority->len)
      != (ssize_t) server->xauthority->len || lseek (fd, 0, SEEK_SET) != 0)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s",
                   g_strerror (saved));
      return -1;
    }
  return fd;
}

/* The last @max bytes of the server's messages, for error messages. */
static char *
log_tail (XServer *server, gsize max)
{
  struct stat st;
  g_autofree char *buf = NULL;
  off_t start;
  ssize_t n;

  if (server->log_fd < 0 || fstat (server->log_fd, &st) != 0 || st.st_size == 0)
    return g_strdup ("");
  start = st.st_size > (off_t) max ? st.st_size - (off_t) max : 0;
  buf = g_malloc0 (max + 1);
  n = pread (server->log_fd, buf, max, start);
  if (n <= 0)
    return g_strdup ("");
  return g_strstrip (g_utf8_make_valid (buf, n));
}

XServer *
xserver_spawn (const XServerOptions *options, GError **error)
{
  g_autoptr (XServer) server = g_new0 (XServer, 1);
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) local = NULL;
  g_autofree char *log_path = NULL;
  ProcSpawnOptions spawn;
  int fds[2], auth_fd = -1;

  server->log_fd = -1;
  server->ready_fd = -1;
  server->name = options->kind == XSERVER_XEPHYR ? "Xephyr" : "Xvfb";
  if (options->width <= 0 || options->height <= 0
      || options->width > 32767 || options->height > 32767)
    {
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                   "bad screen size %dx%d", options->width, options->height);
      return NULL;
    }
  g_ptr_array_add (argv, g_strdup (server->name));
  g_ptr_array_add (argv, g_strdup ("-displayfd"));
  g_ptr_array_add (argv, g_strdup ("3"));
  g_ptr_array_add (argv, g_strdup ("-nolisten"));
  g_ptr_array_add (argv, g_strdup ("tcp"));
  g_ptr_array_add (argv, g_strdup ("-noreset"));
  if (options->no_autorepeat)
    g_ptr_array_add (argv, g_strdup ("-r"));
  if (options->auth)
    {
      /* The server reads it once at start (-noreset: never again). */
      g_ptr_array_add (argv, g_strdup ("-auth"));
      g_ptr_array_add (argv, g_strdup ("/dev/fd/4"));
    }
  for (const char *const *name = options->disable; name != NULL && *name != NULL; name++)
    {
      g_ptr_array_add (argv, g_strdup ("-extension"));
      g_ptr_array_add (argv, g_strdup (*name));
    }
  if (options->kind == XSERVER_XEPHYR)
    {
      g_ptr_array_add (argv, g_strdup ("-screen"));
      g_ptr_array_add (argv, g_strdup_printf ("%dx%d", options->width, options->height));
      /* The user's keyboard stays the user's: no grab on the host. */
      g_ptr_array_add (argv, g_strdup ("-no-host-grab"));
      if (options->title != NULL)
        {
          g_ptr_array_add (argv, g_strdup ("-title"));
          g_ptr_array_add (argv, g_strdup (options->title));
        }
    }
  else
    {
      g_ptr_array_add (argv, g_strdup ("-screen"));
      g_ptr_array_add (argv, g_strdup ("0"));
      g_ptr_array_add (argv, g_strdup_printf ("%dx%dx24", options->width, options->height));
    }
  g_ptr_array_add (argv, NULL);

  if (options->auth)
    {
      xauth_make (server);
      auth_fd = xauth_fd (server, &local);
    }
  server->log_fd = options->auth && auth_fd < 0 ? -1
    : g_file_open_tmp ("xreduce-xserver-XXXXXX.log", &log_path, &local);
  if (server->log_fd < 0 || !g_unix_open_pipe (fds, FD_CLOEXEC, &local))
    {
      if (auth_fd >= 0)
        close (auth_fd);
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED, "cannot start %s: %s",
                   server->name, local->message);
      return NULL;
    }
  g_unlink (log_path);

  proc_spawn_options_init (&spawn);
  spawn.argv = (const char *const *) argv->pdata;
  spawn.out = spawn.err = PROC_OUTPUT_FD;
  spawn.output_fd = server->log_fd;
  spawn.pass_fd = fds[1];
  spawn.pass_fd4 = auth_fd;
  spawn.death_signal = SIGTERM;
  server->child = proc_spawn (&spawn, &local);
  close (fds[1]);
  if (auth_fd >= 0)
    close (auth_fd);
  if (server->child == NULL)
    {
      close (fds[0]);
      if (g_error_matches (local, PROC_ERROR, PROC_ERROR_NOT_FOUND))
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_NOT_FOUND,
                     "%s is not installed (Debian: apt install %s)", server->name,
                     options->kind == XSERVER_XEPHYR ? "xserver-xephyr" : "xvfb");
      else
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED, "cannot start %s: %s",
                     server->name, local->message);
      return NULL;
    }
  server->ready_fd = fds[0];
  return g_steal_pointer (&server);
}

/* Whether display @display's socket file is there, a socket. */
static gboolean
socket_file_there (guint64 display)
{
  g_autofree char *path = g_strdup_printf ("/tmp/.X11-unix/X%" G_GUINT64_FORMAT, display);
  struct stat st;

  return lstat (path, &st) == 0 && S_ISSOCK (st.st_mode);
}

gboolean
xserver_wait_ready (XServer *server, guint timeout_ms, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *line = NULL;
  char *end = NULL;
  guint64 number;

  if (server->ready_fd < 0)
    {
      if (server->display == NULL)
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED, "%s is not running",
                     server->name);
      return server->display != NULL;
    }
  line = proc_read_line (server->ready_fd, timeout_ms, 32, &local);
  close (server->ready_fd);
  server->ready_fd = -1;
  if (line == NULL && g_error_matches (local, PROC_ERROR, PROC_ERROR_INTERRUPTED))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (line == NULL && g_error_matches (local, PROC_ERROR, PROC_ERROR_TIMED_OUT))
    {
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                   "%s did not report its display within %u ms", server->name, timeout_ms);
      return FALSE;
    }
  if (line == NULL)
    {
      g_autofree char *tail = NULL;
      g_autofree char *how = NULL;

      /* EOF: the server is gone (or closed the pipe and is going). */
      proc_child_wait (server->child, 2000);
      how = proc_child_has_exited (server->child)
              ? proc_describe_wait_status (proc_child_get_wait_status (server->child))
              : g_strdup ("closed its -displayfd pipe");
      tail = log_tail (server, 600);
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED, "%s %s before it was ready%s%s",
                   server->name, how, *tail ? ": " : "", tail);
      return FALSE;
    }
  g_strstrip (line);
  number = g_ascii_strtoull (line, &end, 10);
  if (end == line || *end != '\0')
    {
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                   "%s wrote something that is not a display number: '%s'", server->name,
                   line);
      return FALSE;
    }
  server->display = g_strdup_printf (":%" G_GUINT64_FORMAT, number);
  g_debug ("%s (pid %d) on %s", server->name, (int) xserver_get_pid (server), server->display);
  if (!socket_file_there (number))
    {
      /* Made before it wrote its number, gone since: another server's
       * exit took it (one that had this display closes its abstract
       * socket before it unlinks its file, and a server starting in
       * between makes its own file first). Reached through its abstract
       * socket only, it is no use to an app in a sandbox. */
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_SOCKET_GONE,
                   "%s's socket file /tmp/.X11-unix/X%" G_GUINT64_FORMAT
                   " was removed as it started", server->name, number);
      g_clear_pointer (&server->display, g_free);
      proc_child_kill (server->child, XSERVER_STOP_GRACE_MS);
      return FALSE;
    }
  return TRUE;
}

XServer *
xserver_start (const XServerOptions *options, guint timeout_ms, GError **error)
{
  for (guint attempt = 1;; attempt++)
    {
      g_autoptr (XServer) server = xserver_spawn (options, error);
      g_autoptr (GError) local = NULL;

      if (server == NULL)
        return NULL;
      if (xserver_wait_ready (server, timeout_ms, &local))
        return g_steal_pointer (&server);
      /* A rare race of two servers (xserver_wait_ready()): a new one
       * takes another display. */
      if (!g_error_matches (local, XSERVER_ERROR, XSERVER_ERROR_SOCKET_GONE)
          || attempt == XSERVER_START_ATTEMPTS)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_debug ("%s; starting another", local->message);
    }
}

const char *
xserver_get_display (const XServer *server)
{
  return server->display;
}

pid_t
xserver_get_pid (const XServer *server)
{
  return server->child != NULL ? proc_child_get_pid (server->child) : 0;
}

const guint8 *
xserver_get_cookie (const XServer *server, gsize *len)
{
  *len = server->xauthority != NULL ? sizeof server->cookie : 0;
  return server->xauthority != NULL ? server->cookie : NULL;
}

const guint8 *
xserver_get_xauthority (const XServer *server, gsize *len)
{
  *len = server->xauthority != NULL ? server->xauthority->len : 0;
  return server->xauthority != NULL ? server->xauthority->data : NULL;
}

gboolean
xserver_write_xauthority (const XServer *server, const char *path, GError **error)
{
  if (server->xauthority == NULL)
    {
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED, "%s has no cookie",
                   server->name);
      return FALSE;
    }
  return g_file_set_contents_full (path, (const char *) server->xauthority->data,
                                   (gssize) server->xauthority->len,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

gboolean
xserver_is_alive (XServer *server)
{
  if (server->child == NULL)
    return FALSE;
  proc_child_wait (server->child, 0);
  return !proc_child_has_exited (server->child);
}

gboolean
xserver_is_stopped (const XServer *server)
{
  g_autofree char *path = NULL;
  g_autofree char *stat = NULL;
  const char *after;
  char state = 0;

  if (server->child == NULL || xserver_get_pid (server) <= 0)
    return FALSE;
  path = g_strdup_printf ("/proc/%d/stat", (int) xserver_get_pid (server));
  /* "pid (comm) state ...": comm may hold anything, state follows its
   * last ')'. */
  if (!g_file_get_contents (path, &stat, NULL, NULL) || (after = strrchr (stat, ')')) == NULL
      || sscanf (after + 1, " %c", &state) != 1)
    return FALSE;
  return state == 'T' || state == 't';
}

/* A stopped server takes its SIGTERM only once it runs again. */
static void
xserver_continue (XServer *server)
{
  if (server->child != NULL && xserver_get_pid (server) > 0 && xserver_is_stopped (server))
    kill (xserver_get_pid (server), SIGCONT);
}

/* TRUE while the server is still starting: it has not written its
 * display number yet. The server takes SIGTERM only in its dispatch
 * loop, after its initialisation (fonts, the keymap's xkbcomp): a second
 * or more on a loaded machine, which a Ctrl-C would wait for. */
static gboolean
is_starting (XServer *server)
{
  struct pollfd ready = { .fd = server->ready_fd, .events = POLLIN };

  if (server->display != NULL || server->ready_fd < 0 || server->child == NULL
      || xserver_get_pid (server) <= 0)
    return FALSE;
  return poll (&ready, 1, 0) == 0;
}

/* Whether a server listens on display @display's abstract socket (which
 * every X server on Linux binds before its socket file). */
static gboolean
display_listening (unsigned display)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int len = snprintf (addr.sun_path + 1, sizeof addr.sun_path - 1, "/tmp/.X11-unix/X%u",
                      display);
  gboolean listening;

  if (fd < 0)
    return TRUE;   /* not known: keep the socket */
  listening = connect (fd, (struct sockaddr *) &addr,
                       (socklen_t) (offsetof (struct sockaddr_un, sun_path) + 1 + (size_t) len)) == 0;
  close (fd);
  return listening;
}

/* What a server killed while starting leaves, as its own exit would
 * remove it: its lock file(s) in /tmp, which hold its pid, and the
 * socket of that display. Run once it is dead (a zombie until reaped:
 * its pid is no one else's yet). The socket file stays if a server
 * listens on that display by now: another server, started since the
 * death, replaces the file with its own before it takes the stale lock,
 * and removing that would leave it reachable only by its abstract
 * socket, which an app in a sandbox without the network cannot reach
 * ("cannot open display", seen under load). */
static void
remove_leftovers (pid_t pid)
{
  g_autoptr (GDir) dir = g_dir_open ("/tmp", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      unsigned display;
      char tail;
      int held;

      /* .X12-lock, and the .tX12-lock it is linked from. */
      if ((sscanf (name, ".X%u-loc%c", &display, &tail) != 2
           && sscanf (name, ".tX%u-loc%c", &display, &tail) != 2) || tail != 'k')
        continue;
      path = g_build_filename ("/tmp", name, NULL);
      if (!g_file_get_contents (path, &text, NULL, NULL) || sscanf (text, "%d", &held) != 1
          || held != (int) pid)
        continue;
      /* The socket first, while the lock still keeps every other server
       * from running on this display: one that took the display between
       * our look and the unlink would lose its file. */
      if (name[1] == 'X' && !display_listening (display))
        {
          g_autofree char *socket = g_strdup_printf ("/tmp/.X11-unix/X%u", display);
          g_unlink (socket);
        }
      g_unlink (path);
    }
}

void
xserver_signal_stop (XServer *server)
{
  xserver_continue (server);
  if (server->child != NULL && xserver_get_pid (server) > 0)
    kill (xserver_get_pid (server), is_starting (server) ? SIGKILL : SIGTERM);
}

void
xserver_stop (XServer *server)
{
  xserver_continue (server);
  if (server->child == NULL)
    return;
  if (is_starting (server))
    {
      pid_t pid = xserver_get_pid (server);

      proc_child_signal (server->child, SIGKILL);
      /* Waited for without reaping it, so that its pid stays its own
       * while its files are looked for; bounded, as proc_child_stop()'s
       * wait after SIGKILL (a process stuck in the kernel). */
      for (guint waited_ms = 0; waited_ms < XSERVER_KILL_WAIT_MS; waited_ms++)
        {
          siginfo_t info = { 0 };

          if (waitid (P_PID, pid, &info, WEXITED | WNOWAIT | WNOHANG) != 0 && errno != EINTR)
            break;             /* not our child any more: nothing to look for */
          if (info.si_pid == pid)
            {
              remove_leftovers (pid);
              break;
            }
          g_usleep (1000);
        }
    }
  proc_child_kill (server->child, XSERVER_STOP_GRACE_MS);
}

void
xserver_free (XServer *server)
{
  if (server == NULL)
    return;
  xserver_stop (server);
  g_clear_pointer (&server->child, proc_child_free);
  if (server->ready_fd >= 0)
    close (server->ready_fd);
  if (server->log_fd >= 0)
    close (server->log_fd);
  g_free (server->display);
  if (server->xauthority != NULL)
    g_byte_array_unref (server->xauthority);
  g_free (server);
}
