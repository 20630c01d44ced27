/* fake-xreplay.c — a stand-in for xreplay, for the reducer driver's tests
 * without a display (tests/unit/test-driver.c).
 *
 * xreduce runs it as it runs xreplay through a launcher (`xreduce
 * --launcher env`, XREPLAY=this program): `fake-xreplay --json [options]
 * - -- APP ARGS`, the candidate framed on stdin (frame.h); the report's
 * replay, never through the launcher, as `fake-xreplay --json [options]
 * --report DIR SESSION -- APP ARGS`: it writes DIR/report.md, a title and
 * the line "pressed=KEYS released=KEYS" (the candidate's key presses and
 * releases, in order), and its log line ends in " report". It replays
 * nothing: it decides the verdict from the candidate's user actions, as
 * the fake oracles of tests/unit/test-dd.c do, and prints it as
 * `xreplay --json` does (replay_result_to_json(), the one writer of that
 * JSON). What it decides, from its environment:
 *
 *   FAKE_DIR      a folder: each run takes the next number (call.N) and
 *                 appends one line to FAKE_DIR/log: "N keys=a,b,c
 *                 settle=MS pace=P -> VERDICT" (what it was given, what
 *                 it said)
 *   FAKE_FAIL     keysyms, comma-separated: the app "crashes" with SIGSEGV
 *                 when the candidate presses all of them; empty: never
 *   FAKE_RELEASE_NEEDS  K:P pairs, comma-separated: a candidate that
 *                 releases key K before its last press of a FAKE_FAIL key
 *                 fails only if it also presses P (a release that matters
 *                 only beside an action the search removes)
 *   FAKE_EMPTY_FAILS   the session without actions crashes too
 *   FAKE_FLAKY=K       of the failing runs, every Kth passes instead
 *   FAKE_PACE=recorded the failure only shows at --pace recorded
 *   FAKE_SETTLE_MS     the crash comes this long after the last action
 *                      (the result's settle_ms)
 *   FAKE_EARLY=1       the crash comes before the last action (actions
 *                      replayed: all but one)
 *   FAKE_CPU_MS, FAKE_TOTAL_MS  the app's CPU time and the replay's time
 *   FAKE_INFRA_AT=N    run N says nothing and exits 3 (a broken Xvfb);
 *                      FAKE_INFRA_AT=all: every run
 *   FAKE_HANG_AT=N     run N hangs until it is killed
 *   FAKE_NOT_STARTED=1 the app never starts
 *   FAKE_FULL_WAITS=N  a run of N presses (the full session) answers once a
 *                      candidate (fewer, at least one) has: at most 10 s
 *   FAKE_FULL_PASSES=N a run of N presses passes, whatever it presses
 *   FAKE_REPORT_FILL=1  a report's replay fills the disk it writes to
 *                      (its pictures), after report.md
 *   FAKE_INTERRUPT_AT=N  run N sends SIGINT to the xreduce that runs it,
 *                      then answers as usual
 *
 * Exit status as xreplay's: 0 passed, 1 failed, 3 infrastructure, 4 not
 * started.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "frame.h"
#include "replay-result.h"
#include "session.h"

/* The number of this run: the first call.N that this run creates. */
static guint
take_number (const char *dir)
{
  for (guint n = 1;; n++)
    {
      g_autofree char *path = g_strdup_printf ("%s/call.%u", dir, n);
      int fd = open (path, O_WRONLY | O_CREAT | O_EXCL, 0600);

      if (fd >= 0)
        {
          close (fd);
          return n;
        }
      if (errno != EEXIST)
        g_error ("fake-xreplay: %s: %s", path, g_strerror (errno));
    }
}

static gboolean
at (const char *var, guint n)
{
  const char *value = g_getenv (var);

  return value != NULL && (g_str_equal (value, "all") || (guint) atoi (value) == n);
}

static gint64
env_int (const char *var, gint64 fallback)
{
  const char *value = g_getenv (var);

  return value != NULL && *value != '\0' ? g_ascii_strtoll (value, NULL, 10) : fallback;
}

/* FAKE_FULL_WAITS: this run, of the full session (@n_full presses), waits
 * until a candidate (fewer presses, at least one) has answered, as seen
 * in FAKE_DIR/log: at most 10 s, then it answers anyway. */
static void
wait_for_a_candidate (const char *dir, guint n_full)
{
  g_autofree char *log = g_build_filename (dir, "log", NULL);

  for (guint tries = 0; tries < 1000; tries++)
    {
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;

      if (g_file_get_contents (log, &text, NULL, NULL))
        {
          lines = g_strsplit (text, "\n", -1);
          for (guint i = 0; lines[i] != NULL; i++)
            {
              const char *keys = strstr (lines[i], " keys=");
              guint presses = 0;

              if (keys == NULL || keys[6] == ' ')
                continue;
              presses = 1;
              for (const char *c = keys + 6; *c != '\0' && *c != ' '; c++)
                presses += *c == ',';
              if (presses < n_full)
                return;
            }
        }
      g_usleep (10000);
    }
}

/* The xreduce that runs us: the first ancestor named so (`env` execs us,
 * so it is our parent). */
static pid_t
find_xreduce (void)
{
  pid_t pid = getppid ();

  while (pid > 1)
    {
      g_autofree char *comm_path = g_strdup_printf ("/proc/%d/comm", (int) pid);
      g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", (int) pid);
      g_autofree char *comm = NULL, *stat = NULL;
      const char *after;
      int ppid = 0;

      if (!g_file_get_contents (comm_path, &comm, NULL, NULL)
          || !g_file_get_contents (stat_path, &stat, NULL, NULL))
        break;
      if (g_str_equal (g_strchomp (comm), "xreduce"))
        return pid;
      after = strrchr (stat, ')');
      if (after == NULL || sscanf (after + 1, " %*c %d", &ppid) != 1)
        break;
      pid = ppid;
    }
  g_error ("fake-xreplay: no xreduce among my ancestors");
}

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("FAKE_DIR");
  const char *fail = g_getenv ("FAKE_FAIL");
  const char *settle = "-", *pace = "app", *report = NULL, *path = "-";
  g_auto (ReplayResult) result = { 0 };
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (Session) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) keys = g_string_new (NULL);
  g_autoptr (GArray) actions = NULL;
  g_autofree char *json = NULL, *line = NULL, *log = NULL;
  guint n_presses = 0;
  g_auto (GStrv) wanted = NULL;
  gboolean framed = FALSE, failed;
  guint n, pressed = 0;
  FILE *out;

  if (dir == NULL)
    g_error ("fake-xreplay: FAKE_DIR is not set");
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--settle") == 0 && i + 1 < argc)
      settle = argv[++i];
    else if (strcmp (argv[i], "--pace") == 0 && i + 1 < argc)
      pace = argv[++i];
    else if (g_str_has_prefix (argv[i], "--settle="))
      settle = argv[i] + strlen ("--settle=");
    else if (g_str_has_prefix (argv[i], "--pace="))
      pace = argv[i] + strlen ("--pace=");
    else if (strcmp (argv[i], "--report") == 0 && i + 1 < argc)
      report = argv[++i];
    else if (g_str_has_prefix (argv[i], "--report="))
      report = argv[i] + strlen ("--report=");
    else if (argv[i][0] != '-' || strcmp (argv[i], "-") == 0)
      path = argv[i];     /* the session: the last word that is no option's */
  n = take_number (dir);

  if (strcmp (path, "-") == 0)
    bytes = frame_read (STDIN_FILENO, 64 * 1024 * 1024, "stdin", &framed, &error);
  else
    {
      char *text = NULL;
      gsize length = 0;

      if (g_file_get_contents (path, &text, &length, &error))
        bytes = g_bytes_new_take (text, length);
    }
  g_assert_no_error (error);
  session = session_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "stdin",
                           &error);
  g_assert_no_error (error);
  actions = session_get_actions (session);

  /* Which of the wanted keys the candidate presses. */
  wanted = g_strsplit (fail != NULL ? fail : "", ",", -1);
  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));

      if (ev->kind != SESSION_EVENT_KEY_PRESS)
        continue;
      g_string_append_printf (keys, "%s%s", keys->len > 0 ? "," : "", ev->keysym);
      n_presses++;
    }
  for (guint w = 0; wanted[w] != NULL && *wanted[w] != '\0'; w++)
    for (guint i = 0; i < actions->len; i++)
      {
        const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));

        if (ev->kind == SESSION_EVENT_KEY_PRESS && g_str_equal (ev->keysym, wanted[w]))
          {
            pressed++;
            break;
          }
      }
  failed = wanted[0] != NULL && *wanted[0] != '\0' && pressed == g_strv_length (wanted);
  if (failed && g_getenv ("FAKE_RELEASE_NEEDS") != NULL)
    {
      g_auto (GStrv) pairs = g_strsplit (g_getenv ("FAKE_RELEASE_NEEDS"), ",", -1);

      guint last = 0;

      for (guint i = 0; i < actions->len; i++)
        {
          const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));

          if (ev->kind == SESSION_EVENT_KEY_PRESS
              && g_strv_contains ((const char *const *) wanted, ev->keysym))
            last = i;
        }
      for (guint p = 0; pairs[p] != NULL && failed; p++)
        {
          g_auto (GStrv) kp = g_strsplit (pairs[p], ":", 2);
          gboolean released = FALSE, pressed_too = FALSE;

          g_assert_true (kp[0] != NULL && kp[1] != NULL);
          for (guint i = 0; i < actions->len; i++)
            {
              const SessionEvent *ev = session_get_event (session,
                                                          g_array_index (actions, guint, i));

              released |= i < last && ev->kind == SESSION_EVENT_KEY_RELEASE
                          && g_str_equal (ev->keysym, kp[0]);
              pressed_too |= ev->kind == SESSION_EVENT_KEY_PRESS && g_str_equal (ev->keysym, kp[1]);
            }
          failed = !released || pressed_too;
        }
    }
  if (actions->len == 0)
    failed = g_getenv ("FAKE_EMPTY_FAILS") != NULL;
  if (env_int ("FAKE_FULL_WAITS", 0) > 0 && n_presses == (guint) env_int ("FAKE_FULL_WAITS", 0))
    wait_for_a_candidate (dir, n_presses);
  if (env_int ("FAKE_FULL_PASSES", 0) > 0 && n_presses == (guint) env_int ("FAKE_FULL_PASSES", 0))
    failed = FALSE;
  if (failed && g_strcmp0 (g_getenv ("FAKE_PACE"), "recorded") == 0
      && !g_str_equal (pace, "recorded"))
    failed = FALSE;
  if (failed && env_int ("FAKE_FLAKY", 0) > 0)
    {
      /* Every Kth failing run passes: counted in a file of its own. */
      g_autofree char *counter = g_build_filename (dir, "failing", NULL);
      g_autofree char *text = NULL;
      gint64 k = 0;

      if (g_file_get_contents (counter, &text, NULL, NULL))
        k = g_ascii_strtoll (text, NULL, 10);
      k++;
      g_free (text);
      text = g_strdup_printf ("%" G_GINT64_FORMAT, k);
      g_assert_true (g_file_set_contents (counter, text, -1, NULL));
      if (k % env_int ("FAKE_FLAKY", 0) == 0)
        failed = FALSE;
    }

  result.n_actions = actions->len;
  result.n_replayed = actions->len;
  result.server_ms = 1;
  result.first_window_ms = 10;
  result.replay_ms = actions->len;
  result.total_ms = env_int ("FAKE_TOTAL_MS", 50);
  result.window_latency_ms = -1;
  result.app_cpu_ms = env_int ("FAKE_CPU_MS", -1);
  result.app_peak_rss_kb = 10000;
  result.pace = g_str_equal (pace, "recorded") ? REPLAY_PACE_RECORDED : REPLAY_PACE_APP;
  result.stderr_text = g_strdup ("");
  if (g_getenv ("FAKE_NOT_STARTED") != NULL)
    {
      verdict_init (&result.verdict, VERDICT_COULD_NOT_START);
      result.verdict.detail = g_strdup ("the app mapped no window within 10000 ms");
      result.n_replayed = 0;
    }
  else if (failed)
    {
      verdict_init (&result.verdict, VERDICT_CRASHED);
      result.verdict.signal = SIGSEGV;
      result.settle_ms = env_int ("FAKE_SETTLE_MS", 3);
      if (g_getenv ("FAKE_EARLY") != NULL && actions->len > 0)
        {
          result.n_replayed = actions->len - 1;
          result.settle_ms = 0;
        }
    }
  else
    {
      verdict_init (&result.verdict, VERDICT_PASSED);
      result.settle_ms = settle[0] == '-' ? 500 : atoi (settle);
    }

  if (at ("FAKE_INFRA_AT", n))
    {
      line = g_strdup_printf ("%u keys=%s settle=%s pace=%s -> infra\n", n, keys->str, settle,
                              pace);
      log = g_build_filename (dir, "log", NULL);
      out = fopen (log, "a");
      fputs (line, out);
      fclose (out);
      fprintf (stderr, "fake-xreplay: the X server died\n");
      return 3;
    }
  if (at ("FAKE_HANG_AT", n))
    {
      line = g_strdup_printf ("%u keys=%s settle=%s pace=%s -> hang\n", n, keys->str, settle,
                              pace);
      log = g_build_filename (dir, "log", NULL);
      out = fopen (log, "a");
      fputs (line, out);
      fclose (out);
      for (;;)
        pause ();
    }
  if (at ("FAKE_INTERRUPT_AT", n))
    kill (find_xreduce (), SIGINT);

  if (report != NULL)
    {
      g_autoptr (GString) md = g_string_new ("# A fake replay's report\n\npressed=");
      g_autofree char *md_path = g_build_filename (report, "report.md", NULL);

      for (int kind = SESSION_EVENT_KEY_PRESS, k = 0; k < 2; k++, kind = SESSION_EVENT_KEY_RELEASE)
        {
          gboolean first = TRUE;

          if (k == 1)
            g_string_append (md, " released=");
          for (guint i = 0; i < session_get_n_events (session); i++)
            {
              const SessionEvent *ev = session_get_event (session, i);

              if ((int) ev->kind != kind)
                continue;
              g_string_append_printf (md, "%s%s", first ? "" : ",", ev->keysym);
              first = FALSE;
            }
        }
      g_string_append (md, "\n");
      g_assert_true (g_file_set_contents (md_path, md->str, -1, NULL));
      if (g_getenv ("FAKE_REPORT_FILL") != NULL)
        {
          /* Its pictures take the disk's last room. */
          g_autofree char *frames = g_build_filename (report, "frames", NULL);
          FILE *fill = fopen (frames, "w");
          static const char block[4096];

          while (fill != NULL && fwrite (block, 1, sizeof block, fill) == sizeof block
                 && fflush (fill) == 0)
            ;
          if (fill != NULL)
            fclose (fill);
        }
    }
  json = replay_result_to_json (&result);
  line = g_strdup_printf ("%u keys=%s settle=%s pace=%s -> %s%s\n", n, keys->str, settle, pace,
                          verdict_kind_to_string (result.verdict.kind),
                          report != NULL ? " report" : "");
  log = g_build_filename (dir, "log", NULL);
  out = fopen (log, "a");
  g_assert_nonnull (out);
  fputs (line, out);
  fclose (out);
  printf ("%s\n", json);
  fflush (stdout);
  switch (result.verdict.kind)
    {
    case VERDICT_PASSED:
      return 0;
    case VERDICT_COULD_NOT_START:
      return 4;
    default:
      return 1;
    }
}
