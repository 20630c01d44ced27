/* shard.h — one test program as N meson tests: `PROGRAM --shard K/N` runs
 * only the cases whose registration index is K modulo N. meson runs the
 * shards in parallel, each with its own time limit, so that no single
 * program holds the suite (tests/x11/meson.build).
 *
 *   int main (int argc, char **argv)
 *   {
 *     g_test_init (&argc, &argv, NULL);
 *     test_shard_init (argc, argv);
 *     if (test_shard_mine ()) g_test_add (...);   (one a case, in order)
 *     return g_test_run ();
 *   }
 *
 * Without --shard every case is the program's. Header-only.
 */
#pragma once

#include <stdio.h>
#include <string.h>
#include <glib.h>

static guint test_shard_k, test_shard_n, test_shard_next;

/* Reads --shard K/N (g_test_init() leaves it in argv). */
static inline void
test_shard_init (int argc, char **argv)
{
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp (argv[i], "--shard") == 0
        && (sscanf (argv[i + 1], "%u/%u", &test_shard_k, &test_shard_n) != 2
            || test_shard_n == 0 || test_shard_k >= test_shard_n))
      g_error ("--shard K/N, 0 <= K < N");
}

/* Whether the next case registered is this shard's. */
static inline gboolean
test_shard_mine (void)
{
  return test_shard_n == 0 || test_shard_next++ % test_shard_n == test_shard_k;
}
