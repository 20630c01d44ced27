/* sim-reduce.c — figures, not a test: the search xreduce runs, against a
 * model app (tests/sim/sim-apps.h) instead of replays, on a recorded
 * session. Prints the tests (replays) it costs, with and without the
 * phrase level, at several batch sizes, and the result in words; then the
 * worker curve: the search's schedule on N workers (2, 6, 12, 24, 48, or
 * --workers), each replay taking --start-ms plus --action-ms an action
 * (the defaults are Firefox's: 12 to 17 s a replay), the verification's
 * three full replays and the empty one first; the predicted wall time and
 * how busy the workers are, with the search as it was before issue #24
 * (typing halved first) and as it is.
 *
 *   sim-reduce SESSION terminal 'kill -SEGV $PPID'
 *   sim-reduce SESSION browser about:crashparent [--measured 'TEXT']
 *   sim-reduce SESSION editor
 * SIM_TRACE=1 prints every test.
 */
#include "sim-apps.h"

#include <stdio.h>
#include <stdlib.h>

/* The worker curve: the search's schedule on each count of workers. */
static gboolean
print_curve (SimOracle *oracle, const char *workers, const char *measured, GError **error)
{
  g_auto (GStrv) counts = g_strsplit (workers, ",", -1);
  double full_ms = (double) oracle->start_ms
                   + (double) oracle->action_ms * session_get_n_actions (oracle->session);

  printf ("\nworker curve: a replay takes %" G_GUINT64_FORMAT " ms + %" G_GUINT64_FORMAT
          " ms an action (the full session %.1f s); the verification (3 full replays, 1 empty)"
          " first\n", oracle->start_ms, oracle->action_ms, full_ms / 1000.0);
  printf ("%-9s %-8s %6s %8s %12s %10s\n", "search", "workers", "tests", "batches",
          "predicted", "busy");
  for (int typed = 0; typed <= 1; typed++)
    for (guint i = 0; counts[i] != NULL; i++)
      {
        guint n = (guint) g_ascii_strtoull (counts[i], NULL, 10);
        g_autofree guint *result = NULL;
        DdStats stats;
        guint n_result = 0;
        double verify_ms, wall_ms;

        if (n == 0)
          {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         "--workers: '%s' is no count", counts[i]);
            return FALSE;
          }
        oracle->no_typed = !typed;
        oracle->wall_ms = oracle->busy_ms = 0.0;
        if (!sim_reduce (oracle, n, TRUE, &result, &n_result, &stats, error))
          return FALSE;
        /* 3 full replays and an empty one, n at a time. */
        verify_ms = (double) ((3 + n) / n) * full_ms;
        wall_ms = verify_ms + oracle->wall_ms;
        printf ("%-9s %-8u %6" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %10.0f s %9.0f%%\n",
                typed ? "now" : "before", n, stats.tests, stats.batches, wall_ms / 1000.0,
                100.0 * (oracle->busy_ms + 3 * full_ms + (double) oracle->start_ms)
                  / ((double) n * wall_ms));
      }
  oracle->no_typed = FALSE;
  if (measured != NULL)
    printf ("measured (xreduce on this machine): %s\n", measured);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = NULL;
  SimOracle oracle = { 0 };
  const guint batches[] = { 1, 2, 6 };

  g_autofree char *workers = g_strdup ("2,6,12,24,48"), *measured = NULL;
  gint64 start_ms = 11500, action_ms = 42;
  const GOptionEntry entries[] = {
    { "workers", 0, 0, G_OPTION_ARG_STRING, &workers, "Worker counts of the curve "
      "(default 2,6,12,24,48)", "N,N,..." },
    { "start-ms", 0, 0, G_OPTION_ARG_INT64, &start_ms, "A replay's fixed cost (default 11500)",
      "MS" },
    { "action-ms", 0, 0, G_OPTION_ARG_INT64, &action_ms, "A replay's cost an action "
      "(default 42)", "MS" },
    { "measured", 0, 0, G_OPTION_ARG_STRING, &measured, "A measured figure to print beside "
      "the curve", "TEXT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SESSION terminal COMMAND | "
                                                             "browser URL | editor");

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "sim-reduce: %s\n", error->message);
      return 2;
    }
  if (start_ms < 0 || action_ms < 0)
    {
      fprintf (stderr, "sim-reduce: --start-ms and --action-ms are at least 0\n");
      return 2;
    }
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
                " speculative), %3" G_GUINT64_FORMAT " batches, %u -> %u actions%s",
                phrases ? "phrases+gestures" : "gestures", batches[b], stats.tests,
                stats.speculative, stats.batches, stats.n_initial, n,
                stats.one_minimal_verified ? ", 1-minimal" : "");
        if (stats.inferred > 0)
          printf (" (%" G_GUINT64_FORMAT " typed removals inferred, not replayed)", stats.inferred);
        putchar ('\n');
        if (phrases && b == 0)
          {
            g_autoptr (Session) min = session_subset (session, result, n);
            g_autofree char *steps = session_describe_steps (min, SESSION_WORDS_TERMINAL, FALSE);
            printf ("%s", steps);
          }
      }
  oracle.start_ms = (guint64) start_ms;
  oracle.action_ms = (guint64) action_ms;
  if (!print_curve (&oracle, workers, measured, &error))
    {
      fprintf (stderr, "sim-reduce: %s\n", error->message);
      return 3;
    }
  return 0;
}
