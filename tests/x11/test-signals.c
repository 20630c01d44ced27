/* test-signals.c — SIGINT, SIGTERM and SIGHUP end xreplay, xreduce and
 * xrecord in every phase of their run: while their X server starts
 * (set-up), while the app has not mapped a window yet, while actions are
 * replayed or recorded, and while the report is written. Each case checks
 * the documented exit status and that nothing is left: no process (the
 * test is a child subreaper, so whatever the program left is re-parented
 * here and seen), nothing in the TMPDIR the program was given, no half
 * report.
 *
 * Each phase is reached by an event, never by a delay: a stand-in "Xvfb"
 * (first on PATH) that says it started and never gets ready; an app that
 * says it started and connects without mapping a window (xev -root); the
 * replay's own words (-v) or xreduce's; an app whose --version (the
 * report's probe of the app) says it started and never answers. The
 * stand-ins say so on a FIFO the test reads: a FIFO in the test's folder
 * can be written from inside the replay's sandbox, which sees that folder
 * read-only because the app's command line names a file in it.
 *
 * How long each program took to end is printed (figures for
 * bench/bench-signals.sh); the test checks behaviour, not time.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "signame.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"
#include "shard.h"

#define WAIT_MS 60000
/* Reaching a phase: xreduce's report comes after a whole reduction,
 * minutes under ASan on a busy machine. */
#define PHASE_WAIT_MS 600000

typedef enum { PROGRAM_XREPLAY, PROGRAM_XREDUCE, PROGRAM_XRECORD } Program;
typedef enum { PHASE_SETUP, PHASE_WINDOW, PHASE_RUN, PHASE_REPORT } Phase;

typedef struct
{
  Program program;
  Phase phase;
  int signum;
} Case;

typedef struct
{
  char *dir;                 /* the test's folder: stand-ins, FIFO, outputs */
  char *tmp;                 /* the TMPDIR the program is given */
  char *bin;                 /* first on PATH with the stand-in Xvfb */
  char *fifo;
  char *never_maps;          /* an app that connects and maps nothing */
  char *slow_version;        /* runs its arguments, but its --version never answers */
  char *session;             /* the demo session (ends in xdemo's crash) */
  int fifo_fd;
  char **envp;
} Fixture;

static void
write_script (const char *path, const char *text)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  const Case *c = data;
  g_autofree char *script = NULL;
  g_autofree char *xvfb = NULL;
  g_autofree char *path = NULL;

  test_become_subreaper ();
  f->dir = test_make_tmp ("test-signals-XXXXXX");
  f->tmp = g_build_filename (f->dir, "tmp", NULL);
  f->bin = g_build_filename (f->dir, "bin", NULL);
  f->fifo = g_build_filename (f->dir, "said", NULL);
  f->never_maps = g_build_filename (f->dir, "never-maps", NULL);
  f->slow_version = g_build_filename (f->dir, "slow-version", NULL);
  f->session = data_path ("demo.session");
  g_assert_cmpint (g_mkdir (f->tmp, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (f->bin, 0700), ==, 0);
  g_assert_cmpint (mkfifo (f->fifo, 0600), ==, 0);
  /* Open before anything can write: a writer then never blocks, and the
   * test sees every line. No writer yet is no POLLHUP on Linux. */
  f->fifo_fd = open (f->fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  g_assert_cmpint (f->fifo_fd, >=, 0);

  /* The paths are the test's own (g_dir_make_tmp), quoted all the same. */
  {
    g_autofree char *q_fifo = g_shell_quote (f->fifo);

    script = g_strdup_printf ("#!/bin/sh\necho xvfb > %s\nexec sleep 600\n", q_fifo);
    xvfb = g_build_filename (f->bin, "Xvfb", NULL);
    write_script (xvfb, script);
    g_free (script);
    script = g_strdup_printf ("#!/bin/sh\necho window > %s\nexec xev -root > /dev/null\n",
                              q_fifo);
    write_script (f->never_maps, script);
    g_free (script);
    /* The app to run is its argument: a file named only inside the
     * script is not seen in the sandbox when the build tree is under
     * /tmp (a CI clone's). */
    script = g_strdup_printf ("#!/bin/sh\n"
                              "if [ \"$1\" = --version ]; then echo report > %s; exec sleep 600; fi\n"
                              "exec \"$@\"\n", q_fifo);
    write_script (f->slow_version, script);
  }
  f->envp = g_environ_setenv (g_get_environ (), "TMPDIR", f->tmp, TRUE);
  if (c->phase == PHASE_SETUP)
    {
      path = g_strconcat (f->bin, ":", g_environ_getenv (f->envp, "PATH"), NULL);
      f->envp = g_environ_setenv (f->envp, "PATH", path, TRUE);
    }
  /* The programs start their own servers: no display of the caller's. */
  f->envp = g_environ_unsetenv (f->envp, "DISPLAY");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  close (f->fifo_fd);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->tmp);
  g_free (f->bin);
  g_free (f->fifo);
  g_free (f->never_maps);
  g_free (f->slow_version);
  g_free (f->session);
  g_strfreev (f->envp);
  g_assert_cmpuint (test_orphans_gone (0, WAIT_MS), ==, 0);
}

/* Waits until a stand-in writes @word on the FIFO (several may write,
 * one after the other: a writer's close is no end). The program under
 * test (@pid) ending first is a failure at once, with what it said on
 * @err_fd. */
static void
wait_said (Fixture *f, const char *word, GPid pid, int err_fd)
{
  g_autoptr (GString) said = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + (gint64) PHASE_WAIT_MS * 1000;

  while (strstr (said->str, word) == NULL)
    {
      struct pollfd pfd = { .fd = f->fifo_fd, .events = POLLIN };
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);
      siginfo_t info = { 0 };
      char buf[64];
      ssize_t n;

      if (left <= 0)
        g_error ("no stand-in said '%s' within %d ms (it said '%s')", word, PHASE_WAIT_MS,
                 said->str);
      /* Exited (not reaped: test_wait_said does that)? */
      if (waitid (P_PID, (id_t) pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0
          && info.si_pid == pid)
        {
          g_autoptr (GString) err = g_string_new (NULL);
          test_read_until (err_fd, err, "\xff", WAIT_MS);
          g_error ("the program ended before a stand-in said '%s': %s", word, err->str);
        }
      /* The FIFO, or a look at the program every 200 ms. */
      if (poll (&pfd, 1, MIN (left, 200)) <= 0)
        continue;
      n = read (f->fifo_fd, buf, sizeof buf);
      if (n > 0)
        g_string_append_len (said, buf, n);
      else if (n == 0)
        g_usleep (10 * 1000); /* a writer closed; the next has not opened */
    }
}

static const char *
program_name (Program p)
{
  return p == PROGRAM_XREPLAY ? "xreplay" : p == PROGRAM_XREDUCE ? "xreduce" : "xrecord";
}

static const char *
phase_name (Phase p)
{
  return p == PHASE_SETUP ? "setup" : p == PHASE_WINDOW ? "window"
         : p == PHASE_RUN ? "run" : "report";
}

static void
test_signal (Fixture *f, gconstpointer data)
{
  const Case *c = data;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) said = g_string_new (NULL);
  g_autoptr (GDir) left = NULL;
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_autofree char *report = g_build_filename (f->dir, "report", NULL);
  g_autofree char *min_report = g_strconcat (out, ".report", NULL);
  const char *app = c->phase == PHASE_WINDOW ? f->never_maps
                    : c->phase == PHASE_REPORT ? f->slow_version : env ("XDEMO");
  /* slow-version runs xdemo, named on the command line. */
  const char *app_arg = c->phase == PHASE_REPORT ? env ("XDEMO") : NULL;
  gint64 sent, ended;
  int err_fd, status, expected;
  GPid pid;

  switch (c->program)
    {
    case PROGRAM_XREPLAY:
      g_ptr_array_add (argv, (char *) env ("XREPLAY"));
      g_ptr_array_add (argv, (char *) "-v");
      if (c->phase == PHASE_REPORT)
        {
          g_ptr_array_add (argv, (char *) "--no-backtrace");
          g_ptr_array_add (argv, (char *) "--report");
          g_ptr_array_add (argv, report);
        }
      g_ptr_array_add (argv, f->session);
      break;
    case PROGRAM_XREDUCE:
      g_ptr_array_add (argv, (char *) env ("XREDUCE"));
      g_ptr_array_add (argv, (char *) "-j");
      g_ptr_array_add (argv, (char *) "2");
      g_ptr_array_add (argv, (char *) "-o");
      g_ptr_array_add (argv, out);
      g_ptr_array_add (argv, f->session);
      break;
    case PROGRAM_XRECORD:
      g_ptr_array_add (argv, (char *) env ("XRECORD"));
      g_ptr_array_add (argv, (char *) "--headless");
      g_ptr_array_add (argv, (char *) "-o");
      g_ptr_array_add (argv, out);
      break;
    }
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, (char *) app);
  if (app_arg != NULL)
    g_ptr_array_add (argv, (char *) app_arg);
  g_ptr_array_add (argv, NULL);

  pid = test_spawn_talking (NULL, (const char *const *) argv->pdata, f->envp, &err_fd);

  switch (c->phase)
    {
    case PHASE_SETUP:
      wait_said (f, "xvfb", pid, err_fd);
      break;
    case PHASE_WINDOW:
      wait_said (f, "window", pid, err_fd);
      break;
    case PHASE_REPORT:
      wait_said (f, "report", pid, err_fd);
      break;
    case PHASE_RUN:
      /* xreplay names each action it replays; xreduce says when the
       * search starts; xrecord when it records. */
      if (!test_read_until (err_fd, said,
                            c->program == PROGRAM_XREPLAY ? "[2/"
                            : c->program == PROGRAM_XREDUCE ? "reducing for" : "recording ",
                            PHASE_WAIT_MS))
        g_error ("%s never reached its run: %s", program_name (c->program), said->str);
      break;
    }

  sent = g_get_monotonic_time ();
  g_assert_cmpint (kill (pid, c->signum), ==, 0);
  status = test_wait_said (&pid, err_fd, said, WAIT_MS);
  ended = g_get_monotonic_time ();
  close (err_fd);
  g_test_message ("ended: %s %s %s in %" G_GINT64_FORMAT " ms", program_name (c->program),
                  phase_name (c->phase), proc_signal_name (c->signum), (ended - sent) / 1000);

  /* One status for one cause, in all three programs: 128 + the signal
   * (xreduce used to say 130 for every one). */
  expected = 128 + c->signum;
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, expected);
  g_assert_cmpuint (test_orphans_gone (0, WAIT_MS), ==, 0);

  /* The sandbox's folders, a worker's X authority: all gone. */
  left = g_dir_open (f->tmp, 0, &error);
  g_assert_no_error (error);
  for (const char *name; (name = g_dir_read_name (left)) != NULL;)
    g_error ("%s is left in TMPDIR", name);

  /* No half report, under its name or beside it. */
  g_assert_false (g_file_test (report, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (min_report, G_FILE_TEST_EXISTS));
  {
    g_autoptr (GDir) dir = g_dir_open (f->dir, 0, &error);
    g_assert_no_error (error);
    for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
      if (strstr (name, "report") != NULL)
        g_error ("%s is left beside the report", name);
  }
  if (c->program == PROGRAM_XRECORD && c->phase != PHASE_SETUP)
    {
      g_autofree char *log = NULL;

      /* What was recorded is on disk, with its footer. */
      g_file_get_contents (out, &log, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (strstr (log, "\noutcome "));
    }
}

int
main (int argc, char **argv)
{
  static const Case cases[] = {
    { PROGRAM_XREPLAY, PHASE_SETUP, 0 }, { PROGRAM_XREPLAY, PHASE_WINDOW, 0 },
    { PROGRAM_XREPLAY, PHASE_RUN, 0 },   { PROGRAM_XREPLAY, PHASE_REPORT, 0 },
    { PROGRAM_XREDUCE, PHASE_SETUP, 0 }, { PROGRAM_XREDUCE, PHASE_WINDOW, 0 },
    { PROGRAM_XREDUCE, PHASE_RUN, 0 },   { PROGRAM_XREDUCE, PHASE_REPORT, 0 },
    { PROGRAM_XRECORD, PHASE_SETUP, 0 }, { PROGRAM_XRECORD, PHASE_WINDOW, 0 },
    { PROGRAM_XRECORD, PHASE_RUN, 0 },
  };
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
  static Case all[G_N_ELEMENTS (cases) * G_N_ELEMENTS (signals)];
  guint n = 0;

  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    for (gsize s = 0; s < G_N_ELEMENTS (signals); s++)
      {
        g_autofree char *path = NULL;

        all[n] = cases[i];
        all[n].signum = signals[s];
        path = g_strdup_printf ("/signals/%s/%s/%s", program_name (all[n].program),
                                phase_name (all[n].phase), proc_signal_name (signals[s]));
        if (test_shard_mine ())
          g_test_add (path, Fixture, &all[n], fixture_setup, test_signal, fixture_teardown);
        n++;
      }
  return g_test_run ();
}
