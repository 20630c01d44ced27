/* snapshot.h — pictures of the replay screen for bug reports: the root
 * window as an RGB image; a step's picture cropped to the app's windows,
 * the pointer and the action's target marked, its caption ("3. Press
 * Alt+P") in a band above it; saved as PNG with libpng; a contact sheet
 * of all steps.
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

/* What to mark on a step's picture, in root coordinates. */
typedef struct
{
  int pointer_x, pointer_y;  /* where the pointer is (-1: unknown) */
  int target_x, target_y;    /* where a pointer action lands (-1: a key) */
  XRectangle target;         /* the window the action aims at (width 0: none) */
  const XRectangle *windows; /* the app's windows: what the picture shows */
  guint n_windows;
} SnapshotMarks;

/* The picture of a step: @screen (snapshot_take()) cropped to the app's
 * windows and the target (the whole screen if none is known) with a
 * margin, the pointer drawn as an arrow, the target as a ring (or, for a
 * key, its window outlined), and @caption in a band above the picture,
 * outside it. *@marked (if not NULL) gets the same picture without the
 * band. */
Snapshot *snapshot_step_picture (const Snapshot *screen, Display *dpy,
                                 const SnapshotMarks *marks, const char *caption,
                                 Snapshot **marked, GError **error);

gboolean snapshot_save_png (const Snapshot *snapshot, const char *path,
                            GError **error);

/* One PNG with every snapshot shrunk to fit a 400x300 cell, in reading
 * order, each with its caption underneath. */
gboolean snapshot_save_contact_sheet (GPtrArray *snapshots, const char *const *captions,
                                      Display *dpy, const char *path,
                                      GError **error);

G_END_DECLS
