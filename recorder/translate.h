/* translate.h — from recorded wire events to session log records.
 *
 * Device events become user actions when they are aimed at the app: a key
 * goes to the app's focused window, a button or motion to the app's window
 * under the pointer (or holding the pointer, while a button pressed on it
 * is held). Everything else the user did is dropped: keys typed into
 * another client never reach the log. Events the server delivered to the
 * app become server records.
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>

#include "session.h"
#include "toplevels.h"

G_BEGIN_DECLS

typedef struct Translator Translator;

typedef enum
{
  TRANSLATE_SKIP,          /* nothing to write */
  TRANSLATE_EVENT,         /* *out holds a record to write */
  TRANSLATE_STOP,          /* the stop key: end the recording */
} TranslateResult;

/* @dpy: the tracker connection (keymap, atom names); @stop_key: NoSymbol
 * for none. */
Translator *translator_new (Display *dpy, Toplevels *tops, KeySym stop_key);
void translator_free (Translator *translator);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Translator, translator_free)

/* A device event (KeyPress ... MotionNotify). The strings of *out belong
 * to the translator until the next call. */
TranslateResult translator_device (Translator *translator, const xEvent *ev,
                                   guint64 time_ms, SessionEvent *out);
/* After a TRANSLATE_EVENT of translator_device: the app the action was
 * aimed at (ToplevelTarget.app_pid; toplevels_set_all). */
pid_t translator_get_app_pid (Translator *translator);
/* An event delivered to one of the app's clients. */
TranslateResult translator_delivered (Translator *translator, const xEvent *ev,
                                      guint64 time_ms, SessionEvent *out);
/* An event delivered to the tracker connection: keeps the keyboard
 * mapping current. */
void translator_tracker_event (Translator *translator, const xEvent *ev);
/* A core request of a recorded client, in stream order: a
 * ChangeKeyboardMapping (xdotool binding a spare key to each character
 * it types, xmodmap) sets what its keys produce for the key events after
 * it in the stream, whatever the server's map is by the time the
 * recorder reads them. A key given back (all NoSymbol) is looked up in
 * the server's map again; so is every key a client changed through XKB
 * (setxkbmap), unless a core request bound it before: that binding stays.
 * Any other request is ignored. */
void translator_keymap_request (Translator *translator, const guint8 *data, gsize len);

G_END_DECLS
