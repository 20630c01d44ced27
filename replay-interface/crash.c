/* crash.c — an app's death by a signal, beyond the signal (see crash.h). */
#define _GNU_SOURCE   /* TRAP_BRKPT, TRAP_TRACE */
#define G_LOG_DOMAIN "xreduce-verdict"

#include "crash.h"
#include "jsonio.h"
#include "session.h"
#include "signame.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
crash_info_clear (CrashInfo *crash)
{
  g_clear_pointer (&crash->process, g_free);
  g_clear_pointer (&crash->sender, g_free);
  g_clear_pointer (&crash->frames, g_strfreev);
  g_clear_pointer (&crash->frames_at, g_strfreev);
  g_clear_pointer (&crash->no_frames, g_free);
  memset (crash, 0, sizeof *crash);
}

void
crash_info_copy (CrashInfo *dest, const CrashInfo *src)
{
  *dest = *src;
  dest->process = g_strdup (src->process);
  dest->sender = g_strdup (src->sender);
  dest->frames = g_strdupv (src->frames);
  dest->frames_at = g_strdupv (src->frames_at);
  dest->no_frames = g_strdup (src->no_frames);
}

gboolean
crash_info_is_sent (const CrashInfo *crash)
{
  return crash->signal > 0 && crash->sent;
}

const char *
crash_code_name (int signal, int code, char buf[32])
{
  static const struct { int signal, code; const char *name; } fault_codes[] = {
    { SIGSEGV, SEGV_MAPERR, "SEGV_MAPERR" }, { SIGSEGV, SEGV_ACCERR, "SEGV_ACCERR" },
    { SIGBUS, BUS_ADRALN, "BUS_ADRALN" }, { SIGBUS, BUS_ADRERR, "BUS_ADRERR" },
    { SIGBUS, BUS_OBJERR, "BUS_OBJERR" },
    { SIGILL, ILL_ILLOPC, "ILL_ILLOPC" }, { SIGILL, ILL_ILLOPN, "ILL_ILLOPN" },
    { SIGILL, ILL_ILLADR, "ILL_ILLADR" }, { SIGILL, ILL_ILLTRP, "ILL_ILLTRP" },
    { SIGILL, ILL_PRVOPC, "ILL_PRVOPC" }, { SIGILL, ILL_PRVREG, "ILL_PRVREG" },
    { SIGILL, ILL_COPROC, "ILL_COPROC" }, { SIGILL, ILL_BADSTK, "ILL_BADSTK" },
    { SIGFPE, FPE_INTDIV, "FPE_INTDIV" }, { SIGFPE, FPE_INTOVF, "FPE_INTOVF" },
    { SIGFPE, FPE_FLTDIV, "FPE_FLTDIV" }, { SIGFPE, FPE_FLTOVF, "FPE_FLTOVF" },
    { SIGFPE, FPE_FLTUND, "FPE_FLTUND" }, { SIGFPE, FPE_FLTRES, "FPE_FLTRES" },
    { SIGFPE, FPE_FLTINV, "FPE_FLTINV" }, { SIGFPE, FPE_FLTSUB, "FPE_FLTSUB" },
    { SIGTRAP, TRAP_BRKPT, "TRAP_BRKPT" }, { SIGTRAP, TRAP_TRACE, "TRAP_TRACE" },
  };

  switch (code)
    {
    case SI_USER:
      return "SI_USER";
    case SI_KERNEL:
      return "SI_KERNEL";
    case SI_QUEUE:
      return "SI_QUEUE";
    case SI_TIMER:
      return "SI_TIMER";
    case SI_MESGQ:
      return "SI_MESGQ";
    case SI_ASYNCIO:
      return "SI_ASYNCIO";
    case SI_SIGIO:
      return "SI_SIGIO";
    case SI_TKILL:
      return "SI_TKILL";
    default:
      break;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (fault_codes); i++)
    if (fault_codes[i].signal == signal && fault_codes[i].code == code)
      return fault_codes[i].name;
  g_snprintf (buf, 32, "code %d", code);
  return buf;
}

char *
crash_info_describe_cause (const CrashInfo *crash)
{
  char buf[32];
  const char *code = crash_code_name (crash->signal, crash->code, buf);

  if (crash->signal <= 0)
    return g_strdup ("unknown");
  if (crash_info_is_sent (crash) && crash->sender_pid == 0)
    return g_strdup ("sent from outside the app's sandbox");
  if (crash_info_is_sent (crash))
    return crash->sender != NULL
             ? g_strdup_printf ("sent by pid %d (%s)", crash->sender_pid, crash->sender)
             : g_strdup_printf ("sent by pid %d", crash->sender_pid);
  if (crash->code > 0 && crash->has_address)
    return g_strdup_printf ("a fault (%s at 0x%" G_GINT64_MODIFIER "x)", code, crash->address);
  if (crash->code > 0)
    return g_strdup_printf ("a fault (%s)", code);
  return g_strdup_printf ("raised by the process itself (%s)", code);
}

/* Where a process or thread starts: never a crash site. */
static gboolean
is_start (const char *name)
{
  static const char *const starts[] = { "_start", "__libc_start_main", "__libc_start_main_impl",
                                        "__libc_start_call_main", "start_thread", "__clone",
                                        "__clone3", "clone", "clone3", "main" };

  for (gsize i = 0; i < G_N_ELEMENTS (starts); i++)
    if (g_str_equal (name, starts[i]))
      return TRUE;
  return FALSE;
}

char *
crash_info_site (const CrashInfo *crash)
{
  const char *const *at = (const char *const *) crash->frames_at;

  if (crash->frames == NULL || crash->frames[0] == NULL)
    return NULL;
  /* The first frame with a source line (the app's code, built with -g:
   * a libc function without one above it is not the bug), but not past a
   * frame without a name (a library without symbols, Firefox's
   * libxul.so: a line found below it is where the process started, not
   * the crash), nor a process's or thread's start. */
  for (guint i = 0; at != NULL && crash->frames[i] != NULL && at[i] != NULL; i++)
    {
      if (g_str_equal (crash->frames[i], "??") || (is_start (crash->frames[i]) && i > 0))
        break;
      if (strchr (at[i], ':') != NULL)
        return g_strdup_printf ("%s (%s)", crash->frames[i], at[i]);
    }
  /* Else the first frame, "?? (libxul.so)" when it has no name (as gdb
   * says "?? () from libxul.so"). */
  if (at != NULL && at[0] != NULL && *at[0] != '\0')
    return g_strdup_printf ("%s (%s)", crash->frames[0], at[0]);
  return g_strdup (crash->frames[0]);
}

char *
crash_info_outcome (const CrashInfo *crash, const char *site_hint)
{
  const char *name = proc_signal_name (crash->signal);
  g_autofree char *signal = name != NULL ? g_strdup (name)
                                         : g_strdup_printf ("signal %d", crash->signal);
  g_autofree char *site = crash_info_site (crash);
  g_autoptr (GString) out = g_string_new (NULL);

  if (crash_info_is_sent (crash))
    {
      g_autofree char *cause = crash_info_describe_cause (crash);
      return g_strdup_printf ("killed by %s %s", signal, cause);
    }
  g_string_append_printf (out, "crashed with %s", signal);
  if ((site == NULL || strchr (site, ':') == NULL) && site_hint != NULL)
    {
      g_free (site);
      site = g_strdup (site_hint);
    }
  if (site != NULL)
    g_string_append_printf (out, " in %s", site);
  if (crash->child && crash->process != NULL)
    g_string_append_printf (out, "%s its process %s", site != NULL ? ", in" : " in",
                            crash->process);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
crash_info_outcome_python (const CrashInfo *crash, GArray *python)
{
  g_autofree char *site = NULL;

  /* A Python app's own line says more than the interpreter's C frame
   * without a source line. */
  if (python != NULL && python->len > 0)
    {
      CrashPyFrame *top = &g_array_index (python, CrashPyFrame, 0);
      site = g_strdup_printf ("%s (%s:%d)", top->function, top->file, top->line);
    }
  return crash_info_outcome (crash, site);
}

void
crash_info_add_sent_by (const CrashInfo *crash, JsonBuilder *b)
{
  json_builder_set_member_name (b, "sent_by");
  if (crash != NULL && crash_info_is_sent (crash))
    {
      json_builder_begin_object (b);
      jsonio_add_int (b, "pid", crash->sender_pid, TRUE);
      jsonio_add_string (b, "name", crash->sender);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
}

void
crash_info_to_json (const CrashInfo *crash, JsonBuilder *b)
{
  char buf[32];
  g_autofree char *address = crash->has_address
                               ? g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", crash->address)
                               : NULL;

  jsonio_add_string (b, "signal", proc_signal_name (crash->signal));
  jsonio_add_int (b, "signal_number", crash->signal, crash->signal > 0);
  jsonio_add_int (b, "code", crash->code, crash->signal > 0);
  jsonio_add_string (b, "code_name", crash->signal > 0
                                       ? crash_code_name (crash->signal, crash->code, buf)
                                       : NULL);
  jsonio_add_string (b, "address", address);
  jsonio_add_int (b, "pid", crash->pid, crash->pid > 0);
  jsonio_add_int (b, "tid", crash->tid, crash->tid > 0);
  jsonio_add_string (b, "process", crash->process);
  jsonio_add_bool (b, "child_process", crash->child);
  crash_info_add_sent_by (crash, b);
  jsonio_add_strings (b, "frames", (const char *const *) crash->frames);
  jsonio_add_strings (b, "frames_at", (const char *const *) crash->frames_at);
  jsonio_add_string (b, "no_frames", crash->no_frames);
}

gboolean
crash_info_from_json (JsonObject *object, CrashInfo *crash)
{
  const char *address = jsonio_get_string (object, "address");
  JsonObject *sender = jsonio_get_object (object, "sent_by");

  memset (crash, 0, sizeof *crash);
  crash->signal = (int) MAX (jsonio_get_int (object, "signal_number"), 0);
  if (crash->signal <= 0)
    return FALSE;
  crash->code = (int) jsonio_get_int (object, "code");
  if (address != NULL && g_str_has_prefix (address, "0x"))
    {
      crash->has_address = TRUE;
      crash->address = g_ascii_strtoull (address + 2, NULL, 16);
    }
  crash->pid = (int) MAX (jsonio_get_int (object, "pid"), 0);
  crash->tid = (int) MAX (jsonio_get_int (object, "tid"), 0);
  crash->process = g_strdup (jsonio_get_string (object, "process"));
  crash->child = json_object_get_boolean_member_with_default (object, "child_process", FALSE);
  if (sender != NULL)
    {
      crash->sent = TRUE;
      crash->sender_pid = (int) MAX (jsonio_get_int (sender, "pid"), 0);
      crash->sender = g_strdup (jsonio_get_string (sender, "name"));
    }
  crash->frames = jsonio_dup_strings (object, "frames");
  crash->frames_at = jsonio_dup_strings (object, "frames_at");
  crash->no_frames = g_strdup (jsonio_get_string (object, "no_frames"));
  /* As many places as frames, whatever the file said. */
  if (crash->frames != NULL)
    {
      guint n = g_strv_length (crash->frames);
      guint m = crash->frames_at != NULL ? g_strv_length (crash->frames_at) : 0;
      char **at = g_new0 (char *, n + 1);

      for (guint i = 0; i < n; i++)
        at[i] = g_strdup (i < m ? crash->frames_at[i] : "");
      g_strfreev (crash->frames_at);
      crash->frames_at = at;
    }
  return TRUE;
}

gboolean
crash_info_save (const CrashInfo *crash, const char *path, GError **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  crash_info_to_json (crash, b);
  json_builder_end_object (b);
  text = jsonio_to_text (b, FALSE);
  return g_file_set_contents (path, text, -1, error);
}

gboolean
crash_info_load (const char *path, CrashInfo *crash, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;

  memset (crash, 0, sizeof *crash);
  if (!json_parser_load_from_file (parser, path, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)
      || !crash_info_from_json (json_node_get_object (root), crash))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no crash", path);
      return FALSE;
    }
  return TRUE;
}

static void
py_frame_clear (CrashPyFrame *frame)
{
  g_free (frame->function);
  g_free (frame->file);
}

GArray *
crash_python_stack (const char *stderr_text, gsize len)
{
  GArray *frames = g_array_new (FALSE, TRUE, sizeof (CrashPyFrame));
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
          CrashPyFrame frame = { 0 };
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
