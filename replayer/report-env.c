/* report-env.c — report.md's Environment section: the app, the system,
 * how the replay ran (X server, window manager, sandbox, HOME, network,
 * locale, keymap, screen) and how the session was recorded (from its
 * header). See report-private.h. One function says all of it, so that
 * what a triager needs to run the app the same way is in one place.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report-private.h"
#include "output.h"
#include "quote.h"

#include <string.h>
#include <sys/utsname.h>

/* The value of a header comment "# KEY VALUE" of @session's (xrecord's:
 * "xreduce session, recorded by xrecord 0.1.0 on 2026-11-23 02:05",
 * "window manager: Openbox"), after @key, or NULL. */
static char *
header_comment (const Session *session, const char *key)
{
  guint n = session_get_n_events (session);

  for (guint i = 0; i < n; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      const char *text, *at;

      if (ev->kind != SESSION_EVENT_COMMENT || ev->text == NULL)
        continue;
      text = ev->text;
      while (*text == '#' || *text == ' ')
        text++;
      at = strstr (text, key);
      /* Its line only: the comment may go on (xrecord's second line says
       * the window manager). */
      if (at != NULL)
        return g_strstrip (g_strndup (at + strlen (key), strcspn (at + strlen (key), "\n")));
    }
  return NULL;
}

/* The recording's window manager: what xrecord wrote, else what its
 * server events show (a window reparented into another client's frame). */
static char *
recorded_wm (const Session *session)
{
  g_autofree char *said = header_comment (session, "window manager:");
  guint n = session_get_n_events (session);

  if (said != NULL)
    return g_steal_pointer (&said);
  for (guint i = 0; i < n; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind == SESSION_EVENT_SERVER && g_strcmp0 (ev->name, "ReparentNotify") == 0)
        return g_strdup ("one that reparents windows into frames (xrecord did not record "
                         "its name)");
    }
  return g_strdup ("none seen (no window of the app was reparented; xrecord did not "
                   "record one)");
}

static void
append_item (GString *md, const char *label, const char *text)
{
  g_autofree char *shown = quote_markdown_text (text);

  g_string_append_printf (md, "- %s: %s\n", label, shown);
}

static char *
locale_words (void)
{
  const char *names[] = { "LC_ALL", "LC_CTYPE", "LANG" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *value = g_getenv (names[i]);

      if (value != NULL && *value != '\0')
        return g_strdup_printf ("%s=%s (the app gets the locale variables of whoever ran "
                                "the replay)", names[i], value);
    }
  return g_strdup ("none set: the C locale");
}

/* The app (its name, version, package, toolkit) and the system. */
static void
append_app_and_system (GString *md, const ReportAppInfo *app)
{
  g_autofree char *os = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  struct utsname uts;

  if (app->name != NULL)
    {
      g_autofree char *name = quote_markdown_code (app->name);
      g_string_append_printf (md, "- App: %s", name);
      if (app->version != NULL)
        {
          g_autofree char *v = quote_markdown_text (app->version);
          g_string_append_printf (md, ", which says it is \"%s\"", v);
        }
      g_string_append_c (md, '\n');
    }
  if (app->package != NULL)
    append_item (md, "Debian package", app->package);
  if (app->toolkit != NULL)
    g_string_append_printf (md, "- Toolkit: %s (the program links or imports it)\n",
                            app->toolkit);
  if (os != NULL)
    {
      g_autofree char *o = quote_markdown_text (os);
      g_string_append_printf (md, "- OS: %s", o);
      if (uname (&uts) == 0)
        g_string_append_printf (md, ", Linux %s %s", uts.release, uts.machine);
      g_string_append_c (md, '\n');
    }
}

/* How the replay ran the app (ReportHow): its window manager (@wm_seen:
 * the one that ran, or NULL), sandbox, HOME and network. */
static void
append_how (GString *md, const ReportHow *how, const char *wm_seen, const char *report_dir)
{
  if (how->wm != NULL)
    {
      g_autofree char *w = quote_markdown_code (how->wm);
      g_string_append_printf (md, "- Window manager: %s (--wm)\n", w);
    }
  else if (wm_seen != NULL)
    {
      g_autofree char *w = quote_markdown_text (wm_seen);
      g_string_append_printf (md, "- Window manager: %s, the display's\n", w);
    }
  else
    g_string_append (md, "- Window manager: none; the replay gave each window its "
                         "recorded size and the focus its keys went to\n");
  if (how->share_home)
    g_string_append (md, "- Sandbox: none (--share-home): the app had the user's HOME, "
                         "session bus, files and network\n");
  else if (how->isolated)
    g_string_append (md, "- Sandbox: bubblewrap: the system read-only, the user's files, "
                         "/tmp and other processes hidden, its own PID namespace and "
                         "D-Bus session bus\n");
  else
    g_string_append (md, "- Sandbox: a fresh HOME and D-Bus session bus, without "
                         "bubblewrap (it could not isolate here, or --no-isolate)\n");
  if (how->share_home)
    g_string_append (md, "- HOME: the user's\n");
  else if (how->home_seed != NULL)
    {
      g_autofree char *rel = output_relative_path (report_dir, how->home_seed);
      g_autofree char *seed = quote_markdown_code (rel);
      g_string_append_printf (md, "- HOME: a fresh copy of %s (--home), XDG folders in "
                              "it, a private XDG_RUNTIME_DIR and TMPDIR\n", seed);
    }
  else
    g_string_append (md, "- HOME: a fresh empty folder, XDG folders in it, a private "
                         "XDG_RUNTIME_DIR and TMPDIR\n");
  g_string_append_printf (md, "- Network: %s\n",
                          how->isolated && !how->share_net ? "none (its own network "
                                                             "namespace)"
                          : "the machine's");
}

/* "- Variables of the recording": each NAME=VALUE, the value in a code
 * span; nothing if it set none. */
static void
append_recorded_variables (GString *md, const Session *session)
{
  if (session_get_env (session)[0] != NULL)
    {
      g_string_append (md, "- Variables of the recording, set for the app:");
      for (const char *const *e = session_get_env (session); *e != NULL; e++)
        {
          const char *eq = strchr (*e, '=');
          g_autofree char *name = g_strndup (*e, (gsize) (eq - *e));
          g_autofree char *value = quote_markdown_code (eq + 1);

          g_string_append_printf (md, "%s %s=%s", e == session_get_env (session)
                                  ? "" : ",", name, value);
        }
      g_string_append_c (md, '\n');
    }
}

/* "The recording:": by whom and when, its screen, keymap and window
 * manager (from @session's header). */
static void
append_recording (GString *md, const Session *session, int width, int height)
{
  g_autofree char *recorded_by = header_comment (session, "recorded by ");
  g_autofree char *wm = recorded_wm (session);
  const char *keymap = session_get_keymap (session);

  g_string_append (md, "\nThe recording:\n\n");
  if (recorded_by != NULL)
    append_item (md, "Recorded by", recorded_by);
  else
    g_string_append (md, "- Recorded by: not said in the session\n");
  g_string_append_printf (md, "- Screen: %dx%d\n", width, height);
  if (keymap != NULL)
    {
      g_autofree char *k = quote_markdown_code (keymap);
      g_string_append_printf (md, "- Keymap: %s\n", k);
    }
  else
    g_string_append (md, "- Keymap: not recorded\n");
  append_item (md, "Window manager", wm);
}

void
report_append_environment (GString *md, const Session *session, const ReportAppInfo *app,
                           const char *x_server, const char *wm_seen, const ReportHow *how,
                           const char *report_dir)
{
  g_autofree char *locale = locale_words ();
  int width, height;

  session_get_screen (session, &width, &height);
  g_string_append (md, "\n## Environment\n\n");
  append_app_and_system (md, app);

  g_string_append (md, "\nThe replay:\n\n");
  if (x_server != NULL)
    {
      g_autofree char *x = quote_markdown_text (x_server);
      g_string_append_printf (md, "- X server: %s (%s), screen %dx%d\n", x,
                              how != NULL && how->on_display
                                ? "the display xreplay was given: xreduce's worker, or --display"
                                : "a private Xvfb", width, height);
    }
  else
    g_string_append_printf (md, "- Screen: %dx%d\n", width, height);
  if (how != NULL)
    append_how (md, how, wm_seen, report_dir);
  append_item (md, "Locale", locale);
  g_string_append (md, "- Keymap: the X server's US layout; every key replayed by its "
                       "keysym, so the text typed is the recording's\n");
  g_string_append_printf (md, "- Replayed by: xreplay %s\n", XREDUCE_VERSION);
  /* The recording's variables, which the replay set (session-world.h). */
  append_recorded_variables (md, session);

  append_recording (md, session, width, height);
}
