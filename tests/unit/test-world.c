/* test-world.c — what the app got from outside, in a session (format
 * version 2, session-world.h): the header lines of its world, the
 * variables recorded and refused, files, selection data and drops; every
 * bad input refused with its line; a paste kept with the gesture that
 * pasted; the steps' words; titles that name the world; what a replay
 * cannot give.
 */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "session.h"

#define HEAD2 "xreduce-session 2\nscreen 1280x1024\n"
#define SHA "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static Session *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  Session *session = session_parse (text, strlen (text), "t.log", &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

/* A session of every line of version 2 reads, and writes back the same. */
static void
test_round_trip (void)
{
  const char *text =
    HEAD2
    "command \"gtk-paste.py\"\n"
    "home \"/home/alice\"\n"
    "cwd \"/home/alice/work\"\n"
    "host \"box.example.org\"\n"
    "date \"2026-01-02\"\n"
    "wm \"Openbox\"\n"
    "env LANG \"de_DE.UTF-8\"\n"
    "env MOZ_CRASHREPORTER_DISABLE \"1\"\n"
    "10 File path=\"~/docs/crash.txt\" size=3 sha256=" SHA " copied=1\n"
    "11 File path=\"/srv/data/a b.txt\" size=0 sha256=" SHA "\n"
    "100 KeyPress keysym=Control_L keycode=37 state=0x0 root=5,5 pos=5,5 window=0 "
    "class=\"Paste\" title=\"PasteTarget\"\n"
    "110 KeyPress keysym=v keycode=55 state=0x4 root=5,5 pos=5,5 window=0 "
    "class=\"Paste\" title=\"PasteTarget\"\n"
    "120 KeyRelease keysym=v keycode=55 state=0x4 root=5,5 pos=5,5 window=0 "
    "class=\"Paste\" title=\"PasteTarget\"\n"
    "130 KeyRelease keysym=Control_L keycode=37 state=0x4 root=5,5 pos=5,5 window=0 "
    "class=\"Paste\" title=\"PasteTarget\"\n"
    "140 Selection selection=CLIPBOARD target=\"TARGETS\" type=\"ATOM\" format=32 "
    "atoms=\"TIMESTAMP TARGETS UTF8_STRING\"\n"
    "141 SelectionNotify requestor=0x1 selection=CLIPBOARD target=TARGETS property=P sent=1\n"
    "142 Selection selection=CLIPBOARD target=\"UTF8_STRING\" type=\"UTF8_STRING\" format=8 "
    "size=11 offset=0 text=\"xx\\\"BOOM\\\"\\nxx\"\n"
    "143 Selection selection=CLIPBOARD target=\"text/html\" type=\"None\"\n"
    "144 Selection selection=CLIPBOARD target=\"image/png\" type=\"image/png\" format=8 size=4 "
    "offset=0 base64=iVBORw==\n"
    "145 Selection selection=PRIMARY target=\"UTF8_STRING\" omitted=1 size=2000000\n"
    "200 Drop root=50,60 pos=40,50 window=0 size=300x200 class=\"Paste\" title=\"PasteTarget\" "
    "types=\"text/uri-list text/plain\" action=\"XdndActionCopy\"\n"
    "outcome crashed SIGSEGV\n";
  g_autoptr (Session) session = parse_ok (text);
  g_autofree char *back = session_to_string (session);
  const char *const *env = session_get_env (session);

  g_assert_cmpstr (back, ==, text);
  g_assert_cmpstr (session_get_home (session), ==, "/home/alice");
  g_assert_cmpstr (session_get_cwd (session), ==, "/home/alice/work");
  g_assert_cmpstr (session_get_host (session), ==, "box.example.org");
  g_assert_cmpstr (session_get_date (session), ==, "2026-01-02");
  g_assert_cmpstr (session_get_wm (session), ==, "Openbox");
  g_assert_cmpstr (env[0], ==, "LANG=de_DE.UTF-8");
  g_assert_cmpstr (env[1], ==, "MOZ_CRASHREPORTER_DISABLE=1");
  g_assert_null (env[2]);
  /* Four keys and the drop: the lines of what the app was given are no
   * user actions. */
  g_assert_cmpuint (session_get_n_actions (session), ==, 5);
}

/* A file with nothing of version 2 is written as version 1, which a
 * reader of version 1 loads; one with anything of it, as version 2. */
static void
test_version (void)
{
  g_autoptr (Session) plain = parse_ok ("xreduce-session 1\nscreen 10x10\n"
                                        "1 MotionNotify state=0x0 root=1,1\n");
  g_autofree char *text = session_to_string (plain);
  g_autofree char *text2 = NULL;

  g_assert_true (g_str_has_prefix (text, "xreduce-session 1\n"));
  g_assert_true (session_add_env (plain, "TZ", "UTC", NULL));
  text2 = session_to_string (plain);
  g_assert_true (g_str_has_prefix (text2, "xreduce-session 2\n"));
}

typedef struct
{
  const char *name;
  const char *text;
  const char *message;   /* expected substring */
} BadCase;

static const BadCase bad_cases[] = {
  /* A reader of version 1 refused these lines: so does a file that says 1. */
  { "v1-env", "xreduce-session 1\nscreen 10x10\nenv TZ \"UTC\"\n",
    "t.log:3: 'env' is a line of format version 2, and the file says 'xreduce-session 1'" },
  { "v1-file", "xreduce-session 1\nscreen 10x10\n1 File path=\"/srv/a\" size=1 sha256=" SHA "\n",
    "t.log:3: 'File' is a line of format version 2" },
  { "v1-drop", "xreduce-session 1\nscreen 10x10\n1 Drop root=1,1 types=\"text/plain\"\n",
    "'Drop' is a line of format version 2" },
  { "env-unquoted", HEAD2 "env TZ UTC\n", "t.log:3: env: expected a quoted string" },
  { "env-no-value", HEAD2 "env TZ\n", "env: expected NAME \"VALUE\"" },
  { "env-bad-name", HEAD2 "env 1TZ \"UTC\"\n", "is not a variable's name" },
  { "env-bad-name-char", HEAD2 "env T-Z \"UTC\"\n", "is not a variable's name" },
  { "env-twice", HEAD2 "env TZ \"UTC\"\nenv TZ \"CET\"\n", "t.log:4: env: TZ given twice" },
  { "env-secret", HEAD2 "env GITHUB_TOKEN \"x\"\n", "GITHUB_TOKEN looks like a secret" },
  { "env-password", HEAD2 "env MOZ_PASSWORD \"x\"\n", "looks like a secret" },
  { "env-ssh", HEAD2 "env SSH_AUTH_SOCK \"/x\"\n", "looks like a secret" },
  { "env-xauthority", HEAD2 "env XAUTHORITY \"/x\"\n", "XAUTHORITY looks like a secret" },
  { "env-dbus", HEAD2 "env DBUS_SESSION_BUS_ADDRESS \"x\"\n", "holds or finds a secret" },
  { "env-display", HEAD2 "env DISPLAY \":0\"\n", "DISPLAY is the replay's own" },
  { "env-xdg", HEAD2 "env XDG_SESSION_TYPE \"wayland\"\n", "is the replay's own" },
  { "env-path", HEAD2 "env PATH \"/evil\"\n", "is the replay's own" },
  { "env-preload", HEAD2 "env LD_PRELOAD \"/tmp/x.so\"\n", "LD_PRELOAD makes programs load code" },
  { "env-gtk-modules", HEAD2 "env GTK_MODULES \"/tmp/x.so\"\n", "makes programs load code" },
  { "env-qt-plugins", HEAD2 "env QT_PLUGIN_PATH \"/tmp\"\n", "makes programs load code" },
  { "env-python", HEAD2 "env PYTHONSTARTUP \"/tmp/x.py\"\n", "makes programs load code" },
  { "home-relative", HEAD2 "home \"alice\"\n", "home: 'alice' is not an absolute path" },
  { "home-twice", HEAD2 "home \"/a\"\nhome \"/b\"\n", "t.log:4: second 'home' line" },
  { "home-unquoted", HEAD2 "home /a\n", "home: expected a quoted string" },
  { "home-after-quote", HEAD2 "home \"/a\" x\n", "home: text after the closing quote" },
  { "cwd-dotdot", HEAD2 "cwd \"/a/../etc\"\n", "is not an absolute path" },
  { "date-bad", HEAD2 "date \"2026-1-2\"\n", "date: '2026-1-2' is not YYYY-MM-DD" },
  { "host-empty", HEAD2 "host \"\"\n", "host: empty" },
  { "file-relative", HEAD2 "1 File path=\"docs/a\" size=1 sha256=" SHA "\n",
    "t.log:3: 'docs/a' is not a file's path" },
  { "file-dotdot", HEAD2 "1 File path=\"~/../etc/passwd\" size=1 sha256=" SHA "\n",
    "is not a file's path" },
  { "file-double-slash", HEAD2 "1 File path=\"/srv//a\" size=1 sha256=" SHA "\n",
    "is not a file's path" },
  { "file-trailing-slash", HEAD2 "1 File path=\"/srv/a/\" size=1 sha256=" SHA "\n",
    "is not a file's path" },
  { "file-system", HEAD2 "1 File path=\"/etc/ld.so.preload\" size=1 sha256=" SHA "\n",
    "is in a system folder (/etc)" },
  { "file-usr", HEAD2 "1 File path=\"/usr/lib/libc.so.6\" size=1 sha256=" SHA "\n",
    "is in a system folder (/usr)" },
  { "file-x-socket", HEAD2 "1 File path=\"/tmp/.X11-unix/X0\" size=1 sha256=" SHA "\n",
    "is in a system folder (/tmp/.X11-unix)" },
  { "file-run", HEAD2 "1 File path=\"/run/dbus/x\" size=1 sha256=" SHA "\n",
    "is in a system folder (/run)" },
  { "file-unquoted", HEAD2 "1 File path=/srv/a size=1 sha256=" SHA "\n",
    "field 'path' must be a quoted string" },
  { "file-no-sha", HEAD2 "1 File path=\"/srv/a\" size=1\n", "File without sha256=" },
  { "file-no-size", HEAD2 "1 File path=\"/srv/a\" sha256=" SHA "\n", "File without size=" },
  { "file-no-path", HEAD2 "1 File size=1 sha256=" SHA "\n", "File without path=" },
  { "file-bad-sha", HEAD2 "1 File path=\"/srv/a\" size=1 sha256=../../etc\n", "bad sha256" },
  { "file-upper-sha", HEAD2 "1 File path=\"/srv/a\" size=1 sha256="
    "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD\n", "bad sha256" },
  { "file-bad-size", HEAD2 "1 File path=\"/srv/a\" size=-1 sha256=" SHA "\n", "bad size '-1'" },
  { "file-bad-copied", HEAD2 "1 File path=\"/srv/a\" size=1 sha256=" SHA " copied=yes\n",
    "bad copied 'yes' (1)" },
  { "file-unknown", HEAD2 "1 File path=\"/srv/a\" size=1 sha256=" SHA " mode=0777\n",
    "unknown field 'mode' for File" },
  { "sel-bad-name", HEAD2 "1 Selection selection=_NET_WM_S0 target=\"UTF8_STRING\" "
    "type=\"None\"\n", "bad selection (CLIPBOARD, PRIMARY, SECONDARY or XdndSelection)" },
  { "sel-bad-target", HEAD2 "1 Selection selection=CLIPBOARD target=\"a b\" type=\"None\"\n",
    "bad target (an atom's name)" },
  { "sel-no-target", HEAD2 "1 Selection selection=CLIPBOARD type=\"None\"\n",
    "Selection without target=" },
  { "sel-no-type", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" format=8 size=1 "
    "text=\"a\"\n", "Selection without type= (or omitted=1)" },
  { "sel-none-data", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"None\" "
    "text=\"a\"\n", "a refused Selection (type None) has no format, size or data" },
  { "sel-omitted-data", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" omitted=1 "
    "text=\"a\"\n", "an omitted Selection has no type, format, offset or data" },
  { "sel-bad-format", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "format=12 size=1 text=\"a\"\n", "bad format '12' (8, 16 or 32)" },
  { "sel-no-format", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "size=1 text=\"a\"\n", "needs format= and one of text=, base64=, atoms=" },
  { "sel-two-data", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "format=8 size=1 text=\"a\" base64=YQ==\n", "needs format= and one of" },
  { "sel-no-size", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "format=8 text=\"a\"\n", "Selection without size=" },
  { "sel-too-large", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "format=8 size=1048577 text=\"a\"\n", "is more than a session holds of a selection" },
  { "sel-beyond", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "format=8 size=1 text=\"ab\"\n", "its bytes end at 2, beyond size=1" },
  { "sel-empty-line", HEAD2 "1 Selection selection=CLIPBOARD target=\"STRING\" type=\"STRING\" "
    "format=8 size=2 text=\"\"\n", "a Selection line with no bytes" },
  { "sel-items", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"INTEGER\" "
    "format=32 size=3 base64=AAAA\n", "size and offset must be whole items of format 32" },
  { "sel-bad-base64", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" "
    "format=8 size=3 base64=@@@@\n", "bad base64" },
  { "sel-base64-quoted", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" "
    "format=8 size=3 base64=\"AAAA\"\n", "field 'base64' must be bare base64" },
  { "sel-text-bare", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" "
    "format=8 size=1 text=a\n", "field 'text' must be a quoted string" },
  { "sel-atoms-type", HEAD2 "1 Selection selection=CLIPBOARD target=\"TARGETS\" type=\"STRING\" "
    "format=32 atoms=\"A B\"\n", "atoms= is for type ATOM" },
  { "sel-atoms-bad", HEAD2 "1 Selection selection=CLIPBOARD target=\"TARGETS\" type=\"ATOM\" "
    "format=32 atoms=\"A  B\"\n", "bad atoms" },
  { "sel-cut", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" format=8 size=4 "
    "offset=0 text=\"ab\"\n", "t.log: the Selection lines of CLIPBOARD X end at 2 of its 4 bytes" },
  { "sel-cut-by-another", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" "
    "format=8 size=4 offset=0 text=\"ab\"\n2 Expose window=0x1\n",
    "t.log:4: the Selection lines of CLIPBOARD X end at 2" },
  { "sel-gap", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" format=8 size=4 "
    "offset=0 text=\"ab\"\n1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" format=8 "
    "size=4 offset=3 text=\"d\"\n", "t.log:4: the Selection lines of CLIPBOARD X end at 2" },
  { "sel-orphan", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" format=8 size=4 "
    "offset=2 text=\"ab\"\n", "a Selection line at offset 2 without the lines before it" },
  { "sel-big-offset", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"X\" format=8 "
    "size=4 offset=99999999999 text=\"ab\"\n", "bad offset" },
  { "sel-unknown", HEAD2 "1 Selection selection=CLIPBOARD target=\"X\" type=\"None\" owner=1\n",
    "unknown field 'owner' for Selection" },
  { "drop-no-types", HEAD2 "1 Drop root=1,1\n", "Drop without types=" },
  { "drop-no-root", HEAD2 "1 Drop types=\"text/plain\"\n", "Drop without root=" },
  { "drop-root-outside", HEAD2 "1 Drop root=2000,1 types=\"text/plain\"\n",
    "outside the 1280x1024 screen" },
  { "drop-bad-types", HEAD2 "1 Drop root=1,1 types=\"\"\n", "bad types" },
  { "drop-types-unquoted", HEAD2 "1 Drop root=1,1 types=text/plain\n",
    "field 'types' must be a quoted string" },
  { "drop-bad-action", HEAD2 "1 Drop root=1,1 types=\"a\" action=\"x y\"\n", "bad action" },
  { "drop-button", HEAD2 "1 Drop root=1,1 types=\"a\" button=1\n", "unknown field 'button' for Drop" },
};

static void
test_bad_input (gconstpointer data)
{
  const BadCase *bad = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_parse (bad->text, strlen (bad->text), "t.log", &error);

  g_assert_null (session);
  g_assert_nonnull (error);
  g_test_message ("%s -> %s", bad->name, error->message);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, bad->message));
}

/* The variables recorded without being asked, the ones refused, and
 * what a replay on X makes of a Wayland choice. */
static void
test_env_names (void)
{
  const char *yes[] = { "LANG", "LANGUAGE", "LC_ALL", "LC_NUMERIC", "TZ", "GDK_SCALE",
                        "GTK_THEME", "QT_SCALE_FACTOR", "XMODIFIERS",
                        "MOZ_CRASHREPORTER_DISABLE" };
  const char *no[] = { "HOME", "PATH", "TERM", "EDITOR", "GTK_MODULES", "QT_PLUGIN_PATH",
                       "MOZ_API_KEY", "GDK_BACKEND_TOKEN", "LC_" "PASSWD" };

  for (gsize i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (session_env_name_is_default (yes[i]));
  for (gsize i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (session_env_name_is_default (no[i]));
  /* --record-env may name others, not refused ones. */
  g_assert_true (session_env_name_check ("EDITOR", NULL));
  g_assert_true (session_env_name_check ("TERM", NULL));
  g_assert_false (session_env_name_check ("AWS_SECRET_ACCESS_KEY", NULL));
  g_assert_false (session_env_name_check ("GIT_ASKPASS", NULL));
  g_assert_false (session_env_name_check ("WAYLAND_DISPLAY", NULL));
  g_assert_false (session_env_name_check ("", NULL));

  {
    g_autofree char *gdk = session_env_replay_value ("GDK_BACKEND", "wayland,x11");
    g_autofree char *qt = session_env_replay_value ("QT_QPA_PLATFORM", "wayland");
    g_autofree char *moz = session_env_replay_value ("MOZ_ENABLE_WAYLAND", "wayland");
    g_autofree char *lang = session_env_replay_value ("LANG", "C.UTF-8");
    g_autofree char *x = session_env_replay_value ("GDK_BACKEND", "x11");

    g_assert_cmpstr (gdk, ==, "x11");
    g_assert_cmpstr (qt, ==, "xcb");
    g_assert_null (moz);
    g_assert_cmpstr (lang, ==, "C.UTF-8");
    g_assert_cmpstr (x, ==, "x11");
  }
}

static void
test_file_paths (void)
{
  g_autofree char *in_home = session_file_path_from ("/home/a/docs/x.txt", "/home/a");
  g_autofree char *elsewhere = session_file_path_from ("/home/ab/x.txt", "/home/a");
  g_autofree char *home_itself = session_file_path_from ("/home/a", "/home/a");
  g_autofree char *back = session_file_path_at ("~/docs/x.txt", "/tmp/sandbox/home");
  g_autofree char *absolute = session_file_path_at ("/srv/x", "/tmp/sandbox/home");

  g_assert_cmpstr (in_home, ==, "~/docs/x.txt");
  g_assert_cmpstr (elsewhere, ==, "/home/ab/x.txt");
  g_assert_cmpstr (home_itself, ==, "~");
  g_assert_cmpstr (back, ==, "/tmp/sandbox/home/docs/x.txt");
  g_assert_cmpstr (absolute, ==, "/srv/x");
  g_assert_true (session_file_path_check ("/run/user/1000/doc.txt", NULL));
  g_assert_true (session_file_path_check ("/tmp/t/crash.txt", NULL));
  g_assert_true (session_file_path_check ("~/.config/app/rc", NULL));
  g_assert_false (session_file_path_check ("~", NULL));
  g_assert_false (session_file_path_check ("/tmp/./x", NULL));
}

/* Data of any size and bytes in lines that each fit, and read back the
 * same. */
static void
test_selection_lines (void)
{
  g_autoptr (GArray) events = g_array_new (FALSE, TRUE, sizeof (SessionEvent));
  g_autoptr (GString) text = g_string_new (HEAD2 "1 KeyPress keysym=a keycode=38 state=0x0\n");
  g_autoptr (GString) big = g_string_new (NULL);
  guint8 binary[5000];
  g_autoptr (Session) session = NULL;
  g_autoptr (GPtrArray) pastes = NULL;
  const SessionPaste *paste;

  g_array_set_clear_func (events, (GDestroyNotify) session_event_clear);
  for (guint i = 0; i < 3000; i++)
    g_string_append (big, i % 7 == 0 ? "\x01" : i % 5 == 0 ? "é\"" : "ab\\");
  for (guint i = 0; i < sizeof binary; i++)
    binary[i] = (guint8) (i * 7);
  session_selection_to_events (events, 5, "CLIPBOARD", "TARGETS", "ATOM", 32,
                               (const guint8 *) "TARGETS UTF8_STRING image/png", 29);
  session_selection_to_events (events, 5, "CLIPBOARD", "UTF8_STRING", "UTF8_STRING", 8,
                               (const guint8 *) big->str, big->len);
  session_selection_to_events (events, 5, "CLIPBOARD", "image/png", "image/png", 8, binary,
                               sizeof binary);
  session_selection_to_events (events, 5, "CLIPBOARD", "text/html", "None", 8, NULL, 0);
  g_assert_cmpuint (events->len, >, 6);
  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *line = session_event_to_line (&g_array_index (events, SessionEvent, i));

      g_assert_cmpuint (strlen (line), <=, SESSION_MAX_LINE);
      g_string_append_printf (text, "%s\n", line);
    }
  session = parse_ok (text->str);
  pastes = session_get_pastes (session);
  g_assert_cmpuint (pastes->len, ==, 1);
  paste = g_ptr_array_index (pastes, 0);
  g_assert_cmpuint (paste->conversions->len, ==, 4);
  {
    const SessionConversion *targets = g_ptr_array_index (paste->conversions, 0);
    const SessionConversion *utf8 = g_ptr_array_index (paste->conversions, 1);
    const SessionConversion *png = g_ptr_array_index (paste->conversions, 2);
    const SessionConversion *html = g_ptr_array_index (paste->conversions, 3);
    gsize len;
    const char *data = g_bytes_get_data (utf8->data, &len);

    g_assert_cmpstr (targets->type, ==, "ATOM");
    g_assert_cmpmem (g_bytes_get_data (targets->data, NULL), g_bytes_get_size (targets->data),
                     "TARGETS UTF8_STRING image/png", 29);
    g_assert_cmpmem (data, len, big->str, big->len);
    data = g_bytes_get_data (png->data, &len);
    g_assert_cmpmem (data, len, binary, sizeof binary);
    g_assert_cmpstr (html->type, ==, "None");
    g_assert_null (html->data);
  }
  {
    /* More than a session holds: omitted, its size said. */
    g_autoptr (GArray) huge = g_array_new (FALSE, TRUE, sizeof (SessionEvent));

    g_array_set_clear_func (huge, (GDestroyNotify) session_event_clear);
    session_selection_to_events (huge, 5, "PRIMARY", "STRING", "STRING", 8, binary,
                                 SESSION_MAX_SELECTION_BYTES + 1);
    g_assert_cmpuint (huge->len, ==, 1);
    g_assert_null (g_array_index (huge, SessionEvent, 0).type);
    g_assert_cmpuint (g_array_index (huge, SessionEvent, 0).size, ==,
                      SESSION_MAX_SELECTION_BYTES + 1);
  }
}

#define KEYS(t, sym, code, state, rel) \
  t " Key" rel " keysym=" sym " keycode=" code " state=" state " root=5,5 pos=5,5 window=0 " \
  "class=\"Paste\" title=\"PasteTarget\"\n"

static const char paste_session[] =
  HEAD2
  KEYS ("10", "x", "53", "0x0", "Press") KEYS ("20", "x", "53", "0x0", "Release")
  KEYS ("100", "Control_L", "37", "0x0", "Press") KEYS ("110", "v", "55", "0x4", "Press")
  KEYS ("120", "v", "55", "0x4", "Release") KEYS ("130", "Control_L", "37", "0x4", "Release")
  "140 Selection selection=CLIPBOARD target=\"UTF8_STRING\" type=\"UTF8_STRING\" format=8 "
  "size=8 offset=0 text=\"xxBOOMxx\"\n"
  KEYS ("300", "y", "29", "0x0", "Press") KEYS ("310", "y", "29", "0x0", "Release")
  "400 ButtonPress button=2 state=0x0 root=5,5 pos=5,5 window=0 class=\"Paste\" "
  "title=\"PasteTarget\"\n"
  "410 ButtonRelease button=2 state=0x200 root=5,5 pos=5,5 window=0 class=\"Paste\" "
  "title=\"PasteTarget\"\n"
  "420 Selection selection=PRIMARY target=\"UTF8_STRING\" type=\"UTF8_STRING\" format=8 "
  "size=5 offset=0 text=\"hello\"\n"
  "500 Drop root=50,60 pos=40,50 window=0 class=\"Paste\" title=\"PasteTarget\" "
  "types=\"text/uri-list text/plain\" action=\"XdndActionCopy\"\n"
  "510 Selection selection=XdndSelection target=\"text/uri-list\" type=\"text/uri-list\" "
  "format=8 size=20 offset=0 text=\"file:///tmp/BOOM.txt\"\n";

/* Each paste belongs to the gesture of the last action before it: the
 * replay owns the selection before that gesture's first action. */
static void
test_pastes (void)
{
  g_autoptr (Session) session = parse_ok (paste_session);
  g_autoptr (GPtrArray) pastes = session_get_pastes (session);
  const SessionPaste *clipboard, *primary, *drop;
  g_autofree char *text = NULL;

  g_assert_cmpuint (pastes->len, ==, 3);
  clipboard = g_ptr_array_index (pastes, 0);
  primary = g_ptr_array_index (pastes, 1);
  drop = g_ptr_array_index (pastes, 2);
  g_assert_cmpstr (clipboard->selection, ==, "CLIPBOARD");
  /* After Ctrl's release (action 5), owned before Ctrl's press (2). */
  g_assert_cmpuint (clipboard->after_action, ==, 5);
  g_assert_cmpuint (clipboard->own_before, ==, 2);
  g_assert_cmpuint (primary->after_action, ==, 9);
  g_assert_cmpuint (primary->own_before, ==, 8);
  g_assert_cmpuint (drop->after_action, ==, 10);
  g_assert_cmpuint (drop->own_before, ==, 10);
  text = session_paste_text (clipboard, 4);
  g_assert_cmpstr (text, ==, "xxBO...");
}

/* A paste's data goes with the gesture that pasted: kept while any of
 * its actions is, dropped with it. */
static void
test_subset_keeps_paste (void)
{
  g_autoptr (Session) session = parse_ok (paste_session);
  const guint with_v[] = { 3, 4 };          /* v's press and release */
  const guint without[] = { 0, 1, 6, 7 };   /* x and y */
  const guint only_ctrl[] = { 2 };
  g_autoptr (Session) kept = session_subset (session, with_v, G_N_ELEMENTS (with_v));
  g_autoptr (Session) dropped = session_subset (session, without, G_N_ELEMENTS (without));
  g_autoptr (Session) ctrl = session_subset (session, only_ctrl, 1);
  g_autoptr (GPtrArray) kept_pastes = session_get_pastes (kept);
  g_autoptr (GPtrArray) dropped_pastes = session_get_pastes (dropped);
  g_autoptr (GPtrArray) ctrl_pastes = session_get_pastes (ctrl);

  g_assert_cmpuint (kept_pastes->len, ==, 1);
  g_assert_cmpstr (((SessionPaste *) g_ptr_array_index (kept_pastes, 0))->selection, ==,
                   "CLIPBOARD");
  /* In the subset, it comes after v's release: owned before v's press. */
  g_assert_cmpuint (((SessionPaste *) g_ptr_array_index (kept_pastes, 0))->own_before, ==, 0);
  g_assert_cmpuint (dropped_pastes->len, ==, 0);
  g_assert_cmpuint (ctrl_pastes->len, ==, 1);
  /* The header's world is kept whole. */
  {
    g_autoptr (Session) world = parse_ok (HEAD2 "home \"/h\"\nenv TZ \"UTC\"\n"
                                          "1 MotionNotify state=0x0 root=1,1\n");
    g_autoptr (Session) none = session_subset (world, NULL, 0);

    g_assert_cmpstr (session_get_home (none), ==, "/h");
    g_assert_cmpstr (session_get_env (none)[0], ==, "TZ=UTC");
  }
}

static void
test_words (void)
{
  g_autoptr (Session) session = parse_ok (paste_session);
  g_autofree char *steps = session_describe_steps (session, SESSION_WORDS_TERMINAL, FALSE);
  g_autofree char *md = session_describe_steps (session, SESSION_WORDS_MARKDOWN, FALSE);

  g_test_message ("%s", steps);
  g_assert_nonnull (strstr (steps, "Paste \"xxBOOMxx\" (from CLIPBOARD) in \"PasteTarget\"\n"));
  g_assert_nonnull (strstr (steps, "Paste \"hello\" (from PRIMARY) with a middle-click at 5,5 "
                                   "in \"PasteTarget\"\n"));
  g_assert_nonnull (strstr (steps, "Drop \"file:///tmp/BOOM.txt\" (text/uri-list) at 40,50 in "
                                   "\"PasteTarget\"\n"));
  g_assert_nonnull (strstr (md, "Paste `xxBOOMxx` (from CLIPBOARD) in \"PasteTarget\""));
  {
    /* Pasted text is the session's: quoted for the terminal. */
    g_autoptr (Session) hostile = parse_ok (
      HEAD2 KEYS ("100", "Control_L", "37", "0x0", "Press") KEYS ("110", "v", "55", "0x4", "Press")
      "140 Selection selection=CLIPBOARD target=\"UTF8_STRING\" type=\"UTF8_STRING\" format=8 "
      "size=8 offset=0 text=\"\\x1b[2J$(x)\"\n");
    g_autofree char *said = session_describe_steps (hostile, SESSION_WORDS_TERMINAL, FALSE);

    g_test_message ("%s", said);
    g_assert_null (strchr (said, '\x1b'));
    g_assert_nonnull (strstr (said, "Paste \"\\x1b[2J$(x)\" (from CLIPBOARD)"));
  }
}

static void
test_titles (void)
{
  g_autoptr (Session) session = parse_ok (HEAD2 "home \"/home/alice\"\n"
                                          "cwd \"/home/alice/work\"\nhost \"box.example.org\"\n"
                                          "date \"2026-01-02\"\n");
  SessionHere here = { .home = "/tmp/x/home", .cwd = "/tmp/x/home/work", .host = "node7",
                       .date = "2027-03-04" };
  SessionHere elsewhere = { .home = "/tmp/x/home", .cwd = "/srv/build", .host = "node7" };
  g_autofree char *dia = session_title_here (session, "Diagram1.dia (/home/alice/work)", &here);
  g_autofree char *gedit = session_title_here (session, "notes.txt (~/work) - gedit", &elsewhere);
  g_autofree char *home = session_title_here (session, "/home/alice/x - box on 2026-01-02", &here);
  g_autofree char *same = session_title_here (session, "Editor", &here);
  g_autofree char *term = session_title_here (session, "alice@box: ~", &here);

  g_assert_cmpstr (dia, ==, "Diagram1.dia (/tmp/x/home/work)");
  g_assert_cmpstr (gedit, ==, "notes.txt (/srv/build) - gedit");
  g_assert_cmpstr (home, ==, "/tmp/x/home/x - node7 on 2027-03-04");
  g_assert_cmpstr (same, ==, "Editor");
  g_assert_cmpstr (term, ==, "alice@node7: ~");
}

/* The app asked (the Selection line) at Ctrl+V's press, the owner's
 * answer came after the release of Control: the paste's data is there,
 * nothing is said about it. */
static void
test_missing_later_notify (void)
{
  g_autoptr (Session) session = parse_ok (
    HEAD2 KEYS ("100", "Control_L", "37", "0x0", "Press") KEYS ("110", "v", "55", "0x4", "Press")
    "112 Selection selection=CLIPBOARD target=\"UTF8_STRING\" type=\"UTF8_STRING\" format=8 "
    "size=2 offset=0 text=\"hi\"\n"
    KEYS ("120", "Control_L", "37", "0x4", "Release")
    "140 SelectionNotify requestor=0x1 selection=CLIPBOARD target=UTF8_STRING property=P sent=1\n"
    KEYS ("150", "v", "55", "0x0", "Release"));
  g_autofree char *dir = g_dir_make_tmp ("test-world-XXXXXX", NULL);
  g_autoptr (GPtrArray) said = session_world_missing (session, dir, NULL, FALSE);

  for (guint i = 0; i < said->len; i++)
    {
      g_test_message ("%s", (const char *) g_ptr_array_index (said, i));
      g_assert_null (strstr (g_ptr_array_index (said, i), "paste"));
    }
  g_rmdir (dir);
}

static void
test_missing (void)
{
  g_autoptr (Session) session = parse_ok (
    HEAD2 "wm \"Openbox\"\nenv GDK_BACKEND \"wayland\"\nenv TZ \"UTC\"\n"
    "1 File path=\"~/docs/a.txt\" size=3 sha256=" SHA "\n"
    "2 File path=\"/srv/b.txt\" size=3 sha256=" SHA " copied=1\n"
    KEYS ("100", "Control_L", "37", "0x0", "Press") KEYS ("110", "v", "55", "0x4", "Press")
    "140 SelectionNotify requestor=0x1 selection=CLIPBOARD target=UTF8_STRING property=P sent=1\n"
    "150 Selection selection=PRIMARY target=\"UTF8_STRING\" omitted=1 size=4\n");
  g_autofree char *dir = g_dir_make_tmp ("test-world-XXXXXX", NULL);
  g_autoptr (GPtrArray) said = session_world_missing (session, dir, NULL, FALSE);
  g_autofree char *all = NULL;

  g_ptr_array_add (said, NULL);
  all = g_strjoinv ("\n", (char **) said->pdata);
  g_test_message ("%s", all);
  g_assert_nonnull (strstr (all, "2 pastes whose data the session does not hold (the first: "
                                 "CLIPBOARD after action 2"));
  g_assert_nonnull (strstr (all, "2 files the app read are not in the replay's sandbox: "
                                 "~/docs/a.txt, /srv/b.txt (recorded without --with-files"));
  g_assert_nonnull (strstr (all, "copies missing from the files folder"));
  g_assert_nonnull (strstr (all, "GDK_BACKEND=wayland was recorded; the replay on X sets "
                                 "GDK_BACKEND=x11"));
  g_assert_null (strstr (all, "TZ"));
  g_assert_nonnull (strstr (all, "the window manager \"Openbox\""));
  {
    /* With the copy there, the file is not missing any more. */
    g_autofree char *copy = g_build_filename (dir, SHA, NULL);
    g_autoptr (GPtrArray) again = NULL;

    /* SHA is the checksum of "abc". */
    g_assert_true (g_file_set_contents (copy, "abc", 3, NULL));
    again = session_world_missing (session, dir, NULL, TRUE);
    for (guint i = 0; i < again->len; i++)
      g_assert_null (strstr (g_ptr_array_index (again, i), "/srv/b.txt"));
    g_assert_true (g_file_set_contents (copy, "abd", 3, NULL));
    g_clear_pointer (&again, g_ptr_array_unref);
    again = session_world_missing (session, dir, NULL, TRUE);
    g_ptr_array_add (again, NULL);
    g_free (all);
    all = g_strjoinv ("\n", (char **) again->pdata);
    g_assert_nonnull (strstr (all, "copies that differ"));
    g_unlink (copy);
  }
  g_rmdir (dir);
}

/* Files read under ~ are there when the replay's HOME starts as a folder
 * that holds them with the same bytes (--home, --share-home): nothing is
 * said of them. One whose bytes differ and one elsewhere are still
 * said. */
static void
test_missing_home (void)
{
  g_autoptr (Session) session = parse_ok (
    HEAD2 "1 File path=\"~/docs/a.txt\" size=3 sha256=" SHA "\n"
    "2 File path=\"~/b.txt\" size=3 sha256=" SHA "\n"
    "3 File path=\"/srv/c.txt\" size=3 sha256=" SHA "\n");
  g_autofree char *top = g_dir_make_tmp ("test-world-XXXXXX", NULL);
  g_autofree char *home = g_build_filename (top, "home", NULL);
  g_autofree char *docs = g_build_filename (home, "docs", NULL);
  g_autofree char *a = g_build_filename (docs, "a.txt", NULL);
  g_autofree char *b = g_build_filename (home, "b.txt", NULL);
  g_autofree char *all = NULL, *none = NULL;
  g_autoptr (GPtrArray) said = NULL, without = NULL;

  g_assert_cmpint (g_mkdir_with_parents (docs, 0700), ==, 0);
  /* SHA is the checksum of "abc". */
  g_assert_true (g_file_set_contents (a, "abc", 3, NULL));
  g_assert_true (g_file_set_contents (b, "abd", 3, NULL));
  said = session_world_missing (session, NULL, home, FALSE);
  g_ptr_array_add (said, NULL);
  all = g_strjoinv ("\n", (char **) said->pdata);
  g_test_message ("%s", all);
  g_assert_nonnull (strstr (all, "2 files the app read are not in the replay's sandbox: "
                                 "~/b.txt, /srv/c.txt ("));
  g_assert_null (strstr (all, "a.txt"));
  /* Without the folder: all three. */
  without = session_world_missing (session, NULL, NULL, FALSE);
  g_ptr_array_add (without, NULL);
  none = g_strjoinv ("\n", (char **) without->pdata);
  g_assert_nonnull (strstr (none, "3 files the app read are not in the replay's sandbox: "
                                  "~/docs/a.txt, "));
  g_unlink (a);
  g_unlink (b);
  g_rmdir (docs);
  g_rmdir (home);
  g_rmdir (top);
}

/* A folder's worth of files the app read is one line: the copied first,
 * ten in all, then how many more. */
static void
test_many_files (void)
{
  GString *text = g_string_new (HEAD2);
  g_autoptr (Session) session = NULL;
  g_autoptr (GPtrArray) lines = NULL;
  const char *line = NULL;

  for (int i = 0; i < 400; i++)
    g_string_append_printf (text, "%d File path=\"~/file%03d.dat\" size=2 sha256=" SHA "\n",
                            i + 1, i);
  g_string_append (text, "500 File path=\"~/crash.txt\" size=6 sha256=" SHA " copied=1\n");
  session = parse_ok (text->str);
  g_string_free (text, TRUE);
  lines = session_describe_world (session, SESSION_WORDS_TERMINAL);
  for (guint i = 0; i < lines->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (lines, i), "Files the app read: "))
      line = g_ptr_array_index (lines, i);
  g_assert_nonnull (line);
  g_test_message ("%s", line);
  g_assert_true (g_str_has_prefix (line, "Files the app read: \"~/crash.txt\" (6 bytes, copied), "
                                         "\"~/file000.dat\" (2 bytes, listed only), "));
  g_assert_nonnull (strstr (line, "\"~/file008.dat\" (2 bytes, listed only), and 391 more"));
  g_assert_null (strstr (line, "file009"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/world/round-trip", test_round_trip);
  g_test_add_func ("/world/version", test_version);
  for (gsize i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/world/bad-input/%s", bad_cases[i].name);
      g_test_add_data_func (path, &bad_cases[i], test_bad_input);
    }
  g_test_add_func ("/world/env-names", test_env_names);
  g_test_add_func ("/world/file-paths", test_file_paths);
  g_test_add_func ("/world/selection-lines", test_selection_lines);
  g_test_add_func ("/world/pastes", test_pastes);
  g_test_add_func ("/world/subset-keeps-paste", test_subset_keeps_paste);
  g_test_add_func ("/world/words", test_words);
  g_test_add_func ("/world/many-files", test_many_files);
  g_test_add_func ("/world/titles", test_titles);
  g_test_add_func ("/world/missing", test_missing);
  g_test_add_func ("/world/missing-home", test_missing_home);
  g_test_add_func ("/world/missing-later-notify", test_missing_later_notify);
  return g_test_run ();
}
