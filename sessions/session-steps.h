/* session-steps.h — a session's user actions as a person names them:
 * gestures (a keystroke with its modifiers, a click, a drag), phrases
 * (the steps: a run of typing, a chord, a click with the motion before
 * it) and their words, for --list, reports and the reducer's units.
 */
#pragma once

#include <glib.h>

#include "session-model.h"

G_BEGIN_DECLS

/* "press Alt_L", "release button 1 at 40,12 in "Print"",
 * "move to 300,200 in "Editor"". */
char *session_event_describe (const SessionEvent *ev);

/* Gestures: what a hand does in one go. Indices are *action* numbers
 * (positions in session_get_actions), not event indices. */
typedef enum
{
  SESSION_GESTURE_KEYSTROKE,   /* a key (with the modifiers held around it) */
  SESSION_GESTURE_CLICK,       /* button press + release, no motion between */
  SESSION_GESTURE_DRAG,        /* press, motion, release */
  SESSION_GESTURE_MOTION,      /* a run of motion with no button held */
  SESSION_GESTURE_DROP,        /* a drop from another app */
  SESSION_GESTURE_OTHER,       /* a release whose press is not in the session, with no
                                * stroke before it (after one, it joins that one) */
} SessionGestureKind;

typedef struct
{
  SessionGestureKind kind;
  GArray *actions;             /* of guint: action numbers, ascending */
} SessionGesture;

/* Partition of all actions into gestures, ordered by first action. A
 * keystroke with modifiers (Alt+P = Alt_L press, p press, p release,
 * Alt_L release) is one gesture. Free with g_ptr_array_unref. */
GPtrArray *session_get_gestures (const Session *session);
const char *session_gesture_kind_to_string (SessionGestureKind kind);

/* Phrases: the steps a person would name: a run of typing (until Return, Tab or Escape, which belong to it, or a
 * click, another key, a focus change, a pause over a second), a key or
 * chord with its repeats, a click (double click, wheel notches) with the
 * pointer motion that led to it, a drag, motion. The top level of the
 * reducer's hierarchy and the steps of reports. */
typedef enum
{
  SESSION_PHRASE_TYPE,         /* typing, maybe ended by Return, Tab or Escape */
  SESSION_PHRASE_KEY,          /* a key or a chord, maybe pressed several times */
  SESSION_PHRASE_CLICK,        /* (motion and) a click, double click or scroll */
  SESSION_PHRASE_DRAG,         /* (motion and) a drag */
  SESSION_PHRASE_MOTION,       /* pointer motion that leads to no click */
  SESSION_PHRASE_DROP,         /* a drop from another app */
  SESSION_PHRASE_OTHER,        /* unpaired presses or releases */
} SessionPhraseKind;

typedef struct
{
  SessionPhraseKind kind;
  GArray *actions;             /* of guint: action numbers, ascending */
} SessionPhrase;

/* Partition of all actions into phrases, ordered by first action. Free
 * with g_ptr_array_unref. */
GPtrArray *session_get_phrases (const Session *session);
const char *session_phrase_kind_to_string (SessionPhraseKind kind);

/* Return, Tab or Escape (KP_Enter, ISO_Left_Tab): a key that ends a run
 * of typing, and belongs to it. */
gboolean session_keysym_is_terminator (const char *keysym);

/* Where words go: each quotes the session's text (typed text, titles)
 * for its destination (quote.h). */
typedef enum
{
  SESSION_WORDS_TERMINAL,      /* one line, control characters escaped */
  SESSION_WORDS_MARKDOWN,      /* one line of Markdown, typed text in code spans */
} SessionWords;

/* "Type `kill -SEGV $PPID` and press Return in "bash"", "Press Alt+P",
 * "Double-click at 40,12 in "Files"", "Drag from 10,10 to 90,40 in
 * "Editor"": the phrase in words, without a final period. Releases that
 * xreduce added (SessionEvent.added) are not mentioned. */
char *session_phrase_describe (const Session *session, const SessionPhrase *phrase,
                               SessionWords words);
/* The same for each of @phrases (the session's, session_get_phrases()),
 * in time linear in the session: an array of strings. */
GPtrArray *session_describe_phrases (const Session *session, const GPtrArray *phrases,
                                     SessionWords words);

/* "action 5", "actions 2-11", "actions 2-4, 7": @actions (ascending,
 * 0-based action numbers) counted from 1. */
char *session_describe_actions (const GArray *actions);
/* Every phrase in words, numbered, one a line ("  1. Type ..."), with its
 * action numbers if @with_actions, and a last line for the releases
 * xreduce added. */
char *session_describe_steps (const Session *session, SessionWords words,
                              gboolean with_actions);

G_END_DECLS
