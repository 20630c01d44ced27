/* crash.h — what is known of an app's death by a signal, beyond the
 * signal: which process died (a browser's child, the program a wrapper
 * script ran, a thread of it), whether the signal was a fault of its own
 * or sent by another process (and which: "sent by pid 5 (bash)"), and its
 * top frames, or why there are none.
 *
 * xreduce-crashtrace (replayer/crashtrace.c) fills one at the fatal signal
 * and writes it as JSON; xreplay reads it back into its result
 * (ReplayResult.crash) and prints it in `--json`'s "crash" member, which
 * xreduce reads back. Written and read here, once. X-free.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  int signal;                /* the fatal signal; 0: nothing is known */
  int code;                  /* its si_code (SEGV_MAPERR, SI_USER, SI_TKILL...) */
  gboolean has_address;      /* a fault: address is the faulting address (si_addr) */
  guint64 address;
  int pid, tid;              /* the process and thread that died (in the app's PID
                              * namespace: the sandbox's), 0 if unknown */
  char *process;             /* owned: its name (comm), or NULL */
  gboolean child;            /* the process is one the app started (a browser's content
                              * process), not the app's first */
  gboolean sent;             /* sent by another process (kill), not a fault nor raised
                              * by the process itself (abort(), raise(), kill() of
                              * itself) */
  int sender_pid;            /* sent: the sender's pid, 0 from outside the app's sandbox */
  char *sender;              /* owned: the sender's name, or NULL */
  char **frames;             /* owned, or NULL: the top frames, function names, the crash
                              * machinery (raise, abort, a handler that re-raised) left
                              * out */
  char **frames_at;          /* owned, or NULL: where each is: "file.c:88", the library
                              * ("libc.so.6") or "" (as many as frames) */
  char *no_frames;           /* owned, or NULL: why there are no frames */
} CrashInfo;

void crash_info_clear (CrashInfo *crash);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CrashInfo, crash_info_clear)
void crash_info_copy (CrashInfo *dest, const CrashInfo *src);

/* Sent by another process (kill), not a fault nor raised by itself. */
gboolean crash_info_is_sent (const CrashInfo *crash);

/* "SEGV_MAPERR", "SI_USER", "SI_TKILL", ...; "code N" for others. */
const char *crash_code_name (int signal, int code, char buf[32]);

/* How the signal came, in words: "sent by pid 5 (bash)", "sent from
 * outside the app's sandbox", "a fault (SEGV_MAPERR at 0x0)", "raised by
 * the process itself (SI_TKILL)". */
char *crash_info_describe_cause (const CrashInfo *crash);

/* The first frame with a source line ("print_document (xdemo.c:209)"),
 * not past a frame without a name nor at a process's or thread's start,
 * else the first frame ("g_main_loop_run (libglib-2.0.so.0)", "??
 * (libxul.so)"), else NULL. */
char *crash_info_site (const CrashInfo *crash);

/* The app's death in words, for a title: "killed by SIGSEGV sent by pid
 * 5 (bash)"; "crashed with SIGSEGV in print_document (xdemo.c:209)" (the
 * site: crash_info_site()'s when it has a source line, else @site_hint
 * if given (a Python frame), else crash_info_site()'s), ", in its process
 * NAME" for a process the app started. */
char *crash_info_outcome (const CrashInfo *crash, const char *site_hint);
/* The same, with the innermost frame of @python (crash_python_stack()'s,
 * or NULL) as the hint: "on_crash (app.py:23)". */
char *crash_info_outcome_python (const CrashInfo *crash, GArray *python);

/* The object's members: "signal" (name), "signal_number", "code",
 * "code_name", "address" (0x... or null), "pid", "tid", "process",
 * "sent_by" ({"pid", "name"} or null), "frames", "frames_at",
 * "no_frames". */
void crash_info_to_json (const CrashInfo *crash, JsonBuilder *builder);
/* Its "sent_by" member: {pid, name} of the process that sent the
 * signal, or null (also for a NULL @crash). */
void crash_info_add_sent_by (const CrashInfo *crash, JsonBuilder *builder);
/* Reads them back (@crash zeroed first); FALSE if @object holds no
 * signal. */
gboolean crash_info_from_json (JsonObject *object, CrashInfo *crash);

/* As one JSON object in a file, and back (the crashtrace helper's
 * answer). */
gboolean crash_info_save (const CrashInfo *crash, const char *path, GError **error);
gboolean crash_info_load (const char *path, CrashInfo *crash, GError **error);

/* A Python frame, from faulthandler's dump on stderr (xreduce-crashtrace
 * runs Python apps with PYTHONFAULTHANDLER=1). */
typedef struct
{
  char *function;
  char *file;                /* its base name: no folder of this machine */
  int line;
} CrashPyFrame;

/* The stack of the Python thread that crashed, most recent call first
 * (faulthandler's "Fatal Python error" dump, the last one in @text, the
 * app's stderr), an array of CrashPyFrame; empty if there is none. */
GArray *crash_python_stack (const char *text, gsize len);

G_END_DECLS
