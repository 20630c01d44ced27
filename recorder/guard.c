/* guard.c — a thread that keeps signals and deadlines working while the
 * main thread is stuck in an X round trip (see guard.h).
 *
 * Start reading at guard_new(), then on_check().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "guard.h"
#include "interrupt.h"

#include <signal.h>
#include <sys/socket.h>
#include <glib-unix.h>

/* How often the guard thread looks. */
#define GUARD_CHECK_MS 50
/* After a signal, stuck this long after the cut: nothing left to cut. */
#define GUARD_LAST_RESORT_MS 400

struct Guard
{
  GMainContext *context;     /* owned: the guard thread's */
  GMainLoop *loop;           /* owned: runs in the thread */
  GThread *thread;
  guint beat_source;         /* in the default context */

  int cut;                   /* atomic: the connections were cut */

  GMutex lock;
  gint64 last_beat;          /* lock required: when the main context last beat */
  gint64 deadline;           /* lock required: 0, or when to stop waiting */
  gint64 cut_at;             /* lock required: when the connections were cut */
  GArray *fds;               /* of int; lock required */
};

/* In the main context: the beat. */
static gboolean
on_beat (gpointer user_data)
{
  Guard *guard = user_data;

  g_mutex_lock (&guard->lock);
  guard->last_beat = g_get_monotonic_time ();
  g_mutex_unlock (&guard->lock);
  return G_SOURCE_CONTINUE;
}

/* In the guard thread: is the main thread stuck with something waiting
 * for it? Then cut it loose, once. */
static gboolean
on_check (gpointer user_data)
{
  Guard *guard = user_data;
  gint64 now = g_get_monotonic_time ();
  gboolean waiting, stuck;

  g_mutex_lock (&guard->lock);
  waiting = proc_interrupt_get_signal () != 0
            || (guard->deadline != 0 && now >= guard->deadline);
  stuck = now - guard->last_beat >= GUARD_STUCK_MS * 1000;
  if (waiting && stuck && !g_atomic_int_get (&guard->cut))
    {
      g_atomic_int_set (&guard->cut, 1);
      guard->cut_at = now;
      for (guint i = 0; i < guard->fds->len; i++)
        shutdown (g_array_index (guard->fds, int, i), SHUT_RDWR);
    }
  else if (stuck && proc_interrupt_get_signal () != 0 && g_atomic_int_get (&guard->cut)
           && now - guard->cut_at >= GUARD_LAST_RESORT_MS * 1000)
    {
      /* Stuck where no connection of ours can be cut (XOpenDisplay on a
       * grabbed server): the signal's own default action, as if xrecord
       * had never taken it. The X server we started dies with us
       * (PR_SET_PDEATHSIG); no app runs yet. */
      int signum = proc_interrupt_get_signal ();

      g_mutex_unlock (&guard->lock);
      signal (signum, SIG_DFL);
      raise (signum);
      return G_SOURCE_CONTINUE;
    }
  g_mutex_unlock (&guard->lock);
  return G_SOURCE_CONTINUE;
}

static void
attach (Guard *guard, GSource *source, GSourceFunc func)
{
  g_source_set_callback (source, func, guard, NULL);
  g_source_attach (source, guard->context);
  g_source_unref (source);
}

Guard *
guard_new (GuardSignalFunc on_signal, gpointer user_data)
{
  Guard *guard = g_new0 (Guard, 1);

  guard->fds = g_array_new (FALSE, FALSE, sizeof (int));
  g_mutex_init (&guard->lock);
  guard->context = g_main_context_new ();
  guard->loop = g_main_loop_new (guard->context, FALSE);
  on_beat (guard);
  guard->beat_source = g_timeout_add (GUARD_BEAT_MS, on_beat, guard);
  attach (guard, g_timeout_source_new (GUARD_CHECK_MS), on_check);
  guard->thread = proc_loop_thread_new ("xrecord-guard", guard->loop);
  /* The signals, in a thread of their own too: they also end xrecord's
   * synchronous waits (its X server's readiness), and reach @on_signal
   * in the main context. */
  proc_interrupt_watch (on_signal, user_data);
  return guard;
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

void
guard_free (Guard *guard)
{
  if (guard == NULL)
    return;
  proc_interrupt_unwatch ();
  g_main_context_invoke (guard->context, quit_loop, guard->loop);
  g_thread_join (guard->thread);
  g_source_remove (guard->beat_source);
  g_main_loop_unref (guard->loop);
  g_main_context_unref (guard->context);
  g_array_unref (guard->fds);
  g_mutex_clear (&guard->lock);
  g_free (guard);
}

void
guard_add_fd (Guard *guard, int fd)
{
  g_mutex_lock (&guard->lock);
  g_array_append_val (guard->fds, fd);
  g_mutex_unlock (&guard->lock);
}

void
guard_set_deadline (Guard *guard, gint64 deadline)
{
  g_mutex_lock (&guard->lock);
  guard->deadline = deadline;
  g_mutex_unlock (&guard->lock);
}

gboolean
guard_has_cut (Guard *guard)
{
  return g_atomic_int_get (&guard->cut) != 0;
}
