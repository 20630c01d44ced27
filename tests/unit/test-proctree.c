/* test-proctree.c — the CPU of a process tree (proc/proctree.c), and
 * who is in it, no display.
 *
 * A child of this test starts a grandchild in a session of its own (as a
 * terminal starts its shell), which works for WORK_MS of its own CPU time
 * and says so on a pipe, then waits. The child's tree must show that CPU
 * (and this test's tree too, through the child); a tree whose root is gone
 * shows none. Synchronisation: the pipe, the grandchild's state in /proc
 * (sleeping in pause()), and waitpid. Both die with their parent, should
 * an assertion end the test first. /proctree/procfs: the /proc reading
 * under it (procfs.c).
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/time.h>
#include <time.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "proctree.h"
#include "procfs-private.h"

#define WORK_MS 300

static void
burn_cpu (void)
{
  for (;;)
    {
      struct timespec used;
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &used);
      if (used.tv_sec * 1000 + used.tv_nsec / 1000000 >= WORK_MS)
        return;
    }
}

/* What the grandchild of start_tree() does. */
typedef enum
{
  GRANDCHILD_WORKS,          /* works for WORK_MS of CPU, then pause() */
  GRANDCHILD_PAUSES,         /* pause() */
  GRANDCHILD_ON_A_TIMER,     /* sleep(): nanosleep */
} Grandchild;

/* Forks the child, which pause()s and starts the grandchild in a session
 * of its own (@how); returns the child's pid once the grandchild has
 * done its work, and the grandchild's in *@grandchild. Both die with
 * this test. */
static pid_t
start_tree (Grandchild how, pid_t *grandchild)
{
  int fds[2];
  pid_t child;

  g_assert_cmpint (pipe (fds), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      if (fork () == 0)
        {
          pid_t self = getpid ();

          prctl (PR_SET_PDEATHSIG, SIGKILL);
          setsid ();
          if (how == GRANDCHILD_WORKS)
            burn_cpu ();
          if (write (fds[1], &self, sizeof self) != sizeof self)
            _exit (1);
          if (how == GRANDCHILD_ON_A_TIMER)
            sleep (1000);
          else
            pause ();
          _exit (0);
        }
      pause ();   /* until killed, with its group */
      _exit (0);
    }
  close (fds[1]);
  g_assert_cmpint (read (fds[0], grandchild, sizeof *grandchild), ==, sizeof *grandchild);
  close (fds[0]);
  return child;
}

/* Waits until @pid sleeps (state S in /proc/PID/stat). */
static void
wait_sleeping (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *text = NULL;
      const char *after;

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      after = strrchr (text, ')');
      g_assert_nonnull (after);
      if (after[2] == 'S')
        return;
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (1000);   /* polling a process state: nothing to block on */
    }
}

static void
test_tree_cpu (void)
{
  guint hz = proctree_ticks_per_second ();
  ProcTreeSample before, child_tree, own_tree, gone;
  pid_t grandchild = 0, child;
  /* Tick counting is coarse: at least two thirds of the work. */
  guint64 work = (guint64) WORK_MS * hz / 1000 * 2 / 3;

  proctree_sample (getpid (), &before);
  g_assert_cmpuint (before.n_procs, ==, 1);
  child = start_tree (GRANDCHILD_WORKS, &grandchild);
  wait_sleeping (grandchild);
  wait_sleeping (child);
  proctree_sample (child, &child_tree);
  proctree_sample (getpid (), &own_tree);

  g_test_message ("%u ticks a second; the child's tree used %" G_GUINT64_FORMAT
                  ", this test's %" G_GUINT64_FORMAT " (before: %" G_GUINT64_FORMAT ")",
                  hz, child_tree.ticks, own_tree.ticks, before.ticks);
  g_assert_cmpuint (hz, >, 0);
  /* The grandchild is in another session: still the child's tree. */
  g_assert_cmpuint (child_tree.n_procs, ==, 2);
  g_assert_cmpuint (child_tree.pid_sum, ==, (guint64) child + (guint64) grandchild);
  g_assert_cmpuint (child_tree.ticks, >=, work);
  g_assert_cmpuint (own_tree.n_procs, ==, 3);
  g_assert_cmpuint (own_tree.ticks, >=, before.ticks + work);
  /* Both wait in pause(): neither runs. */
  g_assert_cmpuint (child_tree.n_active, ==, 0);
  /* Who is in which tree: the grandchild, in a session and group of its
   * own, by its parent, in the child's tree and in this test's; not the
   * other way round. */
  g_assert_true (proctree_is_in (child, child));
  g_assert_true (proctree_is_in (child, grandchild));
  g_assert_true (proctree_is_in (getpid (), grandchild));
  g_assert_false (proctree_is_in (grandchild, child));
  g_assert_false (proctree_is_in (child, getpid ()));
  g_assert_false (proctree_is_in (child, 1));
  g_assert_false (proctree_is_in (child, 0));
  g_assert_false (proctree_is_in (0, child));

  /* The grandchild is in a session of its own: killed by its pid (init
   * reaps it), then the child. */
  g_assert_cmpint (grandchild, >, 0);
  kill (grandchild, SIGKILL);
  kill (child, SIGKILL);
  g_assert_cmpint (waitpid (child, NULL, 0), ==, child);
  /* A tree whose root is gone. */
  proctree_sample (child, &gone);
  g_assert_cmpuint (gone.n_procs, ==, 0);
  g_assert_cmpuint (gone.ticks, ==, 0);
  g_assert_cmpuint (gone.n_active, ==, 0);
  proctree_sample (0, &gone);
  g_assert_cmpuint (gone.n_procs, ==, 0);
  /* A process that is gone is in no tree. */
  g_assert_false (proctree_is_in (getpid (), child));
}

/* start_tree() with a grandchild asleep on a timer (@timer) or in
 * pause(); returns once both sleep. */
static pid_t
start_sleepers (gboolean timer, pid_t *grandchild)
{
  pid_t child = start_tree (timer ? GRANDCHILD_ON_A_TIMER : GRANDCHILD_PAUSES, grandchild);

  wait_sleeping (child);
  wait_sleeping (*grandchild);
  return child;
}

static gpointer
spin (gpointer data)
{
  volatile gint *stop = data;

  while (!g_atomic_int_get (stop))
    ;
  return NULL;
}

/* A glance: the tree found through the children lists, idle when all
 * sleep; a sleep on a timer is said; every thread counts; the extra
 * process is looked at without its children. */
static void
test_glance (void)
{
  ProcTreeGlance glance;
  pid_t grandchild, child;

  for (int timer = 0; timer < 2; timer++)
    {
      child = start_sleepers (timer, &grandchild);
      if (!proctree_glance (child, 0, &glance))
        {
          g_test_skip ("the kernel lists no children (CONFIG_PROC_CHILDREN)");
          kill (grandchild, SIGKILL);
          kill (child, SIGKILL);
          waitpid (child, NULL, 0);
          return;
        }
      g_assert_cmpuint (glance.n_procs, ==, 2);
      g_assert_cmpuint (glance.pid_sum, ==, (guint64) child + (guint64) grandchild);
      g_assert_cmpuint (glance.n_active, ==, 0);
      /* /proc/PID/syscall may be closed to us (no ptrace right): then
       * nothing is said, never a wrong thing. */
      {
        g_autofree char *path = g_strdup_printf ("/proc/%d/syscall", (int) grandchild);
        g_autofree char *text = NULL;

        if (g_file_get_contents (path, &text, NULL, NULL))
          g_assert_cmpint (glance.handler_asleep, ==, timer);
        else
          g_assert_false (glance.handler_asleep);
      }
      /* This test, running, as the extra process; its children (the
       * child) not counted twice. */
      g_assert_true (proctree_glance (grandchild, getpid (), &glance));
      g_assert_cmpuint (glance.n_procs, ==, 1);
      g_assert_cmpuint (glance.n_active, >=, 1);
      kill (grandchild, SIGKILL);
      kill (child, SIGKILL);
      g_assert_cmpint (waitpid (child, NULL, 0), ==, child);
      g_assert_true (proctree_glance (child, 0, &glance));
      g_assert_cmpuint (glance.n_procs, ==, 0);
    }

  /* A thread at work in a process whose main thread waits: active. */
  {
    gint stop = 0;
    GThread *thread = g_thread_new ("spin", spin, &stop);

    g_assert_true (proctree_glance (getpid (), 0, &glance));
    g_assert_cmpuint (glance.n_active, >=, 2);
    g_atomic_int_set (&stop, 1);
    g_thread_join (thread);
  }
}

/* A glance with the threads' CPU time: the same at two glances of a tree
 * asleep, more where a thread ran between them; the helper's counts. */
static void
test_glance_ran (void)
{
  ProcTreeGlance a, b;
  pid_t grandchild, child = start_sleepers (FALSE, &grandchild);
  gint stop = 0;
  GThread *thread;
  guint64 alone;

  if (!proctree_glance (child, 0, &a))
    g_test_skip ("the kernel lists no children (CONFIG_PROC_CHILDREN)");
  else
    {
      g_assert_false (a.ran_read);
      g_assert_cmpuint (a.ran_ns, ==, 0);
      g_assert_true (proctree_glance_ran (child, 0, &a));
      if (!a.ran_read)
        g_test_skip ("no /proc/PID/task/TID/schedstat (CONFIG_SCHED_INFO)");
      else
        {
          g_assert_cmpuint (a.n_procs, ==, 2);
          g_assert_cmpuint (a.ran_ns, >, 0);
          g_usleep (20000);
          g_assert_true (proctree_glance_ran (child, 0, &b));
          g_assert_true (b.ran_read);
          g_assert_cmpuint (b.ran_ns, ==, a.ran_ns);
          alone = a.ran_ns;

          /* This process, a thread of it spinning between two glances. */
          thread = g_thread_new ("spin", spin, &stop);
          g_assert_true (proctree_glance_ran (getpid (), 0, &a));
          g_usleep (20000);
          g_assert_true (proctree_glance_ran (getpid (), 0, &b));
          g_atomic_int_set (&stop, 1);
          g_thread_join (thread);
          g_assert_true (a.ran_read && b.ran_read);
          g_assert_cmpuint (b.ran_ns, >, a.ran_ns);

          /* This process as the helper: its CPU time is added. */
          g_assert_true (proctree_glance_ran (child, 0, &a));
          proctree_glance_add_helper (getpid (), &a);
          g_assert_true (a.ran_read);
          g_assert_cmpuint (a.ran_ns, >, alone);
        }
    }
  kill (grandchild, SIGKILL);
  kill (child, SIGKILL);
  g_assert_cmpint (waitpid (child, NULL, 0), ==, child);
}

/* The timeout a system call waits, as /proc/PID/syscall says it: poll's
 * and epoll_wait's in their arguments (-1: forever), ppoll's and
 * select's behind a pointer, read from the process's memory; anything
 * else, running, or garbage: none. */
static void
test_syscall_timeout (void)
{
  struct timespec ts = { 2, 500000000 };
  struct timeval tv = { 1, 250000 };
  g_autofree char *ppoll = g_strdup_printf ("%d 0x7ffc 0x3 0x%" G_GINT64_MODIFIER "x 0x0 0x8 0x0 "
                                            "0x7ffc 0x7f00", SYS_ppoll,
                                            (guint64) (gsize) &ts);
  g_autofree char *select = g_strdup_printf ("%d 0x8 0x7ffc 0x0 0x0 0x%" G_GINT64_MODIFIER "x 0x0 "
                                             "0x7ffc 0x7f00", SYS_select,
                                             (guint64) (gsize) &tv);
  g_autofree char *poll = g_strdup_printf ("%d 0x1f3ad0 0x3 0x320 0x0 0x0 0x0 0x7ffc 0x7f00",
                                           SYS_poll);
  g_autofree char *forever = g_strdup_printf ("%d 0x1f3ad0 0x3 0xffffffff 0x0 0x0 0x0 0x7ffc "
                                              "0x7f00", SYS_poll);
  g_autofree char *epoll = g_strdup_printf ("%d 0x3 0x7ffc 0x20 0x1f4 0x0 0x0 0x7ffc 0x7f00",
                                            SYS_epoll_wait);
  g_autofree char *null_ppoll = g_strdup_printf ("%d 0x7ffc 0x3 0x0 0x0 0x8 0x0 0x7ffc 0x7f00",
                                                 SYS_ppoll);
  g_autofree char *futex = g_strdup_printf ("%d 0x7f00 0x80 0x0 0x0 0x0 0x0 0x7ffc 0x7f00",
                                            SYS_futex);

  g_assert_cmpint (proctree_syscall_timeout (getpid (), poll), ==, 800);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), forever), ==, -1);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), epoll), ==, 500);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), futex), ==, -1);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), null_ppoll), ==, -1);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), "running"), ==, -1);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), ""), ==, -1);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), "7 zz"), ==, -1);
  /* Through our own memory (/proc/self/mem is ours to read). */
  g_assert_cmpint (proctree_syscall_timeout (getpid (), ppoll), ==, 2500);
  g_assert_cmpint (proctree_syscall_timeout (getpid (), select), ==, 1250);
}

/* A child whose main thread waits in poll with a timeout: the glance says
 * the timer, and the child is no process in the middle of work. */
static void
test_loop_timer (void)
{
  const char *argv[] = { "/usr/bin/python3", "-c",
                         "import select, sys; print(flush=True); select.poll().poll(60000)",
                         NULL };
  g_autoptr (GError) error = NULL;
  ProcTreeGlance glance;
  GPid pid;
  int out;
  char c;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no /usr/bin/python3");
      return;
    }
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (out, &c, 1), ==, 1);
  /* Until it sleeps in its poll (it said it is there). */
  for (int i = 0; i < 500; i++)
    {
      g_assert_true (proctree_glance (pid, 0, &glance));
      if (glance.timer_ms >= 0)
        break;
      g_usleep (10000);
    }
  {
    g_autofree char *path = g_strdup_printf ("/proc/%d/syscall", (int) pid);
    g_autofree char *text = NULL;

    if (!g_file_get_contents (path, &text, NULL, NULL))
      g_test_skip ("/proc/PID/syscall is closed to us");
    else
      {
        g_assert_cmpint (glance.timer_ms, >, 0);
        g_assert_cmpint (glance.timer_ms, <=, 60000);
        g_assert_cmpuint (glance.n_mid_work, ==, 0);
      }
  }
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  close (out);
}

/* The child dies with the test, also when an assertion ends it. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* A child running @code in /usr/bin/python3, once it has said it is
 * there and its main thread sleeps (FALSE, and the test skipped, where
 * that cannot be seen). */
static gboolean
spawn_sleeping (const char *code, GPid *pid, int *out)
{
  const char *argv[] = { "/usr/bin/python3", "-c", code, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  char c;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no /usr/bin/python3");
      return FALSE;
    }
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           die_with_parent, NULL, pid, NULL, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (*out, &c, 1), ==, 1);
  path = g_strdup_printf ("/proc/%d/syscall", (int) *pid);
  /* Until its main thread is in the call (it said it is about to be). */
  for (int i = 0; i < 500; i++)
    {
      g_autofree char *text = NULL;

      if (!g_file_get_contents (path, &text, NULL, NULL))
        {
          g_test_skip ("/proc/PID/syscall is closed to us");
          return FALSE;
        }
      if (g_ascii_isdigit (text[0]) && strncmp (text, "0 ", 2) != 0)
        return TRUE;
      g_usleep (10000);
    }
  g_error ("the child's main thread never slept");
}

/* Until every thread of @pid is in a system call (Python has started
 * them all and each sleeps where its code says). */
static void
wait_all_in_calls (GPid pid)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);

  for (int i = 0; i < 500; i++)
    {
      g_autoptr (GDir) dir = g_dir_open (task, 0, NULL);
      const char *tid;
      gboolean all = dir != NULL;

      while (all && (tid = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/syscall", task, tid);
          g_autofree char *text = NULL;

          all = g_file_get_contents (path, &text, NULL, NULL) && g_ascii_isdigit (text[0]);
        }
      if (all)
        return;
      g_usleep (10000);
    }
  g_error ("the child's threads never all slept");
}

typedef struct
{
  const char *code;          /* Python's */
  gboolean all_asleep;       /* wait until each of its threads sleeps */
  gboolean mid_work;         /* what the glance says of it */
} MidWorkCase;

/* Each case's process, once it sleeps: in the middle of work or not, and
 * which process it is. */
static void
check_mid_work (const MidWorkCase *cases, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      ProcTreeGlance glance;
      GPid pid;
      int out;

      if (!spawn_sleeping (cases[i].code, &pid, &out))
        return;
      if (cases[i].all_asleep)
        wait_all_in_calls (pid);
      g_assert_true (proctree_glance (pid, 0, &glance));
      g_test_message ("%s: %u in the middle of work", cases[i].code, glance.n_mid_work);
      g_assert_cmpuint (glance.n_mid_work, ==, cases[i].mid_work ? 1 : 0);
      if (cases[i].mid_work)
        g_assert_cmpint (glance.mid_work_pid[0], ==, pid);
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      close (out);
    }
}

/* A main thread in a lock is in the middle of work, and the glance says
 * which process; one that waits for a message on a socket (Firefox's fork
 * server, all its life) is not. */
static void
test_mid_work (void)
{
  static const MidWorkCase cases[] = {
    { "import threading; l = threading.Lock(); l.acquire(); print(flush=True); l.acquire()",
      FALSE, TRUE },
    { "import socket; a, b = socket.socketpair(); print(flush=True); a.recvmsg(16)",
      FALSE, FALSE },
  };

  check_mid_work (cases, G_N_ELEMENTS (cases));
}

/* A main thread that waits on a condition variable while its process's
 * other threads all sleep in an idle wait is an event loop whose events
 * come through another thread (Tcl's threaded notifier), not in the
 * middle of work; with another thread at work it is. */
static void
test_mid_work_condition (void)
{
  static const MidWorkCase cases[] = {
    { "import threading, select\n"
      "threading.Thread(target=lambda: select.select([], [], [], 1000), daemon=True).start()\n"
      "c = threading.Condition()\nc.acquire()\nprint(flush=True)\nc.wait()", TRUE, FALSE },
    { "import threading\n"
      "def spin():\n  while True: pass\n"
      "threading.Thread(target=spin, daemon=True).start()\n"
      "l = threading.Lock()\nl.acquire()\nprint(flush=True)\nl.acquire()", FALSE, TRUE },
  };

  check_mid_work (cases, G_N_ELEMENTS (cases));
}

/* An armed timerfd of the tree: its time left, from fdinfo; a disarmed
 * one is none. */
static void
test_timerfd (void)
{
  struct itimerspec in_five = { { 0, 0 }, { 5, 0 } }, off = { { 0, 0 }, { 0, 0 } };
  int fd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC);
  gint64 left;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (proctree_timerfd_ms (getpid ()), ==, -1);
  g_assert_cmpint (timerfd_settime (fd, 0, &in_five, NULL), ==, 0);
  left = proctree_timerfd_ms (getpid ());
  g_assert_cmpint (left, >, 0);
  g_assert_cmpint (left, <=, 5000);
  g_assert_cmpint (timerfd_settime (fd, 0, &off, NULL), ==, 0);
  g_assert_cmpint (proctree_timerfd_ms (getpid ()), ==, -1);
  close (fd);
  g_assert_cmpint (proctree_timerfd_ms (0), ==, -1);
}

/* A running process counts as active. */
static void
test_active (void)
{
  ProcTreeSample sample;

  /* This test itself is running while it reads /proc. */
  proctree_sample (getpid (), &sample);
  g_assert_cmpuint (sample.n_active, ==, 1);
  g_assert_cmpuint (sample.n_procs, ==, 1);
}

/* The /proc reading under it (procfs.c): a file's whole text, however
 * long, and FALSE for one gone; a folder's names, each once, "." and
 * ".." left out, over many getdents64 calls. */
static void
test_procfs (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-proctree-XXXXXX", NULL);
  g_autofree char *big = NULL, *read_back = NULL, *self = NULL;
  g_autofree char *expected_pid = g_strdup_printf ("\nPid:\t%d\n", (int) getpid ());
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) long_text = g_string_new (NULL);
  const guint n_files = 1000;
  const char *name;
  char *unset = (char *) "unset";

  g_assert_nonnull (dir);
  /* Longer than one read (4 kB). */
  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (long_text, "%u ", i);
  big = g_build_filename (dir, "big", NULL);
  g_assert_true (g_file_set_contents (big, long_text->str, -1, NULL));
  g_assert_true (proc_read (big, &read_back));
  g_assert_cmpstr (read_back, ==, long_text->str);
  g_assert_true (proc_read ("/proc/self/status", &self));
  g_assert_nonnull (strstr (self, expected_pid));
  g_assert_false (proc_read ("/proc/self/no-such-file", &unset));
  g_assert_cmpstr (unset, ==, "unset");
  g_assert_null (procdir_open ("/proc/self/no-such-folder"));
  g_assert_null (procdir_open (big));   /* not a folder */

  /* More names than one getdents64 call gives (8 kB). */
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *file = g_strdup_printf ("%s/file-%04u", dir, i);
      g_assert_true (g_file_set_contents (file, "", 0, NULL));
    }
  {
    g_autoptr (ProcDir) listing = procdir_open (dir);

    g_assert_nonnull (listing);
    while ((name = procdir_next (listing)) != NULL)
      {
        g_assert_cmpstr (name, !=, ".");
        g_assert_cmpstr (name, !=, "..");
        g_assert_false (g_hash_table_contains (seen, name));
        g_hash_table_add (seen, g_strdup (name));
      }
    g_assert_null (procdir_next (listing));   /* and stays at its end */
  }
  g_assert_cmpuint (g_hash_table_size (seen), ==, n_files + 1);
  g_assert_true (g_hash_table_contains (seen, "big"));
  g_assert_true (g_hash_table_contains (seen, "file-0999"));
  {
    g_autofree char *tid = g_strdup_printf ("%ld", (long) syscall (SYS_gettid));
    g_autoptr (ProcDir) tasks = procdir_open ("/proc/self/task");
    gboolean found = FALSE;

    g_assert_nonnull (tasks);
    while ((name = procdir_next (tasks)) != NULL)
      found |= g_str_equal (name, tid);
    g_assert_true (found);
  }
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *file = g_strdup_printf ("%s/file-%04u", dir, i);
      g_assert_cmpint (g_unlink (file), ==, 0);
    }
  g_assert_cmpint (g_unlink (big), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proctree/tree-cpu", test_tree_cpu);
  g_test_add_func ("/proctree/active", test_active);
  g_test_add_func ("/proctree/glance", test_glance);
  g_test_add_func ("/proctree/glance-ran", test_glance_ran);
  g_test_add_func ("/proctree/syscall-timeout", test_syscall_timeout);
  g_test_add_func ("/proctree/loop-timer", test_loop_timer);
  g_test_add_func ("/proctree/mid-work", test_mid_work);
  g_test_add_func ("/proctree/mid-work/condition", test_mid_work_condition);
  g_test_add_func ("/proctree/timerfd", test_timerfd);
  g_test_add_func ("/proctree/procfs", test_procfs);
  return g_test_run ();
}
