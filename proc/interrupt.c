/* interrupt.c — signals taken at once, and handed on by a thread of
 * their own (see interrupt.h).
 *
 * The handler (on_signal) only latches the first signal and counts each
 * on eventfds, which is all a handler may do; the watch's thread cancels
 * the cancellable, the default main context calls the program's
 * function. The latch is set in the handler itself, not by a thread that
 * GLib's signal dispatch wakes later: a program that decides, just after
 * a child's answer, whether it was interrupted (xreduce's last checks,
 * the signal sent with that answer) sees the signal that came before it.
 * Start reading at proc_interrupt_watch(), then on_signal().
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "interrupt.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <glib-unix.h>

typedef struct
{
  ProcInterruptFunc func;
  gpointer user_data;
  GMainContext *context;     /* the thread's */
  GMainLoop *loop;
  GThread *thread;
  int latch_fd;              /* eventfd: written at the first signal, never read */
  int notify_fd;             /* eventfd: one count per signal, read in the main context */
  int taken_fd;              /* eventfd: written at the first signal, read by the thread */
  guint taken_source;        /* in the thread's context */
  struct sigaction before[4]; /* the signals' actions before the watch */
  guint notify_source;       /* in the default context */
  GCancellable *cancellable; /* cancelled at the first signal or the deadline */
  GSource *deadline;         /* in the thread's context, or NULL */
} Watch;

static const int watched[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1 };

static Watch *watch;         /* one per process, as signals */
static int first_signal;     /* atomic */
/* The watch's eventfds, for the handler: -1 without a watch. */
static volatile sig_atomic_t latch_fd = -1, notify_fd = -1, taken_fd = -1;
static int last_signal;      /* atomic */

/* Async-signal-safe: an eventfd's counter cannot overflow from a few
 * signals, and a handler has no one to tell of an error. */
static void
write_one (int fd)
{
  guint64 one = 1;
  ssize_t written;

  if (fd >= 0)
    {
      written = write (fd, &one, sizeof one);
      (void) written;
    }
}

/* The handler, in whichever thread the signal came to. */
static void
on_signal (int signum)
{
  int saved = errno;

  if (g_atomic_int_compare_and_exchange (&first_signal, 0, signum))
    {
      write_one (latch_fd);
      write_one (taken_fd);
    }
  g_atomic_int_set (&last_signal, signum);
  write_one (notify_fd);
  errno = saved;
}

/* In the watch's thread, once the first signal is taken. */
static gboolean
on_taken (int fd, GIOCondition condition, gpointer data)
{
  g_cancellable_cancel (watch->cancellable);
  watch->taken_source = 0;
  return G_SOURCE_REMOVE;
}

/* In the default main context: the program's function, once a signal. */
static gboolean
on_notify (int fd, GIOCondition condition, gpointer data)
{
  guint64 count = 0;

  if (read (fd, &count, sizeof count) != sizeof count)
    return G_SOURCE_CONTINUE;
  for (guint64 i = 0; i < count && watch != NULL; i++)
    watch->func (g_atomic_int_get (&last_signal), watch->user_data);
  return G_SOURCE_CONTINUE;
}

static gpointer
run_loop (gpointer data)
{
  GMainLoop *loop = data;
  GMainContext *context = g_main_loop_get_context (loop);

  g_main_context_push_thread_default (context);
  g_main_loop_run (loop);
  g_main_context_pop_thread_default (context);
  return NULL;
}

GThread *
proc_loop_thread_new (const char *name, GMainLoop *loop)
{
  return g_thread_new (name, run_loop, loop);
}

void
proc_interrupt_watch (ProcInterruptFunc func, gpointer user_data)
{
  struct sigaction action;
  GSource *source;

  g_return_if_fail (watch == NULL);
  watch = g_new0 (Watch, 1);
  watch->func = func;
  watch->user_data = user_data;
  watch->latch_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  watch->notify_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  watch->taken_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (watch->latch_fd < 0 || watch->notify_fd < 0 || watch->taken_fd < 0)
    g_error ("eventfd: %s", g_strerror (errno));
  g_atomic_int_set (&first_signal, 0);
  watch->cancellable = g_cancellable_new ();
  watch->context = g_main_context_new ();
  watch->loop = g_main_loop_new (watch->context, FALSE);
  source = g_unix_fd_source_new (watch->taken_fd, G_IO_IN);
  g_source_set_callback (source, G_SOURCE_FUNC (on_taken), NULL, NULL);
  watch->taken_source = g_source_attach (source, watch->context);
  g_source_unref (source);
  watch->notify_source = g_unix_fd_add (watch->notify_fd, G_IO_IN, on_notify, NULL);
  latch_fd = watch->latch_fd;
  notify_fd = watch->notify_fd;
  taken_fd = watch->taken_fd;
  memset (&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigemptyset (&action.sa_mask);
  /* (SA_RESTART: a read of the main thread's is not cut short by it.) */
  action.sa_flags = SA_RESTART;
  for (gsize i = 0; i < G_N_ELEMENTS (watched); i++)
    if (sigaction (watched[i], &action, &watch->before[i]) != 0)
      g_error ("sigaction: %s", g_strerror (errno));
  watch->thread = proc_loop_thread_new ("interrupt", watch->loop);
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
proc_interrupt_unwatch (void)
{
  if (watch == NULL)
    return;
  /* The signals' actions as they were (their defaults) first: the
   * handler writes to the eventfds closed below. */
  for (gsize i = 0; i < G_N_ELEMENTS (watched); i++)
    sigaction (watched[i], &watch->before[i], NULL);
  latch_fd = notify_fd = taken_fd = -1;
  g_main_context_invoke (watch->context, quit_loop, watch->loop);
  g_thread_join (watch->thread);
  if (watch->deadline != NULL)
    {
      g_source_destroy (watch->deadline);
      g_source_unref (watch->deadline);
    }
  g_source_remove (watch->notify_source);
  g_main_loop_unref (watch->loop);
  g_main_context_unref (watch->context);
  close (watch->latch_fd);
  close (watch->notify_fd);
  close (watch->taken_fd);
  g_clear_object (&watch->cancellable);
  g_clear_pointer (&watch, g_free);
  /* Gone with the watch: a later wait is not cut short by it. */
  g_atomic_int_set (&first_signal, 0);
}

int
proc_interrupt_get_signal (void)
{
  return g_atomic_int_get (&first_signal);
}

int
proc_interrupt_get_fd (void)
{
  return watch != NULL ? watch->latch_fd : -1;
}

GCancellable *
proc_interrupt_get_cancellable (void)
{
  return watch != NULL ? watch->cancellable : NULL;
}

/* In the watch's thread. */
static gboolean
on_deadline (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

void
proc_interrupt_set_deadline (gint64 monotonic_us)
{
  gint64 left_ms;

  g_return_if_fail (watch != NULL);
  left_ms = MAX (monotonic_us - g_get_monotonic_time (), 0) / 1000;
  /* Once: a program has one time limit. */
  g_return_if_fail (watch->deadline == NULL);
  watch->deadline = g_timeout_source_new ((guint) MIN (left_ms, G_MAXUINT));
  g_source_set_callback (watch->deadline, on_deadline, watch->cancellable, NULL);
  g_source_attach (watch->deadline, watch->context);
}
