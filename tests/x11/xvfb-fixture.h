/* xvfb-fixture.h — a private Xvfb for one X11 test, and process checks.
 *
 * test_xvfb_start() runs `Xvfb -displayfd` (proc/xserver.h) in a group of its own and
 * returns once the server has written its display number, i.e. once it
 * accepts clients: no fixed display numbers, no sleeps. The server dies
 * with the test even when an assertion aborts it before its teardown
 * (PR_SET_PDEATHSIG).
 *
 * test_orphans_alive() answers "did anything outlive the program under
 * test?": the test makes itself a child subreaper
 * (test_become_subreaper), so whatever the program left running is
 * re-parented to the test, where it can be seen and reaped.
 *
 * test_read_until() reads what a program under test says on a pipe until
 * a line of interest (its readiness) or its end, within a deadline;
 * test_wait_said() reads it to the end and reaps it.
 *
 * test_remove_tree() removes a test's temporary folder with what is in it;
 * env() and data_path() find the programs and data meson passes to every
 * X11 test in its environment (XREPLAY, XDEMO, ..., XREDUCE_SRCDIR).
 *
 * Header-only: each test program includes it once.
 */
#pragma once

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "proc.h"
#include "proctree.h"
#include "session.h"
#include "xserver.h"

static inline const char *
env (const char *name)
{
  const char *value = g_getenv (name);

  if (value == NULL)
    g_error ("%s is not set: run this test with meson test", name);
  return value;
}

/* tests/data/@name in the source tree. */
static inline char *
data_path (const char *name)
{
  return g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "data", name, NULL);
}

/* The user actions in the bundled tests/data/demo.session, which
 * tests/data/record-demo-session.sh recorded (its motion over the bare
 * desktop is not recorded: 91 of the script's 95). */
#define DEMO_ACTIONS 91

typedef struct
{
  XServer *server;         /* proc/xserver.h: the one way this project starts X servers */
  GPid pid;
  char *display;           /* ":N" */
} TestXvfb;

/* @disable: extensions the server leaves out (NULL-terminated), or NULL. */
static inline void
test_xvfb_start_without (TestXvfb *x, const char *screen, const char *const *disable)
{
  XServerOptions options = { .kind = XSERVER_XVFB, .disable = disable };
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (sscanf (screen, "%dx%d", &options.width, &options.height), ==, 2);
  x->server = xserver_start (&options, 20000, &error);
  g_assert_no_error (error);
  x->pid = xserver_get_pid (x->server);
  x->display = g_strdup (xserver_get_display (x->server));
}

static inline void
test_xvfb_start (TestXvfb *x, const char *screen)
{
  test_xvfb_start_without (x, screen, NULL);
}

static inline void
test_xvfb_stop (TestXvfb *x)
{
  g_clear_pointer (&x->server, xserver_free);
  x->pid = 0;
  g_clear_pointer (&x->display, g_free);
}

static inline void
test_become_subreaper (void)
{
  g_assert_cmpint (prctl (PR_SET_CHILD_SUBREAPER, 1), ==, 0);
}

/* Is @pid a process that still runs (not gone, not a zombie)? */
static inline gboolean
test_pid_alive (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *p;

  if (pid <= 0 || !g_file_get_contents (path, &stat, NULL, NULL))
    return FALSE;
  p = strrchr (stat, ')');
  return p != NULL && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* Reaps the test's exited children except @keep (e.g. its own Xvfb, or 0),
 * and returns the number of its children still running other than @keep
 * and the test's own keeper (proc.h): with test_become_subreaper(),
 * whatever a finished program left behind. */
static inline guint
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

/* test_orphans_alive() until none is left or @timeout_ms have passed;
 * the number still running then. For what dies of its own accord once
 * the program under test is gone: a terminal's shell, in a session of
 * its own, ends on the SIGHUP of its terminal's closing, a moment after
 * the terminal. */
static inline guint
test_orphans_gone (pid_t keep, int timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint alive;

  while ((alive = test_orphans_alive (keep)) > 0 && g_get_monotonic_time () < deadline)
    g_usleep (20000);
  return alive;
}

/* Reads @fd into @said until it holds @what, or the end (@what "\xff":
 * everything); FALSE at the end or after @timeout_ms without it. */
static inline gboolean
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

/* Reads what the child *@pid says on @fd to its end (within @timeout_ms),
 * reaps it, logs what it said and returns its wait status; *@pid becomes
 * 0, so that a teardown does not kill it again. */
static inline int
test_wait_said (GPid *pid, int fd, GString *said, int timeout_ms)
{
  int status = -1;

  test_read_until (fd, said, "\xff", timeout_ms);
  g_assert_cmpint (waitpid (*pid, &status, 0), ==, *pid);
  *pid = 0;
  g_test_message ("it said: %s", said->str);
  return status;
}

/* Waits until @pid's processes idle (sleeping, none running or in a disk
 * wait) in two samples 20 ms apart: a window manager that has done
 * starting up (openbox takes SubstructureRedirect early, and loses a
 * MapRequest that comes before its event loop runs). Process state, not
 * a delay: it returns as soon as that is so. */
static inline void
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

/* Removes @path, a folder with files and folders in it. */
static inline void
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

/* The user actions of the session at @path, in words, one a line. */
static inline char *
test_actions_in_words (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load (path, &error);
  g_autoptr (GArray) actions = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  actions = session_get_actions (session);
  for (guint i = 0; i < actions->len; i++)
    {
      g_autofree char *words =
        session_event_describe (session_get_event (session, g_array_index (actions, guint, i)));
      g_string_append_printf (out, "%s\n", words);
    }
  return g_string_free (out, FALSE);
}
