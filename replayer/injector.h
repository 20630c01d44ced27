/* injector.h — user input through XTest, and the keyboard state around it.
 *
 * Only XTest: toolkits such as GTK ignore XSendEvent's synthetic events.
 * Keys are replayed by keysym name: the keysym's keycode on *this* server
 * (the recording server's keycode is used only when the name is not a
 * keysym Xlib knows). A keysym with no keycode here is bound, before the
 * app starts, to a spare keycode (one with no symbols) on both levels, and
 * the mapping is restored by injector_restore_keymap().
 *
 * Modifiers: the recorded modifier keys are replayed as key events of their
 * own (Alt_L press, p press, ...), so a key is normally sent as its bare
 * keycode. One exception: a keysym only found at the shifted level (say
 * "exclam" typed on a layout where it is unshifted), pressed while neither
 * the recording nor the replay holds Shift, is wrapped in a Shift_L press
 * and release, so that the app reads the keysym that was recorded.
 *
 * The injector remembers what it holds down, to release it at the end.
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>
#include "session.h"

G_BEGIN_DECLS

typedef struct Injector Injector;

/* @dpy is not owned. @log (or NULL) receives verbose notes. */
Injector *injector_new (Display *dpy, void (*log) (const char *message, gpointer data),
                        gpointer log_data);
void injector_free (Injector *injector);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Injector, injector_free)

/* Releases every key XQueryKeymap shows down and every button
 * XQueryPointer shows down, and unlocks Caps Lock and Num Lock: the server
 * may be reused after a replay that was killed with keys held. */
void injector_reset_input (Injector *injector);

/* Binds every keysym of @session's key actions that has no keycode on this
 * server to a spare keycode. Returns how many were bound. */
guint injector_bind_keysyms (Injector *injector, const Session *session);
/* Puts back the mapping of the keycodes injector_bind_keysyms() used. */
void injector_restore_keymap (Injector *injector);

/* The next request (the next action's first) carries XTest's delay:
 * the X server makes its event @ms after it read the request, by its
 * own clock, and holds this connection's later requests until then (a
 * round trip waits for it too). Its events' times are the server's, so
 * events queued together keep their gaps whenever the client runs. */
void injector_delay (Injector *injector, guint ms);

/* Injects one key action; FALSE (and nothing sent) if the keysym has no
 * keycode and none could be bound. */
gboolean injector_key (Injector *injector, const SessionEvent *ev);
void injector_button (Injector *injector, guint button, gboolean press);
/* Moves the pointer to @x,@y on the root window (screen 0). */
void injector_motion (Injector *injector, int x, int y);

/* Releases every key and button this injector pressed and has not
 * released (in reverse order). */
void injector_release_all (Injector *injector);

/* Called on MappingNotify: refreshes Xlib's keymap cache. */
void injector_refresh (Injector *injector, XEvent *ev);

G_END_DECLS
