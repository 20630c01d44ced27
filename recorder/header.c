/* header.c — what a session's header says of the display and of the app's
 * world, for both of xrecord's modes (see header.h). */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "header.h"

#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "xapp.h"
#include "xconn.h"

/* The window manager's name, as it says it (at most 256 bytes, valid
 * UTF-8), or NULL. */
static char *
rec_header_wm_name (Display *dpy)
{
  g_autoptr (GBytes) said = NULL;
  const char *data = NULL;
  gsize n = 0;

  xconn_trap_push (dpy);
  said = xapp_window_manager_said (dpy, 256);
  xconn_trap_pop (dpy);
  if (said != NULL)
    data = g_bytes_get_data (said, &n);
  if (data == NULL || !g_utf8_validate (data, (gssize) n, NULL))
    return NULL;
  return g_strndup (data, n);
}

void
rec_header_set_place (Session *header, Display *dpy, const char *cwd)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d");
  g_autofree char *wm = rec_header_wm_name (dpy);

  if (cwd != NULL && g_path_is_absolute (cwd) && g_utf8_validate (cwd, -1, NULL))
    session_set_cwd (header, cwd);
  if (g_utf8_validate (g_get_host_name (), -1, NULL))
    session_set_host (header, g_get_host_name ());
  session_set_date (header, date);
  if (wm != NULL)
    session_set_wm (header, wm);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

void
rec_header_set_desktop (Session *header, Display *dpy)
{
  XAppInputTiming timing;
  SessionDesktop desktop = { 0 };

  /* What a double click and a held key were on this desktop: the replay
   * keeps them so (the session's desktop line). */
  xapp_read_input_timing (dpy, &timing);
  /* (XSETTINGS' only: an Xt resource, as "XTerm*multiClickTime", is one
   * program's, and would make another's gaps a double click.) */
  desktop.double_click_ms = timing.double_click_ms > 0 ? (guint) timing.double_click_ms : 0;
  desktop.double_click_distance = timing.double_click_distance > 0
                                    ? (guint) timing.double_click_distance : 0;
  desktop.repeat_delay_ms = timing.repeat_delay_ms > 0 ? (guint) timing.repeat_delay_ms : 0;
  desktop.repeat_interval_ms = timing.repeat_interval_ms > 0 ? (guint) timing.repeat_interval_ms : 0;
  session_set_desktop (header, &desktop);
}

guint
rec_header_add_env (Session *header, const char *const *envp, const char *const *record_env)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint n = 0;

  for (const char *const *e = envp; e != NULL && *e != NULL; e++)
    {
      const char *eq = strchr (*e, '=');

      if (eq != NULL && eq > *e)
        g_ptr_array_add (names, g_strndup (*e, (gsize) (eq - *e)));
    }
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *value = g_environ_getenv ((char **) envp, name);
      g_autoptr (GError) error = NULL;

      if (value == NULL || !(session_env_name_is_default (name)
                             || (record_env != NULL && g_strv_contains (record_env, name))))
        continue;
      if (strlen (value) > SESSION_MAX_LINE / 2)
        g_printerr ("xrecord: warning: %s is longer than %d bytes: not recorded\n", name,
                    SESSION_MAX_LINE / 2);
      else if (!session_add_env (header, name, value, &error))
        {
          g_autofree char *shown = quote_message (error->message);
          g_printerr ("xrecord: warning: %s: not recorded\n", shown);
        }
      else
        n++;
    }
  return n;
}

/* /proc/PID/FILE's NUL-separated strings, or NULL. */
static char **
read_proc_strings (pid_t pid, const char *file)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/%s", (int) pid, file);
  g_autofree char *data = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL) || len == 0)
    return NULL;
  for (gsize at = 0; at < len;)
    {
      gsize n = strnlen (data + at, len - at);

      g_strv_builder_add (builder, data + at);
      at += n + 1;
    }
  return g_strv_builder_end (builder);
}

Session *
rec_header_of_process (Display *dpy, pid_t pid, const char *keymap,
                       const char *const *record_env, char ***argv)
{
  g_autoptr (Session) header = session_new ();
  g_autofree char *cwd_link = g_strdup_printf ("/proc/%d/cwd", (int) pid);
  g_autofree char *cwd = g_file_read_link (cwd_link, NULL);
  g_auto (GStrv) envp = read_proc_strings (pid, "environ");
  g_auto (GStrv) command = read_proc_strings (pid, "cmdline");
  const char *home = envp != NULL ? g_environ_getenv (envp, "HOME") : NULL;

  session_set_screen (header, DisplayWidth (dpy, DefaultScreen (dpy)),
                      DisplayHeight (dpy, DefaultScreen (dpy)));
  if (command != NULL && command[0] != NULL)
    session_set_command (header, (const char *const *) command);
  session_set_keymap (header, keymap);
  rec_header_set_desktop (header, dpy);
  if (home != NULL && g_path_is_absolute (home) && g_utf8_validate (home, -1, NULL))
    session_set_home (header, home);
  rec_header_set_place (header, dpy, cwd);
  rec_header_add_env (header, (const char *const *) envp, record_env);
  *argv = g_steal_pointer (&command);
  return g_steal_pointer (&header);
}
