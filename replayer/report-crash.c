/* report-crash.c — what happened to the app, in report.md: the title's
 * words, the process that died and how the signal came (crash.h, from
 * xreduce-crashtrace), its backtrace or why there is none, the Python
 * stack faulthandler printed, the end of stderr. See report-private.h.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report-private.h"
#include "quote.h"
#include "signame.h"

#include <string.h>

char *
report_outcome_words (const ReplayResult *result, GArray *python)
{
  if (result->verdict.kind != VERDICT_CRASHED || result->crash.signal <= 0)
    return verdict_describe (&result->verdict);
  return crash_info_outcome_python (&result->crash, python);
}

char *
report_verdict_words (const ReplayResult *result)
{
  const char *name = proc_signal_name (result->verdict.signal);

  if (result->verdict.kind == VERDICT_CRASHED && crash_info_is_sent (&result->crash))
    return name != NULL ? g_strdup_printf ("was killed by %s", name)
                        : g_strdup_printf ("was killed by signal %d", result->verdict.signal);
  return verdict_describe (&result->verdict);
}

/* Lines of an indented code block, each one line whatever the app's text
 * holds. */
static void
append_code_line (GString *md, const char *line)
{
  g_autofree char *shown = quote_terminal (line);

  g_string_append_printf (md, "    %s\n", shown);
}

static void
append_crash (GString *md, const ReplayResult *result, GArray *python, gboolean traced)
{
  const CrashInfo *crash = &result->crash;

  if (crash->signal > 0)
    {
      g_autofree char *cause = crash_info_describe_cause (crash);
      g_autofree char *cause_md = quote_markdown_text (cause);
      g_autofree char *process = crash->process != NULL ? quote_markdown_code (crash->process)
                                                        : g_strdup ("of the app");

      if (crash->pid > 0 && crash->tid > 0 && crash->tid != crash->pid)
        g_string_append_printf (md, "\nThe signal: %s. It ended process %s (pid %d in the "
                                "replay's sandbox), in its thread %d.\n", cause_md, process,
                                crash->pid, crash->tid);
      else if (crash->pid > 0)
        g_string_append_printf (md, "\nThe signal: %s. It ended process %s (pid %d in the "
                                "replay's sandbox).\n", cause_md, process, crash->pid);
      else
        g_string_append_printf (md, "\nThe signal: %s.\n", cause_md);
    }
  if (crash->frames != NULL && crash->frames[0] != NULL)
    {
      g_string_append (md, "\nBacktrace of the thread that died (the top frames; the crash's "
                           "machinery, raise and abort, left out):\n\n");
      for (guint i = 0; crash->frames[i] != NULL; i++)
        {
          const char *at = crash->frames_at != NULL && crash->frames_at[i] != NULL
                             ? crash->frames_at[i] : "";
          g_autofree char *line = *at != '\0'
                                    ? g_strdup_printf ("#%u %s at %s", i, crash->frames[i], at)
                                    : g_strdup_printf ("#%u %s", i, crash->frames[i]);
          append_code_line (md, line);
        }
    }
  else
    {
      g_autofree char *why = crash->no_frames != NULL ? quote_markdown_text (crash->no_frames)
        : g_strdup (traced ? "the app's tracer said nothing of it"
                           : "this replay did not trace the app (--no-backtrace)");
      g_string_append_printf (md, "\nNo backtrace: %s.\n", why);
    }
  if (python != NULL && python->len > 0)
    {
      g_string_append (md, "\nPython stack of the thread that crashed (faulthandler, most "
                           "recent call first):\n\n");
      for (guint i = 0; i < python->len; i++)
        {
          CrashPyFrame *f = &g_array_index (python, CrashPyFrame, i);
          g_autofree char *line = g_strdup_printf ("File \"%s\", line %d, in %s", f->file,
                                                   f->line, f->function);
          append_code_line (md, line);
        }
    }
}

void
report_append_what_happened (GString *md, const ReplayResult *result, GArray *python,
                             gboolean traced)
{
  g_autofree char *outcome = report_outcome_words (result, python);
  g_autofree char *outcome_md = quote_markdown_text (outcome);

  g_string_append_printf (md, "The app %s%s.\n",
                          g_str_has_prefix (outcome, "killed ") ? "was " : "", outcome_md);
  if (result->verdict.kind == VERDICT_CRASHED)
    append_crash (md, result, python, traced);
  if (result->stderr_text != NULL && *result->stderr_text != '\0')
    {
      g_autofree char *valid = g_utf8_make_valid (result->stderr_text,
                                                  (gssize) result->stderr_len);
      g_auto (GStrv) lines = g_strsplit (valid, "\n", -1);
      guint n = g_strv_length (lines), from = n > 20 ? n - 20 : 0;

      g_string_append (md, "\nThe end of its stderr:\n\n");
      for (guint i = from; i < n; i++)
        if (*lines[i] != '\0' || i + 1 < n)
          append_code_line (md, lines[i]);
    }
}
