/* test-target.c — what "still fails" means for a session whose outcome is
 * `outcome unknown` (xrecord --all saved it when the app vanished): any
 * failure, until the first failing full replay says which one; then that
 * one only. No display, no replay: the runner's results are made here.
 */
#include "target.h"

#include <signal.h>
#include <string.h>

static Session *
lost_session (void)
{
  const char *text = "xreduce-session 1\nscreen 800x600\n"
                     "10 KeyPress keysym=a keycode=38 state=0x0\n"
                     "20 KeyRelease keysym=a keycode=38 state=0x0\noutcome unknown\n";
  g_autoptr (GError) error = NULL;
  Session *session = session_parse (text, strlen (text), "lost.log", &error);

  g_assert_no_error (error);
  return session;
}

static void
result_init (RunResult *result, VerdictKind kind, int signal, int status)
{
  memset (result, 0, sizeof *result);
  verdict_init (&result->replay.verdict, kind);
  result->replay.verdict.signal = signal;
  result->replay.verdict.exit_status = status;
}

static void
test_learn (void)
{
  g_autoptr (Session) session = lost_session ();
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL;
  Target target = { 0 };
  RunResult passed, exited0, exited3, unresolved, segv, abrt, hung;

  g_assert_true (target_decide (&target, session, "lost.log", 0, &error));
  g_assert_no_error (error);
  g_assert_true (target_is_unknown (&target));
  result_init (&passed, VERDICT_PASSED, 0, -1);
  result_init (&exited0, VERDICT_EXITED, 0, 0);
  result_init (&exited3, VERDICT_EXITED, 0, 3);
  result_init (&unresolved, VERDICT_UNRESOLVED, 0, -1);
  result_init (&segv, VERDICT_CRASHED, SIGSEGV, -1);
  result_init (&abrt, VERDICT_CRASHED, SIGABRT, -1);
  result_init (&hung, VERDICT_HUNG, 0, -1);

  /* Unknown: any failure, nothing else. */
  before = target_describe (&target);
  g_assert_nonnull (strstr (before, "fails"));
  g_assert_false (target_still_fails (&passed, &target));
  g_assert_false (target_still_fails (&exited0, &target));
  g_assert_false (target_still_fails (&unresolved, &target));
  g_assert_true (target_still_fails (&exited3, &target));
  g_assert_true (target_still_fails (&hung, &target));
  g_assert_true (target_still_fails (&segv, &target));
  /* Nothing is learnt from a run that did not fail. */
  g_assert_false (target_learn (&target, &passed));
  g_assert_true (target_is_unknown (&target));

  /* The first failure seen is the target from then on. */
  g_assert_true (target_learn (&target, &segv));
  g_assert_false (target_is_unknown (&target));
  g_assert_cmpint (target.outcome.kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (target.outcome.signal, ==, SIGSEGV);
  g_assert_false (target_learn (&target, &abrt));
  g_assert_true (target_still_fails (&segv, &target));
  g_assert_false (target_still_fails (&abrt, &target));
  g_assert_false (target_still_fails (&exited3, &target));
  g_assert_false (target_still_fails (&hung, &target));
  after = target_describe (&target);
  g_assert_cmpstr (after, ==, "crashed with SIGSEGV");
  target_clear (&target);
}

/* --signal and --stderr-match say what to reduce for: nothing to learn. */
static void
test_options_decide (void)
{
  g_autoptr (Session) session = lost_session ();
  Target by_signal = { 0 }, by_stderr = { .stderr_match = "boom" };

  g_assert_true (target_decide (&by_signal, session, "lost.log", SIGABRT, NULL));
  g_assert_false (target_is_unknown (&by_signal));
  g_assert_cmpint (by_signal.outcome.signal, ==, SIGABRT);
  g_assert_true (target_decide (&by_stderr, session, "lost.log", 0, NULL));
  g_assert_false (target_is_unknown (&by_stderr));
  g_assert_cmpint (by_stderr.outcome.kind, ==, SESSION_OUTCOME_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/target/learn", test_learn);
  g_test_add_func ("/target/options-decide", test_options_decide);
  return g_test_run ();
}
