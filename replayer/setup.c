/* setup.c — the replay's room, before the app starts: the sandbox (the
 * recording's variables, the files the app read), the X server and its
 * authority, the app's environment, and --backtrace's tracer around the
 * app (and what it knew of a crash, after). Start reading at
 * replay_prepare().
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"
#include "interrupt.h"
#include "quote.h"
#include "xserver.h"

#include <string.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>

/* (Here, not in replay.c: wm.c, which replay.c calls, says its errors
 * with it too.) */
G_DEFINE_QUARK (replay-error-quark, replay_error)

static GStrv replay_session_env (const Session *session);

/* How long a private Xvfb may take to start. */
#define REPLAY_SERVER_TIMEOUT_MS 10000
/* How many servers a replay starts when one's socket file goes. */
#define REPLAY_SERVER_ATTEMPTS 3

/* The environment of the app (and of --wm's window manager): the
 * sandbox's allowlist, HOME and bus, or ours; DISPLAY and the display's
 * cookie either way. */
GStrv
replay_app_environ (Replay *r)
{
  GStrv envp;

  if (r->sandbox != NULL)
    return sandbox_environ (r->sandbox, DisplayString (r->dpy));
  envp = g_environ_setenv (g_get_environ (), "DISPLAY", DisplayString (r->dpy), TRUE);
  {
    /* --share-home: ours, and the recording's variables over them. */
    g_auto (GStrv) recorded = replay_session_env (r->session);

    for (char **e = recorded; *e != NULL; e++)
      {
        const char *eq = strchr (*e, '=');
        g_autofree char *name = g_strndup (*e, (gsize) (eq - *e));
        envp = g_environ_setenv (envp, name, eq + 1, TRUE);
      }
  }
  envp = sandbox_without_crash_reporters (envp);
  if (r->xauth_dir != NULL)
    {
      g_autofree char *xauthority = g_build_filename (proc_tempdir_get_path (r->xauth_dir),
                                                      "Xauthority", NULL);
      envp = g_environ_setenv (envp, "XAUTHORITY", xauthority, TRUE);
    }
  return envp;
}

/* On a display given (--display), the app gets our X authority: the
 * file XAUTHORITY names, else ~/.Xauthority, copied into the sandbox
 * (the real one may be in a folder the app does not see). */
static gboolean
replay_pass_xauthority (Replay *r, GError **error)
{
  const char *given = g_getenv ("XAUTHORITY");
  g_autofree char *path = given != NULL && *given != '\0' ? g_strdup (given)
    : g_build_filename (g_get_home_dir (), ".Xauthority", NULL);
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return TRUE;   /* none: a server without access control */
  return sandbox_set_xauthority (r->sandbox, (const guint8 *) data, len, error);
}

/* --share-home: no sandbox, but the app still needs the private Xvfb's
 * cookie: in a folder of its own, removed with it (even after SIGKILL). */
static gboolean
replay_share_xauthority (Replay *r, XServer *server, GError **error)
{
  g_autofree char *path = NULL;

  r->xauth_dir = proc_tempdir_new ("xreplay-xauth-XXXXXX", error);
  if (r->xauth_dir == NULL)
    return FALSE;
  path = g_build_filename (proc_tempdir_get_path (r->xauth_dir), "Xauthority", NULL);
  return xserver_write_xauthority (server, path, error);
}

/* The recording's variables as a replay on X sets them
 * (session_env_replay_value: a Wayland choice becomes X11's). */
static GStrv
replay_session_env (const Session *session)
{
  g_autoptr (GStrvBuilder) env = g_strv_builder_new ();

  for (const char *const *e = session_get_env (session); *e != NULL; e++)
    {
      const char *eq = strchr (*e, '=');
      g_autofree char *name = g_strndup (*e, (gsize) (eq - *e));
      g_autofree char *value = session_env_replay_value (name, eq + 1);

      if (value != NULL)
        {
          g_autofree char *pair = g_strconcat (name, "=", value, NULL);
          g_strv_builder_add (env, pair);
        }
    }
  return g_strv_builder_end (env);
}

/* Files not placed named in -v's output, the rest counted. */
#define REPLAY_FILES_NAMED 5

/* The files the app read, whose copies are in the files folder, where it
 * found them: under the recording's HOME in the sandbox's, others at
 * their path (sandbox_add_file). */
static void
replay_place_files (Replay *r)
{
  const char *dir = r->opts->settings.files_dir;
  g_autoptr (GPtrArray) files = session_get_files (r->session);
  guint placed = 0, missing = 0;

  for (guint i = 0; i < files->len; i++)
    {
      const SessionEvent *file = g_ptr_array_index (files, i);
      g_autofree char *source = dir != NULL ? g_build_filename (dir, file->sha256, NULL) : NULL;
      g_autofree char *dest = session_file_path_at (file->path, sandbox_get_home (r->sandbox));
      g_autoptr (GError) local = NULL;
      GStatBuf st;

      if (!file->copied || source == NULL || g_stat (source, &st) != 0 || !S_ISREG (st.st_mode)
          || (guint64) st.st_size != file->size)
        {
          /* The first few by name: a chooser's folder may list thousands. */
          if (missing++ < REPLAY_FILES_NAMED)
            {
              g_autofree char *shown = quote_terminal (file->path);
              note_verbose (r, "the file %s is not in the files folder: not placed", shown);
            }
          continue;
        }
      if (!sandbox_add_file (r->sandbox, dest, source, &local))
        {
          g_autofree char *shown = quote_message (local->message);
          note_verbose (r, "%s", shown);
          continue;
        }
      placed++;
    }
  if (missing > REPLAY_FILES_NAMED)
    note_verbose (r, "... and %u more files the app read not in the files folder: not placed",
                  missing - REPLAY_FILES_NAMED);
  if (placed > 0)
    note_verbose (r, "%u file%s the app read placed in its sandbox", placed,
                  placed == 1 ? "" : "s");
}

/* Where the app runs, for titles that name it. */
static void
replay_note_here (Replay *r)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();

  r->here.home = g_strdup (r->sandbox != NULL ? sandbox_get_home (r->sandbox)
                                              : g_get_home_dir ());
  r->here.cwd = r->sandbox != NULL ? sandbox_get_app_cwd (r->sandbox) : g_get_current_dir ();
  r->here.host = g_strdup (g_get_host_name ());
  r->here.date = g_date_time_format (now, "%Y-%m-%d");
}

/* A private Xvfb, whose socket file the sandbox holds on to at once
 * (sandbox_keep_display_socket()): xserver_start() has seen it there, and
 * another server's exit could remove it while the app starts. */
static XServer *
start_server (Replay *r, const XServerOptions *options, GError **error)
{
  for (guint attempt = 1;; attempt++)
    {
      g_autoptr (XServer) server = xserver_start (options, REPLAY_SERVER_TIMEOUT_MS, error);
      g_autoptr (GError) local = NULL;

      if (server == NULL)
        return NULL;
      if (r->sandbox == NULL
          || sandbox_keep_display_socket (r->sandbox, xserver_get_display (server), &local))
        return g_steal_pointer (&server);
      if (attempt == REPLAY_SERVER_ATTEMPTS)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      note_verbose (r, "%s; starting another X server", local->message);
    }
}

/* The room and the screen: the sandbox first (a --home that cannot be
 * copied is the user's mistake, said before any server starts), then a
 * private Xvfb unless a display was given. */
gboolean
replay_prepare (Replay *r, XServer **server, const char **display, GError **error)
{
  const ReplayOptions *opts = r->opts;
  gint64 t_start = note_now_ms ();

  if (!opts->settings.share_home)
    {
      g_auto (GStrv) app_env = replay_session_env (r->session);
      SandboxOptions sandbox_options = {
        .home_seed = opts->settings.home_seed,
        .isolate = opts->settings.isolate,
        .share_net = opts->settings.share_net,
        .app_env = (const char *const *) app_env,
        .keep_env = opts->settings.keep_env,
        .set_env = opts->settings.set_env,
      };

      r->sandbox = sandbox_new (&sandbox_options, error);
      if (r->sandbox == NULL)
        return FALSE;
      r->bus_pid = sandbox_get_bus_pid (r->sandbox);
      replay_place_files (r);
    }
  replay_note_here (r);
  *display = opts->display;
  if (*display != NULL && r->sandbox != NULL && !replay_pass_xauthority (r, error))
    return FALSE;
  /* A display given: one its file is not there is said when the app
   * starts (sandbox_command()). */
  if (*display != NULL && r->sandbox != NULL)
    sandbox_keep_display_socket (r->sandbox, *display, NULL);
  if (*display == NULL)
    {
      /* A cookie of its own: no other client of the machine (another
       * replay's app, anything the app started) connects to it. */
      static const char *const glx[] = { "GLX", NULL };
      XServerOptions server_options = { .kind = XSERVER_XVFB, .no_autorepeat = TRUE,
                                        .auth = TRUE };
      const guint8 *cookie;
      gsize len;

      /* Without GLX (Mesa's load: two thirds of its start) for an app that
       * did not ask for it while it was recorded; replay_run() runs
       * again with it if the app asks after all. Not for pictures (a
       * report's): they would be taken twice. */
      r->no_glx = r->glx_allowed_out && session_get_glx (r->session) == SESSION_GLX_NOT_ASKED
                  && opts->on_action == NULL && opts->on_end == NULL;
      server_options.disable = r->no_glx ? glx : NULL;
      session_get_screen (r->session, &server_options.width, &server_options.height);
      *server = start_server (r, &server_options, error);
      r->result->server_ms = note_now_ms () - t_start;
      if (*server == NULL)
        return FALSE;
      *display = xserver_get_display (*server);
      cookie = xserver_get_cookie (*server, &len);
      XSetAuthorization ((char *) "MIT-MAGIC-COOKIE-1", 18, (char *) cookie, (int) len);
      if (r->sandbox != NULL)
        {
          const guint8 *xauthority = xserver_get_xauthority (*server, &len);
          if (!sandbox_set_xauthority (r->sandbox, xauthority, len, error))
            return FALSE;
        }
      else if (!replay_share_xauthority (r, *server, error))
        return FALSE;
      r->server_pid = xserver_get_pid (*server);
      note_verbose (r, "Xvfb %s pid %d started in %" G_GINT64_FORMAT " ms%s", *display,
                    (int) xserver_get_pid (*server), r->result->server_ms,
                    r->no_glx ? ", without GLX (the app did not ask for it when recorded)" : "");
    }
  return TRUE;
}

/* --backtrace: `xreduce-crashtrace --frames-file F -- APP...` instead of
 * APP: the wrapper traces the app's processes, dies like the app and
 * leaves what it knew of a crash in F (crash.h). *@wrapped holds the new
 * command line. */
gboolean
replay_wrap_crashtrace (Replay *r, const char *const **argv, GPtrArray **wrapped,
                        char **frames_path, GError **error)
{
  /* In the sandbox's TMPDIR, which the isolated app and its tracer see too and
   * which goes with the sandbox; else in a temporary folder of its own,
   * not a bare file in TMPDIR: the folder's cleaner removes it when
   * xreplay dies, however (a SIGKILL left xreplay-frames-* behind every
   * time). */
  if (r->sandbox != NULL)
    *frames_path = g_build_filename (sandbox_get_tmpdir (r->sandbox), "xreplay-frames",
                                     NULL);
  else
    {
      r->frames_dir = proc_tempdir_new ("xreplay-frames-XXXXXX", error);
      if (r->frames_dir == NULL)
        return FALSE;
      *frames_path = g_build_filename (proc_tempdir_get_path (r->frames_dir), "frames", NULL);
    }
  if (!g_file_set_contents (*frames_path, "", 0, error))
    return FALSE;
  *wrapped = g_ptr_array_new ();
  g_ptr_array_add (*wrapped, (char *) r->opts->crashtrace);
  g_ptr_array_add (*wrapped, (char *) "--frames-file");
  g_ptr_array_add (*wrapped, *frames_path);
  g_ptr_array_add (*wrapped, (char *) "--");
  for (const char *const *a = *argv; *a != NULL; a++)
    g_ptr_array_add (*wrapped, (char *) *a);
  g_ptr_array_add (*wrapped, NULL);
  *argv = (const char *const *) (*wrapped)->pdata;
  return TRUE;
}

/* What crashtrace knew of the crash (crash.h), from the file it wrote,
 * which goes. A crash it could not say anything of says so. */
void
replay_take_frames (ReplayResult *result, const char *frames_path)
{
  g_autoptr (GError) error = NULL;

  if (result->verdict.kind == VERDICT_CRASHED
      && !crash_info_load (frames_path, &result->crash, &error))
    {
      crash_info_clear (&result->crash);
      result->crash.signal = result->verdict.signal;
      result->crash.no_frames = g_strdup ("the app's tracer (xreduce-crashtrace) said "
                                          "nothing of it");
    }
  g_unlink (frames_path);
}

gboolean
replay_again_with_glx (const ReplayOptions *opts, const ReplayResult *result, gboolean no_glx)
{
  /* What the app did where the server had no GLX says nothing of it
   * where GLX is (the user's desktop). Not after a signal: it ends the
   * replay. */
  if (!no_glx || !result->glx_asked || g_cancellable_is_cancelled (opts->cancellable)
      || proc_interrupt_get_signal () != 0)
    return FALSE;
  if (opts->verbose)
    g_printerr ("xreplay: a client asked for GLX, which the X server did not have (the app "
                "did not ask for it when recorded): replaying again with GLX\n");
  return TRUE;
}
