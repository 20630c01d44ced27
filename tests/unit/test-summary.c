/* test-summary.c — what xreduce writes about a reduction, without a
 * display: paths as the report sees them. */
#include <string.h>
#include <glib.h>

#include "summary.h"

static void
test_relative_path (void)
{
  static const struct { const char *dir, *path, *want; } cases[] = {
    { "/a/b/out.min.report", "/a/b/out.min", "../out.min" },
    { "/a/b/out.min.report", "/a/c/s.log", "../../c/s.log" },
    { "/x/r", "/y/s", "../../y/s" },
    { "/a/r", "/a/r/session.log", "session.log" },
    { "/a/./b/../r", "/a/s", "../s" },
    { "/a/r", "/a/r", "." },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = summary_relative_path (cases[i].dir, cases[i].path);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
  /* Relative to the current directory, both. */
  {
    g_autofree char *got = summary_relative_path ("out.min.report", "../data/demo.session");
    g_assert_cmpstr (got, ==, "../../data/demo.session");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/summary/relative-path", test_relative_path);
  return g_test_run ();
}
