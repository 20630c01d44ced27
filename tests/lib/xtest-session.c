/* xtest-session.c — what an X11 test reads: a session's actions in
 * words, the programs' JSON (xtest-session.h). */
#include <glib.h>
#include <json-glib/json-glib.h>

#include "session.h"
#include "xtest-session.h"
#include "xtest-proc.h"

char *
test_actions_in_words (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load (path, &error);
  g_autoptr (GArray) actions = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  actions = session_get_actions (session);
  for (guint i = 0; i < actions->len; i++)
    {
      g_autofree char *words =
        session_event_describe (session_get_event (session, g_array_index (actions, guint, i)));
      g_string_append_printf (out, "%s\n", words);
    }
  return g_string_free (out, FALSE);
}

JsonObject *
test_json_object (JsonParser *parser, const char *text)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

char *
test_demo_with_glx (const char *dir, SessionGlx glx)
{
  g_autofree char *demo = data_path ("demo.session");
  g_autofree char *path = g_build_filename (dir, "glx.session", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load (demo, &error);

  g_assert_no_error (error);
  session_set_glx (session, glx);
  g_assert_true (session_save (session, path, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}
