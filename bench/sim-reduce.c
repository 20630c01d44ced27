/* sim-reduce.c — figures, not a test: the search xreduce runs, against a
 * model app (tests/sim/sim-apps.h) instead of replays, on a recorded
 * session. Prints the tests (replays) it costs, with and without the
 * phrase level, at several batch sizes, and the result in words.
 *
 *   sim-reduce SESSION terminal 'kill -SEGV $PPID'
 *   sim-reduce SESSION editor
 */
#include "sim-apps.h"

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = NULL;
  SimOracle oracle = { 0 };
  const guint batches[] = { 1, 2, 6 };

  if (argc < 3 || (g_str_equal (argv[2], "terminal") && argc < 4))
    {
      fprintf (stderr, "usage: sim-reduce SESSION terminal COMMAND | browser URL | editor\n");
      return 2;
    }
  if (g_getenv ("SIM_TRACE") != NULL)
    oracle.trace = TRUE;
  session = session_load (argv[1], &error);
  if (session == NULL)
    {
      fprintf (stderr, "sim-reduce: %s\n", error->message);
      return 2;
    }
  oracle.session = session;
  if (g_str_equal (argv[2], "terminal"))
    {
      oracle.fails = sim_terminal_fails;
      oracle.data = argv[3];
    }
  else if (g_str_equal (argv[2], "browser") && argc >= 4)
    {
      oracle.fails = sim_browser_fails;
      oracle.data = argv[3];
    }
  else if (g_str_equal (argv[2], "editor"))
    oracle.fails = sim_editor_fails;
  else
    {
      fprintf (stderr, "sim-reduce: unknown model '%s'\n", argv[2]);
      return 2;
    }
  if (!oracle.fails (session, oracle.data))
    {
      fprintf (stderr, "sim-reduce: the whole session does not fail in the model\n");
      return 4;
    }

  printf ("%s: %u actions; model %s\n", argv[1], session_get_n_actions (session), argv[2]);
  for (int phrases = 1; phrases >= 0; phrases--)
    for (gsize b = 0; b < G_N_ELEMENTS (batches); b++)
      {
        g_autofree guint *result = NULL;
        DdStats stats;
        guint n = 0;

        oracle.replays = 0;
        if (!sim_reduce (&oracle, batches[b], phrases, &result, &n, &stats, &error))
          {
            fprintf (stderr, "sim-reduce: %s\n", error->message);
            return 3;
          }
        printf ("%-22s -j %u: %4" G_GUINT64_FORMAT " tests (%3" G_GUINT64_FORMAT
                " speculative), %3" G_GUINT64_FORMAT " batches, %u -> %u actions%s\n",
                phrases ? "phrases+gestures" : "gestures", batches[b], stats.tests,
                stats.speculative, stats.batches, stats.n_initial, n,
                stats.one_minimal_verified ? ", 1-minimal" : "");
        if (phrases && b == 0)
          {
            g_autoptr (Session) min = session_subset (session, result, n);
            g_autofree char *steps = session_describe_steps (min, SESSION_WORDS_TERMINAL, FALSE);
            printf ("%s", steps);
          }
      }
  return 0;
}
