/* test-isolate.c — a stranger's session cannot reach the caller's files,
 * keys, network, display or processes (proc/sandbox.h: bubblewrap, the
 * environment allowlist, the replay's own X cookie).
 *
 * The attacks are what a hostile session does: it types commands into
 * xterm's bash. Each attempt ends `ATTEMPT && kill -11 $PPID; kill -6
 * $PPID`, so the replay's verdict says which way it went: xterm killed by
 * SIGSEGV, the attempt worked; by SIGABRT, the command ran and the
 * attempt failed. Each runs once with the defaults (0 of 5 may work) and
 * once with --no-isolate (5 of 5 must work: the test measures the
 * sandbox, not a typing mistake). Where the test can see the attempt
 * from its side (a connection on its listeners, its child's death), it
 * checks that too.
 *
 * Then: the app's environment is the allowlist (a secret of the caller's
 * does not reach it; --keep-env and --setenv add to it); a client
 * without the cookie cannot open the replay's display; an app whose
 * children start new sessions or double-fork leaves nothing running after
 * xreplay and after xreduce.
 */
#define _GNU_SOURCE 1   /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sandbox.h"
#include "session.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"
#include "shard.h"

#define WAIT_MS 60000

typedef struct
{
  TestXvfb xvfb;             /* the caller's own display */
  char *dir;                 /* the test's folder, in /tmp */
  char *home;                /* the caller's HOME, outside /tmp, with a secret in it */
  char *agent;               /* a socket standing for the caller's ssh agent */
  int agent_fd, tcp_fd;      /* listeners */
  int tcp_port;
  GPid victim;               /* a process of the caller's */
} Fixture;

static int
listen_unix (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

  g_assert_cmpint (fd, >=, 0);
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (fd, 8), ==, 0);
  return fd;
}

static int
listen_tcp (int *port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

  g_assert_cmpint (fd, >=, 0);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (fd, 8), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  *port = ntohs (addr.sin_port);
  return fd;
}

/* Did anyone connect since the last call? (The kernel queues a connection
 * whether or not it is accepted.) */
static gboolean
took_connection (int fd)
{
  int c = accept4 (fd, NULL, NULL, SOCK_CLOEXEC);

  if (c < 0)
    return FALSE;
  close (c);
  while ((c = accept4 (fd, NULL, NULL, SOCK_CLOEXEC)) >= 0)
    close (c);
  return TRUE;
}

/* The victim dies with the test, even when an assertion aborts it before
 * its teardown (it would hold nothing of meson's either way: its output
 * goes to /dev/null). */
static void
victim_setup (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *secret = NULL;
  const char *sleep_argv[] = { "sleep", "1000", NULL };
  g_autoptr (GError) error = NULL;

  test_become_subreaper ();
  test_xvfb_start (&f->xvfb, "640x480");
  /* Names a session can type without Shift: the pid, not mkdtemp's
   * letters. */
  f->dir = g_strdup_printf ("%s/test-isolate-%d", g_get_tmp_dir (), (int) getpid ());
  g_assert_cmpint (g_mkdir (f->dir, 0700), ==, 0);
  /* The caller's HOME is not in /tmp: what hides it is that it is HOME. */
  f->home = g_strdup_printf ("%s/isolate-home-%d", cwd, (int) getpid ());
  g_assert_cmpint (g_mkdir (f->home, 0700), ==, 0);
  secret = g_build_filename (f->home, "secret", NULL);
  g_assert_true (g_file_set_contents (secret, "the caller's secret\n", -1, NULL));
  f->agent = g_build_filename (f->dir, "agent.sock", NULL);
  f->agent_fd = listen_unix (f->agent);
  f->tcp_fd = listen_tcp (&f->tcp_port);
  g_assert_true (g_spawn_async (NULL, (char **) sleep_argv, NULL,
                                G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                                | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                victim_setup, NULL, &f->victim, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_kill_child (&f->victim);
  close (f->agent_fd);
  close (f->tcp_fd);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  test_remove_tree (f->home);
  g_free (f->dir);
  g_free (f->home);
  g_free (f->agent);
  g_assert_cmpuint (test_orphans_alive (0), ==, 0);
}

/* Where bubblewrap cannot work, the test is skipped, saying why (not a
 * pass). */
static gboolean
isolation_works (void)
{
  g_autoptr (GError) error = NULL;

  if (sandbox_can_isolate (&error))
    return TRUE;
  g_test_skip_printf ("%s", error->message);
  return FALSE;
}

/* The keysym that types @c on a us keyboard, and whether with Shift. */
static const char *
keysym_of (char c, gboolean *shift)
{
  static const struct { char c; const char *name; gboolean shift; } table[] = {
    { ' ', "space", FALSE }, { '-', "minus", FALSE }, { '.', "period", FALSE },
    { '/', "slash", FALSE }, { ',', "comma", FALSE }, { ';', "semicolon", FALSE },
    { '=', "equal", FALSE }, { '\'', "apostrophe", FALSE }, { '[', "bracketleft", FALSE },
    { ']', "bracketright", FALSE }, { '\\', "backslash", FALSE }, { '`', "grave", FALSE },
    { '"', "quotedbl", TRUE }, { '$', "dollar", TRUE }, { '{', "braceleft", TRUE },
    { '}', "braceright", TRUE }, { ':', "colon", TRUE }, { '>', "greater", TRUE },
    { '<', "less", TRUE }, { '&', "ampersand", TRUE }, { '|', "bar", TRUE },
    { '(', "parenleft", TRUE }, { ')', "parenright", TRUE }, { '_', "underscore", TRUE },
    { '*', "asterisk", TRUE }, { '~', "asciitilde", TRUE }, { '!', "exclam", TRUE },
    { '@', "at", TRUE }, { '#', "numbersign", TRUE }, { '%', "percent", TRUE },
    { '^', "asciicircum", TRUE }, { '+', "plus", TRUE }, { '?', "question", TRUE },
  };
  static char letter[2];

  *shift = g_ascii_isupper (c);
  if (g_ascii_isalnum (c))
    {
      letter[0] = c;
      return letter;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    if (table[i].c == c)
      {
        *shift = table[i].shift;
        return table[i].name;
      }
  g_error ("cannot type '%c'", c);
}

/* A session that types @command and Return into xterm's bash (the window
 * xterm -geometry 80x24+10+10 -e bash maps: class XTerm, title bash). */
static char *
typing_session (Fixture *f, const char *name, const char *command)
{
  const char *who = "window=0 class=\"XTerm\" title=\"bash\"";
  g_autoptr (GString) text = g_string_new ("xreduce-session 1\nscreen 1280x1024\n"
                                           "keymap \"us\"\n"
                                           "50 MapNotify window=0x1 override=0\n");
  char *path = g_build_filename (f->dir, name, NULL);
  guint t = 100;

  g_string_append_printf (text, "%u MotionNotify state=0x0 root=211,161 pos=200,150 %s\n",
                          t, who);
  /* bash gets a second to start: what is typed before waits in the pty. */
  t = 1000;
  for (const char *c = command; ; c++)
    {
      gboolean shift = FALSE;
      const char *sym = *c == '\0' ? "Return" : keysym_of (*c, &shift);

      if (shift)
        g_string_append_printf (text, "%u KeyPress keysym=Shift_L keycode=50 state=0x0 %s\n",
                                t++, who);
      g_string_append_printf (text, "%u KeyPress keysym=%s keycode=38 state=0x%x %s\n", t++,
                              sym, shift ? 1 : 0, who);
      g_string_append_printf (text, "%u KeyRelease keysym=%s keycode=38 state=0x%x %s\n",
                              t++, sym, shift ? 1 : 0, who);
      if (shift)
        g_string_append_printf (text, "%u KeyRelease keysym=Shift_L keycode=50 state=0x1 %s\n",
                                t++, who);
      t += 8;
      if (*c == '\0')
        break;
    }
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  return path;
}

/* Runs xreplay @extra... on @session with xterm, the caller's HOME and
 * agent in its environment; the signal that ended xterm ("SIGSEGV"), or
 * what happened instead. */
static char *
replay_xterm (Fixture *f, const char *session, const char *extra)
{
  const char *argv[] = { env ("XREPLAY"), "--json", "--settle", "5000", session, "--",
                         "xterm", "-geometry", "80x24+10+10", "-e", "bash", "--norc",
                         "--noprofile", NULL, NULL };
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *result;

  if (extra != NULL)
    {
      /* Before the session: an option. */
      memmove (argv + 5, argv + 4, sizeof argv - 5 * sizeof *argv);
      argv[4] = extra;
    }
  envp = g_environ_setenv (envp, "HOME", f->home, TRUE);
  envp = g_environ_setenv (envp, "SSH_AUTH_SOCK", f->agent, TRUE);
  test_run_sync_status ((const char *const *) argv, (const char *const *) envp,
                        G_SPAWN_DEFAULT, &out, &err);
  g_test_message ("xreplay %s said: %s%s", extra != NULL ? extra : "", out, err);
  result = test_json_object (parser, out);
  if (json_object_get_null_member (result, "signal"))
    return g_strdup_printf ("%s, exit status %s", json_object_get_string_member (result, "outcome"),
                            json_object_get_null_member (result, "exit_status") ? "none"
                            : "given");
  return g_strdup (json_object_get_string_member (result, "signal"));
}

typedef enum
{
  ATTACK_HOME,
  ATTACK_AGENT,
  ATTACK_TCP,
  ATTACK_DISPLAY,
  ATTACK_SIGNAL,
  N_ATTACKS
} Attack;

static const char *const attack_names[] = {
  "read a file in the caller's HOME", "connect to the ssh agent", "connect to a TCP listener",
  "open the caller's display", "signal a process of the caller's",
};

static char *
attack_command (Fixture *f, Attack attack)
{
  g_autofree char *attempt = NULL;

  switch (attack)
    {
    case ATTACK_HOME:
      attempt = g_strdup_printf ("cat %s/secret", f->home);
      break;
    case ATTACK_AGENT:
      /* The variable if it is there, else where the agent is known to be. */
      attempt = g_strdup_printf ("/usr/bin/python3 -c 'import socket,sys;"
                                 "socket.socket(1).connect(sys.argv[1])' "
                                 "\"${SSH_AUTH_SOCK:-%s}\"", f->agent);
      break;
    case ATTACK_TCP:
      attempt = g_strdup_printf ("echo x >/dev/tcp/127.0.0.1/%d", f->tcp_port);
      break;
    case ATTACK_DISPLAY:
      attempt = g_strdup_printf ("xprop -display %s -root", f->xvfb.display);
      break;
    case ATTACK_SIGNAL:
      attempt = g_strdup_printf ("kill -15 %d", (int) f->victim);
      break;
    default:
      g_assert_not_reached ();
    }
  return g_strdup_printf ("%s >/dev/null 2>&1 && kill -11 $PPID; kill -6 $PPID", attempt);
}

/* Did the attempt show on our side? (FALSE where we cannot see it.) */
static gboolean
attack_seen (Fixture *f, Attack attack)
{
  int status;

  switch (attack)
    {
    case ATTACK_AGENT:
      return took_connection (f->agent_fd);
    case ATTACK_TCP:
      return took_connection (f->tcp_fd);
    case ATTACK_SIGNAL:
      if (waitpid (f->victim, &status, WNOHANG) != f->victim)
        return FALSE;
      f->victim = 0;
      return WIFSIGNALED (status) && WTERMSIG (status) == SIGTERM;
    default:
      return FALSE;
    }
}

static void
test_attack (Fixture *f, gconstpointer data)
{
  guint worked_isolated = 0, worked_open = 0;

  if (!isolation_works ())
    return;

  for (Attack a = 0; a < N_ATTACKS; a++)
    {
      g_autofree char *name = g_strdup_printf ("attack-%d.session", (int) a);
      g_autofree char *command = attack_command (f, a);
      g_autofree char *session = typing_session (f, name, command);
      g_autofree char *isolated = NULL, *open = NULL;

      g_test_message ("attempt: %s: %s", attack_names[a], command);
      /* The defaults: the command runs, the attempt fails. */
      isolated = replay_xterm (f, session, NULL);
      g_assert_cmpstr (isolated, ==, "SIGABRT");
      g_assert_false (attack_seen (f, a));
      /* Without the sandbox the same session gets there. */
      open = replay_xterm (f, session, "--no-isolate");
      g_assert_cmpstr (open, ==, "SIGSEGV");
      if (a == ATTACK_AGENT || a == ATTACK_TCP || a == ATTACK_SIGNAL)
        g_assert_true (attack_seen (f, a));
      worked_isolated += strcmp (isolated, "SIGSEGV") == 0;
      worked_open += strcmp (open, "SIGSEGV") == 0;
    }
  g_test_message ("attempts that worked: %u of %d isolated, %u of %d with --no-isolate",
                  worked_isolated, N_ATTACKS, worked_open, N_ATTACKS);
  g_assert_cmpuint (worked_isolated, ==, 0);
  g_assert_cmpuint (worked_open, ==, N_ATTACKS);
}

/* Files named on the app's command line (F6 of issue #34): the app sees
 * each file named, never the folder it is in, no folder that holds HOME
 * or /tmp, and no socket through what it sees. Each case replays xterm
 * (through @program if set) running `bash -i -s NAMED`, so that NAMED is
 * on the command line, and types @attempt: xterm ends with SIGSEGV if the
 * attempt worked (@shown: it must; else it must not, isolated, and must
 * with --no-isolate). */
typedef struct
{
  const char *what;
  const char *named;           /* under f->home ("~/"), f->dir ("@/"), or as it is */
  const char *attempt;         /* the same prefixes */
  gboolean beside;             /* the program is a wrapper in @/bin, beside a socket */
  gboolean shown;              /* the attempt reads what the app is shown */
} NamedCase;

static const NamedCase named_cases[] = {
  { "the file named is shown", "~/notes.txt", "cat ~/notes.txt", FALSE, TRUE },
  { "a file beside a file named in HOME is not", "~/notes.txt", "cat ~/secret", FALSE, FALSE },
  { "/tmp is not shown for an argument in it", "/tmp/xreduce-isolate-arg-%d.txt",
    "python3 -c 'import socket;socket.socket(1).connect(\"@/agent.sock\")'", FALSE, FALSE },
  { "a folder that holds /tmp is not shown", "/tmp",
    "python3 -c 'import socket;socket.socket(1).connect(\"@/agent.sock\")'", FALSE, FALSE },
  { "a socket beside the app's program is not reachable", "~/notes.txt",
    "python3 -c 'import socket;socket.socket(1).connect(\"@/bin/beside.sock\")'", TRUE, FALSE },
};

/* @text with "~/" as f->home, "@/" as f->dir and %d as our pid. */
static char *
named_expand (Fixture *f, const char *text)
{
  g_autofree char *pid = g_strdup_printf (text, (int) getpid ());
  g_auto (GStrv) home = g_strsplit (pid, "~/", -1);
  g_autofree char *home_slash = g_strconcat (f->home, "/", NULL);
  g_autofree char *with_home = g_strjoinv (home_slash, home);
  g_auto (GStrv) dir = g_strsplit (with_home, "@/", -1);
  g_autofree char *dir_slash = g_strconcat (f->dir, "/", NULL);

  return g_strjoinv (dir_slash, dir);
}

/* xreplay [--no-isolate] @session -- PROGRAM ... bash -i -s @named; the
 * signal that ended xterm, and what xreplay said on stderr in *@err. */
static char *
replay_named (Fixture *f, const char *session, gboolean open, const char *program,
              const char *named, char **err)
{
  const char *argv[] = { env ("XREPLAY"), "--json", "--settle", "5000", session, "--", program,
                         "-geometry", "80x24+10+10", "-e", "bash", "--norc", "--noprofile",
                         "-i", "-s", named, NULL, NULL };
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *result;

  if (open)
    {
      memmove (argv + 5, argv + 4, sizeof argv - 5 * sizeof *argv);
      argv[4] = "--no-isolate";
    }
  envp = g_environ_setenv (envp, "HOME", f->home, TRUE);
  test_run_sync_status ((const char *const *) argv, (const char *const *) envp,
                        G_SPAWN_DEFAULT, &out, err);
  g_test_message ("xreplay%s said: %s%s", open ? " --no-isolate" : "", out, *err);
  result = test_json_object (parser, out);
  if (json_object_get_null_member (result, "signal"))
    return g_strdup (json_object_get_string_member (result, "outcome"));
  return g_strdup (json_object_get_string_member (result, "signal"));
}

static void
test_named_files (Fixture *f, gconstpointer data)
{
  g_autofree char *bin = g_build_filename (f->dir, "bin", NULL);
  g_autofree char *wrapper = g_build_filename (bin, "xterm", NULL);
  g_autofree char *beside = g_build_filename (bin, "beside.sock", NULL);
  g_autofree char *notes = g_build_filename (f->home, "notes.txt", NULL);
  g_autofree char *in_tmp = g_strdup_printf ("/tmp/xreduce-isolate-arg-%d.txt", (int) getpid ());
  guint worked = 0;
  int beside_fd;

  if (!isolation_works ())
    return;
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  g_assert_true (g_file_set_contents (wrapper, "#!/bin/sh\nexec xterm \"$@\"\n", -1, NULL));
  g_assert_cmpint (g_chmod (wrapper, 0755), ==, 0);
  beside_fd = listen_unix (beside);
  g_assert_true (g_file_set_contents (notes, "the notes the app opens\n", -1, NULL));
  g_assert_true (g_file_set_contents (in_tmp, "an argument in /tmp\n", -1, NULL));

  for (gsize i = 0; i < G_N_ELEMENTS (named_cases); i++)
    {
      const NamedCase *c = &named_cases[i];
      g_autofree char *name = g_strdup_printf ("named-%d.session", (int) i);
      g_autofree char *named = named_expand (f, c->named);
      g_autofree char *attempt = named_expand (f, c->attempt);
      g_autofree char *command = g_strdup_printf ("%s >/dev/null 2>&1 && kill -11 $PPID; "
                                                  "kill -6 $PPID", attempt);
      g_autofree char *session = typing_session (f, name, command);
      g_autofree char *isolated = NULL, *open = NULL, *err = NULL, *open_err = NULL;
      const char *program = c->beside ? wrapper : "xterm";

      g_test_message ("%s: xterm ... bash -i -s %s; %s", c->what, named, attempt);
      isolated = replay_named (f, session, FALSE, program, named, &err);
      g_assert_cmpstr (isolated, ==, c->shown ? "SIGSEGV" : "SIGABRT");
      if (c->beside)
        g_assert_false (took_connection (beside_fd));
      if (strcmp (named, "/tmp") == 0)
        g_assert_nonnull (strstr (err, "not shown to the app: the folder /tmp holds /tmp"));
      worked += !c->shown && strcmp (isolated, "SIGSEGV") == 0;
      if (c->shown)
        continue;
      /* The attempt itself works, without the sandbox. */
      open = replay_named (f, session, TRUE, program, named, &open_err);
      g_assert_cmpstr (open, ==, "SIGSEGV");
      if (c->beside)
        g_assert_true (took_connection (beside_fd));
    }
  g_test_message ("attempts through what the command line names that worked: %u", worked);
  close (beside_fd);
  g_unlink (in_tmp);
}

/* The environment the app gets, from the stderr_tail of a replay whose
 * app prints it and dies before any window. */
static char **
app_environ (Fixture *f, const char *const *extra)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *session = g_build_filename (f->dir, "env.session", NULL);
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL, *err = NULL;
  const char *tail;

  g_assert_true (g_file_set_contents (session, "xreduce-session 1\nscreen 640x480\n"
                                      "10 KeyPress keysym=a keycode=38 state=0x0\n", -1, NULL));
  g_ptr_array_add (argv, (char *) env ("XREPLAY"));
  g_ptr_array_add (argv, (char *) "--json");
  for (const char *const *e = extra; e != NULL && *e != NULL; e++)
    g_ptr_array_add (argv, (char *) *e);
  g_ptr_array_add (argv, session);
  g_ptr_array_add (argv, (char *) "--");
  /* Printed on stderr: the replay keeps its tail, and drops stdout. */
  g_ptr_array_add (argv, (char *) "/bin/sh");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) "exec /usr/bin/env >&2");
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "HOME", f->home, TRUE);
  envp = g_environ_setenv (envp, "SSH_AUTH_SOCK", f->agent, TRUE);
  envp = g_environ_setenv (envp, "SECRET_TOKEN", "s3cr3t", TRUE);
  envp = g_environ_setenv (envp, "XAUTHORITY", "/the/callers/xauthority", TRUE);
  envp = g_environ_setenv (envp, "LC_TIME", "C", TRUE);
  /* sh sets PWD itself (from where it is): ours, if it came, would say so. */
  envp = g_environ_setenv (envp, "PWD", "/the/callers/pwd", TRUE);
  test_run_sync_status ((const char *const *) argv->pdata, (const char *const *) envp,
                        G_SPAWN_DEFAULT, &out, &err);
  g_test_message ("xreplay said: %s%s", out, err);
  tail = json_object_get_string_member (test_json_object (parser, out), "stderr_tail");
  return g_strsplit (tail != NULL ? tail : "", "\n", -1);
}

static void
test_environ (Fixture *f, gconstpointer data)
{
  const char *allowed[] = { "PATH", "LANG", "LANGUAGE", "TERM", "HOME", "XDG_CONFIG_HOME",
                            "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
                            "XDG_RUNTIME_DIR", "TMPDIR", "DBUS_SESSION_BUS_ADDRESS",
                            "NO_AT_BRIDGE", "DISPLAY", "XAUTHORITY",
                            /* Apps' own crash reporters off (sandbox.c). */
                            "MOZ_CRASHREPORTER_DISABLE", "KDE_DEBUG",
                            /* How a sanitizer build reports (sandbox.c): the suite
                             * under -Db_sanitize sets them. */
                            "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "MSAN_OPTIONS",
                            "TSAN_OPTIONS", NULL };
  const char *more[] = { "--keep-env", "SECRET_TOKEN", "--setenv", "GREETING=a b=c", NULL };
  g_auto (GStrv) plain = NULL, asked = NULL;
  gboolean display = FALSE, xauthority = FALSE, lc = FALSE;

  if (!isolation_works ())
    return;
  plain = app_environ (f, NULL);
  for (char **e = plain; *e != NULL; e++)
    {
      g_autofree char *name = g_strndup (*e, strcspn (*e, "="));

      if (**e == '\0')
        continue;
      g_test_message ("the app got %s", *e);
      if (strcmp (name, "PWD") == 0)
        g_assert_cmpstr (*e, !=, "PWD=/the/callers/pwd");
      else if (!g_strv_contains (allowed, name) && !g_str_has_prefix (name, "LC_"))
        g_error ("the app got %s, which is not on the allowlist", *e);
      display |= strcmp (name, "DISPLAY") == 0;
      lc |= strcmp (*e, "LC_TIME=C") == 0;
      if (strcmp (name, "XAUTHORITY") == 0)
        {
          /* The sandbox's own, with the replay's cookie, not the caller's. */
          g_assert_cmpstr (*e, !=, "XAUTHORITY=/the/callers/xauthority");
          xauthority = TRUE;
        }
      if (strcmp (name, "HOME") == 0)
        g_assert_cmpstr (*e + 5, !=, f->home);
    }
  g_assert_true (display);
  g_assert_true (xauthority);
  g_assert_true (lc);

  asked = app_environ (f, more);
  g_assert_true (g_strv_contains ((const char *const *) asked, "SECRET_TOKEN=s3cr3t"));
  g_assert_true (g_strv_contains ((const char *const *) asked, "GREETING=a b=c"));
  for (char **e = asked; *e != NULL; e++)
    g_assert_false (g_str_has_prefix (*e, "SSH_AUTH_SOCK="));
}

/* The first byte of the server's answer to a connection set-up without
 * any authorization, on the display's socket: 0 Failed, 1 Success. */
static int
x_setup_answer (const char *display)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  /* 'l' (little endian), unused, major 11, minor 0, no auth name, no
   * auth data, unused. */
  const guint8 setup[12] = { 'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  guint8 answer = 0xff;
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_snprintf (addr.sun_path, sizeof addr.sun_path, "/tmp/.X11-unix/X%s", display + 1);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (write (fd, setup, sizeof setup), ==, sizeof setup);
  g_assert_cmpint (read (fd, &answer, 1), ==, 1);
  close (fd);
  return answer;
}

/* A client without the cookie is refused by the replay's Xvfb (which the
 * app, with it, uses); the caller's display, without access control,
 * answers the same probe: the probe can tell. */
static void
test_cookie (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (f->dir, "still.session", NULL);
  const char *argv[] = { env ("XREPLAY"), "-v", "--settle", "30000", session, "--",
                         env ("XDEMO"), NULL };
  g_autoptr (GString) said = g_string_new (NULL);
  g_autofree char *display = NULL;
  const char *at;
  int err_fd, status;
  GPid pid;

  if (!isolation_works ())
    return;

  g_assert_true (g_file_set_contents (session, "xreduce-session 1\nscreen 640x480\n"
                                      "100 MotionNotify state=0x0 root=100,100 pos=90,90 "
                                      "window=0 class=\"XDemo\" title=\"Editor\"\n", -1, NULL));
  pid = test_spawn_talking (NULL, (const char *const *) argv, NULL, &err_fd);
  /* The app has connected (with the cookie) and mapped its window. */
  g_assert_true (test_read_until (err_fd, said, "first window", WAIT_MS));
  at = strstr (said->str, "Xvfb :");
  g_assert_nonnull (at);
  display = g_strndup (at + 5, strspn (at + 6, "0123456789") + 1);
  g_test_message ("the replay's display: %s", display);
  g_assert_cmpint (x_setup_answer (display), ==, 0);
  g_assert_cmpint (x_setup_answer (f->xvfb.display), ==, 1);
  kill (pid, SIGTERM);
  status = test_wait_said (&pid, err_fd, said, WAIT_MS);
  close (err_fd);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 128 + SIGTERM);
}

/* The app behind a script whose children leave its session and group:
 * one with setsid, one as a daemon does (a new session, a fork, the
 * parent gone). Each says so in a file once it is on its way (the first
 * about to exec its sleep, the second once its sleep is started), and the
 * script starts the app only once both have: a replay that ran the app
 * had both escape. */
static char *
escaping_app (Fixture *f)
{
  /* The app to run is its argument (a file named on the command line is
   * seen in the sandbox wherever it is; one named only inside the script
   * is not, in a build tree under /tmp: the file is in the /tmp the app
   * sees). */
  const char *text =
    "#!/bin/sh\n"
    "mark=\"${TMPDIR:-/tmp}/escaped.$$\"\n"
    ": > \"$mark\"\n"
    "setsid sh -c 'echo 1 >> \"$0\"; exec sleep 1234' \"$mark\" </dev/null >/dev/null 2>&1 &\n"
    "(setsid sh -c 'sleep 1234 </dev/null >/dev/null 2>&1 & echo 2 >> \"$0\"' \"$mark\" &)\n"
    "while [ \"$(wc -l < \"$mark\")\" -lt 2 ]; do sleep 0.01; done\n"
    "rm -f \"$mark\"\n"
    "exec \"$@\"\n";
  char *path = g_build_filename (f->dir, "escaping-app", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* Kills the sleeps that escaped (re-parented to us, the subreaper); how
 * many there were. Only ours: another run of this test on the machine
 * (a second checkout's) has sleeps of the same name. */
static guint
kill_escaped (void)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  guint n = 0;

  for (const char *name; (name = g_dir_read_name (proc)) != NULL;)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%s/cmdline", name);
      g_autofree char *stat_path = g_strdup_printf ("/proc/%s/stat", name);
      g_autofree char *cmdline = NULL, *stat = NULL;
      const char *after_name;
      int ppid = 0;
      gsize len;

      if (!g_file_get_contents (path, &cmdline, &len, NULL) || len != sizeof "sleep\0001234"
          || memcmp (cmdline, "sleep\0001234", len) != 0
          || !g_file_get_contents (stat_path, &stat, NULL, NULL)
          || (after_name = strrchr (stat, ')')) == NULL
          || sscanf (after_name + 1, " %*c %d", &ppid) != 1 || ppid != getpid ())
        continue;
      kill ((pid_t) atoi (name), SIGKILL);
      waitpid ((pid_t) atoi (name), NULL, 0);
      n++;
    }
  return n;
}

static void
test_escaping_children (Fixture *f, gconstpointer data)
{
  g_autofree char *app = escaping_app (f);
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out_path = g_build_filename (f->dir, "min.session", NULL);
  const char *replay[] = { env ("XREPLAY"), "--max-gap", "100", session, "--", app,
                           env ("XDEMO"), NULL };
  const char *open[] = { env ("XREPLAY"), "--share-home", "--max-gap", "100", session, "--",
                         app, env ("XDEMO"), NULL };
  const char *no_isolate[] = { env ("XREPLAY"), "--no-isolate", "--max-gap", "100", session,
                               "--", app, env ("XDEMO"), NULL };
  const char *reduce_argv[] = { env ("XREDUCE"), "--no-report", "--max-gap", "100", "-o",
                                out_path, session, "--", app, env ("XDEMO"), NULL };
  guint before = test_orphans_alive (f->victim);
  int status;

  if (!isolation_works ())
    return;

  status = test_run_sync_status ((const char *const *) replay, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL);
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpuint (test_orphans_alive (f->victim), ==, before);
  g_assert_cmpuint (kill_escaped (), ==, 0);

  /* The same without the sandbox (--share-home: no PID namespace, no
   * folder whose end kills every process with the sandbox in its
   * environment): both got away from the app's group (the app ran, so
   * they had), came to xreplay, its subreaper, and ended with it. */
  status = test_run_sync_status ((const char *const *) open, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL);
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpuint (test_orphans_alive (f->victim), ==, before);
  g_assert_cmpuint (kill_escaped (), ==, 0);

  /* Without bubblewrap but with the sandbox (--no-isolate): they end
   * with the replay too, before its folder goes (issue #34). */
  status = test_run_sync_status ((const char *const *) no_isolate, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL);
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpuint (test_orphans_alive (f->victim), ==, before);
  g_assert_cmpuint (kill_escaped (), ==, 0);

  status = test_run_sync_status ((const char *const *) reduce_argv, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL);
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpuint (test_orphans_alive (f->victim), ==, before);
  g_assert_cmpuint (kill_escaped (), ==, 0);
}

/* --isolate and friends: bad values are usage errors, said once. */
static void
test_bad_options (Fixture *f, gconstpointer data)
{
  const char *bad[][3] = {
    { "--isolate", "sometimes", NULL },
    { "--isolate=require", "--no-isolate", NULL },
    { "--setenv", "NOEQUALS", NULL },
    { "--setenv", "=value", NULL },
    { "--share-home", "--keep-env=HOME", NULL },
  };
  g_autofree char *session = data_path ("demo.session");

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    for (int program = 0; program < 2; program++)
      {
        const char *argv[] = { env (program == 0 ? "XREPLAY" : "XREDUCE"), bad[i][0], bad[i][1],
                               session, "--", env ("XDEMO"), NULL };
        g_autofree char *err = NULL;
        int status = -1;

        status = test_run_sync_status ((const char *const *) argv, NULL,
                                       G_SPAWN_STDOUT_TO_DEV_NULL, NULL, &err);
        g_test_message ("%s %s %s: %s", argv[0], bad[i][0], bad[i][1], err);
        g_assert_true (WIFEXITED (status));
        g_assert_cmpint (WEXITSTATUS (status), ==, 2);
        g_assert_null (strchr (g_strstrip (err), '\n'));
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
#define ADD(path, fn) \
  if (test_shard_mine ()) \
    g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/isolate/attack", test_attack);
  ADD ("/isolate/named-files", test_named_files);
  ADD ("/isolate/environ", test_environ);
  ADD ("/isolate/cookie", test_cookie);
  ADD ("/isolate/escaping-children", test_escaping_children);
  ADD ("/isolate/bad-options", test_bad_options);
  return g_test_run ();
}
