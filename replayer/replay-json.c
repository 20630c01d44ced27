/* replay-json.c — the result of a replay as one JSON object (json-glib),
 * what `xreplay --json` prints and xreduce's runner reads back.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay.h"

#include <string.h>
#include <json-glib/json-glib.h>


static void
json_add_int (JsonBuilder *builder, const char *name, gint64 value, gboolean known)
{
  json_builder_set_member_name (builder, name);
  if (known)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
json_add_string (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

char *
replay_result_to_json (const ReplayResult *result)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *valid = NULL;
  const char *tail;

  json_builder_begin_object (builder);
  verdict_to_json (&result->verdict, builder);
  json_builder_set_member_name (builder, "stderr_matched");
  json_builder_add_boolean_value (builder, result->stderr_matched);
  json_add_int (builder, "actions", result->n_actions, TRUE);
  json_add_int (builder, "actions_replayed", result->n_replayed, TRUE);
  json_add_int (builder, "server_start_ms", result->server_ms, TRUE);
  json_add_int (builder, "time_to_first_window_ms", result->first_window_ms, TRUE);
  json_add_int (builder, "replay_ms", result->replay_ms, TRUE);
  json_add_int (builder, "settle_ms", result->settle_ms, TRUE);
  json_add_int (builder, "total_ms", result->total_ms, TRUE);
  json_add_int (builder, "window_latency_ms", result->window_latency_ms,
                result->window_latency_ms >= 0);
  json_add_int (builder, "app_cpu_ms", result->app_cpu_ms, result->app_cpu_ms >= 0);
  json_add_int (builder, "app_peak_rss_kb", result->app_peak_rss_kb,
                result->app_peak_rss_kb >= 0);

  json_builder_set_member_name (builder, "pace");
  json_builder_add_string_value (builder, result->pace == REPLAY_PACE_APP ? "app" : "recorded");
  json_builder_set_member_name (builder, "never_connected");
  json_builder_add_boolean_value (builder, result->never_connected);
  json_builder_set_member_name (builder, "pace_detail");
  if (result->pace_detail != NULL)
    json_builder_add_string_value (builder, result->pace_detail);
  else
    json_builder_add_null_value (builder);
  json_add_int (builder, "app_wait_ms", result->app_wait_ms, TRUE);
  json_add_int (builder, "app_wait_max_ms", result->app_wait_max_ms, TRUE);
  json_add_int (builder, "app_waits", result->app_waits, TRUE);

  json_builder_set_member_name (builder, "missing_window");
  if (result->missing_action > 0)
    {
      json_builder_begin_object (builder);
      json_add_int (builder, "action", result->missing_action, TRUE);
      json_add_int (builder, "window", result->missing_window, TRUE);
      json_add_string (builder, "class", result->missing_class);
      json_add_string (builder, "title", result->missing_title);
      json_add_int (builder, "waited_ms", result->missing_wait_ms, TRUE);
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
  json_builder_set_member_name (builder, "stderr_tail");
  json_builder_add_string_value (builder, tail);
  json_builder_set_member_name (builder, "backtrace");
  if (result->backtrace != NULL)
    {
      json_builder_begin_array (builder);
      for (guint i = 0; result->backtrace[i] != NULL; i++)
        json_builder_add_string_value (builder, result->backtrace[i]);
      json_builder_end_array (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "backtrace_at");
  if (result->backtrace_at != NULL)
    {
      json_builder_begin_array (builder);
      for (guint i = 0; result->backtrace_at[i] != NULL; i++)
        json_builder_add_string_value (builder, result->backtrace_at[i]);
      json_builder_end_array (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}
