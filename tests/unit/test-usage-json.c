/* test-usage-json.c — xreduce --json answers in JSON whatever the answer:
 * a command line refused before anything starts (no session, a bad
 * option, a bad value of a replay option) is one usage_error object on
 * stdout, with the exit status and the message stderr says too; nothing
 * else on stdout. No display: every case is refused before any Xvfb
 * starts. The program comes from the environment: XREDUCE.
 */
#include <string.h>
#include <sys/wait.h>
#include <glib.h>
#include <json-glib/json-glib.h>

static void
test_refused (gconstpointer data)
{
  const char *const *args = data;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *result, *files;
  int status = -1;

  g_ptr_array_add (argv, (char *) g_getenv ("XREDUCE"));
  g_assert_nonnull (argv->pdata[0]);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("stdout:\n%s\nstderr:\n%s", out, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  /* stdout is the JSON alone. */
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  result = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (result, "verdict"), ==, "usage_error");
  g_assert_cmpint (json_object_get_int_member (result, "exit_status"), ==, 2);
  g_assert_nonnull (strstr (err, json_object_get_string_member (result, "error")));
  files = json_object_get_object_member (result, "files");
  g_assert_true (json_object_get_null_member (files, "minimal_session"));
}

int
main (int argc, char **argv)
{
  static const char *const no_args[] = { "--json", NULL };
  static const char *const max_actions[] = { "--json", "--max-actions", "0", "s.log", NULL };
  static const char *const unknown[] = { "--json", "--no-such-option", "s.log", NULL };
  static const char *const jobs[] = { "--json", "-j", "0", "s.log", "--", "xdemo", NULL };
  static const char *const two[] = { "--json", "a.log", "b.log", NULL };
  static const char *const nothing_after[] = { "--json", "s.log", "--", NULL };

  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/usage-json/no-arguments", no_args, test_refused);
  g_test_add_data_func ("/usage-json/max-actions-0", max_actions, test_refused);
  g_test_add_data_func ("/usage-json/unknown-option", unknown, test_refused);
  g_test_add_data_func ("/usage-json/jobs-0", jobs, test_refused);
  g_test_add_data_func ("/usage-json/two-sessions", two, test_refused);
  g_test_add_data_func ("/usage-json/nothing-after-dashes", nothing_after, test_refused);
  return g_test_run ();
}
