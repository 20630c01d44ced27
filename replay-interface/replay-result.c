/* replay-result.c — the result of a replay as one JSON object (json-glib),
 * what `xreplay --json` prints and xreduce's runner reads back: both
 * directions here (see replay-result.h).
 */
#define G_LOG_DOMAIN "xreduce-verdict"

#include "replay-result.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "jsonio.h"

void
replay_result_clear (ReplayResult *result)
{
  g_clear_pointer (&result->stderr_text, g_free);
  g_clear_pointer (&result->verdict.detail, g_free);
  crash_info_clear (&result->crash);
  g_clear_pointer (&result->app_classes, g_strfreev);
  g_clear_pointer (&result->pace_detail, g_free);
  g_clear_pointer (&result->missing_class, g_free);
  g_clear_pointer (&result->missing_title, g_free);
  result->stderr_len = 0;
}

gboolean
replay_result_stderr_matches (const ReplayResult *result, GRegex *regex)
{
  g_autofree char *valid = NULL;

  if (regex == NULL || result->stderr_text == NULL)
    return FALSE;
  if (g_regex_get_compile_flags (regex) & G_REGEX_RAW)
    return g_regex_match_full (regex, result->stderr_text, (gssize) result->stderr_len, 0, 0,
                               NULL, NULL);
  valid = g_utf8_make_valid (result->stderr_text, (gssize) result->stderr_len);
  return g_regex_match (regex, valid, 0, NULL);
}

char *
replay_result_to_json (const ReplayResult *result)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autofree char *valid = NULL;
  const char *tail;

  json_builder_begin_object (builder);
  verdict_to_json (&result->verdict, builder);
  jsonio_add_bool (builder, "stderr_matched", result->stderr_matched);
  jsonio_add_int (builder, "actions", result->n_actions, TRUE);
  jsonio_add_int (builder, "actions_replayed", result->n_replayed, TRUE);
  jsonio_add_int (builder, "server_start_ms", result->server_ms, TRUE);
  jsonio_add_int (builder, "time_to_first_window_ms", result->first_window_ms, TRUE);
  jsonio_add_int (builder, "replay_ms", result->replay_ms, TRUE);
  jsonio_add_int (builder, "settle_ms", result->settle_ms, TRUE);
  jsonio_add_int (builder, "total_ms", result->total_ms, TRUE);
  jsonio_add_int (builder, "window_latency_ms", result->window_latency_ms,
                result->window_latency_ms >= 0);
  jsonio_add_int (builder, "app_cpu_ms", result->app_cpu_ms, result->app_cpu_ms >= 0);
  jsonio_add_int (builder, "app_peak_rss_kb", result->app_peak_rss_kb,
                result->app_peak_rss_kb >= 0);

  jsonio_add_string (builder, "pace", result->pace == REPLAY_PACE_APP ? "app" : "recorded");
  jsonio_add_bool (builder, "never_connected", result->never_connected);
  jsonio_add_bool (builder, "glx_asked", result->glx_asked);
  jsonio_add_strings (builder, "app_classes", (const char *const *) result->app_classes);
  jsonio_add_string (builder, "pace_detail", result->pace_detail);
  jsonio_add_int (builder, "app_wait_ms", result->app_wait_ms, TRUE);
  jsonio_add_int (builder, "app_wait_max_ms", result->app_wait_max_ms, TRUE);
  jsonio_add_int (builder, "app_waits", result->app_waits, TRUE);

  json_builder_set_member_name (builder, "missing_window");
  if (result->missing_action > 0)
    {
      json_builder_begin_object (builder);
      jsonio_add_int (builder, "action", result->missing_action, TRUE);
      jsonio_add_int (builder, "window", result->missing_window, TRUE);
      jsonio_add_string (builder, "class", result->missing_class);
      jsonio_add_string (builder, "title", result->missing_title);
      jsonio_add_int (builder, "waited_ms", result->missing_wait_ms, TRUE);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  /* The last 2 KiB, cut at a character boundary. */
  valid = g_utf8_make_valid (result->stderr_text != NULL ? result->stderr_text : "",
                             (gssize) result->stderr_len);
  tail = valid;
  if (strlen (valid) > 2048)
    tail = g_utf8_find_next_char (valid + strlen (valid) - 2049, NULL);
  jsonio_add_string (builder, "stderr_tail", tail);
  jsonio_add_strings (builder, "backtrace", (const char *const *) result->crash.frames);
  jsonio_add_strings (builder, "backtrace_at", (const char *const *) result->crash.frames_at);
  json_builder_set_member_name (builder, "crash");
  if (result->crash.signal > 0)
    {
      json_builder_begin_object (builder);
      crash_info_to_json (&result->crash, builder);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  return jsonio_to_text (builder, FALSE);
}

gboolean
replay_result_from_json (const char *text, ReplayResult *result, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *pace = NULL;
  JsonObject *object, *missing;
  JsonNode *root;

  memset (result, 0, sizeof *result);
  if (!json_parser_load_from_data (parser, text, -1, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           "not a JSON object");
      return FALSE;
    }
  object = json_node_get_object (root);
  if (!verdict_from_json (object, &result->verdict, error))
    return FALSE;
  result->stderr_matched = json_object_get_boolean_member_with_default (object,
                                                                        "stderr_matched", FALSE);
  result->never_connected = json_object_get_boolean_member_with_default (object,
                                                                         "never_connected",
                                                                         FALSE);
  /* Not said (an older xreplay): it may have. */
  result->glx_asked = json_object_get_boolean_member_with_default (object, "glx_asked", TRUE);
  result->n_actions = (guint) MAX (jsonio_get_int (object, "actions"), 0);
  result->n_replayed = (guint) MAX (jsonio_get_int (object, "actions_replayed"), 0);
  result->server_ms = jsonio_get_int (object, "server_start_ms");
  result->first_window_ms = jsonio_get_int (object, "time_to_first_window_ms");
  result->replay_ms = jsonio_get_int (object, "replay_ms");
  result->settle_ms = jsonio_get_int (object, "settle_ms");
  result->total_ms = jsonio_get_int (object, "total_ms");
  result->window_latency_ms = jsonio_get_int (object, "window_latency_ms");
  result->app_cpu_ms = jsonio_get_int (object, "app_cpu_ms");
  result->app_peak_rss_kb = jsonio_get_int (object, "app_peak_rss_kb");
  pace = g_strdup (jsonio_get_string (object, "pace"));
  result->pace = g_strcmp0 (pace, "recorded") == 0 ? REPLAY_PACE_RECORDED : REPLAY_PACE_APP;
  result->pace_detail = g_strdup (jsonio_get_string (object, "pace_detail"));
  result->app_wait_ms = jsonio_get_int (object, "app_wait_ms");
  result->app_wait_max_ms = jsonio_get_int (object, "app_wait_max_ms");
  result->app_waits = (guint) MAX (jsonio_get_int (object, "app_waits"), 0);
  if (json_object_has_member (object, "missing_window")
      && JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "missing_window")))
    {
      missing = json_object_get_object_member (object, "missing_window");
      result->missing_action = (guint) MAX (jsonio_get_int (missing, "action"), 0);
      result->missing_window = (int) jsonio_get_int (missing, "window");
      result->missing_class = g_strdup (jsonio_get_string (missing, "class"));
      result->missing_title = g_strdup (jsonio_get_string (missing, "title"));
      result->missing_wait_ms = (guint) MAX (jsonio_get_int (missing, "waited_ms"), 0);
    }
  result->app_classes = jsonio_dup_strings (object, "app_classes");
  result->stderr_text = g_strdup (jsonio_get_string (object, "stderr_tail"));
  if (result->stderr_text == NULL)
    result->stderr_text = g_strdup ("");
  result->stderr_len = strlen (result->stderr_text);
  if (jsonio_get_object (object, "crash") == NULL
      || !crash_info_from_json (jsonio_get_object (object, "crash"), &result->crash))
    {
      /* An older xreplay's: the frames alone. */
      crash_info_clear (&result->crash);
      result->crash.frames = jsonio_dup_strings (object, "backtrace");
      result->crash.frames_at = jsonio_dup_strings (object, "backtrace_at");
    }
  return TRUE;
}
