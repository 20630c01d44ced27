/* test-hostile.c — the oracle for text that leaves the programs: crafted
 * sessions put escape sequences, C1 controls, bidi overrides and bare URLs
 * in every field (bad values, excerpts, titles, the file's name), and
 * xreplay's --list, --list-actions, --export xdotool and --export json,
 * and xreduce's refusal of a bad file, run on each. Nothing they print
 * may hold a character a terminal acts on (ESC, BEL, any C0 but newline,
 * DEL, C1, U+202E and the other bidi controls, line separators) or
 * invalid UTF-8. Then the costs that must follow the actions, not the
 * bytes: 40,000 clicks listed, ten million blank lines, --max-actions.
 * No display: every case is refused or printed before any Xvfb starts.
 */
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "quote.h"
#include "output.h"
#include "shard.h"

static const char *xreplay;
static const char *xreduce;

/* The first character a terminal would act on in @text, as an offset, or
 * -1 when there is none. */
static gssize
first_hidden (const char *text, gsize len)
{
  const char *p = text, *end = text + len;

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        return p - text;
      if (c != '\n' && quote_is_hidden (c))
        return p - text;
      p = g_utf8_next_char (p);
    }
  return -1;
}

static void
assert_shown_safely (const char *what, const char *text, gsize len)
{
  gssize at = first_hidden (text, len);

  if (at >= 0)
    {
      g_autofree char *around = g_strndup (text + MAX (at - 40, 0), MIN (80, len - MAX (at - 40, 0)));
      g_autofree char *shown = quote_terminal (around);
      g_error ("%s: a hidden character reaches the terminal at byte %" G_GSSIZE_FORMAT ": %s",
               what, at, shown);
    }
}

/* Runs @argv; its stdout and stderr are checked; returns its exit status. */
static int
run_checked (const char *const *argv)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *cmd = quote_command_line (argv);
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  {
    g_autofree char *what_out = g_strdup_printf ("stdout of %s", cmd);
    g_autofree char *what_err = g_strdup_printf ("stderr of %s", cmd);
    assert_shown_safely (what_out, out, strlen (out));
    assert_shown_safely (what_err, err, strlen (err));
  }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* Payloads: raw (for bare values, which the parser reads as they are) and
 * as the format writes them inside quotes. */
static const char *const raw_payloads[] = {
  "\033]52;c;cHduZWQ=\007",        /* OSC 52: writes the clipboard */
  "\302\2332J",                    /* C1 CSI (U+009B): clears the screen */
  "\342\200\256txt.exe",           /* U+202E: right-to-left override */
  "\033[31mred\033[0m",
  "\342\200\250next",              /* U+2028 line separator */
  "\177\010",
};
static const char *const quoted_payloads[] = {
  "\\x1b]52;c;cHduZWQ=\\x07",
  "\302\2332J",
  "\342\200\256txt.exe http://evil.example/x www.evil.example",
  "\\x1b[31mred\\x1b[0m",
  "\342\200\250next",
  "\\x7f\\x08",
};

#define HEAD "xreduce-session 1\nscreen 1280x1024\n"
#define KEY(rest) "1 KeyPress keysym=a keycode=38 state=0x0" rest "\n"

/* Sessions with @ where a payload goes: each refused or printed. */
static const char *const raw_templates[] = {
  HEAD "1 KeyPress keysym=a keycode=@ state=0x0\n",
  HEAD "1 KeyPress keysym=a keycode=38 state=@\n",
  HEAD "1 KeyPress keysym=@ keycode=38 state=0x0\n",
  HEAD "1 ButtonPress button=@ state=0x0 root=1,1\n",
  HEAD "1 ButtonPress button=1 state=0x0 root=@\n",
  HEAD "1 ButtonPress button=1 state=0x0 root=1,1 pos=@ window=0\n",
  HEAD "1 ButtonPress button=1 state=0x0 root=1,1 pos=1,1 window=@\n",
  HEAD "1 ButtonRelease button=1 state=0x0 root=1,1 added=@\n",
  HEAD KEY (" @=1"),
  HEAD KEY (" state=@"),
  HEAD KEY (" window=\"@"),
  HEAD "1 @ state=0x0\n",
  HEAD "@1 KeyPress keysym=a keycode=38 state=0x0\n",
  HEAD "1@ KeyPress keysym=a keycode=38 state=0x0\n",
  "xreduce-session 1\nscreen @\n",
  "xreduce-session @\n",
  "@\n",
  HEAD "@ header\n",
  HEAD "outcome crashed @\n",
  HEAD "outcome exited @\n",
  HEAD "outcome @\n",
  HEAD "command @\n",
  HEAD "keymap @\n",
  HEAD "replay @=1\n" KEY (""),
  HEAD "replay settle=@\n" KEY (""),
  HEAD "replay pace=@\n" KEY (""),
  HEAD "replay speed=@\n" KEY (""),
  HEAD "replay wm=@\n" KEY (""),
  HEAD "desktop @=1\n" KEY (""),
  HEAD "desktop repeat-delay=@\n" KEY (""),
  HEAD "1 MapNotify window=@\n" KEY (""),
  HEAD KEY (" @"),
  HEAD "# @\n" KEY (""),
};

static const char *const quoted_templates[] = {
  HEAD KEY (" window=0 class=\"X\" title=\"@\""),
  HEAD KEY (" window=0 class=\"@\" title=\"T\""),
  HEAD "1 ButtonPress button=1 state=0x0 root=5,5 pos=5,5 window=0 class=\"X\" title=\"@\"\n"
       "2 ButtonRelease button=1 state=0x100 root=5,5 pos=5,5 window=0 class=\"X\" title=\"@\"\n",
  HEAD "1 ButtonPress button=1 state=0x0 root=5,5 pos=5,5 window=0 class=\"X\" title=\"@\"\n"
       "2 MotionNotify state=0x100 root=50,50 pos=50,50 window=0 class=\"X\" title=\"@\"\n"
       "3 ButtonRelease button=1 state=0x100 root=50,50 pos=50,50 window=0 class=\"X\" title=\"@\"\n",
  HEAD "1 ButtonRelease button=1 state=0x100 root=5,5 pos=5,5 window=0 class=\"X\" title=\"@\"\n",
  HEAD "command \"@\" \"--x\"\n" KEY (""),
  HEAD "keymap \"@\"\n" KEY (""),
  HEAD KEY (" window=0 class=\"X\" title=\"@") ,
  HEAD KEY (" window=0 class=\"X\" title=\"@\" title=\"@\""),
  HEAD KEY (" window=0 class=\"X\" title=\"@\"x"),
  HEAD KEY (" window=0 class=\"X\" title=\"@\\q\""),
};

static void
check_file (const char *path, gboolean also_xreduce)
{
  const char *modes[][2] = {
    { "--list", NULL }, { "--list-actions", NULL },
    { "--export", "xdotool" }, { "--export", "json" },
  };
  gboolean refused = FALSE;

  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      const char *argv[] = { xreplay, modes[m][0], modes[m][1], NULL, NULL };
      int status;

      if (modes[m][1] == NULL)
        argv[1 + 1] = path;
      else
        argv[3] = path;
      status = run_checked (argv);
      g_assert_true (status == 0 || status == 2);
      refused = status == 2;
    }
  /* xreduce refuses the same bad files in its own words; a good one it
   * would replay, which needs a display: not here. */
  if (also_xreduce && refused)
    {
      const char *argv[] = { xreduce, "--no-report", path, "--", "true", NULL };
      g_assert_cmpint (run_checked (argv), ==, 2);
    }
}

static void
write_case (const char *dir, const char *name, const char *template, const char *payload,
            char **path_out)
{
  g_auto (GStrv) parts = g_strsplit (template, "@", -1);
  g_autofree char *text = g_strjoinv (payload, parts);
  g_autoptr (GError) error = NULL;

  *path_out = g_build_filename (dir, name, NULL);
  g_file_set_contents (*path_out, text, -1, &error);
  g_assert_no_error (error);
}

/* The fields of a session, raw (a keysym, a number) or quoted (a title,
 * a class, the command), each with every payload: two cases, so that
 * shards (shard.h) run them side by side. */
static void
test_hostile_fields (gconstpointer data)
{
  gboolean quoted = GPOINTER_TO_INT (data);
  const char *const *templates = quoted ? quoted_templates : raw_templates;
  const char *const *payloads = quoted ? quoted_payloads : raw_payloads;
  gsize n_templates = quoted ? G_N_ELEMENTS (quoted_templates) : G_N_ELEMENTS (raw_templates);
  gsize n_payloads = quoted ? G_N_ELEMENTS (quoted_payloads) : G_N_ELEMENTS (raw_payloads);
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  for (gsize t = 0; t < n_templates; t++)
    for (gsize p = 0; p < n_payloads; p++)
      {
        g_autofree char *path = NULL;
        write_case (dir, quoted ? "quoted.session" : "raw.session", templates[t], payloads[p],
                    &path);
        check_file (path, p == 0);
        g_unlink (path);
        n++;
      }
  g_test_message ("%u hostile sessions, each in 4 modes", n);
  g_rmdir (dir);
}

/* The file's name is a stranger's too (an attachment's). */
static void
test_hostile_file_name (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);

  for (gsize p = 0; p < G_N_ELEMENTS (raw_payloads); p++)
    {
      g_autofree char *name = g_strdup_printf ("s%s.session", raw_payloads[p]);
      g_autofree char *good = NULL, *bad = NULL, *missing = NULL;
      const char *argv[] = { xreplay, "--list", NULL, NULL };

      write_case (dir, name, HEAD KEY (" window=0 class=\"X\" title=\"T\"") "1 KeyRelease",
                  "", &good);
      check_file (good, TRUE);
      g_unlink (good);
      write_case (dir, name, "@", "", &bad);
      check_file (bad, TRUE);
      g_unlink (bad);
      /* A file that is not there. */
      missing = g_build_filename (dir, name, NULL);
      argv[2] = missing;
      g_assert_cmpint (run_checked (argv), ==, 2);
    }
  g_rmdir (dir);
}

/* The quoting functions themselves: every hidden character escaped. */
static void
test_hostile_quote_hidden (void)
{
  for (gsize p = 0; p < G_N_ELEMENTS (raw_payloads); p++)
    {
      g_autofree char *t = quote_terminal (raw_payloads[p]);
      g_autofree char *m = quote_message (raw_payloads[p]);
      g_autofree char *md = quote_markdown_text (raw_payloads[p]);
      g_autofree char *j = quote_json_text (raw_payloads[p]);

      g_assert_cmpint (first_hidden (t, strlen (t)), ==, -1);
      g_assert_cmpint (first_hidden (m, strlen (m)), ==, -1);
      g_assert_cmpint (first_hidden (md, strlen (md)), ==, -1);
      g_assert_cmpint (first_hidden (j, strlen (j)), ==, -1);
    }
  {
    g_autofree char *m = quote_message ("a\\x1b b\033c");
    g_assert_cmpstr (m, ==, "a\\x1b b\\x1bc");
  }
}

/* A bare URL in Markdown text is no link. */
static void
test_hostile_markdown_url (void)
{
  const char *cases[][2] = {
    { "see http://evil.example/x", "see http\\://evil.example/x" },
    { "www.evil.example", "www\\.evil.example" },
    { "me@evil.example", "me\\@evil.example" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = quote_markdown_text (cases[i][0]);
      g_assert_cmpstr (q, ==, cases[i][1]);
    }
}

/* ---- costs that follow the actions ---- */

static char *
write_clicks (const char *dir, guint n)
{
  g_autoptr (GString) text = g_string_new (HEAD);
  g_autofree char *path = g_build_filename (dir, "clicks.session", NULL);
  g_autoptr (GError) error = NULL;
  guint64 t = 1;

  for (guint i = 0; i < n; i++, t += 1000)
    g_string_append_printf (text,
      "%" G_GUINT64_FORMAT " ButtonPress button=1 state=0x0 root=9,9 pos=9,9 window=0 class=\"X\" title=\"T\"\n"
      "%" G_GUINT64_FORMAT " ButtonRelease button=1 state=0x100 root=9,9 pos=9,9 window=0 class=\"X\" title=\"T\"\n",
      t, t + 1);
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* Runs @argv under a CPU-time limit of @cpu_s seconds and an address-space
 * limit of @mib: a quadratic step is killed by the first, memory held per
 * byte of the file by the second. Returns the exit status, 128+N for a
 * signal. */
typedef struct
{
  rlim_t cpu_s, bytes;
} Limits;

static void
set_limits (gpointer data)
{
  const Limits *limits = data;
  struct rlimit cpu = { limits->cpu_s, limits->cpu_s };
  struct rlimit as = { limits->bytes, limits->bytes };

  setrlimit (RLIMIT_CPU, &cpu);
  setrlimit (RLIMIT_AS, &as);
}

/* Under a sanitizer the limits measure it, not the program (ASan
 * reserves terabytes of address space): the cost tests skip. */
static gboolean
skip_if_sanitized (void)
{
  if (g_strcmp0 (g_getenv ("XREDUCE_SANITIZED"), "1") != 0)
    return FALSE;
  g_test_skip ("built with a sanitizer: its costs are not the program's");
  return TRUE;
}

static int
run_limited (const char *const *argv, rlim_t cpu_s, rlim_t mib, char **out)
{
  Limits limits = { cpu_s, mib * 1024 * 1024 };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, set_limits, &limits,
                out, NULL, &status, &error);
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* The CPU time @argv takes (its own and its children's), run under
 * @limits; its exit status must be 0. */
static double
cpu_of (const char *const *argv, rlim_t cpu_s, rlim_t mib, char **out)
{
  struct rusage before, after;

  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &before), ==, 0);
  g_assert_cmpint (run_limited (argv, cpu_s, mib, out), ==, 0);
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &after), ==, 0);
  return (double) (after.ru_utime.tv_sec - before.ru_utime.tv_sec)
         + (after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6
         + (double) (after.ru_stime.tv_sec - before.ru_stime.tv_sec)
         + (after.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e6;
}

/* 40,000 clicks: --list and both exports cost what 10,000 cost, four
 * times over (on main --list took 87 s for 40,000: every phrase's words
 * found all strokes again, 16 times what 10,000 took). The cost is
 * compared with the program's own on a quarter of the clicks, run just
 * before on the same machine, not with a number of seconds: a machine
 * several times busier takes several times the CPU time for both (a 2 s
 * budget killed --export json under a load of 20 on 2 cores). Eight times
 * is linear with room for noise and start-up; 30 s of CPU kills a
 * runaway. */
static void
test_cost_clicks (void)
{
  if (skip_if_sanitized ())
    return;

  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *quarter_dir = g_build_filename (dir, "quarter", NULL);
  g_autofree char *path = write_clicks (dir, 40000);
  g_autofree char *quarter = NULL;
  const char *modes[][2] = { { "--list", NULL }, { "--export", "xdotool" }, { "--export", "json" } };

  g_assert_cmpint (g_mkdir (quarter_dir, 0700), ==, 0);
  quarter = write_clicks (quarter_dir, 10000);
  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      const char *argv[] = { xreplay, modes[m][0], modes[m][1] != NULL ? modes[m][1] : path,
                             modes[m][1] != NULL ? path : NULL, NULL };
      const char *quarter_argv[] = { xreplay, modes[m][0],
                                     modes[m][1] != NULL ? modes[m][1] : quarter,
                                     modes[m][1] != NULL ? quarter : NULL, NULL };
      g_autofree char *out = NULL, *quarter_out = NULL;
      double small = cpu_of (quarter_argv, 30, 1024, &quarter_out);
      double big = cpu_of (argv, 30, 1024, &out);

      g_test_message ("%s %s: %.2f s of CPU for 10,000 clicks, %.2f s for 40,000", modes[m][0],
                      modes[m][1] != NULL ? modes[m][1] : "", small, big);
      g_assert_cmpfloat (big, <, 8 * small + 0.1);
      if (m == 0)
        g_assert_true (g_str_has_suffix (out, "40000. Click at 9,9 in \"T\" (actions 79999-80000)\n"));
    }
  g_unlink (quarter);
  g_rmdir (quarter_dir);
  g_unlink (path);
  g_rmdir (dir);
}

/* Ten million blank lines and as many comment bytes: under 100 MB (on main
 * 1.42 GB: an event of its own for every line). */
static void
test_cost_blank_lines (void)
{
  if (skip_if_sanitized ())
    return;

  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "blank.session", NULL);
  g_autoptr (GString) text = g_string_new (HEAD);
  g_autoptr (GError) error = NULL;
  const char *modes[][2] = { { "--list", NULL }, { "--export", "json" } };

  for (guint i = 0; i < 5000000; i++)
    g_string_append (text, "\n#\n");
  g_string_append (text, KEY (""));
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      const char *argv[] = { xreplay, modes[m][0], modes[m][1] != NULL ? modes[m][1] : path,
                             modes[m][1] != NULL ? path : NULL, NULL };
      g_autofree char *out = NULL;

      g_assert_cmpint (run_limited (argv, 10, 100 + 40, &out), ==, 0);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* --max-actions: refused while parsing, exit 2, the limit named. */
static void
test_cost_max_actions (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *path = write_clicks (dir, 100);
  const char *over[] = { xreplay, "--max-actions", "199", "--list", path, NULL };
  const char *at[] = { xreplay, "--max-actions", "200", "--list", path, NULL };
  const char *bad[] = { xreplay, "--max-actions", "0", "--list", path, NULL };
  const char *reduce_over[] = { xreduce, "--max-actions", "199", path, "--", "true", NULL };
  g_autofree char *err = NULL;
  int status = 0;

  g_assert_cmpint (run_checked (over), ==, 2);
  g_assert_cmpint (run_checked (at), ==, 0);
  g_assert_cmpint (run_checked (bad), ==, 2);
  g_assert_cmpint (run_checked (reduce_over), ==, 2);
  g_spawn_sync (NULL, (char **) over, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                &status, NULL);
  g_assert_nonnull (strstr (err, "more than 199 user actions"));
  g_assert_nonnull (strstr (err, "--max-actions"));
  g_unlink (path);
  g_rmdir (dir);
}

/* The app's events (MapNotify, Expose...) cost as much as the actions:
 * they count against --max-actions too, as many as the actions may be
 * (F5 of issue #34: seven million Expose lines under the size limit made
 * --list take 1.33 GB). Refused while parsing, exit 2, the limit named. */
static void
test_cost_server_events (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "expose.session", NULL);
  g_autoptr (GString) text = g_string_new (HEAD);
  g_autoptr (GError) error = NULL;
  const char *over[] = { xreplay, "--max-actions", "199", "--list", path, NULL };
  const char *at[] = { xreplay, "--max-actions", "300", "--list", path, NULL };
  const char *export_over[] = { xreplay, "--max-actions", "199", "--export", "json", path, NULL };
  const char *reduce_over[] = { xreduce, "--max-actions", "199", path, "--", "true", NULL };
  g_autofree char *err = NULL;
  int status = 0;

  for (guint i = 0; i < 300; i++)
    g_string_append (text, "1 Expose window=0x1 area=0,0,1,1 count=0\n");
  g_string_append (text, KEY (""));
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_checked (over), ==, 2);
  g_assert_cmpint (run_checked (at), ==, 0);
  g_assert_cmpint (run_checked (export_over), ==, 2);
  g_assert_cmpint (run_checked (reduce_over), ==, 2);
  g_spawn_sync (NULL, (char **) over, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                &status, NULL);
  g_assert_nonnull (strstr (err, "more than 199 events of the app"));
  g_assert_nonnull (strstr (err, "--max-actions"));
  g_unlink (path);
  g_rmdir (dir);
}

/* xreduce --json names the session in a result that is none (a job
 * array's task-N.json), and --summarize says which session it was (issue
 * #34: "task-4.json"). */
static void
test_json_error_names_session (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *session = g_build_filename (dir, "no-actions.session", NULL);
  g_autofree char *results = g_build_filename (dir, "results", NULL);
  g_autofree char *result = g_build_filename (results, "task-4.json", NULL);
  const char *reduce[] = { xreduce, "--json", "--no-report", session, "--", "true", NULL };
  const char *summarize[] = { xreduce, "--summarize", results, NULL };
  g_autofree char *out = NULL, *md = NULL, *want = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_assert_true (g_file_set_contents (session, HEAD, -1, NULL));
  g_assert_cmpint (g_mkdir (results, 0700), ==, 0);
  g_spawn_sync (NULL, (char **) reduce, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                NULL, &status, &error);
  g_assert_no_error (error);
  g_test_message ("xreduce --json: %s", out);
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *files;

    g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
    g_assert_no_error (error);
    files = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                           "files");
    g_assert_cmpstr (json_object_get_string_member (files, "session"), ==, session);
  }
  g_assert_true (g_file_set_contents (result, out, -1, NULL));
  g_spawn_sync (NULL, (char **) summarize, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &md,
                NULL, &status, &error);
  g_assert_no_error (error);
  g_test_message ("xreduce --summarize: %s", md);
  want = g_strdup_printf ("- %s (", session);
  g_assert_nonnull (strstr (md, want));
  g_unlink (result);
  {
    g_autofree char *crashes_md = g_build_filename (results, "crashes.md", NULL);
    g_autofree char *crashes_json = g_build_filename (results, "crashes.json", NULL);

    g_unlink (crashes_md);
    g_unlink (crashes_json);
  }
  g_rmdir (results);
  g_unlink (session);
  g_rmdir (dir);
}

/* ---- options that cannot work, refused before anything starts ---- */

static void
test_options_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *path = write_clicks (dir, 1);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autofree char *report = g_build_filename (missing, "x", "y", NULL);
  const char *cases[][4] = {
    { "--start-timeout", "0" }, { "--timeout", "0" }, { "--start-timeout", "-1" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *replay[] = { xreplay, cases[i][0], cases[i][1], path, "--", "true", NULL };
      const char *reduce[] = { xreduce, cases[i][0], cases[i][1], path, "--", "true", NULL };

      g_assert_cmpint (run_checked (replay), ==, 2);
      g_assert_cmpint (run_checked (reduce), ==, 2);
    }
  {
    const char *replay[] = { xreplay, "--min-gap", "500", "--max-gap", "100", path, "--", "true",
                             NULL };
    g_assert_cmpint (run_checked (replay), ==, 2);
  }
  /* --report does not make the folders of a mistyped path. */
  {
    const char *replay[] = { xreplay, "--report", report, path, "--", "true", NULL };

    g_assert_cmpint (run_checked (replay), ==, 2);
    g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* An OUT.report that holds a file xreduce did not write is refused before
 * anything starts, and the file stays. */
static void
test_report_foreign (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-hostile-XXXXXX", NULL);
  g_autofree char *path = write_clicks (dir, 1);
  g_autofree char *out = g_build_filename (dir, "out.min", NULL);
  g_autofree char *report = g_build_filename (dir, "out.min.report", NULL);
  g_autofree char *fresh = g_build_filename (dir, "fresh", NULL);
  g_autofree char *md = g_build_filename (fresh, "report.md", NULL);
  g_autofree char *precious = g_build_filename (report, "precious.txt", NULL);
  g_autofree char *err = NULL;
  const char *argv[] = { xreduce, "--signal", "SEGV", "-o", out, path, "--", "true", NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  /* A report as xreduce leaves one, then someone's file in it. */
  g_assert_cmpint (g_mkdir (fresh, 0700), ==, 0);
  g_assert_true (g_file_set_contents (md, "# old\n", -1, NULL));
  g_assert_true (output_dir_install (fresh, report, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (precious, "years of work", -1, NULL));
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_nonnull (strstr (err, "precious.txt"));
  g_assert_true (g_file_test (precious, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  output_remove_tree (report);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
  xreplay = g_getenv ("XREPLAY");
  xreduce = g_getenv ("XREDUCE");
  if (xreplay == NULL || xreduce == NULL)
    {
      g_printerr ("test-hostile: XREPLAY and XREDUCE must name the programs\n");
      return 1;
    }
  if (test_shard_mine ())
    g_test_add_func ("/hostile/quote-hidden", test_hostile_quote_hidden);
  if (test_shard_mine ())
    g_test_add_func ("/hostile/markdown-url", test_hostile_markdown_url);
  if (test_shard_mine ())
    g_test_add_data_func ("/hostile/fields/raw", GINT_TO_POINTER (FALSE), test_hostile_fields);
  if (test_shard_mine ())
    g_test_add_data_func ("/hostile/fields/quoted", GINT_TO_POINTER (TRUE), test_hostile_fields);
  if (test_shard_mine ())
    g_test_add_func ("/hostile/file-name", test_hostile_file_name);
  if (test_shard_mine ())
    g_test_add_func ("/cost/clicks", test_cost_clicks);
  if (test_shard_mine ())
    g_test_add_func ("/cost/blank-lines", test_cost_blank_lines);
  if (test_shard_mine ())
    g_test_add_func ("/cost/max-actions", test_cost_max_actions);
  if (test_shard_mine ())
    g_test_add_func ("/cost/server-events", test_cost_server_events);
  if (test_shard_mine ())
    g_test_add_func ("/outputs/json-error-names-session", test_json_error_names_session);
  if (test_shard_mine ())
    g_test_add_func ("/options/refused", test_options_refused);
  if (test_shard_mine ())
    g_test_add_func ("/outputs/report-foreign", test_report_foreign);
  return g_test_run ();
}
