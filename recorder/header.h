/* header.h — what a session's header says of the display (its window
 * manager; the keymap is keymap.h's) and of the app's world (its
 * variables), for both of xrecord's modes: the app it runs (recorder.c)
 * and every app on the display (all.c), whose world /proc tells.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <X11/Xlib.h>

#include "session.h"

G_BEGIN_DECLS

/* Where and when, as both modes' headers say it: @cwd, the app's folder
 * (when it is absolute and valid UTF-8; may be NULL), the host, today's
 * date and the window manager of @dpy, as it says its name. */
void rec_header_set_place (Session *header, Display *dpy, const char *cwd);
/* The desktop's double click and key repeat (XSETTINGS, the keyboard),
 * as the session's desktop line: the replay keeps them so. */
void rec_header_set_desktop (Session *header, Display *dpy);
/* Adds to @header the variables of @envp (NAME=value) that shape an app's
 * behaviour and are no secret: the default list (session-world.h) and
 * @record_env's names (--record-env; may be NULL), by name; what cannot
 * be recorded is said. Returns how many were added. */
guint rec_header_add_env (Session *header, const char *const *envp,
                          const char *const *record_env);

/* The header of the sessions of another's process @pid on @dpy (xrecord
 * --all): the display's screen, @keymap and desktop line, the host, today, the window
 * manager; the app's command (/proc/PID/cmdline), folder, HOME and
 * variables (its environ, as rec_header_add_env) as /proc tells them now.
 * *@argv: its command line (NULL if /proc says nothing: it is gone). */
Session *rec_header_of_process (Display *dpy, pid_t pid, const char *keymap,
                                const char *const *record_env, char ***argv);

G_END_DECLS
