/* report-crash.c — what happened to the app, in report.md: the title's
 * words, the process that died and how the signal came (crash.h, from
 * xreduce-crashtrace), its backtrace or why there is none, the Python
 * stack faulthandler printed, the end of stderr. See report-private.h.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report-private.h"
#include "quote.h"

#include <stdlib.h>
#include <string.h>

static void
py_frame_clear (ReportPyFrame *frame)
{
  g_free (frame->function);
  g_free (frame->file);
}

GArray *
report_python_stack (const char *stderr_text, gsize len)
{
  GArray *frames = g_array_new (FALSE, TRUE, sizeof (ReportPyFrame));
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const char *fatal = NULL;
  gboolean in_stack = FALSE;

  g_array_set_clear_func (frames, (GDestroyNotify) py_frame_clear);
  if (stderr_text == NULL || len == 0)
    return frames;
  text = g_utf8_make_valid (stderr_text, (gssize) len);
  for (const char *p = strstr (text, "Fatal Python error: "); p != NULL;
       p = strstr (p + 1, "Fatal Python error: "))
    fatal = p;
  if (fatal == NULL)
    return frames;
  /* "Current thread 0x... (most recent call first):", then
   * '  File "/path/app.py", line 38 in crash' lines up to a blank one; a
   * dump of one thread says "Stack (most recent call first):". */
  lines = g_strsplit (fatal, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (!in_stack)
        {
          in_stack = (g_str_has_prefix (line, "Current thread ") || g_str_has_prefix (line, "Stack"))
                     && strstr (line, "(most recent call first):") != NULL;
          continue;
        }
      if (g_str_has_prefix (line, "  File \""))
        {
          const char *file = line + strlen ("  File \"");
          const char *end = strstr (file, "\", line ");
          const char *in;
          ReportPyFrame frame = { 0 };
          g_autofree char *path = NULL;

          if (end == NULL)
            break;
          path = g_strndup (file, (gsize) (end - file));
          frame.line = (int) strtol (end + strlen ("\", line "), NULL, 10);
          in = strstr (end, " in ");
          frame.function = g_strdup (in != NULL ? in + 4 : "??");
          frame.file = g_path_get_basename (path);
          g_array_append_val (frames, frame);
        }
      else if (!g_str_has_prefix (line, "  ...") || *line == '\0')
        break;
    }
  return frames;
}

char *
report_outcome_words (const ReplayResult *result, GArray *python)
{
  g_autofree char *python_site = NULL;

  if (result->verdict.kind != VERDICT_CRASHED || result->crash.signal <= 0)
    return verdict_describe (&result->verdict);
  /* A Python app's own line says more than the interpreter's C frame
   * without a source line. */
  if (python != NULL && python->len > 0)
    {
      ReportPyFrame *top = &g_array_index (python, ReportPyFrame, 0);
      python_site = g_strdup_printf ("%s (%s:%d)", top->function, top->file, top->line);
    }
  return crash_info_outcome (&result->crash, python_site);
}

char *
report_verdict_words (const ReplayResult *result)
{
  const char *name = session_signal_name (result->verdict.signal);

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
          ReportPyFrame *f = &g_array_index (python, ReportPyFrame, i);
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
