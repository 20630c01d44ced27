/* snapshot.h — pictures of the replay screen for bug reports: the root
 * window as an RGB image; a step's picture cropped to the app's windows,
 * the pointer and the action's target marked, its caption ("3. Press
 * Alt+P") in a band above it; saved as PNG with libpng; a contact sheet
 * of all steps.
 *
 * The marks are drawn by the X server (a pixmap); captions are UTF-8 text
 * drawn with pango on cairo, in SNAPSHOT_CAPTION_FONT.
 */
#pragma once

#include <X11/Xlib.h>
#include <cairo.h>
#include <glib.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

typedef struct Snapshot Snapshot;

/* A black picture of @width x @height. */
Snapshot *snapshot_new (int width, int height);

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

/* The caption band: @caption (UTF-8, one line; ellipsized past
 * SNAPSHOT_CAPTION_MAX_WIDTH) in white on red, at (PAD_X, PAD_Y) of a band
 * as high as the text and twice PAD_Y, above @picture. */
#define SNAPSHOT_CAPTION_FONT "DejaVu Sans, Sans 10"
#define SNAPSHOT_CAPTION_PAD_X 8
#define SNAPSHOT_CAPTION_PAD_Y 5
#define SNAPSHOT_CAPTION_MAX_WIDTH 1600
Snapshot *snapshot_add_caption (const Snapshot *picture, const char *caption, GError **error);

/* The layout a caption is drawn with (the font, antialiased, no hinting;
 * ellipsized at @max_width pixels if > 0): for the tests to draw the same. */
PangoLayout *snapshot_caption_layout (cairo_t *cr, const char *caption, int max_width);

/* The end of a replay that failed: @picture (the last screen the app
 * showed) in a red frame, @badge ("SIGSEGV") in white on red in its top
 * left corner. */
#define SNAPSHOT_END_FRAME 6
Snapshot *snapshot_mark_end (const Snapshot *picture, const char *badge, GError **error);

/* The pixel at @x, @y as 0xRRGGBB. */
guint32 snapshot_get_pixel (const Snapshot *snapshot, int x, int y);

gboolean snapshot_save_png (const Snapshot *snapshot, const char *path,
                            GError **error);

/* One PNG with every snapshot shrunk to fit a 400x300 cell (filtered), in
 * reading order, each with its caption underneath. */
gboolean snapshot_save_contact_sheet (GPtrArray *snapshots, const char *const *captions,
                                      const char *path, GError **error);

/* An animated GIF (giflib) of @frames (pictures with their caption
 * bands), frame i shown @delays_cs[i] hundredths of a second, looping;
 * scaled down to fit SNAPSHOT_GIF_MAX_WIDTH x _HEIGHT. A new 0600 file. */
#define SNAPSHOT_GIF_MAX_WIDTH 960
#define SNAPSHOT_GIF_MAX_HEIGHT 720
gboolean snapshot_save_gif (GPtrArray *frames, const guint *delays_cs, const char *path,
                            GError **error);

/* pango's font map and its fonts are let go: once no caption will be
 * drawn again in this process (a leak checker counts them). */
void snapshot_release_fonts (void);

G_END_DECLS
