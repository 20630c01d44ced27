/* state.c — what every part of the reducer's driver tells and keeps
 * (see reduce-private.h): its lines on stderr, the best failing set, the
 * signals taken. */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"

#include <stdio.h>

/* A line of its own on stderr, clearing the progress line first. */
void
reducer_say (Reducer *reducer, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  if (reducer->options->quiet)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("%sxreduce: %s\n", reducer->tty ? "\r\033[K" : "", text);
  reducer->last_line_us = g_get_monotonic_time ();
}

/* The best failing set so far (its steps are counted again when said). */
void
reducer_set_best (Reducer *reducer, const guint *elems, guint n)
{
  g_free (reducer->best);
  reducer->best = g_memdup2 (elems, MAX (n, 1) * sizeof (guint));
  reducer->n_best = n;
  reducer->steps_known = FALSE;
}

/* SIGINT, SIGTERM or SIGHUP, from the start (proc_interrupt_watch(): also
 * while a worker's Xvfb starts): the tests stop, the best so far is kept. */
void
reducer_on_signal (int signum, gpointer data)
{
  Reducer *reducer = data;
  /* The first signal's call may come after the search saw its latch
   * (search_should_stop) and stopped: the replay for the interrupted
   * result's report runs then, and only another signal stops it. */
  gboolean seen = reducer->interrupted && reducer->n_signals == 0;

  reducer->n_signals++;
  reducer->interrupted = TRUE;
  if (!seen && reducer->runner != NULL)
    runner_cancel (reducer->runner);
}
