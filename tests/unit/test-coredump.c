/* test-coredump.c — systemd-coredump's word on a vanished app
 * (recorder/coredump.h): coredumpctl's `--json=short list` answer read
 * for the app's pid, dumped since it was first seen, the signal a number
 * or a name; anything else is no entry. And the lookup itself, against
 * stand-in coredumpctl scripts: asked again until the entry comes, and
 * given up after its tries. No display.
 */
#include "coredump.h"

#include <signal.h>
#include <glib/gstdio.h>

#define SINCE G_GINT64_CONSTANT (1700000000000000)

static void
test_parse (void)
{
  static const struct
  {
    const char *json;
    int signal;
  } cases[] = {
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":11,\"exe\":\"/x\"}]", SIGSEGV },
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":\"SIGABRT\"}]", SIGABRT },
    /* The newest of two. */
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":6},"
      "{\"time\":1700000002000000,\"pid\":42,\"sig\":11}]", SIGSEGV },
    /* Another pid's; one dumped before the app was seen (a pid reused). */
    { "[{\"time\":1700000001000000,\"pid\":43,\"sig\":11}]", 0 },
    { "[{\"time\":1600000000000000,\"pid\":42,\"sig\":11}]", 0 },
    /* Not a signal, not JSON, not a list, no answer. */
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":500}]", 0 },
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":-1}]", 0 },
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":\"SIGNOPE\"}]", 0 },
    { "[{\"time\":1700000001000000,\"pid\":42,\"sig\":[11]}]", 0 },
    { "[{\"time\":1700000001000000,\"pid\":42}]", 0 },
    { "No coredumps found.", 0 },
    { "{\"pid\":42,\"sig\":11}", 0 },
    { "[42, null, \"x\"]", 0 },
    { "", 0 },
    { NULL, 0 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %zu: %s", i, cases[i].json);
      g_assert_cmpint (rec_coredump_parse (cases[i].json, 42, SINCE), ==, cases[i].signal);
    }
}

typedef struct
{
  int signal;
  gboolean done;
} Answer;

static void
on_answer (int signal, gpointer user_data)
{
  Answer *answer = user_data;

  g_assert_false (answer->done);
  answer->signal = signal;
  answer->done = TRUE;
}

/* A stand-in coredumpctl in @dir: its calls counted in @dir/calls; the
 * entry (SIGBUS) from call @from on (0: never). Its path. */
static char *
stand_in (const char *dir, guint from)
{
  g_autofree char *script = g_strdup_printf (
    "#!/bin/sh\n"
    "echo \"$*\" >>\"%s/calls\"\n"
    "[ %u -gt 0 ] && [ \"$(wc -l <\"%s/calls\")\" -ge %u ] || { echo 'No coredumps found.' >&2; exit 1; }\n"
    "echo '[{\"time\":'$(date +%%s%%6N)',\"pid\":4242,\"sig\":7}]'\n",
    dir, from, dir, from);
  char *path = g_build_filename (dir, "coredumpctl", NULL);

  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0700), ==, 0);
  return path;
}

static guint
n_calls (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "calls", NULL);
  g_autofree char *text = NULL;
  guint n = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

static void
test_lookup (void)
{
  static const struct
  {
    guint from;              /* the stand-in's first call with the entry (0: never) */
    int signal;
    guint calls;
  } cases[] = {
    { 1, SIGBUS, 1 },
    { 3, SIGBUS, 3 },
    { 0, 0, 4 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("test-coredump-XXXXXX", NULL);
      g_autofree char *program = stand_in (dir, cases[i].from);
      g_autofree char *calls = g_build_filename (dir, "calls", NULL);
      Answer answer = { 0 };
      g_autoptr (RecCoredump) lookup = rec_coredump_lookup (program, 4242, g_get_real_time (),
                                                            4, 10, on_answer, &answer);

      while (!answer.done)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpint (answer.signal, ==, cases[i].signal);
      g_assert_cmpuint (n_calls (dir), ==, cases[i].calls);
      g_remove (calls);
      g_remove (program);
      g_rmdir (dir);
    }
  {
    /* No such program: no entry, said from the main loop. */
    Answer answer = { 0 };
    g_autoptr (RecCoredump) lookup = rec_coredump_lookup ("/nonexistent/coredumpctl", 4242, 0, 4,
                                                          10, on_answer, &answer);

    g_assert_false (answer.done);
    while (!answer.done)
      g_main_context_iteration (NULL, TRUE);
    g_assert_cmpint (answer.signal, ==, 0);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/coredump/parse", test_parse);
  g_test_add_func ("/coredump/lookup", test_lookup);
  return g_test_run ();
}
