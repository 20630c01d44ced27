/* recheck.c — replays that check the search's passes again (see
 * reduce-private.h): a pass may be false when the app fails late (a
 * candidate replayed once more, with the whole --settle, before its pass
 * counts) or when it was slow under load or is flaky (each step of the
 * result left out once more at the end).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "search.h"

/* A failure that comes late after the last action (a crash after seconds
 * of work: a second or more, and half the settle) is seen only while the
 * replay waits for it: the settle, made longer while the app is busy. A
 * candidate that passes then may be one whose failure did not come in
 * time (a worker slowed by the others' load); when the failures seen came
 * late, it is replayed once more, with the whole --settle, before the
 * search takes its pass. */
gboolean
reducer_failures_come_late (Reducer *reducer)
{
  gboolean late = reducer->options->test_argv == NULL
                  && reducer->latest_failure_ms >= MAX ((gint64) REDUCE_LATE_FAILURE_MS,
                                                        (gint64) reducer->replay.settle_ms / 2);

  if (late && !reducer->said_late)
    reducer_say (reducer, "the app fails as late as %" G_GINT64_FORMAT " ms after its last "
                 "action: a candidate that passes is replayed once more, with the whole --settle, "
                 "before it counts", reducer->latest_failure_ms);
  reducer->said_late |= late;
  return late;
}

/* The confirmations of one batch: outlives it while a replay of them
 * runs (after Ctrl-C, a killed one reports later). */
typedef struct
{
  guint refs;                /* the batch's, and one for each replay running */
  guint pending;
  gboolean broke;
  guint64 overturned;
  DdOutcome outcomes[];      /* what the replays found, by to_run index */
} Confirmations;

typedef struct
{
  Confirmations *all;
  guint index;
} Confirmation;

static void
confirmations_unref (Confirmations *all)
{
  if (--all->refs == 0)
    g_free (all);
}

static void
on_confirmed (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  Confirmation *c = data;

  c->all->pending--;
  if (error != NULL)
    c->all->broke = TRUE;
  else if (failed)
    {
      c->all->outcomes[c->index] = DD_FAIL;
      c->all->overturned++;
    }
  confirmations_unref (c->all);
  g_free (c);
}

/* Replays every candidate that passed again (background tests, at once,
 * with the whole --settle); one that fails now failed. FALSE if
 * interrupted or broken: no pass of the batch is taken then. */
gboolean
reducer_confirm_passes (Reducer *reducer, const DdCandidate *cands, DdOutcome *outcomes,
                const guint *to_run, guint n_run, GError **error)
{
  Confirmations *all = g_malloc0 (sizeof (Confirmations) + n_run * sizeof (DdOutcome));
  gboolean ok;

  all->refs = 1;
  for (guint r = 0; r < n_run; r++)
    {
      guint i = to_run[r];
      Confirmation *c;

      all->outcomes[r] = outcomes[i];
      if (outcomes[i] != DD_PASS)
        continue;
      c = g_new (Confirmation, 1);
      *c = (Confirmation) { all, r };
      all->refs++;
      all->pending++;
      reducer->confirmed++;
      runner_start_background (reducer->runner,
                               session_subset (reducer->session, cands[i].elems, cands[i].n_elems),
                               target_still_fails, &reducer->target, on_confirmed, c);
    }
  runner_set_settle (reducer->runner, 0);
  while (all->pending > 0 && runner_step_background (reducer->runner, error))
    ;
  runner_set_settle (reducer->runner, reducer->settle_ms);
  ok = all->pending == 0 && !all->broke;
  if (ok)
    for (guint r = 0; r < n_run; r++)
      outcomes[to_run[r]] = all->outcomes[r];
  else
    for (guint r = 0; r < n_run; r++)
      if (outcomes[to_run[r]] == DD_PASS)
        outcomes[to_run[r]] = DD_CANCELLED;
  if (all->pending == 0 && all->broke)
    g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_INFRA,
                         "a replay that confirmed a pass broke");
  reducer->overturned += all->overturned;
  confirmations_unref (all);
  return ok;
}

/* After the search: every step of the result (a phrase: "Type `hi`", a
 * click) is left out once more, all at once, with the settle the search
 * uses (late failures have reducer_confirm_passes()). A pass the search
 * took may have been false (the app was slow under load, or is flaky):
 * a candidate that fails now is a smaller failing session
 * (the smallest of them is taken), and the search goes on from it.
 * *@smaller: it did. FALSE if the replays could not run (interrupted):
 * the search's result stands then. */
gboolean
reducer_recheck_steps (Reducer *reducer, gboolean *smaller, GError **error)
{
  g_autoptr (SearchLevels) levels = search_levels_new (reducer->session, reducer->best,
                                                       reducer->n_best, TRUE);
  g_autoptr (GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n_levels = 0, chosen = G_MAXUINT;
  const DdLevel *top = search_levels_get (levels, &n_levels);
  Confirmations *all;
  gboolean ok;

  *smaller = FALSE;
  if (n_levels == 0 || top[0].n_units < 2)
    return TRUE;
  for (guint u = 0; u < top[0].n_units; u++)
    {
      const GArray *unit = top[0].units[u];
      g_autoptr (GArray) left = g_array_new (FALSE, FALSE, sizeof (guint));
      GArray *set = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint i = 0, j = 0; i < reducer->n_best; i++)
        {
          while (j < unit->len && g_array_index (unit, guint, j) < reducer->best[i])
            j++;
          if (j >= unit->len || g_array_index (unit, guint, j) != reducer->best[i])
            g_array_append_val (left, reducer->best[i]);
        }
      search_normalize (reducer->session, (const guint *) left->data, left->len, set);
      if (set->len == 0 || set->len >= reducer->n_best)
        g_array_unref (set);
      else
        g_ptr_array_add (sets, set);
    }
  all = g_malloc0 (sizeof (Confirmations) + MAX (sets->len, 1) * sizeof (DdOutcome));
  all->refs = 1;
  for (guint r = 0; r < sets->len; r++)
    {
      GArray *set = sets->pdata[r];
      Confirmation *c = g_new (Confirmation, 1);

      *c = (Confirmation) { all, r };
      all->outcomes[r] = DD_PASS;
      all->refs++;
      all->pending++;
      reducer->rechecked++;
      runner_start_background (reducer->runner,
                               session_subset (reducer->session, (const guint *) set->data,
                                               set->len),
                               target_still_fails, &reducer->target, on_confirmed, c);
    }
  while (all->pending > 0 && runner_step_background (reducer->runner, error))
    ;
  ok = all->pending == 0 && !all->broke;
  for (guint r = 0; ok && r < sets->len; r++)
    if (all->outcomes[r] == DD_FAIL
        && (chosen == G_MAXUINT
            || ((GArray *) sets->pdata[r])->len < ((GArray *) sets->pdata[chosen])->len))
      chosen = r;
  if (chosen != G_MAXUINT)
    {
      GArray *set = sets->pdata[chosen];

      reducer_say (reducer, "a step the search kept is not needed: without it the app failed again "
                   "(a pass of the search's was false: the app slow or flaky); the search goes on "
                   "from %u actions", set->len);
      reducer_set_best (reducer, (const guint *) set->data, set->len);
      *smaller = TRUE;
    }
  else if (ok && sets->len > 0)
    reducer_say (reducer, "each of the %u steps left out once more: the failure needs every one "
                 "(%u test%s)", sets->len, sets->len, sets->len == 1 ? "" : "s");
  if (!ok && all->pending == 0 && error != NULL && *error == NULL)
    g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_INFRA,
                         "a replay that checked a step broke");
  confirmations_unref (all);
  return ok;
}


