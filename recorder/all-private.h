/* all-private.h — xrecord --all's state (all.c), shared with the files
 * that take its parts: the apps and their buffers, saved at a crash or
 * on demand (all-apps.c), what was recorded, to the buffer of the app it
 * was aimed at or delivered to (all-record.c), and --save-key's chord
 * (all-save-key.c). Not a module's interface: only those files include
 * it.
 */
#pragma once

#include <X11/Xlib.h>
#include <X11/Xproto.h>

#include "all.h"
#include "buffer.h"
#include "capture.h"
#include "chord.h"
#include "coredump.h"
#include "pastes.h"
#include "proc.h"
#include "session.h"
#include "toplevels.h"
#include "translate.h"

G_BEGIN_DECLS

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

/* all-apps.c: the app of the process @pid, made when first seen (its
 * header read from /proc; NULL: none, or excluded), freed by the apps'
 * table; is it excluded (--exclude-class; forgotten then)? An event to
 * its buffer; the stream's clock noted. */
App *rec_all_app_get (RecAll *all, pid_t pid);
void rec_all_app_free (App *app);
gboolean rec_all_app_check_excluded (RecAll *all, App *app);
void rec_all_app_append (App *app, const SessionEvent *ev);
void rec_all_note_time (RecAll *all, guint64 time_ms);
/* all-apps.c: the app's process is gone (@gone) after its last X client
 * left with its windows up (a proc_watch_gone callback, @user_data the
 * App): a crash, saved once systemd-coredump has said; at the end, the
 * crashes still awaited saved as they are; every app's buffer saved on
 * demand (@why: "SIGUSR1", "--save-key"). */
void rec_all_on_app_gone (gboolean gone, gpointer user_data);
void rec_all_save_awaited (RecAll *all);
void rec_all_save_all (RecAll *all, const char *why);

/* all-record.c: an app's top-level mapped, or taken down by its own
 * request; an event delivered to the app @pid (through its client
 * @id_base, or 0); a user action, to the app it was aimed at; a paste
 * (@data, a ConvertSelection) or a drop (@ev, a ClientMessage) of @pid's,
 * what it is given going to its buffer (rec_all_on_given, the pastes'
 * callback). */
void rec_all_note_mapped (RecAll *all, Window window);
void rec_all_note_taken_down (RecAll *all, const guint8 *data, gsize len, XID id_base);
void rec_all_append_delivered (RecAll *all, pid_t pid, XID id_base, const xEvent *ev,
                               guint64 time_ms);
void rec_all_record_device (RecAll *all, const xEvent *ev, guint64 time_ms);
void rec_all_give (RecAll *all, pid_t pid, const guint8 *data, gsize len, const xEvent *ev,
                   guint64 time_ms);
void rec_all_on_given (const SessionEvent *ev, gpointer user_data);

/* all-save-key.c: a device event under --save-key: TRUE if it is the
 * chord's (held back, or dropped), FALSE if it is to be recorded; what
 * was held back, dropped (@chord: it came) or recorded. */
gboolean rec_all_save_key_filter (RecAll *all, const xEvent *ev, guint64 time_ms);
void rec_all_held_flush (RecAll *all, gboolean chord);

G_END_DECLS
