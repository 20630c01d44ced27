/* apptiming.c — what a double click and a held key are, for the app
 * replayed and for the user who recorded it (pace-rules.h's PaceTiming).
 *
 * The app's: --double-click-time and --repeat-delay when given; else its
 * toolkit's, found by the libraries its processes map once its first
 * window is up (GTK, Qt, Tk, Xt: Xaw, Motif, xterm), with what the
 * replay's display tells it (XSETTINGS, the resource database) and the
 * X server's auto-repeat delay. Of several toolkits, the longest time
 * and the widest distance: the bounds pacing keeps are safe then. An app
 * of none of them (plain Xlib, SDL) gets REPLAY_UNKNOWN_DOUBLE_CLICK_MS
 * and PACE_DEFAULT_DISTANCE, the longest of the toolkits above.
 *
 * The user's: the same toolkits with the recording desktop's settings,
 * the session's `desktop` line (xrecord read the recording desktop's
 * XSETTINGS and auto-repeat): GTK took its double-click time from there,
 * Tk and Qt their own; a desktop line that says none is a desktop
 * without a settings daemon, where each toolkit had its own default.
 *
 * Start reading at apptiming_read().
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"
#include "xapp.h"

#include <string.h>

/* Toolkits' own figures: GTK 3 and 4 (gtk-double-click-time and -distance),
 * Qt 5 and 6 (QPlatformTheme's MouseDoubleClickInterval and Distance),
 * Tk (tkBind.c's NEARBY_MS and NEARBY_PIXELS), Xt (multiClickTime, 200;
 * xterm's own is 250; no distance). */
typedef struct
{
  const char *library;       /* a prefix of the library's file name */
  const char *name;
  guint double_click_ms;
  guint distance;
  gboolean reads_xsettings;  /* Net/DoubleClickTime and -Distance replace them */
  gboolean reads_resources;  /* multiClickTime does */
} Toolkit;

static const Toolkit toolkits[] = {
  { "libgtk-3.so", "GTK", 400, 5, TRUE, FALSE },
  { "libgtk-4.so", "GTK", 400, 5, TRUE, FALSE },
  { "libgtk-x11-2.0.so", "GTK", 400, 5, TRUE, FALSE },
  { "libQt5Gui.so", "Qt", 400, 5, FALSE, FALSE },
  { "libQt6Gui.so", "Qt", 400, 5, FALSE, FALSE },
  { "libtk8.", "Tk", 500, 5, FALSE, FALSE },
  { "libXt.so", "Xt", 250, PACE_ANY_DISTANCE, FALSE, TRUE },
};

/* What the toolkits @found (bits of toolkits[]) count as a double click,
 * with the settings @settings gives them (XSETTINGS for GTK, the resource
 * database for Xt): of several, the longest time and the widest distance;
 * of none, REPLAY_UNKNOWN_DOUBLE_CLICK_MS. */
static void
toolkit_timing (guint found, const XAppInputTiming *settings, PaceTiming *out, GString *detail)
{
  out->double_click_ms = 0;
  out->double_click_distance = 0;
  for (gsize i = 0; i < G_N_ELEMENTS (toolkits); i++)
    {
      const Toolkit *tk = &toolkits[i];
      guint ms = tk->double_click_ms, distance = tk->distance;

      if (!(found & (1u << i)))
        continue;
      if (tk->reads_xsettings && settings->double_click_ms > 0)
        ms = (guint) settings->double_click_ms;
      if (tk->reads_xsettings && settings->double_click_distance >= 0)
        distance = (guint) settings->double_click_distance;
      if (tk->reads_resources && settings->xt_multi_click_ms > 0)
        ms = MAX (ms, (guint) settings->xt_multi_click_ms);
      if (detail != NULL && !strstr (detail->str, tk->name))
        g_string_append_printf (detail, "%s%s %u ms", detail->len > 0 ? ", " : "", tk->name, ms);
      out->double_click_ms = MAX (out->double_click_ms, ms);
      out->double_click_distance = MAX (out->double_click_distance, distance);
    }
  if (out->double_click_ms == 0)
    {
      out->double_click_ms = REPLAY_UNKNOWN_DOUBLE_CLICK_MS;
      out->double_click_distance = PACE_DEFAULT_DISTANCE;
      if (detail != NULL)
        g_string_append_printf (detail, "no toolkit known: %u ms", out->double_click_ms);
    }
}

void
apptiming_read (Replay *r)
{
  const SessionDesktop *desktop = session_get_desktop (r->session);
  const char *names[G_N_ELEMENTS (toolkits) + 1] = { NULL };
  g_autoptr (GString) detail = g_string_new (NULL);
  XAppInputTiming display, then;
  PaceTiming *app = &r->app_timing, *recorded = &r->recorded_timing;
  guint given = r->opts->settings.double_click_ms;
  guint found;

  for (gsize i = 0; i < G_N_ELEMENTS (toolkits); i++)
    names[i] = toolkits[i].library;
  found = proctree_find_libraries (proc_child_get_pid (r->child), names);
  xapp_read_input_timing (r->dpy, &display);
  toolkit_timing (found, &display, app, detail);
  if (given > 0)
    {
      app->double_click_ms = given;
      g_string_append_printf (detail, "; --double-click-time %u ms", given);
    }
  app->repeat_delay_ms = r->opts->settings.repeat_delay_ms > 0 ? r->opts->settings.repeat_delay_ms
                         : display.repeat_delay_ms > 0 ? (guint) display.repeat_delay_ms
                         : REPLAY_DEFAULT_REPEAT_DELAY_MS;
  /* The same toolkits with the recording desktop's settings: its
   * XSETTINGS as the desktop line says them (none: the toolkit's own);
   * the resource database is the replay's (not recorded). */
  then = display;
  then.double_click_ms = desktop->double_click_ms > 0 ? (gint) desktop->double_click_ms : -1;
  then.double_click_distance = desktop->double_click_distance > 0
                                 ? (gint) desktop->double_click_distance : -1;
  toolkit_timing (found, &then, recorded, NULL);
  if (given > 0 && desktop->double_click_ms == 0)
    recorded->double_click_ms = given;
  recorded->repeat_delay_ms = desktop->repeat_delay_ms > 0 ? desktop->repeat_delay_ms
                                                           : app->repeat_delay_ms;
  {
    g_autofree char *distance = recorded->double_click_distance == PACE_ANY_DISTANCE
                                  ? g_strdup ("any distance")
                                  : g_strdup_printf ("%u px", recorded->double_click_distance);

    note_verbose (r, "double click: %s (recorded: %u ms, %s); key repeat after %u ms "
                  "(recorded: %u ms)", detail->str, recorded->double_click_ms, distance,
                  app->repeat_delay_ms, recorded->repeat_delay_ms);
  }
}
