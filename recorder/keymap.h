/* keymap.h — the layout the recording server's keys really have, for the
 * session's keymap line (keymap.c says how it is checked). */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>

G_BEGIN_DECLS

/* "us", "de(nodeadkeys)", "us,ru": the layout and variant whose keymap
 * gives @dpy's keys; @host_display, or NULL, is the display a nested
 * server runs on (it may have taken its keys). Newly allocated. */
char *keymap_describe (Display *dpy, const char *host_display);

G_END_DECLS
