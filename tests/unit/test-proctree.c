/* test-proctree.c — the CPU of a process tree (replayer/proctree.c), no
 * display.
 *
 * A child of this test starts a grandchild in a session of its own (as a
 * terminal starts its shell), which works for WORK_MS of its own CPU time
 * and says so on a pipe, then waits. The child's tree must show that CPU
 * (and this test's tree too, through the child); a tree whose root is gone
 * shows none. Synchronisation: the pipe, and waitpid. No sleeps.
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib.h>

#include "proctree.h"

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

/* Forks the child; returns its pid once the grandchild has done its work,
 * and the grandchild's in *@grandchild. */
static pid_t
start_tree (pid_t *grandchild)
{
  int fds[2];
  pid_t child;

  g_assert_cmpint (pipe (fds), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      if (fork () == 0)
        {
          pid_t self = getpid ();

          setsid ();
          burn_cpu ();
          if (write (fds[1], &self, sizeof self) != sizeof self)
            _exit (1);
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

static void
test_tree_cpu (void)
{
  guint hz = proctree_ticks_per_second ();
  guint64 before = proctree_cpu_ticks (getpid (), NULL);
  pid_t grandchild = 0;
  pid_t child = start_tree (&grandchild);
  guint n_active = 99;
  guint64 child_ticks = proctree_cpu_ticks (child, &n_active);
  guint64 own_ticks = proctree_cpu_ticks (getpid (), NULL);
  /* Tick counting is coarse: at least two thirds of the work. */
  guint64 work = (guint64) WORK_MS * hz / 1000 * 2 / 3;

  g_test_message ("%u ticks a second; the child's tree used %" G_GUINT64_FORMAT
                  ", this test's %" G_GUINT64_FORMAT " (before: %" G_GUINT64_FORMAT ")",
                  hz, child_ticks, own_ticks, before);
  g_assert_cmpuint (hz, >, 0);
  /* The grandchild is in another session: still the child's tree. */
  g_assert_cmpuint (child_ticks, >=, work);
  g_assert_cmpuint (own_ticks, >=, before + work);
  /* Both wait in pause(): neither runs. */
  g_assert_cmpuint (n_active, ==, 0);

  /* The grandchild is in a session of its own: killed by its pid (init
   * reaps it), then the child. */
  g_assert_cmpint (grandchild, >, 0);
  kill (grandchild, SIGKILL);
  kill (child, SIGKILL);
  g_assert_cmpint (waitpid (child, NULL, 0), ==, child);
  /* A tree whose root is gone. */
  g_assert_cmpuint (proctree_cpu_ticks (child, &n_active), ==, 0);
  g_assert_cmpuint (n_active, ==, 0);
  g_assert_cmpuint (proctree_cpu_ticks (0, NULL), ==, 0);
}

/* A running process counts as active. */
static void
test_active (void)
{
  guint n_active = 0;

  /* This test itself is running while it reads /proc. */
  proctree_cpu_ticks (getpid (), &n_active);
  g_assert_cmpuint (n_active, >=, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proctree/tree-cpu", test_tree_cpu);
  g_test_add_func ("/proctree/active", test_active);
  return g_test_run ();
}
