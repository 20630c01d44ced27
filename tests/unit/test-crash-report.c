/* test-crash-report.c — what a report says of a crash, without a display:
 * the Python stack faulthandler printed (the last dump, the crashing
 * thread's, no folder of this machine), and the title's words from the
 * tracer's CrashInfo and that stack.
 */
#include <string.h>
#include <glib.h>

#include "report-private.h"

static const char faulthandler[] =
  "some output\n"
  "Fatal Python error: Segmentation fault\n"
  "\n"
  "Thread 0x00007f5a1e000640 (most recent call first):\n"
  "  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n"
  "\n"
  "Current thread 0x00007f5a1e858040 (most recent call first):\n"
  "  File \"/home/alice/src/py-fault.py\", line 23 in on_crash\n"
  "  File \"/usr/lib/python3/dist-packages/gi/overrides/Gtk.py\", line 1689 in main\n"
  "  File \"/home/alice/src/py-fault.py\", line 42 in <module>\n"
  "\n"
  "Extension modules: gi._gi (total: 1)\n";

static void
test_python_stack (void)
{
  g_autoptr (GArray) stack = crash_python_stack (faulthandler, strlen (faulthandler));
  g_autoptr (GArray) none = crash_python_stack ("Segmentation fault\n", 19);
  CrashPyFrame *top;

  g_assert_cmpuint (stack->len, ==, 3);
  top = &g_array_index (stack, CrashPyFrame, 0);
  g_assert_cmpstr (top->function, ==, "on_crash");
  g_assert_cmpstr (top->file, ==, "py-fault.py");
  g_assert_cmpint (top->line, ==, 23);
  g_assert_cmpstr (g_array_index (stack, CrashPyFrame, 2).function, ==, "<module>");
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_outcome_words (void)
{
  const char *frames[] = { "os_kill", "_PyEval_EvalFrameDefault", NULL };
  const char *at[] = { "python3.11", "python3.11", NULL };
  g_auto (ReplayResult) result = { 0 };
  g_autoptr (GArray) stack = crash_python_stack (faulthandler, strlen (faulthandler));
  g_autofree char *python = NULL, *exited = NULL;

  verdict_init (&result.verdict, VERDICT_CRASHED);
  result.verdict.signal = 11;
  result.crash.signal = 11;
  result.crash.frames = g_strdupv ((char **) frames);
  result.crash.frames_at = g_strdupv ((char **) at);
  python = report_outcome_words (&result, stack);
  g_assert_cmpstr (python, ==, "crashed with SIGSEGV in on_crash (py-fault.py:23)");
  verdict_init (&result.verdict, VERDICT_EXITED);
  result.verdict.exit_status = 3;
  exited = report_outcome_words (&result, stack);
  g_assert_cmpstr (exited, ==, "exited with status 3");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/crash-report/python-stack", test_python_stack);
  g_test_add_func ("/crash-report/outcome-words", test_outcome_words);
  return g_test_run ();
}
