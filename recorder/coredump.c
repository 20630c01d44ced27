/* coredump.c — systemd-coredump's word on a vanished process (see
 * coredump.h). Start reading at rec_coredump_lookup(). */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "coredump.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "session.h"
#include "signame.h"

struct RecCoredump
{
  char *coredumpctl;
  pid_t pid;
  gint64 since_us;
  guint tries_left, interval_ms;
  RecCoredumpFunc func;
  gpointer user_data;
  guint timer;
  GCancellable *cancel;      /* owned, while coredumpctl runs */
};

int
rec_coredump_parse (const char *json, pid_t pid, gint64 since_us)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonArray *entries;
  int signal = 0;

  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return 0;
  entries = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonNode *sig;

      if (entry == NULL || json_object_get_int_member_with_default (entry, "pid", 0) != pid
          || json_object_get_int_member_with_default (entry, "time", 0)
             < since_us - G_USEC_PER_SEC)
        continue;
      /* (A number; a name such as "SIGSEGV" is taken too.) */
      sig = json_object_get_member (entry, "sig");
      if (sig == NULL || !JSON_NODE_HOLDS_VALUE (sig))
        continue;
      if (json_node_get_value_type (sig) == G_TYPE_STRING)
        signal = proc_signal_from_name (json_node_get_string (sig));
      else if (json_node_get_value_type (sig) == G_TYPE_INT64)
        signal = (int) CLAMP (json_node_get_int (sig), 0, 128);
    }
  return signal > 0 && signal < 128 ? signal : 0;
}

static void ask (RecCoredump *lookup);

/* The next try, or (no tries left: coredumpctl could not run) the end,
 * from the main loop. */
static gboolean
on_timer (gpointer user_data)
{
  RecCoredump *lookup = user_data;

  lookup->timer = 0;
  if (lookup->tries_left == 0)
    lookup->func (0, lookup->user_data);
  else
    ask (lookup);
  return G_SOURCE_REMOVE;
}

static void
on_answer (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RecCoredump *lookup = user_data;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int signal;

  if (!g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* (the lookup was freed) */
  g_clear_object (&lookup->cancel);
  signal = rec_coredump_parse (out, lookup->pid, lookup->since_us);
  if (signal == 0 && --lookup->tries_left > 0)
    {
      lookup->timer = g_timeout_add (lookup->interval_ms, on_timer, lookup);
      return;
    }
  lookup->func (signal, lookup->user_data);
}

/* coredumpctl --json=short list COREDUMP_PID=PID, then on_answer(). */
static void
ask (RecCoredump *lookup)
{
  g_autofree char *match = g_strdup_printf ("COREDUMP_PID=%d", (int) lookup->pid);
  const char *argv[] = { lookup->coredumpctl, "--no-pager", "--quiet", "--json=short", "list",
                         match, NULL };
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;

  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                  | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  if (proc == NULL)
    {
      g_debug ("coredumpctl: %s", error->message);
      /* (Never from within rec_coredump_lookup().) */
      lookup->tries_left = 0;
      lookup->timer = g_idle_add (on_timer, lookup);
      return;
    }
  lookup->cancel = g_cancellable_new ();
  g_subprocess_communicate_utf8_async (proc, NULL, lookup->cancel, on_answer, lookup);
}

RecCoredump *
rec_coredump_lookup (const char *coredumpctl, pid_t pid, gint64 since_us, guint tries,
                     guint interval_ms, RecCoredumpFunc func, gpointer user_data)
{
  RecCoredump *lookup = g_new0 (RecCoredump, 1);

  lookup->coredumpctl = g_strdup (coredumpctl);
  lookup->pid = pid;
  lookup->since_us = since_us;
  lookup->tries_left = MAX (tries, 1);
  lookup->interval_ms = interval_ms;
  lookup->func = func;
  lookup->user_data = user_data;
  ask (lookup);
  return lookup;
}

void
rec_coredump_free (RecCoredump *lookup)
{
  if (lookup == NULL)
    return;
  if (lookup->timer != 0)
    g_source_remove (lookup->timer);
  if (lookup->cancel != NULL)
    {
      g_cancellable_cancel (lookup->cancel);
      g_object_unref (lookup->cancel);
    }
  g_free (lookup->coredumpctl);
  g_free (lookup);
}
