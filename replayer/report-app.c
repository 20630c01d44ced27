/* report-app.c — which app, which system, for the report's title and its
 * Environment section (see report.h): the X server's vendor and release,
 * and the app's name, version, Debian package and toolkit
 * (report_app_info_probe(): start reading there).
 */
#define _GNU_SOURCE   /* memmem */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report.h"
#include "report-private.h"
#include "proc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

char *
report_describe_server (Display *dpy)
{
  int v = VendorRelease (dpy);
  const char *vendor = ServerVendor (dpy);

  if (vendor == NULL)
    vendor = "an unknown vendor";
  /* X.Org's numbering, as xdpyinfo reads it: 12101007 is 21.1.7,
   * 11804000 is 1.18.4. */
  if (strstr (vendor, "X.Org") != NULL && v >= 12100000)
    {
      v -= 10000000;
      return g_strdup_printf ("%s %d.%d.%d", vendor, (v / 100000) % 100, (v / 1000) % 100,
                              v % 1000);
    }
  if (strstr (vendor, "X.Org") != NULL && v >= 10000000)
    return g_strdup_printf ("%s %d.%d.%d", vendor, v / 10000000, (v / 100000) % 100,
                            (v / 1000) % 100);
  return g_strdup_printf ("%s, release %d", vendor, v);
}

/* Runs @argv without a display (an app that ignores --version must not
 * open a window anywhere), at most 3 s: its stdout's first line if it
 * exited 0, else NULL. */
static char *
first_line_of (const char *const *argv)
{
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (ProcChild) child = NULL;
  ProcSpawnOptions spawn;
  const char *out;
  gsize len;
  int status;

  env = g_environ_unsetenv (env, "DISPLAY");
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.envp = (const char *const *) env;
  spawn.out = PROC_OUTPUT_CAPTURE;
  child = proc_spawn (&spawn, NULL);
  if (child == NULL)
    return NULL;
  if (!proc_child_wait_interruptible (child, 3000))
    return NULL;   /* freed: killed with its group */
  proc_child_drain (child);
  status = proc_child_get_wait_status (child);
  out = proc_child_get_stdout (child, &len);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0 || out == NULL || len == 0)
    return NULL;
  {
    g_autofree char *text = g_utf8_make_valid (out, (gssize) MIN (len, 4096));
    char *nl = strchr (text, '\n');

    if (nl != NULL)
      *nl = '\0';
    g_strstrip (text);
    if (*text == '\0' || strlen (text) > 120)
      return NULL;
    return g_steal_pointer (&text);
  }
}

/* Interpreters: the app is the script they run. */
static gboolean
is_interpreter (const char *name)
{
  static const char *const names[] = { "python", "python3", "perl", "ruby", "node", "sh",
                                       "bash", "dash", "tclsh", "wish", "gjs", "env" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i]) || (g_str_has_prefix (name, names[i])
                                         && g_ascii_isdigit (name[strlen (names[i])])))
      return TRUE;
  return FALSE;
}

/* What the program's file links or imports: "GTK 3", "Qt 5", "Tk",
 * "Xaw (Athena)", "Motif", or NULL. */
static const char *
guess_toolkit (const char *path)
{
  static const struct { const char *mark, *name; } marks[] = {
    { "libgtk-4.so", "GTK 4" }, { "libgtk-3.so", "GTK 3" }, { "libgtk-x11-2.0.so", "GTK 2" },
    { "libQt6Widgets", "Qt 6" }, { "libQt5Widgets", "Qt 5" }, { "libtk8.", "Tk" },
    { "libXaw", "Xaw (Athena)" }, { "libXm.so", "Motif" }, { "libfltk", "FLTK" },
    { "libwx_gtk", "wxWidgets" }, { "Gtk', '3.0'", "GTK 3" }, { "Gtk\", \"3.0\"", "GTK 3" },
    { "PyQt5", "Qt 5" }, { "PyQt6", "Qt 6" }, { "tkinter", "Tk" }, { "package require Tk", "Tk" },
  };
  g_autoptr (GMappedFile) file = path != NULL ? g_mapped_file_new (path, FALSE, NULL) : NULL;
  const char *data;
  gsize len;

  if (file == NULL)
    return NULL;
  data = g_mapped_file_get_contents (file);
  len = MIN (g_mapped_file_get_length (file), (gsize) 64 * 1024 * 1024);
  for (gsize i = 0; data != NULL && i < G_N_ELEMENTS (marks); i++)
    if (memmem (data, len, marks[i].mark, strlen (marks[i].mark)) != NULL)
      return marks[i].name;
  return NULL;
}

/* The Debian package that owns @path, and its version ("xterm 379-1"). */
static char *
debian_package_of (const char *path)
{
  g_autofree char *real = realpath (path, NULL);
  const char *dpkg_s[] = { "dpkg-query", "-S", real, NULL };
  g_autofree char *owner = NULL;
  char *colon;

  if (real == NULL || (owner = first_line_of (dpkg_s)) == NULL
      || (colon = strstr (owner, ": ")) == NULL || strchr (owner, ',') != NULL)
    return NULL;
  *colon = '\0';
  {
    const char *version[] = { "dpkg-query", "-W", "-f", "${Version}\n", owner, NULL };
    g_autofree char *v = first_line_of (version);

    return v != NULL ? g_strdup_printf ("%s %s", owner, v) : g_strdup (owner);
  }
}

void
report_app_info_clear (ReportAppInfo *info)
{
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->version, g_free);
  g_clear_pointer (&info->package, g_free);
  info->toolkit = NULL;
}

void
report_app_info_probe (ReportAppInfo *info, const char *const *argv)
{
  g_autofree char *program = NULL;
  g_autofree char *base = NULL;
  const char *script = NULL;

  memset (info, 0, sizeof *info);
  if (argv == NULL || argv[0] == NULL)
    return;
  program = g_find_program_in_path (argv[0]);
  base = g_path_get_basename (argv[0]);
  if (is_interpreter (base))
    for (guint i = 1; argv[i] != NULL && script == NULL; i++)
      if (argv[i][0] != '-' && strchr (argv[i], '=') == NULL)
        script = argv[i];
  info->name = script != NULL ? g_path_get_basename (script) : g_steal_pointer (&base);
  info->toolkit = guess_toolkit (script != NULL ? script : program);
  if (program == NULL)
    return;
  info->package = debian_package_of (script != NULL ? script : program);
  /* The version it tells: only a program's own, not its interpreter's. */
  if (script == NULL)
    {
      const char *ask[] = { program, "--version", NULL };
      info->version = first_line_of (ask);
    }
}

/* One line that a title can hold: the app's name, its version, or the
 * package's. */
char *
report_app_title (const ReportAppInfo *info)
{
  if (info->name == NULL)
    return g_strdup ("the app");
  if (info->version != NULL)
    return strstr (info->version, info->name) != NULL
             ? g_strdup (info->version)
             : g_strdup_printf ("%s (%s)", info->name, info->version);
  if (info->package != NULL)
    return g_strdup_printf ("%s (Debian package %s)", info->name, info->package);
  return g_strdup (info->name);
}
