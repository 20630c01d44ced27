/* all-apps.c — xrecord --all's apps (all-private.h): one per process,
 * first seen when an event is its (its command, folder and variables
 * read from /proc then), each with a bounded buffer of its recent events
 * (buffer.h); its buffer saved as a session when it crashed (its last X
 * client gone with its windows up, then its process; systemd-coredump's
 * entry awaited for the signal) or on demand.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "all-private.h"

#include <string.h>

#include "header.h"
#include "quote.h"
#include "signame.h"

/* ---- the buffers ---- */

void
rec_all_app_free (App *app)
{
  rec_buffer_free (app->events);
  g_clear_pointer (&app->watch, proc_gone_watch_free);
  rec_coredump_free (app->coredump);
  g_clear_pointer (&app->header, session_free);
  g_hash_table_unref (app->bases);
  g_hash_table_unref (app->shown);
  g_free (app->name);
  g_free (app);
}

/* The stream's clock now: the last event's time, and the time since. */
static guint64
all_now_ms (RecAll *all)
{
  if (all->now_at == 0)
    return all->now_ms;
  return all->now_ms + (guint64) MAX (g_get_monotonic_time () - all->now_at, 0) / 1000;
}

void
rec_all_note_time (RecAll *all, guint64 time_ms)
{
  if (time_ms >= all->now_ms)
    {
      all->now_ms = time_ms;
      all->now_at = g_get_monotonic_time ();
    }
}

void
rec_all_app_append (App *app, const SessionEvent *ev)
{
  rec_buffer_append (app->events, ev, all_now_ms (app->all));
}

/* ---- an app, first seen ---- */

/* "xdemo", "gedit": @text's letters, digits, '.', '_' and '-' (at most
 * 40), for a file name; NULL if none. */
static char *
file_name_part (const char *text)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (const char *p = text; p != NULL && *p != '\0' && out->len < 40; p++)
    if (g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '-')
      g_string_append_c (out, *p);
  if (out->len == 0 || out->str[0] == '.')
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
is_interpreter (const char *program)
{
  static const char *const names[] = { "python", "perl", "ruby", "sh", "bash", "dash", "wish",
                                       "tclsh", "node", "gjs", "lua", "java", NULL };

  for (const char *const *n = names; *n != NULL; n++)
    if (g_str_has_prefix (program, *n)
        && (program[strlen (*n)] == '\0' || g_ascii_isdigit (program[strlen (*n)])))
      return TRUE;
  return FALSE;
}

App *
rec_all_app_get (RecAll *all, pid_t pid)
{
  App *app;
  g_auto (GStrv) argv = NULL;

  if (pid <= 0)
    return NULL;
  if (toplevels_is_excluded (all->tops, pid))
    {
      /* (What it had before its class showed is forgotten.) */
      g_hash_table_remove (all->apps, GINT_TO_POINTER (pid));
      return NULL;
    }
  app = g_hash_table_lookup (all->apps, GINT_TO_POINTER (pid));
  if (app != NULL)
    return app;
  app = g_new0 (App, 1);
  app->all = all;
  app->pid = pid;
  app->first_seen = g_get_real_time ();
  app->events = rec_buffer_new (all->keep_actions, all->keep_ms);
  app->bases = g_hash_table_new (NULL, NULL);
  app->shown = g_hash_table_new (NULL, NULL);
  app->header = rec_header_of_process (all->tracker, pid, all->keymap,
                                       (const char *const *) all->record_env, &argv);
  if (argv != NULL && argv[0] != NULL)
    {
      g_autofree char *base = g_path_get_basename (argv[0]);

      /* An interpreter's script names the app ("python3 notes.py"). */
      if (argv[1] != NULL && argv[1][0] != '-' && is_interpreter (base))
        {
          g_free (base);
          base = g_path_get_basename (argv[1]);
        }
      app->name = file_name_part (base);
    }
  if (app->name == NULL)
    app->name = g_strdup ("app");
  /* An app that was there before xrecord: its windows up now. */
  {
    Window up[64];
    guint n = toplevels_get_app_mapped (all->tops, pid, up, G_N_ELEMENTS (up));

    for (guint i = 0; i < MIN (n, G_N_ELEMENTS (up)); i++)
      g_hash_table_add (app->shown, GSIZE_TO_POINTER (up[i]));
  }
  g_debug ("app %d (%s) seen", (int) pid, app->name);
  g_hash_table_insert (all->apps, GINT_TO_POINTER (pid), app);
  return app;
}

/* --exclude-class: an app whose window showed one of the classes is
 * recorded nothing of, from then on, and what it had is forgotten. */
gboolean
rec_all_app_check_excluded (RecAll *all, App *app)
{
  if (!toplevels_is_excluded (all->tops, app->pid))
    return FALSE;
  g_debug ("app %d (%s) excluded", (int) app->pid, app->name);
  g_hash_table_remove (all->apps, GINT_TO_POINTER (app->pid));
  return TRUE;
}

/* ---- saving ---- */

/* The app's buffer as a session: its header, the events (a release whose
 * press was dropped from the buffer is left out), the outcome. */
static Session *
app_session (App *app, SessionOutcome outcome)
{
  Session *session = session_subset (app->header, NULL, 0);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M:%S");
  g_autofree char *comment = g_strdup_printf (
    "xreduce session, saved by xrecord --all %s on %s: the last %u actions of pid %d%s",
    XREDUCE_VERSION, date, rec_buffer_get_n_actions (app->events), (int) app->pid,
    rec_buffer_get_n_dropped (app->events) > 0 ? " (older ones were dropped: --keep, --keep-actions)"
                                                : "");

  session_add_header_comment (session, comment);
  rec_buffer_to_session (app->events, session);
  session_set_outcome (session, outcome, TRUE);
  return session;
}

/* Writes the app's buffer to a new file in the save folder and says
 * where (@why: "was gone with its windows open"). */
static void
app_save (App *app, const char *why, SessionOutcome outcome)
{
  RecAll *all = app->all;
  g_autoptr (Session) session = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *path = NULL;
  g_autofree char *shown_path = NULL, *shown_name = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 1; path == NULL || g_file_test (path, G_FILE_TEST_EXISTS); i++)
    {
      g_autofree char *file = i == 1
        ? g_strdup_printf ("%s-%s-%d.log", app->name, stamp, (int) app->pid)
        : g_strdup_printf ("%s-%s-%d-%u.log", app->name, stamp, (int) app->pid, i);

      g_free (path);
      path = g_build_filename (all->save_dir, file, NULL);
    }
  shown_path = quote_terminal (path);
  shown_name = quote_terminal (app->name);
  /* (--keep counts until now, not the app's last event.) */
  rec_buffer_trim (app->events, all_now_ms (all));
  if (rec_buffer_get_n_actions (app->events) == 0)
    {
      g_printerr ("xrecord: %s (pid %d) %s: no action of its within --keep: nothing saved\n",
                  shown_name, (int) app->pid, why);
      return;
    }
  session = app_session (app, outcome);
  if (!session_save (session, path, &error))
    {
      g_autofree char *shown = quote_message (error->message);
      g_printerr ("xrecord: %s (pid %d) %s: cannot save its actions: %s\n", shown_name,
                  (int) app->pid, why, shown);
      return;
    }
  all->n_saved++;
  g_printerr ("xrecord: %s (pid %d) %s: its last %u actions saved to %s\n", shown_name,
              (int) app->pid, why, rec_buffer_get_n_actions (app->events), shown_path);
}

/* ---- a crash ---- */

/* The crashed app's session: its signal, as systemd-coredump says, or
 * `outcome unknown`; then the app is done with. */
static void
app_save_crash (App *app, int signal)
{
  RecAll *all = app->all;
  SessionOutcome outcome = { .kind = SESSION_OUTCOME_LOST };
  g_autofree char *why = NULL;

  if (signal != 0)
    {
      outcome.kind = SESSION_OUTCOME_CRASHED;
      outcome.signal = signal;
      why = g_strdup_printf ("was gone with its windows open (%s, says systemd-coredump)",
                             proc_signal_name (signal));
    }
  app_save (app, why != NULL ? why : "was gone with its windows open", outcome);
  g_hash_table_remove (all->apps, GINT_TO_POINTER (app->pid));
}

/* systemd-coredump's answer (coredump.h). */
static void
on_coredump (int signal, gpointer user_data)
{
  App *app = user_data;

  app_save_crash (app, signal);
}

void
rec_all_on_app_gone (gboolean gone, gpointer user_data)
{
  App *app = user_data;
  RecAll *all = app->all;

  if (!gone)
    {
      g_debug ("app %d closed its display but still runs: nothing saved", (int) app->pid);
      /* (Frees the watch that called: it is done with.) */
      g_hash_table_remove (all->apps, GINT_TO_POINTER (app->pid));
      return;
    }
  app->crashed = TRUE;
  if (all->coredumpctl == NULL)
    app_save_crash (app, 0);
  else
    app->coredump = rec_coredump_lookup (all->coredumpctl, app->pid, app->first_seen,
                                         RECALL_COREDUMP_TRIES, RECALL_COREDUMP_INTERVAL_MS,
                                         on_coredump, app);
}

/* At the end: the crashes whose coredump entry is still awaited are
 * saved as they are (`outcome unknown`). */
void
rec_all_save_awaited (RecAll *all)
{
  GHashTableIter iter;
  gpointer value;
  g_autoptr (GPtrArray) awaited = g_ptr_array_new ();

  g_hash_table_iter_init (&iter, all->apps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((App *) value)->crashed)
      g_ptr_array_add (awaited, value);
  for (guint i = 0; i < awaited->len; i++)
    app_save_crash (awaited->pdata[i], 0);
}

/* Every app's buffer, on demand (@why: "SIGUSR1", "--save-key"). */
void
rec_all_save_all (RecAll *all, const char *why)
{
  g_autofree char *paren = g_strdup_printf ("(%s)", why);
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_hash_table_iter_init (&iter, all->apps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      App *app = value;

      if (rec_buffer_get_n_actions (app->events) == 0 || app->watch != NULL)
        continue;
      app_save (app, paren, (SessionOutcome) { .kind = SESSION_OUTCOME_LOST });
      n++;
    }
  if (n == 0)
    g_printerr ("xrecord: %s: no app has actions to save\n", why);
}
