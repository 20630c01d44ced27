/* all.c — xrecord --all: every app's recent actions, in memory, saved at
 * its crash (see all.h).
 *
 * The display's RECORD stream (capture.c, every client) feeds the same
 * window model (toplevels.c, in its "every client is an app" mode) and
 * translator (translate.c) as a recording of one app; each action, and
 * each event the server delivered, goes to the buffer of the app it was
 * aimed at or delivered to: an App, one per process (its X clients' pid,
 * X-Resource, else _NET_WM_PID). Its command, folder and variables are
 * read from /proc when it is first seen.
 *
 * A crash: the app's last X client leaves (RECORD's ClientDied, after the
 * server has taken its windows down) while windows it mapped were still
 * up, by its own requests (it never sent UnmapWindow or DestroyWindow for
 * them: an app that exits normally closes its windows first), and its
 * process ends (a pidfd, proc_watch_gone). Then its buffer is written as a
 * session, `outcome unknown`: xreduce learns the failure from its replays.
 * Where systemd-coredump keeps the crashes (coredumpctl is there), its
 * entry for the pid, awaited a few seconds, gives the signal: `outcome
 * crashed SIGSEGV`.
 *
 * On demand: SIGUSR1, or --save-key's chord (nothing is grabbed: the
 * chord is watched for in the recorded key events), saves every app's
 * buffer. The chord's own keys are recorded in no buffer: a press of one
 * of its modifiers is held back (with the motion after it) until the next
 * event says whether the chord follows (then it is dropped, and its
 * release too) or not (then it is recorded, in order, late).
 *
 * Start reading at rec_all_run(), then on_captured().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "all.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/Xproto.h>
#include <X11/extensions/record.h>

#include "buffer.h"
#include "capture.h"
#include "chord.h"
#include "coredump.h"
#include "header.h"
#include "keymap.h"
#include "pastes.h"
#include "proc.h"
#include "quote.h"
#include "recorder.h"
#include "session.h"
#include "toplevels.h"
#include "translate.h"
#include "xconn.h"

#define ENABLE_TIMEOUT_MS 10000

typedef struct App App;

struct RecAll
{
  char *display;
  char *save_dir;
  guint64 keep_ms;
  guint keep_actions;
  char **exclude;
  char **record_env;
  char *coredumpctl;       /* its path, or NULL: no crash is known for sure */
  gboolean no_selections;

  Display *tracker;        /* owned */
  GSource *tracker_source;
  XID tracker_base;
  Capture *capture;
  Toplevels *tops;
  Translator *translator;
  RecPastes *pastes;       /* owned: the selections apps paste from, drops */
  App *pasting;            /* the app whose request or message pastes is given now */
  GMainLoop *loop;
  char *keymap;

  GHashTable *apps;        /* pid -> App* (owned) */
  guint64 now_ms;          /* the time of the last event recorded (the stream's clock) */
  gint64 now_at;           /* ... and when it was read (monotonic, us) */
  gboolean enabled, gone;
  int signal;
  guint n_saved;
  guint signal_sources[4];

  gboolean have_save_key;  /* --save-key: */
  Chord save_key;
  GArray *held;            /* Held: the device events held back (a modifier of the
                            * chord pressed, and the motion since) */
  guint8 swallowed[32];    /* keycodes (bits) whose release is the chord's */
};

typedef struct
{
  xEvent ev;
  guint64 time_ms;
} Held;

struct App
{
  RecAll *all;             /* its owner */
  pid_t pid;
  Session *header;         /* owned: the header of its sessions, made when first seen */
  char *name;              /* for file names and messages: its program (an interpreter's
                            * script), or "app" */
  RecBuffer *events;       /* owned: its recent events (buffer.h) */
  GHashTable *bases;       /* its X clients' resource bases now connected */
  GHashTable *shown;       /* Window: its top-levels up and not taken down by itself */
  ProcGoneWatch *watch;    /* owned, while its end is awaited */
  gint64 first_seen;       /* real time, us */
  /* Gone with its windows open: systemd-coredump's entry awaited. */
  gboolean crashed;
  RecCoredump *coredump;    /* owned, while the entry is awaited */
};

/* ---- the buffers ---- */

static void
app_free (App *app)
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

static void
all_note_time (RecAll *all, guint64 time_ms)
{
  if (time_ms >= all->now_ms)
    {
      all->now_ms = time_ms;
      all->now_at = g_get_monotonic_time ();
    }
}

static void
app_append (App *app, const SessionEvent *ev)
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

static App *
app_get (RecAll *all, pid_t pid)
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
static gboolean
app_check_excluded (RecAll *all, App *app)
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
                             session_signal_name (signal));
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

static void
on_app_gone (gboolean gone, gpointer user_data)
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
static void
save_awaited (RecAll *all)
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
static void
save_all (RecAll *all, const char *why)
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

static void held_flush (RecAll *all, gboolean chord);

static gboolean
on_usr1 (gpointer user_data)
{
  RecAll *all = user_data;

  held_flush (all, FALSE);
  save_all (all, "SIGUSR1");
  return G_SOURCE_CONTINUE;
}

/* ---- what was recorded ---- */

/* The app's top-level @window (a frame or the client) is up. */
static void
note_mapped (RecAll *all, Window window)
{
  ToplevelTarget target;
  App *app;

  if (!toplevels_lookup (all->tops, window, &target) || target.app_pid <= 0)
    return;
  app = app_get (all, target.app_pid);
  if (app != NULL && !app_check_excluded (all, app))
    g_hash_table_add (app->shown, GSIZE_TO_POINTER (target.window));
}

/* An app's own UnmapWindow or DestroyWindow: it takes a window down. */
static void
note_taken_down (RecAll *all, const guint8 *data, gsize len, XID id_base)
{
  xResourceReq req;
  ToplevelTarget target;
  App *app;

  if (len < sz_xResourceReq)
    return;
  memcpy (&req, data, sz_xResourceReq);
  if (req.reqType != X_UnmapWindow && req.reqType != X_DestroyWindow)
    return;
  app = g_hash_table_lookup (all->apps, GINT_TO_POINTER (toplevels_client_pid (all->tops, id_base)));
  if (app == NULL)
    return;
  g_hash_table_remove (app->shown, GSIZE_TO_POINTER ((Window) req.id));
  if (toplevels_lookup (all->tops, req.id, &target))
    g_hash_table_remove (app->shown, GSIZE_TO_POINTER (target.window));
}

static void
append_delivered (RecAll *all, pid_t pid, XID id_base, const xEvent *ev, guint64 time_ms)
{
  SessionEvent out;
  App *app = app_get (all, pid);

  if (app == NULL || app->watch != NULL || app_check_excluded (all, app))
    return;
  if (id_base != 0)
    g_hash_table_add (app->bases, GSIZE_TO_POINTER (id_base));
  if (translator_delivered (all->translator, ev, time_ms, &out) == TRANSLATE_EVENT)
    app_append (app, &out);
}

/* A user action, to the buffer of the app it was aimed at. */
static void
record_device (RecAll *all, const xEvent *ev, guint64 time_ms)
{
  SessionEvent out;
  App *app;

  if (translator_device (all->translator, ev, time_ms, &out) != TRANSLATE_EVENT)
    return;
  app = app_get (all, translator_get_app_pid (all->translator));
  if (app != NULL && app->watch == NULL && !app_check_excluded (all, app))
    {
      app_append (app, &out);
      /* What an app asks for from now on is this action's paste. */
      if (all->pastes != NULL)
        rec_pastes_action (all->pastes);
    }
}

/* ---- pastes and drops from other apps ---- */

/* A Selection line or a Drop (pastes.h), for the app whose request or
 * message it answers. */
static void
on_given (const SessionEvent *ev, gpointer user_data)
{
  RecAll *all = user_data;

  if (all->pasting != NULL)
    app_append (all->pasting, ev);
}

/* @pid's ConvertSelection (@data) or ClientMessage (@ev) to pastes. */
static void
give (RecAll *all, pid_t pid, const guint8 *data, gsize len, const xEvent *ev, guint64 time_ms)
{
  App *app = all->pastes != NULL ? app_get (all, pid) : NULL;

  if (app == NULL || app->watch != NULL || app_check_excluded (all, app))
    return;
  all->pasting = app;
  rec_pastes_set_app (all->pastes, pid);
  if (ev != NULL)
    rec_pastes_client_message (all->pastes, ev, time_ms);
  else
    rec_pastes_request (all->pastes, data, len, time_ms);
  rec_pastes_set_app (all->pastes, 0);
  all->pasting = NULL;
}

/* ---- --save-key ---- */

static gboolean
is_swallowed (RecAll *all, guint keycode)
{
  return (all->swallowed[(keycode & 0xff) / 8] & (1u << (keycode % 8))) != 0;
}

static void
set_swallowed (RecAll *all, guint keycode, gboolean swallowed)
{
  if (swallowed)
    all->swallowed[(keycode & 0xff) / 8] |= 1u << (keycode % 8);
  else
    all->swallowed[(keycode & 0xff) / 8] &= ~(1u << (keycode % 8));
}

/* What was held back: the chord's modifiers dropped (@chord: it came;
 * their releases will be too), else recorded; the motion recorded. At
 * the stream's time now: server events may have been recorded since, and
 * a session's time never goes back. */
static void
held_flush (RecAll *all, gboolean chord)
{
  for (guint i = 0; all->held != NULL && i < all->held->len; i++)
    {
      Held *held = &g_array_index (all->held, Held, i);

      if (chord && (held->ev.u.u.type & 0x7f) == KeyPress)
        set_swallowed (all, held->ev.u.u.detail, TRUE);
      else
        record_device (all, &held->ev, MAX (held->time_ms, all->now_ms));
    }
  if (all->held != NULL)
    g_array_set_size (all->held, 0);
}

static gboolean
key_is_chord (RecAll *all, guint keycode, guint state)
{
  KeySym base = XkbKeycodeToKeysym (all->tracker, (KeyCode) keycode, 0, 0), produced = NoSymbol;
  unsigned int consumed;

  if (chord_matches (&all->save_key, (guint32) base, state))
    return TRUE;
  return XkbLookupKeySym (all->tracker, (KeyCode) keycode, state, &consumed, &produced)
         && produced != NoSymbol && chord_matches (&all->save_key, (guint32) produced, state);
}

/* A device event under --save-key: TRUE if it is the chord's (held back,
 * or dropped), FALSE if it is to be recorded (after what was held). */
static gboolean
save_key_filter (RecAll *all, const xEvent *ev, guint64 time_ms)
{
  int type = ev->u.u.type & 0x7f;
  guint keycode = ev->u.u.detail, state = ev->u.keyButtonPointer.state;
  Held held = { .ev = *ev, .time_ms = time_ms };

  if (type == KeyRelease && is_swallowed (all, keycode))
    {
      set_swallowed (all, keycode, FALSE);
      return TRUE;
    }
  if (type == KeyPress && key_is_chord (all, keycode, state))
    {
      held_flush (all, TRUE);
      set_swallowed (all, keycode, TRUE);
      save_all (all, "--save-key");
      return TRUE;
    }
  if ((type == KeyPress
       && chord_is_own_modifier (&all->save_key,
                                 (guint32) XkbKeycodeToKeysym (all->tracker, (KeyCode) keycode,
                                                               0, 0)))
      || (type == MotionNotify && all->held->len > 0))
    {
      g_array_append_val (all->held, held);
      return TRUE;
    }
  held_flush (all, FALSE);
  return FALSE;
}

static void
on_captured (const xEvent *ev, XID id_base, guint64 time_ms, gpointer user_data)
{
  RecAll *all = user_data;
  int type = ev->u.u.type & 0x7f;
  pid_t pid;

  all_note_time (all, time_ms);
  if (type >= KeyPress && type <= MotionNotify)
    {
      if (!all->have_save_key || !save_key_filter (all, ev, time_ms))
        record_device (all, ev, time_ms);
      return;
    }
  if (id_base == all->tracker_base)
    {
      toplevels_handle_event (all->tops, ev);
      translator_tracker_event (all->translator, ev);
      if (type == MapNotify)
        note_mapped (all, ev->u.mapNotify.window);
      /* An app never hears of its top-levels' creation; the tracker does. */
      if (type == CreateNotify && ev->u.createNotify.parent == DefaultRootWindow (all->tracker)
          && (pid = toplevels_client_pid (all->tops, ev->u.createNotify.window
                                                     & XRecordIdBaseMask (all->tracker))) > 0)
        append_delivered (all, pid, 0, ev, time_ms);
      return;
    }
  if ((pid = toplevels_client_pid (all->tops, id_base)) > 0)
    {
      append_delivered (all, pid, id_base, ev, time_ms);
      /* A drop from another app (XDND), after its message. */
      if (type == ClientMessage)
        give (all, pid, NULL, 0, ev, time_ms);
    }
}

static void
on_request (const guint8 *data, gsize len, XID id_base, guint64 time_ms, gpointer user_data)
{
  RecAll *all = user_data;

  pid_t pid;

  all_note_time (all, time_ms);
  toplevels_handle_request (all->tops, data, len);
  note_taken_down (all, data, len, id_base);
  /* An app pastes: what it gets is fetched now, into its buffer. */
  if (len > 0 && data[0] == X_ConvertSelection
      && (pid = toplevels_client_pid (all->tops, id_base)) > 0)
    give (all, pid, data, len, NULL, time_ms);
}

/* A client has left (after the server took its windows down). */
static void
on_client_gone (XID id_base, gpointer user_data)
{
  RecAll *all = user_data;
  pid_t pid = toplevels_client_pid (all->tops, id_base);
  App *app = pid > 0 ? g_hash_table_lookup (all->apps, GINT_TO_POINTER (pid)) : NULL;

  toplevels_client_gone (all->tops, id_base);
  if (app == NULL || !g_hash_table_remove (app->bases, GSIZE_TO_POINTER (id_base))
      || g_hash_table_size (app->bases) > 0 || app->watch != NULL)
    return;
  if (g_hash_table_size (app->shown) == 0 || rec_buffer_get_n_actions (app->events) == 0)
    {
      /* It closed its windows first (a normal exit), or nothing of the
       * user's is in its buffer. */
      g_debug ("app %d left: nothing to save", (int) pid);
      g_hash_table_remove (all->apps, GINT_TO_POINTER (pid));
      return;
    }
  /* Its windows were up: a crash, if its process is gone too. */
  app->watch = proc_watch_gone (pid, RECALL_GONE_TIMEOUT_MS, on_app_gone, app);
}

static void
on_capture_state (gboolean enabled, gpointer user_data)
{
  RecAll *all = user_data;

  if (enabled)
    all->enabled = TRUE;
  else
    all->gone = TRUE;
  g_main_loop_quit (all->loop);
}

static gboolean
on_tracker (Display *dpy, gpointer user_data)
{
  RecAll *all = user_data;

  /* The model reads the tracker's events from the RECORD stream. */
  while (!all->gone && XPending (dpy) > 0)
    {
      XEvent ev;

      XNextEvent (dpy, &ev);
    }
  return all->gone ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static int
on_io_error (Display *dpy)
{
  return 0;
}

static void
on_io_error_exit (Display *dpy, void *user_data)
{
  RecAll *all = user_data;

  if (!all->gone && all->signal == 0)
    g_printerr ("xrecord: lost the connection to %s\n", all->display);
  all->gone = TRUE;
  g_main_loop_quit (all->loop);
}

/* SIGINT, SIGTERM, SIGHUP: the end (GLib's handlers are told no number). */
static gboolean
on_stop (RecAll *all, int signum)
{
  if (all->signal == 0)
    all->signal = signum;
  g_main_loop_quit (all->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean on_sigint (gpointer all) { return on_stop (all, SIGINT); }
static gboolean on_sigterm (gpointer all) { return on_stop (all, SIGTERM); }
static gboolean on_sighup (gpointer all) { return on_stop (all, SIGHUP); }

static gboolean
on_enable_timeout (gpointer user_data)
{
  g_main_loop_quit (((RecAll *) user_data)->loop);
  return G_SOURCE_REMOVE;
}

/* ---- the whole ---- */

RecAll *
rec_all_new (const RecAllOptions *options, GError **error)
{
  g_autoptr (RecAll) all = g_new0 (RecAll, 1);
  GStatBuf st;

  if (options->display == NULL || *options->display == '\0')
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE,
                   "--all records an existing display: give it with -d DPY");
      return NULL;
    }
  for (const char *const *n = options->record_env; n != NULL && *n != NULL; n++)
    if (!recorder_check_env_name (*n, error))
      return NULL;
  if (options->save_key != NULL)
    {
      g_autoptr (GError) local = NULL;

      if (!chord_parse (options->save_key, &all->save_key, &local))
        {
          g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_USAGE, "--save-key: %s",
                       local->message);
          return NULL;
        }
      all->have_save_key = TRUE;
      all->held = g_array_new (FALSE, FALSE, sizeof (Held));
    }
  all->display = g_strdup (options->display);
  all->save_dir = options->save_dir != NULL
                  ? g_strdup (options->save_dir)
                  : g_build_filename (g_get_user_state_dir (), "xreduce", "sessions", NULL);
  all->keep_ms = (guint64) (options->keep_minutes != 0 ? options->keep_minutes
                            : RECALL_DEFAULT_KEEP_MINUTES) * 60 * 1000;
  all->keep_actions = options->keep_actions != 0 ? options->keep_actions
                      : RECALL_DEFAULT_KEEP_ACTIONS;
  all->exclude = g_strdupv ((char **) options->exclude_classes);
  all->record_env = g_strdupv ((char **) options->record_env);
  all->coredumpctl = g_find_program_in_path ("coredumpctl");
  all->no_selections = options->no_selections;
  all->apps = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) app_free);
  all->loop = g_main_loop_new (NULL, FALSE);
  /* The folder now (0700: what the user typed is in it), not at the
   * first crash. */
  if (g_mkdir_with_parents (all->save_dir, 0700) != 0
      || g_stat (all->save_dir, &st) != 0 || !S_ISDIR (st.st_mode)
      || access (all->save_dir, W_OK | X_OK) != 0)
    {
      int saved = errno;
      g_autofree char *shown = quote_terminal (all->save_dir);

      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_OUTPUT, "%s: cannot save sessions "
                   "there: %s", shown, g_strerror (saved != 0 ? saved : ENOTDIR));
      return NULL;
    }
  if ((st.st_mode & 077) != 0)
    {
      g_autofree char *shown = quote_terminal (all->save_dir);

      g_printerr ("xrecord: warning: %s can be read by others (mode %03o): the sessions "
                  "saved there are 0600, the folder's names are not\n", shown,
                  (unsigned) (st.st_mode & 0777));
    }
  return g_steal_pointer (&all);
}

void
rec_all_free (RecAll *all)
{
  if (all == NULL)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (all->signal_sources); i++)
    if (all->signal_sources[i] != 0)
      g_source_remove (all->signal_sources[i]);
  g_clear_pointer (&all->apps, g_hash_table_unref);
  g_clear_pointer (&all->held, g_array_unref);
  rec_pastes_free (all->pastes);
  translator_free (all->translator);
  toplevels_free (all->tops);
  capture_free (all->capture);
  if (all->tracker_source != NULL)
    {
      g_source_destroy (all->tracker_source);
      g_source_unref (all->tracker_source);
    }
  if (all->tracker != NULL)
    XCloseDisplay (all->tracker);
  g_clear_pointer (&all->loop, g_main_loop_unref);
  g_free (all->keymap);
  g_strfreev (all->exclude);
  g_strfreev (all->record_env);
  g_free (all->coredumpctl);
  g_free (all->save_dir);
  g_free (all->display);
  g_free (all);
}

int
rec_all_get_signal (RecAll *all)
{
  return all->signal;
}

guint
rec_all_get_n_saved (RecAll *all)
{
  return all->n_saved;
}

/* The tracker, the model, the RECORD context of every client. */
static gboolean
start (RecAll *all, GError **error)
{
  g_autoptr (GError) local = NULL;
  XSetWindowAttributes attrs = { 0 };
  Window window;
  guint timeout;

  all->tracker = XOpenDisplay (all->display);
  if (all->tracker == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "cannot open display %s",
                   all->display);
      return FALSE;
    }
  XSetIOErrorHandler (on_io_error);
  XSetIOErrorExitHandler (all->tracker, on_io_error_exit, all);
  all->capture = capture_new (all->display, &local);
  if (all->capture == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  capture_set_io_error_handler (all->capture, on_io_error_exit, all);
  all->keymap = keymap_describe (all->tracker, NULL);

  /* A resource of the tracker's, to tell its events in the stream. */
  window = XCreateWindow (all->tracker, DefaultRootWindow (all->tracker), -1, -1, 1, 1, 0, 0,
                          InputOnly, CopyFromParent, 0, &attrs);
  all->tracker_base = window & XRecordIdBaseMask (all->tracker);
  XSync (all->tracker, False);
  all->tops = toplevels_new (all->tracker, FALSE);
  toplevels_set_all (all->tops, (const char *const *) all->exclude);
  toplevels_add_own_client (all->tops, all->tracker_base);
  all->translator = translator_new (all->tracker, all->tops, NoSymbol);
  /* Before the context: its connection is nobody's app. */
  all->pastes = rec_pastes_new (all->display, all->tops, !all->no_selections, on_given, all,
                                &local);
  if (all->pastes == NULL)
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  toplevels_add_own_client (all->tops, rec_pastes_get_base (all->pastes));
  all->tracker_source = xconn_source_new (all->tracker, on_tracker, NULL, all, NULL);
  g_source_attach (all->tracker_source, NULL);
  if (!toplevels_server_tells_pids (all->tops))
    g_printerr ("xrecord: warning: %s has no X-Resource extension (1.2): apps are known by "
                "their windows' _NET_WM_PID only, which Tk, Xaw, Motif and many older "
                "programs do not set\n", all->display);

  capture_set_all_clients (all->capture);
  capture_set_client_gone_func (all->capture, on_client_gone, all);
  if (!capture_start (all->capture, None, on_captured, on_request, on_capture_state, all,
                      &local))
    {
      g_set_error (error, RECORDER_ERROR, RECORDER_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  timeout = g_timeout_add (ENABLE_TIMEOUT_MS, on_enable_timeout, all);
  g_main_loop_run (all->loop);
  if (g_main_context_find_source_by_id (NULL, timeout) != NULL)
    g_source_remove (timeout);
  if (!all->enabled)
    {
      g_set_error (error, RECORDER_ERROR, all->signal != 0 ? RECORDER_ERROR_USAGE
                                                           : RECORDER_ERROR_INFRA,
                   "the RECORD context on %s did not start", all->display);
      return FALSE;
    }
  toplevels_start (all->tops);
  XSync (all->tracker, False);
  return TRUE;
}

gboolean
rec_all_run (RecAll *all, GError **error)
{
  g_autofree char *shown_dir = quote_terminal (all->save_dir);

  all->signal_sources[0] = g_unix_signal_add (SIGINT, on_sigint, all);
  all->signal_sources[1] = g_unix_signal_add (SIGTERM, on_sigterm, all);
  all->signal_sources[2] = g_unix_signal_add (SIGHUP, on_sighup, all);
  all->signal_sources[3] = g_unix_signal_add (SIGUSR1, on_usr1, all);
  xconn_errors_install ();
  if (!start (all, error))
    return all->signal != 0;
  /* Scripts and tests wait for this line. */
  g_printerr ("xrecord: recording every app on %s (the last %u actions or %u minutes of "
              "each, in memory); crashes saved to %s\n", all->display, all->keep_actions,
              (guint) (all->keep_ms / 60000), shown_dir);
  while (all->signal == 0 && !all->gone)
    g_main_loop_run (all->loop);
  if (all->capture != NULL && !all->gone)
    capture_stop (all->capture);
  save_awaited (all);
  return TRUE;
}
