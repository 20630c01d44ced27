/* header.h — what a session's header says of the display (its keymap, its
 * window manager) and of the app's world (its variables), for both of
 * xrecord's modes: the app it runs (recorder.c) and every app on the
 * display (all.c), whose world /proc tells.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <X11/Xlib.h>

#include "session.h"

G_BEGIN_DECLS

/* "us", or "de(nodeadkeys)": from the root's _XKB_RULES_NAMES; "us" if
 * the server says nothing. */
char *rec_header_keymap (Display *dpy);
/* The window manager's name, as it says it, or NULL. */
char *rec_header_wm_name (Display *dpy);
/* Adds to @header the variables of @envp (NAME=value) that shape an app's
 * behaviour and are no secret: the default list (session-world.h) and
 * @record_env's names (--record-env; may be NULL), by name; what cannot
 * be recorded is said. Returns how many were added. */
guint rec_header_add_env (Session *header, const char *const *envp,
                          const char *const *record_env);

/* The header of the sessions of another's process @pid on @dpy (xrecord
 * --all): the display's screen and @keymap, the host, today, the window
 * manager; the app's command (/proc/PID/cmdline), folder, HOME and
 * variables (its environ, as rec_header_add_env) as /proc tells them now.
 * *@argv: its command line (NULL if /proc says nothing: it is gone). */
Session *rec_header_of_process (Display *dpy, pid_t pid, const char *keymap,
                                const char *const *record_env, char ***argv);

G_END_DECLS
