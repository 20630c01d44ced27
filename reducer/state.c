/* state.c — what every part of the reducer's driver tells and keeps
 * (see reduce-private.h): its lines on stderr, the best failing set. */
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
