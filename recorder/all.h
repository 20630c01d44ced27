/* all.h — xrecord --all: always recording. Every app on an existing
 * display is recorded as xrecord records one (the same filter, window
 * identity, positions relative to the app's windows, keymap, the
 * selections it pasted and drops: recorder/'s capture, toplevels,
 * translator and pastes), each into a bounded buffer in
 * memory; an app's buffer is written as a session only when the app
 * vanishes with its windows open (a crash), or on SIGUSR1 or the
 * --save-key chord (all of them).
 * Nothing of a buffer touches the disk before.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *display;       /* required */
  const char *save_dir;      /* NULL: $XDG_STATE_HOME/xreduce/sessions */
  guint keep_minutes;        /* 0: RECALL_DEFAULT_KEEP_MINUTES */
  guint keep_actions;        /* 0: RECALL_DEFAULT_KEEP_ACTIONS */
  const char *const *exclude_classes;  /* NULL-terminated, or NULL */
  const char *const *record_env;       /* --record-env's names, or NULL */
  const char *save_key;      /* a chord (chord.h: "ctrl+alt+F12"), or NULL */
  gboolean no_selections;    /* pastes noted, their data not kept (pastes.h) */
} RecAllOptions;

#define RECALL_DEFAULT_KEEP_MINUTES 10
#define RECALL_DEFAULT_KEEP_ACTIONS 2000
/* How long an app's process may take to end once its X connection has
 * closed with its windows open, to be taken for a crash. */
#define RECALL_GONE_TIMEOUT_MS 5000
/* systemd-coredump's entry for a crashed app is looked for (coredumpctl)
 * this many times, this far apart: it comes once the core is stored. */
#define RECALL_COREDUMP_TRIES 10
#define RECALL_COREDUMP_INTERVAL_MS 500

typedef struct RecAll RecAll;

/* Checks the options and makes the save folder (0700). RECORDER_ERROR. */
RecAll *rec_all_new (const RecAllOptions *options, GError **error);
void rec_all_free (RecAll *all);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecAll, rec_all_free)

/* Records until SIGINT, SIGTERM or SIGHUP, or the display goes away;
 * SIGUSR1 saves every app's buffer. Prints "xrecord: recording every app
 * on DPY ..." once recording, and one line for each session saved.
 * RECORDER_ERROR_INFRA if the display or RECORD cannot be had. */
gboolean rec_all_run (RecAll *all, GError **error);
/* After rec_all_run: the signal that ended it (0: the display went). */
int rec_all_get_signal (RecAll *all);
guint rec_all_get_n_saved (RecAll *all);

G_END_DECLS
