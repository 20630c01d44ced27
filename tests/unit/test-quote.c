/* test-quote.c — text that leaves a program, quoted for where it goes
 * (output/quote.h), the xdotool export that a session cannot turn into
 * commands, and the rule for running a session's recorded command
 * (session_command_check). No display.
 */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "quote.h"
#include "plaintext.h"
#include "session.h"

/* ---- quoting for where text goes (quote.h) ---- */

static void
test_quote_shell (void)
{
  const char *cases[][2] = {
    { "plain", "'plain'" },
    { "", "''" },
    { "it's", "'it'\\''s'" },
    { "$(touch x)`id`", "'$(touch x)`id`'" },
    { "a\nb", "'a\nb'" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = quote_shell (cases[i][0]);
      g_autofree char *back = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_cmpstr (q, ==, cases[i][1]);
      /* The shell reads it back as the one word it was. */
      back = g_shell_unquote (q, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (back, ==, cases[i][0]);
    }
}

static void
test_quote_terminal (void)
{
  const char *cases[][2] = {
    { "Editor", "Editor" },
    { "a\nrm -rf ~", "a\\nrm -rf ~" },
    { "\033]0;pwned\007", "\\x1b]0;pwned\\x07" },
    { "tab\there\r", "tab\\there\\r" },
    { "back\\slash", "back\\\\slash" },
    { "caf\xc3\xa9 \xe2\x80\x94 ok", "caf\xc3\xa9 \xe2\x80\x94 ok" },
    { "c1 \xc2\x9b" "31m", "c1 \\x9b31m" },
    { "bad \xff\xfe", "bad \\xff\\xfe" },
    { "del\x7f", "del\\x7f" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = quote_terminal (cases[i][0]);

      g_assert_cmpstr (q, ==, cases[i][1]);
      g_assert_null (strchr (q, '\n'));
      g_assert_null (strchr (q, '\033'));
    }
}

/* quote_message() as quote_terminal() but backslashes kept; quote_json_text()
 * only hidden characters but newlines, as \u escapes, invalid UTF-8 kept. */
static void
test_quote_message_json (void)
{
  const char *cases[][3] = {
    { "back\\slash\n", "back\\slash\\n", "back\\slash\n" },
    { "c1 \xc2\x9b" "31m \x1f", "c1 \\x9b31m \\x1f", "c1 \\u009b31m \\u001f" },
    { "evil\xe2\x80\xaetxt.exe", "evil\\u202etxt.exe", "evil\\u202etxt.exe" },
    { "bad \xff caf\xc3\xa9", "bad \\xff caf\xc3\xa9", "bad \xff caf\xc3\xa9" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *message = quote_message (cases[i][0]);
      g_autofree char *json = quote_json_text (cases[i][0]);

      g_assert_cmpstr (message, ==, cases[i][1]);
      g_assert_cmpstr (json, ==, cases[i][2]);
    }
}

static void
test_quote_markdown (void)
{
  const char *cases[][2] = {
    { "Print", "`Print`" },
    { "a `b` c", "``a `b` c``" },
    { "``x", "``` ``x ```" },
    { "line\n# heading", "`line\\n# heading`" },
    { "", "` `" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = quote_markdown_code (cases[i][0]);

      g_assert_cmpstr (q, ==, cases[i][1]);
    }
}

static void
test_quote_markdown_text (void)
{
  const char *cases[][2] = {
    { "Press Alt_L in \"Editor\".", "Press Alt_L in \"Editor\"." },
    { "[click](http://evil)", "\\[click\\](http\\://evil)" },
    { "<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)\\>" },
    { "a\n# Steps\n1. fake", "a\\\\n\\# Steps\\\\n1. fake" },
    { "_em_ *strong* `code`", "\\_em\\_ \\*strong\\* \\`code\\`" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = quote_markdown_text (cases[i][0]);

      g_assert_cmpstr (q, ==, cases[i][1]);
      g_assert_null (strchr (q, '\n'));
    }
}

/* A title reads the same rendered or not: only what would be markup is
 * escaped. */
static void
test_quote_markdown_title (void)
{
  const char *cases[][2] = {
    { "xdemo 1.0 crashed with SIGSEGV in print_document (xdemo.c:209)",
      "xdemo 1.0 crashed with SIGSEGV in print_document (xdemo.c:209)" },
    { "app killed by SIGSEGV sent by pid 5 (bash)", "app killed by SIGSEGV sent by pid 5 (bash)" },
    { "nsAppShell::Run (libxul.so)", "nsAppShell::Run (libxul.so)" },
    { "[click](http://evil)", "\\[click\\](http\\://evil)" },
    { "mail a@evil.example or www.evil.example", "mail a\\@evil.example or www\\.evil.example" },
    { "<b>x</b> *y* _z_ `c` # h", "\\<b\\>x\\</b\\> \\*y\\* \\_z\\_ \\`c\\` \\# h" },
    { "a\n# fake", "a\\\\n\\# fake" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = quote_markdown_title (cases[i][0]);

      g_assert_cmpstr (q, ==, cases[i][1]);
      g_assert_null (strchr (q, '\n'));
    }
}

/* report.txt from report.md: what a tracker without Markdown shows. */
static void
test_plaintext (void)
{
  const char *cases[][2] = {
    { "# xdemo 1.0 crashed with SIGSEGV in print\\_document (xdemo.c:209)",
      "xdemo 1.0 crashed with SIGSEGV in print_document (xdemo.c:209)\n"
      "==============================================================" },
    { "## Steps", "Steps\n-----" },
    { "1. Type `ls /` and press Return in \"bash\".", "1. Type ls / and press Return in \"bash\"." },
    { "Type ``a `b` c``", "Type a `b` c" },
    { "![the replay](replay.gif)", "the replay (replay.gif)" },
    { "from [session.log](session.log) and [steps](steps.png)",
      "from session.log and steps (steps.png)" },
    { "The app **crashed with SIGSEGV** \\[not a link\\](x)", "The app crashed with SIGSEGV [not a link](x)" },
    { "    #0 print_document at xdemo.c:209", "    #0 print_document at xdemo.c:209" },
    { "a `lone backquote", "a `lone backquote" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *plain = plaintext_from_markdown (cases[i][0]);

      g_assert_cmpstr (plain, ==, cases[i][1]);
    }
}

/* A session whose title, class and command hold newlines, quotes, $(...)
 * and backquotes: the exported xdotool script, run with a stub xdotool,
 * runs none of it (the marker file is never made), and `sh -n` reads it. */
static void
test_export_injection (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-export-XXXXXX", NULL);
  g_autofree char *mark = g_build_filename (dir, "pwned", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *stub = g_build_filename (bin, "xdotool", NULL);
  g_autofree char *script = g_build_filename (dir, "replay.sh", NULL);
  /* As the session format writes it: \n a newline, \" a quote. */
  g_autofree char *evil = g_strdup_printf ("x\\ntouch %s\\n'$(touch %s)`touch %s`\\\"", mark,
                                           mark, mark);
  g_autofree char *text = g_strdup_printf (
    "xreduce-session 1\nscreen 1280x1024\ncommand \"app\" \"%s\"\nkeymap \"us\"\n"
    "10 MotionNotify state=0x0 root=110,110 pos=10,10 window=0 class=\"%s\" title=\"%s\"\n"
    "20 KeyPress keysym=a keycode=38 state=0x0 root=110,110 pos=10,10 window=0 class=\"%s\" title=\"%s\"\n"
    "30 KeyRelease keysym=a keycode=38 state=0x0 root=110,110 pos=10,10 window=0 class=\"%s\" title=\"%s\"\n",
    evil, evil, evil, evil, evil, evil, evil);
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_parse (text, strlen (text), "evil.session", &error);
  g_autofree char *exported = NULL;
  g_autofree char *path_env = NULL;
  const char *check[] = { "sh", "-n", script, NULL };
  const char *run[] = { "sh", script, NULL };
  g_auto (GStrv) envp = NULL;
  int status = -1;

  g_assert_no_error (error);
  g_assert_true (strchr (session_get_command (session)[1], '\n') != NULL);
  exported = session_export_xdotool (session, "evil\n$(touch x).session");
  g_assert_true (g_file_set_contents (script, exported, -1, NULL));
  /* A stub xdotool that finds no window and does nothing. */
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  g_assert_true (g_file_set_contents (stub, "#!/bin/sh\nexit 1\n", -1, NULL));
  g_assert_cmpint (g_chmod (stub, 0700), ==, 0);

  g_assert_true (g_spawn_sync (dir, (char **) check, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  path_env = g_strdup_printf ("%s:/usr/bin:/bin", bin);
  envp = g_environ_setenv (g_get_environ (), "PATH", path_env, TRUE);
  envp = g_environ_setenv (envp, "DISPLAY", ":nowhere", TRUE);
  g_assert_true (g_spawn_sync (dir, (char **) run, envp, G_SPAWN_SEARCH_PATH
                               | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (mark, G_FILE_TEST_EXISTS));
  /* Every comment is one line: the title's newline is shown, not kept. */
  g_assert_nonnull (strstr (exported, "x\\ntouch "));

  g_unlink (script);
  g_unlink (stub);
  g_rmdir (bin);
  g_rmdir (dir);
}
/* The recorded command runs unasked only when it is a plain program name
 * from PATH (session_command_check); the message shows the command on one
 * line and says how to proceed. */
static void
test_command_check (void)
{
  g_autofree char *ldconfig = g_find_program_in_path ("ldconfig");
  const struct { const char *command; const char *why; } cases[] = {
    { "\"sh\"", NULL },
    { "\"sh\" \"-c\" \"touch x\\n$(id)`id`\"", "it has arguments" },
    { "\"./app\"", "not a plain program name" },
    { "\"/bin/sh\"", "not a plain program name" },
    { "\"-rf\"", "not a plain program name" },
    { "\"a;b\"", "not a plain program name" },
    { "\"reboot\"", "it acts on the machine" },
    { "\"poweroff\"", "it acts on the machine" },
    { "\"no-such-program-xreduce\"", "no such program in PATH" },
    { "\"ldconfig\"", "a system administration program" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("xreduce-session 1\nscreen 10x10\ncommand %s\n",
                                               cases[i].command);
      g_autoptr (Session) session = session_parse (text, strlen (text), "s.log", NULL);
      g_autoptr (GError) error = NULL;
      gboolean ok;

      /* Only where ldconfig is in an sbin folder on PATH. */
      if (g_str_equal (cases[i].command, "\"ldconfig\"")
          && (ldconfig == NULL || strstr (ldconfig, "/sbin/") == NULL))
        continue;
      g_assert_nonnull (session);
      ok = session_command_check (session, "s.log", &error);
      if (cases[i].why == NULL)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          continue;
        }
      g_assert_false (ok);
      g_assert_error (error, SESSION_ERROR, SESSION_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, cases[i].why));
      g_assert_true (g_str_has_prefix (error->message, "s.log records the command '"));
      g_assert_nonnull (strstr (error->message, "--run-recorded-command"));
      g_assert_null (strchr (error->message, '\n'));
      g_assert_null (strchr (error->message, '\033'));
    }
  {
    const char text[] = "xreduce-session 1\nscreen 10x10\n";
    g_autoptr (Session) session = session_parse (text, strlen (text), "s.log", NULL);
    g_autoptr (GError) error = NULL;

    g_assert_false (session_command_check (session, "s.log", &error));
    g_assert_nonnull (strstr (error->message, "records no command"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quote/shell", test_quote_shell);
  g_test_add_func ("/quote/terminal", test_quote_terminal);
  g_test_add_func ("/quote/message-json", test_quote_message_json);
  g_test_add_func ("/quote/markdown", test_quote_markdown);
  g_test_add_func ("/quote/markdown-text", test_quote_markdown_text);
  g_test_add_func ("/quote/markdown-title", test_quote_markdown_title);
  g_test_add_func ("/quote/plaintext", test_plaintext);
  g_test_add_func ("/quote/export-injection", test_export_injection);
  g_test_add_func ("/quote/command-check", test_command_check);
  return g_test_run ();
}
