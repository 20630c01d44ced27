/* crashtrace.c — xreduce-crashtrace: run an app under gdb and, if it
 * crashes, write the top frames of its backtrace to a file, then die of the
 * same signal (or exit with the same status), so that whoever waits for
 * this process sees what the app did.
 *
 *   xreduce-crashtrace --frames-file F [--frames N] -- APP [ARGS...]
 *
 * xreplay --backtrace puts it in front of the app's command line; the
 * reducer's --same-crash compares the frames. gdb does the hard parts
 * (threads, signals, symbols); its own output goes to a log file, so the
 * app's stdout and stderr stay the app's.
 */
#define G_LOG_DOMAIN "xreduce-crashtrace"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "proc.h"
#include "session.h"

/* Frames that are the crash machinery, not the crash. */
static const char *const machinery[] = {
  "raise", "abort", "__GI_raise", "__GI_abort", "__pthread_kill_implementation",
  "__pthread_kill_internal", "pthread_kill", "__GI___pthread_kill",
  "__assert_fail", "__assert_fail_base", "__GI___assert_fail", "__libc_message",
  "__fortify_fail", "__stack_chk_fail", "__chk_fail", "g_assertion_message",
  "g_assertion_message_expr", "g_log", "g_logv", "g_log_structured_standard",
  "g_log_default_handler", "_g_log_abort", "g_log_writer_default",
};

static gboolean
is_machinery (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (machinery); i++)
    if (g_str_equal (name, machinery[i]))
      return TRUE;
  return FALSE;
}

/* "#3  0x0000555 in print_document (doc=0x0) at xdemo.c:88" ->
 * "print_document\txdemo.c:88"; "#5 0x7f in g_main_loop_run () from
 * /lib/libglib-2.0.so.0" -> "g_main_loop_run\tlibglib-2.0.so.0"; a frame
 * without either is its name and a tab. The name comes first: --same-crash
 * compares names (a rebuilt app moves lines), the report shows both. */
static GPtrArray *
parse_frames (const char *log, guint max)
{
  GPtrArray *frames = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GRegex) regex = g_regex_new ("^#[0-9]+ +(?:0x[0-9a-f]+ in )?([^ (]+) \\(.*?\\)"
                                          "(?: at ([^ ]+:[0-9]+)| from ([^ ]+))?[ \\t]*$",
                                          G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  g_regex_match (regex, log, 0, &match);
  while (g_match_info_matches (match) && frames->len < max)
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autofree char *at = g_match_info_fetch (match, 2);
      g_autofree char *from = g_match_info_fetch (match, 3);
      g_autofree char *lib = from != NULL && *from != '\0' ? g_path_get_basename (from) : NULL;

      /* A frame's text is the app's: no tab or newline of its own. */
      g_strdelimit (name, "\t\n", ' ');
      if (!is_machinery (name) && !g_str_equal (name, "??"))
        g_ptr_array_add (frames, g_strdup_printf ("%s\t%s", name,
                                                  at != NULL && *at != '\0' ? at
                                                  : lib != NULL ? lib : ""));
      g_match_info_next (match, NULL);
    }
  return frames;
}

static void
die_like (int signum)
{
  struct rlimit none = { 0, 0 };

  /* No core file of ours: the crash was the app's. */
  setrlimit (RLIMIT_CORE, &none);
  signal (signum, SIG_DFL);
  raise (signum);
  _exit (128 + signum);
}

/* gdb's command line: run the app (@app, NULL-terminated), log to the
 * file of @log_cmd, stop only on the signals that kill, backtrace. */
static GPtrArray *
gdb_argv (const char *log_cmd, char **app)
{
  GPtrArray *gdb = g_ptr_array_new ();
  const char *commands[] = {
    "set pagination off", "set width 0", "set confirm off", "set startup-with-shell off",
    log_cmd, "set logging overwrite on", "set logging redirect on",
    "set logging enabled on",
    "handle SIGPIPE SIGUSR1 SIGUSR2 SIGALRM SIGCHLD SIGWINCH SIGPROF SIGIO "
    "SIGURG SIGHUP SIGTERM SIGINT SIGCONT SIGTSTP SIGTTIN SIGTTOU SIGVTALRM "
    "SIGXCPU SIGPWR nostop noprint pass",
    "run", "bt 32",
  };

  g_ptr_array_add (gdb, (char *) "gdb");
  g_ptr_array_add (gdb, (char *) "-nx");
  g_ptr_array_add (gdb, (char *) "-q");
  g_ptr_array_add (gdb, (char *) "-batch");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_ptr_array_add (gdb, (char *) "-ex");
      g_ptr_array_add (gdb, (char *) commands[i]);
    }
  g_ptr_array_add (gdb, (char *) "--args");
  for (char **a = app; *a != NULL; a++)
    g_ptr_array_add (gdb, *a);
  g_ptr_array_add (gdb, NULL);
  return gdb;
}

/* What gdb's @log says the app did, done the same way: a crash (its top
 * @n_frames frames written to @frames_file first), a kill, an exit status. */
static int
die_as_the_app (const char *log, const char *frames_file, guint n_frames)
{
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GRegex) received = NULL;

  received = g_regex_new ("^Program received signal (SIG[A-Z0-9]+)", G_REGEX_MULTILINE, 0, NULL);
  if (g_regex_match (received, log, 0, &match))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autoptr (GPtrArray) frames = parse_frames (log, n_frames);
      g_autoptr (GString) text = g_string_new (NULL);
      int signum = session_signal_from_name (name);

      for (guint i = 0; i < frames->len; i++)
        g_string_append_printf (text, "%s\n", (char *) g_ptr_array_index (frames, i));
      g_file_set_contents (frames_file, text->str, text->len, NULL);
      die_like (signum > 0 ? signum : SIGSEGV);
    }
  g_clear_pointer (&match, g_match_info_free);
  {
    g_autoptr (GRegex) exited = g_regex_new ("^\\[Inferior [0-9]+ \\(process [0-9]+\\) exited with code ([0-9]+)\\]",
                                             G_REGEX_MULTILINE, 0, NULL);
    g_autoptr (GRegex) killed = g_regex_new ("^Program terminated with signal (SIG[A-Z0-9]+)",
                                             G_REGEX_MULTILINE, 0, NULL);
    g_autoptr (GMatchInfo) m = NULL;

    if (g_regex_match (exited, log, 0, &m))
      {
        g_autofree char *code = g_match_info_fetch (m, 1);
        return (int) g_ascii_strtoll (code, NULL, 8);   /* gdb prints it in octal */
      }
    g_clear_pointer (&m, g_match_info_free);
    if (g_regex_match (killed, log, 0, &m))
      {
        g_autofree char *name = g_match_info_fetch (m, 1);
        int signum = session_signal_from_name (name);
        die_like (signum > 0 ? signum : SIGKILL);
      }
  }
  /* "exited normally", or gdb could not start the program. */
  if (strstr (log, "exited normally") != NULL)
    return 0;
  g_printerr ("xreduce-crashtrace: gdb could not run the app:\n%s", log);
  return 127;
}

int
main (int argc, char **argv)
{
  g_autofree char *frames_file = NULL;
  gint n_frames = 8;
  GOptionEntry entries[] = {
    { "frames-file", 0, 0, G_OPTION_ARG_FILENAME, &frames_file, "Write the crash's top frames here", "FILE" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames to write (default 8)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("-- APP [ARGS...]");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) gdb = NULL;
  g_autofree char *log_path = NULL;
  g_autofree char *log_cmd = NULL;
  g_autofree char *log = NULL;
  g_autoptr (ProcChild) child = NULL;
  ProcSpawnOptions spawn;
  int dashdash = -1, status = 0, fd;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        dashdash = i;
        break;
      }
  g_option_context_add_main_entries (context, entries, NULL);
  {
    int opt_argc = dashdash >= 0 ? dashdash : argc;
    if (!g_option_context_parse (context, &opt_argc, &argv, &error)
        || dashdash < 0 || argv[dashdash + 1] == NULL || frames_file == NULL)
      {
        g_printerr ("xreduce-crashtrace: %s\nUsage: xreduce-crashtrace --frames-file F -- APP [ARGS...]\n",
                    error != NULL ? error->message : "missing --frames-file or APP");
        return 2;
      }
  }

  fd = g_file_open_tmp ("xreduce-gdb-XXXXXX.log", &log_path, &error);
  if (fd < 0)
    {
      g_printerr ("xreduce-crashtrace: %s\n", error->message);
      return 3;
    }
  close (fd);
  log_cmd = g_strdup_printf ("set logging file %s", log_path);

  gdb = gdb_argv (log_cmd, argv + dashdash + 1);

  /* gdb stays in our process group: a kill of the group (the replayer
   * stopping the app) reaches gdb, which kills the app and exits. */
  proc_spawn_options_init (&spawn);
  spawn.argv = (const char *const *) gdb->pdata;
  spawn.out = spawn.err = PROC_OUTPUT_INHERIT;
  spawn.our_group = TRUE;
  child = proc_spawn (&spawn, &error);
  if (child == NULL)
    {
      g_printerr ("xreduce-crashtrace: cannot run gdb: %s\n", error->message);
      return 127;
    }
  while (!proc_child_wait (child, G_MAXINT))
    ;
  status = proc_child_get_wait_status (child);

  g_file_get_contents (log_path, &log, NULL, NULL);
  g_unlink (log_path);
  if (WIFSIGNALED (status))
    die_like (WTERMSIG (status));
  if (WIFEXITED (status) && WEXITSTATUS (status) == 127 && (log == NULL || *log == '\0'))
    return 127;
  if (log == NULL)
    log = g_strdup ("");

  return die_as_the_app (log, frames_file, (guint) MAX (n_frames, 1));
}
