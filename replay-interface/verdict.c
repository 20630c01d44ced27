/* verdict.c — the typed verdict of one run (see verdict.h). */
#define G_LOG_DOMAIN "xreduce-verdict"

#include "verdict.h"
#include "session.h"
#include "signame.h"

#include <string.h>
#include <sys/wait.h>

static const char *const kind_names[] = {
  [VERDICT_PASSED] = "passed",
  [VERDICT_CRASHED] = "crashed",
  [VERDICT_EXITED] = "exited",
  [VERDICT_HUNG] = "hung",
  [VERDICT_COULD_NOT_START] = "could-not-start",
  [VERDICT_UNRESOLVED] = "unresolved",
  [VERDICT_INFRA_ERROR] = "infrastructure-error",
};

static const char *const xreduce_verdict_names[] = {
  [XREDUCE_VERDICT_REDUCED] = "reduced",
  [XREDUCE_VERDICT_STOPPED_EARLY] = "stopped_early",
  [XREDUCE_VERDICT_NOTHING_TO_REDUCE] = "nothing_to_reduce",
  [XREDUCE_VERDICT_USAGE_ERROR] = "usage_error",
  [XREDUCE_VERDICT_INFRA_ERROR] = "infra_error",
  [XREDUCE_VERDICT_INTERRUPTED] = "interrupted",
};

void
verdict_init (Verdict *verdict, VerdictKind kind)
{
  verdict->kind = kind;
  verdict->signal = 0;
  verdict->exit_status = -1;
  verdict->detail = NULL;
}

void
verdict_clear (Verdict *verdict)
{
  g_clear_pointer (&verdict->detail, g_free);
}

void
verdict_copy (Verdict *dest, const Verdict *src)
{
  *dest = *src;
  dest->detail = g_strdup (src->detail);
}

const char *
verdict_kind_to_string (VerdictKind kind)
{
  return (guint) kind < G_N_ELEMENTS (kind_names) ? kind_names[kind] : "unknown";
}

gboolean
verdict_kind_from_string (const char *text, VerdictKind *kind)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (kind_names); i++)
    if (strcmp (text, kind_names[i]) == 0)
      {
        *kind = (VerdictKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
xreduce_verdict_to_string (XreduceVerdict verdict)
{
  return (guint) verdict < G_N_ELEMENTS (xreduce_verdict_names) ? xreduce_verdict_names[verdict]
                                                                 : "unknown";
}

gboolean
xreduce_verdict_from_string (const char *text, XreduceVerdict *verdict)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (xreduce_verdict_names); i++)
    if (strcmp (text, xreduce_verdict_names[i]) == 0)
      {
        *verdict = (XreduceVerdict) i;
        return TRUE;
      }
  return FALSE;
}

void
verdict_from_wait_status (Verdict *verdict, int wait_status)
{
  if (WIFSIGNALED (wait_status))
    {
      verdict_init (verdict, VERDICT_CRASHED);
      verdict->signal = WTERMSIG (wait_status);
    }
  else
    {
      verdict_init (verdict, VERDICT_EXITED);
      verdict->exit_status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
    }
}

SessionOutcome
verdict_to_session_outcome (const Verdict *verdict)
{
  switch (verdict->kind)
    {
    case VERDICT_PASSED:
      return (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
    case VERDICT_CRASHED:
      return (SessionOutcome) { .kind = SESSION_OUTCOME_CRASHED, .signal = verdict->signal };
    case VERDICT_EXITED:
      return (SessionOutcome) { .kind = SESSION_OUTCOME_EXITED,
                                .status = verdict->exit_status };
    case VERDICT_HUNG:
      return (SessionOutcome) { .kind = SESSION_OUTCOME_HUNG };
    case VERDICT_COULD_NOT_START:
    case VERDICT_UNRESOLVED:
    case VERDICT_INFRA_ERROR:
    default:
      return (SessionOutcome) { .kind = SESSION_OUTCOME_UNKNOWN };
    }
}

char *
verdict_describe (const Verdict *verdict)
{
  const char *detail = verdict->detail != NULL ? verdict->detail : "unknown reason";

  switch (verdict->kind)
    {
    case VERDICT_PASSED:
      return g_strdup (verdict_kind_to_string (verdict->kind));
    case VERDICT_CRASHED:
    case VERDICT_EXITED:
    case VERDICT_HUNG:
      return session_outcome_describe (verdict_to_session_outcome (verdict));
    case VERDICT_COULD_NOT_START:
      return g_strdup_printf ("could not start: %s", detail);
    case VERDICT_UNRESOLVED:
      return g_strdup_printf ("unresolved: %s", detail);
    case VERDICT_INFRA_ERROR:
    default:
      return g_strdup_printf ("infrastructure error: %s", detail);
    }
}

void
verdict_to_json (const Verdict *verdict, JsonBuilder *builder)
{
  const char *signame = verdict->signal != 0 ? proc_signal_name (verdict->signal) : NULL;
  gboolean has_status = verdict->signal == 0 && verdict->exit_status >= 0
                        && (verdict->kind == VERDICT_EXITED
                            || verdict->kind == VERDICT_COULD_NOT_START);

  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, verdict_kind_to_string (verdict->kind));
  json_builder_set_member_name (builder, "signal");
  if (signame != NULL)
    json_builder_add_string_value (builder, signame);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "signal_number");
  if (verdict->signal != 0)
    json_builder_add_int_value (builder, verdict->signal);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "exit_status");
  if (has_status)
    json_builder_add_int_value (builder, verdict->exit_status);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "detail");
  if (verdict->detail != NULL)
    json_builder_add_string_value (builder, verdict->detail);
  else
    json_builder_add_null_value (builder);
}

/* An integer member, or @fallback when it is missing or null. */
static gint64
member_int (JsonObject *object, const char *name, gint64 fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node) || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_INT64)
    return fallback;
  return json_node_get_int (node);
}

gboolean
verdict_from_json (JsonObject *object, Verdict *verdict, GError **error)
{
  const char *outcome = json_object_get_string_member_with_default (object, "outcome", NULL);
  const char *detail = json_object_get_string_member_with_default (object, "detail", NULL);
  VerdictKind kind;

  if (!verdict_kind_from_string (outcome, &kind))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE, "unknown outcome '%s'",
                   outcome != NULL ? outcome : "(none)");
      return FALSE;
    }
  verdict_init (verdict, kind);
  verdict->signal = (int) member_int (object, "signal_number", 0);
  verdict->exit_status = (int) member_int (object, "exit_status", -1);
  verdict->detail = g_strdup (detail);
  return TRUE;
}
