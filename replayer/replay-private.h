/* replay-private.h — one replay's state, shared by replay.c (set-up, the
 * actions, the X events, the verdict: the one state machine), pace.c
 * (when the next action goes) and settle.c (after the last action, and
 * the app's use of CPU and memory). Not for other modules: replay.h is
 * the interface.
 *
 * Pacing and settling decide, replay.c acts: their functions return an
 * Act (inject the next action in N ms, finish with a verdict, the X
 * connection broke, or wait), and what their timers decide later reaches
 * replay.c through r->act, the one place that acts. Neither calls into
 * replay.c. */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>

#include "extwatch.h"
#include "injector.h"
#include "outside.h"
#include "pace-rules.h"
#include "proc.h"
#include "proctree.h"
#include "replay.h"
#include "sandbox.h"
#include "windows.h"
#include "xserver.h"
#include "xconn.h"

/* Settling: every REPLAY_QUIET_SAMPLE_MS, the CPU the app's process tree
 * has used; it is busy while it used more than REPLAY_BUSY_PERCENT of a
 * core over the last REPLAY_QUIET_WINDOW_MS. */
#define REPLAY_QUIET_SAMPLE_MS 100
/* Pacing by quiet, and work in flight: the app and the server are glanced
 * at this often. */
#define REPLAY_QUIET_GLANCE_MS 2
/* ... and, once the app has been at work a while, less often: a quarter
 * of the time it has been at work, up to this (each glance reads a few
 * files a thread, and takes a core from the app it waits for). */
#define REPLAY_QUIET_GLANCE_MAX_MS 8
#define REPLAY_QUIET_WINDOW_MS 200
#define REPLAY_QUIET_SAMPLES (REPLAY_QUIET_WINDOW_MS / REPLAY_QUIET_SAMPLE_MS)
#define REPLAY_BUSY_PERCENT 10

/* The double-click time of an app whose toolkit is not known (the longest
 * of the toolkits apptiming.c knows: Tk's), and the key auto-repeat delay
 * of a server that does not say (Xorg's default). */
#define REPLAY_UNKNOWN_DOUBLE_CLICK_MS 500
#define REPLAY_DEFAULT_REPEAT_DELAY_MS 660

/* Starting: an app whose processes have all been idle this long, none of
 * them a client of the X server, is not starting slowly (a slow start
 * runs, or waits for the disk or the server): it will map no window. */
#define REPLAY_START_IDLE_MS 3000

/* What pacing or settling decided. */
typedef enum
{
  ACT_WAIT,                  /* nothing yet: a timer or the app's answer decides */
  ACT_INJECT,                /* inject action r->next in ms */
  ACT_FINISH,                /* the verdict */
  ACT_FAIL_X,                /* the X connection broke (an infrastructure error) */
  ACT_STEP,                  /* try action r->next again now (its window's wait is over) */
  ACT_NEXT,                  /* action r->next - 1 is done (skipped): pacing decides the next */
} ActKind;

/* What the app (its threads, the X server's, its bus's) waited for a
 * core since a moment (settle_starvation_start): on a loaded machine, time
 * it did not have. */
typedef struct
{
  guint64 run_delay;         /* their run delay, summed, at the last look */
  gint64 at;                 /* ... when that was, or 0 */
} ReplayStarvation;

typedef struct
{
  ActKind kind;
  guint ms;                  /* ACT_INJECT */
  VerdictKind verdict;       /* ACT_FINISH */
} Act;

static inline Act
act_wait (void)
{
  return (Act) { ACT_WAIT, 0, VERDICT_PASSED };
}

static inline Act
act_inject (guint ms)
{
  return (Act) { ACT_INJECT, ms, VERDICT_PASSED };
}

static inline Act
act_finish (VerdictKind verdict)
{
  return (Act) { ACT_FINISH, 0, verdict };
}

static inline Act
act_fail_x (void)
{
  return (Act) { ACT_FAIL_X, 0, VERDICT_INFRA_ERROR };
}

static inline Act
act_step (void)
{
  return (Act) { ACT_STEP, 0, VERDICT_PASSED };
}

static inline Act
act_next (void)
{
  return (Act) { ACT_NEXT, 0, VERDICT_PASSED };
}

typedef enum
{
  PHASE_STARTING,
  PHASE_ACTING,
  PHASE_SETTLING,
  PHASE_PINGING,
  PHASE_DONE,
} Phase;

typedef struct Replay Replay;

/* The pointer as the X server has it (held.c). */
typedef struct
{
  int x, y;
  unsigned int mask;
} HeldPointer;

struct Replay
{
  const Session *session;
  const ReplayOptions *opts;
  /* replay.c's: carries out what a timer of pacing or settling decided. */
  void (*act) (Replay *r, Act act);
  ReplayResult *result;
  GMainLoop *loop;

  XConn *conn;               /* owned */
  Display *dpy;              /* conn's */
  Windows *windows;          /* owned */
  Injector *injector;        /* owned */
  ProcChild *child;          /* owned */
  ProcChild *wm;             /* owned, or NULL: --wm's window manager */
  Sandbox *sandbox;          /* owned, or NULL: the app shares our HOME and bus */
  Outside *outside;          /* owned, or NULL: the other apps it pastes from, drops of */
  ExtWatch *extwatch;        /* owned, or NULL (no RECORD): whether a client asks for GLX */
  gboolean glx_allowed_out;  /* its own Xvfb may start without GLX (not on the run again) */
  gboolean no_glx;           /* ... and did: the session says the app did not ask for it */
  SessionHere here;          /* where the app runs (its strings owned): for titles that
                              * name the recording's world */
  ProcTempDir *frames_dir;   /* owned, or NULL: --backtrace's frames file, in a folder
                              * whose cleaner removes it even if we are SIGKILLed */
  ProcTempDir *xauth_dir;    /* owned, or NULL: the Xvfb's cookie without a sandbox */
  Atom wm_protocols, net_wm_ping;

  GArray *actions;           /* owned, of guint: event indices */
  guint next;                /* the next action number */
  guint64 last_time_ms;      /* recorded time of the previous action */
  GHashTable *last_pos;      /* owned: window identity -> last recorded pos (x | y << 32) */
  GHashTable *given_up;      /* owned: identities already waited for in vain */
  GHashTable *seen;          /* owned: identities found as recorded in this replay, to
                              * the client window each found last */
  GHashTable *skipped;       /* owned: presses skipped (their window gone), by input */
  gboolean is_wm;            /* no window manager runs: the replay is one */
  GHashTable *arranged;      /* owned: "window size" and "window +x+y" asked for */

  Phase phase;
  guint timer;               /* the phase's timeout, or 0 */
  guint wait_timer;          /* waiting for an action's window, or 0 */
  guint paste_timer;         /* waiting for the app to take a paste's data, or 0 */
  gint64 paste_since;        /* ... since then (ms), or 0 */
  guint paste_given_up;      /* 1 + the action that waited in vain, or 0 */
  gboolean waiting;          /* the current action waits for its window */
  gboolean wait_over;        /* ... and gave up */
  ReplayStarvation wait_starvation; /* ... the app waited for a core meanwhile */
  gint64 wait_extended;      /* ... the wait made that much longer, in ms */
  gboolean wait_stand_in;    /* ... with a window that may stand in for it there */
  gint64 wait_work_since;    /* ... waited on past it while the app was at work, since
                              * then (ms), or 0 */
  gboolean wait_work_noted;  /* ... said so */
  gboolean wait_work_quiet;  /* ... quiet at the last look, */
  guint64 wait_work_ran_ns;  /* ... when its threads had had this much CPU */
  long ping_stamp;
  Window ping_window;

  gint64 t_spawn, t_first_window, t_last_action, t_end_actions;
  gint64 quiet_at[REPLAY_QUIET_SAMPLES];     /* settling: the last samples of */
  ProcTreeSample quiet[REPLAY_QUIET_SAMPLES]; /* the app's tree, oldest at quiet_next */
  guint quiet_n, quiet_next;
  guint quiet_timer;         /* settling and pinging: the CPU sampler, or 0 */
  guint usage_timer;         /* from the app's start: its CPU and memory, or 0 */
  gboolean busy;             /* the app's process tree, at the last sample */
  /* The app's own time, on a loaded machine: what its threads waited for
   * a core is not time it had (settle.c). */
  gint64 starved_ms;         /* waited for a core since settling began, in all */
  guint64 run_delay_ms;      /* the tree's run delay at the last sample */
  gint64 run_delay_at;       /* ... and when it was taken */
  gint64 settle_timer_due;   /* the first timer of the app's after its last action, or 0 */
  gboolean settle_timer_checked; /* ... looked for */
  gint64 ping_sent_ms;       /* the settle's ping: when it was sent */
  gint64 ping_starved_ms;    /* ... and starved_ms then */
  gboolean answered;         /* the app answered the ping (or cannot be pinged) */
  gboolean awaiting_exit;    /* ... and has left the X server: its exit decides */
  gboolean noted_busy;
  guint n_ever_mapped;       /* the app's windows mapped so far */
  ProcTreeSample start_sample; /* starting: the app's tree at the last sample */
  gint64 start_idle_since;   /* ... idle and not connected since then, or 0 */

  /* Pacing (pace.c). */
  GHashTable *held;          /* owned: "k<keycode>"/"b<button>" -> Held, the presses */
  gboolean pace_waiting;     /* waiting for the app to take the last action */
  guint pace_timer;          /* its timeout, then its sampler, or 0 */
  long pace_stamp;
  gint64 pace_started, pace_answered_at;
  ProcTreeSample pace_sample;
  guint pace_quiet;          /* quiet samples in a row */
  gboolean pace_by_quiet;    /* no _NET_WM_PING: the app has taken an action
                              * when it and the X server are idle */
  pid_t server_pid;          /* our Xvfb, or 0 (--display) */
  pid_t bus_pid;             /* the sandbox's session bus, or 0 */
  ProcTreeGlance pace_glance; /* pacing by quiet: the last glance */
  guint pace_bound_ms;       /* ... and the most it waits (the recorded gap) */
  guint pace_busy_runs;      /* waits in a row that ended at the bound */
  guint pace_tree_runs;      /* pinged: tree waits in a row that ended at their bound */
  guint pace_tree_bound_ms;  /* ... and the most this one waits after the answer */
  guint64 pace_next_time_ms; /* the recorded time of the action waited for */
  gint64 flight_deadline;    /* waiting for work in flight until then (flight_taken) */
  gint64 flight_gap_ms;      /* ... the recorded gap it allows (within --timeout) */
  ReplayStarvation flight_starvation; /* ... how long the app waited for a core */
  gint64 flight_extended;    /* ... and how much later that made the deadline */
  guint opened_waited;       /* 1 + the action before which a window the recording
                              * opened was waited for --window-wait in vain */
  gboolean flight_noted;     /* ... and said so in the verbose log */
  gint64 flight_quiet_since; /* ... quiet since then (once work was seen), or 0 */
  guint64 flight_quiet_ran_ns; /* ... the CPU time its threads had had then */
  GArray *flight_clients;    /* owned, or NULL: the X server's clients' pids, read once
                              * a flight (flight_mid_work) */
  gboolean flight_clients_read; /* ... read (NULL then: the server cannot say) */
  GArray *windows_open;      /* owned, or NULL until needed: the app's windows the
                              * recording had open before each action */
  /* Gaps that keep their meaning (pace-rules.h, apptiming.c). */
  PaceTiming app_timing;     /* what the app counts as a double click, a held key */
  PaceTiming recorded_timing; /* ... and what the recording desktop did */
  PacePress last_button;     /* the last press of a button (not the wheel), .ev NULL: none */
  PacePress last_key;        /* the last key press that was no auto-repeat */
  PaceWindow window;         /* when action r->next may go */
  /* A multi-click sent at once (send.c), until the server has made it (r->timer). */
  PaceClickRun run;          /* its events' delays (run.n of them) */
  guint run_first;           /* ... the action it begins with */
  gint64 run_sent_ms;        /* ... when it was sent */
  WindowsMatch run_match;    /* ... the window it went to, */
  gboolean run_matched;      /* ... if it had one */
  guint window_timer;        /* a wait for the app cut at window.not_after_ms, or 0 */
  Window pointer_in;         /* the deepest window under the pointer after the last
                              * motion injected, or None */
  gboolean pointer_crossed;  /* ... which that motion changed (the app has work) */
  /* Input the X server holds (held.c). */
  HeldPointer held_before;   /* the pointer after the last action the server did */
  gboolean held_known;       /* ... taken */
  HeldPointer held_want;     /* what the action held makes it: its place, */
  gboolean held_want_pos;    /* ... if it has one, */
  unsigned int held_want_bits; /* ... and its button's bit in the state, or 0 */
  guint held_timer;          /* looking again whether the server let it through, or 0 */
  gint64 held_since;         /* ... since then */
  gboolean held_given_up;    /* an action looked held for --timeout: not looked at more */
  GError *error;             /* owned: why the replay failed (infra, cancelled) */
};

/* One of @r's one-shot timers (*@timer) has fired: it is cleared, and
 * what @decide says now is done (r->act). A timer's GSourceFunc returns
 * it. */
static inline gboolean
replay_timer_act (Replay *r, guint *timer, Act (*decide) (Replay *r))
{
  *timer = 0;
  r->act (r, decide (r));
  return G_SOURCE_REMOVE;
}

/* aim.c: where action @number (@ev) goes. */
typedef enum
{
  WINDOW_READY,              /* inject now (into the match, or at root coordinates) */
  WINDOW_WAIT,               /* not there yet: wait for it */
  WINDOW_MISSING,            /* never came, and nothing may stand in for it */
  WINDOW_GONE,               /* was there in this replay, and the app closed it
                              * sooner than in the recording */
} WindowState;
/* Its window, into @match: at once, or WINDOW_WAIT (replay_step() again
 * when it comes or the wait is over). */
WindowState replay_find_window (Replay *r, guint number, const SessionEvent *ev,
                                WindowsMatch *match);
/* Its window never came: the replay ends unresolved. */
void replay_missing_window (Replay *r, guint number, const SessionEvent *ev);
/* TRUE if the window was asked to move or resize as recorded (the action
 * waits for the app to take it: pace_wait()). */
gboolean replay_arrange (Replay *r, const SessionEvent *ev, const WindowsMatch *match);
/* Without a window manager, a key reaches the window under the pointer:
 * the pointer is put into @match's window if it is not there. */
void replay_point_into (Replay *r, const SessionEvent *ev, const WindowsMatch *match);
void replay_remember_pos (Replay *r, const SessionEvent *ev);
/* A window waited for came: its latency in the result. */
void replay_note_latency (Replay *r);
/* Action @number's window was there and the app closed it sooner than
 * in the recording (@gone), or it is a release of an action skipped so:
 * TRUE if it is skipped. */
gboolean replay_skip_gone (Replay *r, guint number, const SessionEvent *ev, gboolean gone);
/* Before action @number (@ev) goes: its window into @match (*@matched
 * if there is one). TRUE to send it now; FALSE if it waits (for its
 * window, for the app to take an arrangement or its work in flight), was
 * skipped, or ended the replay. */
gboolean replay_aim (Replay *r, guint number, const SessionEvent *ev, WindowsMatch *match,
                     gboolean *matched);

/* send.c: sends action @number (@ev) with XTest, into @match's window
 * (or NULL: at its root position), the focus and the pointer first. */
void replay_send (Replay *r, guint number, const SessionEvent *ev, const WindowsMatch *match);
/* Sends r->run (pace_click_run), actions r->next on, at once into
 * @match's window (or NULL), each with its delay; once the X server has
 * made them, they are done as replay_step() does one action (r->act). */
void replay_send_run (Replay *r, const WindowsMatch *match);

/* setup.c: the sandbox, then the X server (*@server, unless --display:
 * *@display); the app's environment; --backtrace's tracer around @argv,
 * and what it knew of a crash. */
gboolean replay_prepare (Replay *r, XServer **server, const char **display, GError **error);
/* After a replay whose own Xvfb started without GLX (@no_glx): did the
 * app ask for it after all (then it runs again, with GLX: said when
 * verbose)? */
gboolean replay_again_with_glx (const ReplayOptions *opts, const ReplayResult *result,
                                gboolean no_glx);
GStrv replay_app_environ (Replay *r);
gboolean replay_wrap_crashtrace (Replay *r, const char *const **argv, GPtrArray **wrapped,
                                 char **frames_path, GError **error);
void replay_take_frames (ReplayResult *result, const char *frames_path);

/* wm.c: --wm's window manager, started and waited for until it manages
 * the display. */
gboolean replay_start_wm (Replay *r, GError **error);

/* note.c: a note on stderr with --verbose; the monotonic clock in ms. */
void note_verbose (Replay *r, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Says action @number in the verbose log and to the on_action hook (the
 * report's pictures), where it goes: in @match's window, or NULL. */
void note_step (Replay *r, guint number, const SessionEvent *ev, const WindowsMatch *match);
gint64 note_now_ms (void);
guint replay_glance_interval (gint64 at_work_since_ms);

/* pace.c */
void pace_start (Replay *r);

/* After action r->next - 1 (@prev, or NULL before the first): when to
 * inject @next (@after follows it, or NULL). */
Act pace_next (Replay *r, const SessionEvent *prev, const SessionEvent *next,
               const SessionEvent *after);
/* After an action is injected (at @sent_ms) and the server has done it. */
void pace_injected (Replay *r, const SessionEvent *ev, gint64 sent_ms);
/* Before action r->next (@first) is sent: the events from it that go at
 * once, spaced by the X server, into @run; how many (1: it goes alone). */
guint pace_click_run (Replay *r, const SessionEvent *first, PaceClickRun *run);
Act pace_answered (Replay *r);
/* Waits for the app to take what the replay did to its windows (a resize),
 * as after an action; then the action r->next is tried again. */
Act pace_wait (Replay *r);
/* pace-gap.c: the app has taken the action (@how, in the verbose log),
 * the next one after --min-gap; the next in @ms, within the window of
 * pace-rules.h; the recorded gap from @from to @to, divided by --speed. */
Act pace_done (Replay *r, const char *how);
Act pace_inject_within (Replay *r, guint ms);
guint pace_recorded_gap (Replay *r, guint64 from, guint64 to);
/* flight.c: the app has taken the action; whatever it still has in
 * flight, within the recorded gap. */
Act flight_taken (Replay *r);

/* held.c: after an action is injected and synced; act_next() once the
 * server has done it (another client's grab may hold the pointer). */
Act held_check (Replay *r, const SessionEvent *ev, const WindowsMatch *match);

/* apptiming.c: r->app_timing and r->recorded_timing, once the app's
 * first window is up. */
void apptiming_read (Replay *r);

/* settle.c */
Act settle_start (Replay *r);
Act settle_ping (Replay *r);
/* _NET_WM_PING to @window with @stamp, synced; FALSE if the X connection
 * broke. */
gboolean settle_send_ping (Replay *r, Window window, long stamp);
/* What the app (its threads, the X server's, the bus's) waited for a
 * core since settle_starvation_start() or the last take, in ms. */
void settle_starvation_start (Replay *r, ReplayStarvation *s);
gint64 settle_starvation_take (Replay *r, ReplayStarvation *s);
/* The app answered the ping (or cannot be pinged): the verdict once quiet. */
Act settle_answered (Replay *r);
gboolean settle_on_usage_sample (gpointer user_data);
