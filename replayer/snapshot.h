/* snapshot.h — pictures of the replay screen for bug reports: the root
 * window as an RGB image, the action marked on it (a ring at the pointer,
 * a caption such as "3. press Alt_L"), saved as PNG with libpng, and a
 * contact sheet of all steps.
 *
 * Annotation draws with the X server itself (a pixmap, the core "fixed"
 * font every server has built in), so there is no font code here.
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct Snapshot Snapshot;

/* The whole screen of @dpy. */
Snapshot *snapshot_take (Display *dpy, GError **error);
void snapshot_free (Snapshot *snapshot);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Snapshot, snapshot_free)

int snapshot_get_width (const Snapshot *snapshot);
int snapshot_get_height (const Snapshot *snapshot);

/* Marks the pointer at @x,@y (root coordinates; -1 for none) and writes
 * @caption (or NULL) in a box near it. */
gboolean snapshot_annotate (Snapshot *snapshot, Display *dpy, int x, int y,
                            const char *caption, GError **error);

gboolean snapshot_save_png (const Snapshot *snapshot, const char *path,
                            GError **error);

/* One PNG with every snapshot shrunk, in reading order, each with its
 * caption underneath. */
gboolean snapshot_save_contact_sheet (GPtrArray *snapshots, const char *const *captions,
                                      Display *dpy, const char *path,
                                      GError **error);

G_END_DECLS
