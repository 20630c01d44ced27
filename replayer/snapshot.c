/* snapshot.c — screenshots as PNG (libpng), with the action marked.
 *
 * Images live here as packed RGB bytes. The marks (pointer, ring,
 * outline) are drawn by the server on a pixmap (to_pixmap, from_drawable);
 * text and scaling are cairo's and pango's (to_surface, from_surface):
 * UTF-8 captions in any script the fonts cover, antialiased, and pictures
 * shrunk with a filter.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "snapshot.h"
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gif_lib.h>
#include <png.h>
#include <X11/Xutil.h>
#include <gio/gio.h>

/* Around what a step picture shows. */
#define SNAPSHOT_MARGIN 24

struct Snapshot
{
  int width, height;
  guint8 *rgb;   /* width * height * 3 */
};

void
snapshot_free (Snapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  g_free (snapshot->rgb);
  g_free (snapshot);
}

int
snapshot_get_width (const Snapshot *snapshot)
{
  return snapshot->width;
}

int
snapshot_get_height (const Snapshot *snapshot)
{
  return snapshot->height;
}

guint32
snapshot_get_pixel (const Snapshot *snapshot, int x, int y)
{
  const guint8 *p = snapshot->rgb + ((gsize) y * snapshot->width + x) * 3;

  return ((guint32) p[0] << 16) | ((guint32) p[1] << 8) | p[2];
}

Snapshot *
snapshot_new (int width, int height)
{
  Snapshot *snapshot = g_new0 (Snapshot, 1);

  snapshot->width = width;
  snapshot->height = height;
  snapshot->rgb = g_malloc0 ((gsize) width * height * 3);
  return snapshot;
}

static int
mask_shift (unsigned long mask)
{
  int shift = 0;

  if (mask == 0)
    return 0;
  while ((mask & 1) == 0)
    {
      mask >>= 1;
      shift++;
    }
  return shift;
}

static guint8
channel (unsigned long pixel, unsigned long mask)
{
  unsigned long max = mask >> mask_shift (mask);
  unsigned long value = (pixel & mask) >> mask_shift (mask);

  return max == 0 ? 0 : (guint8) (value * 255 / max);
}

/* Reads the @width x @height area at @x0,@y0 of @drawable (of the default
 * visual's depth) into a new Snapshot. */
static Snapshot *
from_drawable_area (Display *dpy, Drawable drawable, int x0, int y0, int width, int height,
                    GError **error)
{
  Visual *visual = DefaultVisual (dpy, DefaultScreen (dpy));
  XImage *image = XGetImage (dpy, drawable, x0, y0, width, height, AllPlanes, ZPixmap);
  Snapshot *snapshot;

  if (image == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot read the screen image");
      return NULL;
    }
  if (visual->class != TrueColor && visual->class != DirectColor)
    {
      XDestroyImage (image);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "screenshots need a TrueColor visual");
      return NULL;
    }
  snapshot = snapshot_new (width, height);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        unsigned long pixel = XGetPixel (image, x, y);
        guint8 *p = snapshot->rgb + ((gsize) y * width + x) * 3;
        p[0] = channel (pixel, visual->red_mask);
        p[1] = channel (pixel, visual->green_mask);
        p[2] = channel (pixel, visual->blue_mask);
      }
  XDestroyImage (image);
  return snapshot;
}

static Snapshot *
from_drawable (Display *dpy, Drawable drawable, int width, int height, GError **error)
{
  return from_drawable_area (dpy, drawable, 0, 0, width, height, error);
}

Snapshot *
snapshot_take (Display *dpy, GError **error)
{
  int screen = DefaultScreen (dpy);

  return from_drawable (dpy, RootWindow (dpy, screen), DisplayWidth (dpy, screen),
                        DisplayHeight (dpy, screen), error);
}

static unsigned long
pixel_of (Visual *visual, guint8 r, guint8 g, guint8 b)
{
  unsigned long pixel = 0;
  const unsigned long masks[3] = { visual->red_mask, visual->green_mask, visual->blue_mask };
  const guint8 values[3] = { r, g, b };

  for (int c = 0; c < 3; c++)
    {
      unsigned long max = masks[c] >> mask_shift (masks[c]);
      pixel |= ((values[c] * max / 255) << mask_shift (masks[c])) & masks[c];
    }
  return pixel;
}

/* Uploads @snapshot to a new pixmap. */
static Pixmap
to_pixmap (Display *dpy, const Snapshot *snapshot)
{
  int screen = DefaultScreen (dpy);
  Visual *visual = DefaultVisual (dpy, screen);
  int depth = DefaultDepth (dpy, screen);
  Pixmap pixmap = XCreatePixmap (dpy, RootWindow (dpy, screen), snapshot->width,
                                 snapshot->height, depth);
  GC gc = XCreateGC (dpy, pixmap, 0, NULL);
  XImage *image = XCreateImage (dpy, visual, depth, ZPixmap, 0, NULL, snapshot->width,
                                snapshot->height, 32, 0);

  image->data = g_malloc ((gsize) image->bytes_per_line * snapshot->height);
  for (int y = 0; y < snapshot->height; y++)
    for (int x = 0; x < snapshot->width; x++)
      {
        const guint8 *p = snapshot->rgb + ((gsize) y * snapshot->width + x) * 3;
        XPutPixel (image, x, y, pixel_of (visual, p[0], p[1], p[2]));
      }
  XPutImage (dpy, pixmap, gc, image, 0, 0, 0, 0, snapshot->width, snapshot->height);
  g_free (image->data);
  image->data = NULL;
  XDestroyImage (image);
  XFreeGC (dpy, gc);
  return pixmap;
}

/* A ring with a cross hair: where the action lands. */
static void
draw_target (Display *dpy, Drawable d, GC gc, int x, int y)
{
  Visual *visual = DefaultVisual (dpy, DefaultScreen (dpy));

  XSetLineAttributes (dpy, gc, 3, LineSolid, CapRound, JoinRound);
  XSetForeground (dpy, gc, pixel_of (visual, 0xff, 0x20, 0x20));
  XDrawArc (dpy, d, gc, x - 14, y - 14, 28, 28, 0, 360 * 64);
  XSetLineAttributes (dpy, gc, 1, LineSolid, CapButt, JoinMiter);
  XDrawLine (dpy, d, gc, x - 20, y, x - 6, y);
  XDrawLine (dpy, d, gc, x + 6, y, x + 20, y);
  XDrawLine (dpy, d, gc, x, y - 20, x, y - 6);
  XDrawLine (dpy, d, gc, x, y + 6, x, y + 20);
}

/* An arrow, white with a black edge, its tip at @x,@y: the pointer. */
static void
draw_pointer (Display *dpy, Drawable d, GC gc, int x, int y)
{
  Visual *visual = DefaultVisual (dpy, DefaultScreen (dpy));
  static const short shape[][2] = { { 0, 0 }, { 0, 17 }, { 4, 13 }, { 8, 21 }, { 11, 20 },
                                    { 7, 12 }, { 12, 12 }, { 0, 0 } };
  XPoint points[G_N_ELEMENTS (shape)];

  for (gsize i = 0; i < G_N_ELEMENTS (shape); i++)
    points[i] = (XPoint) { (short) (x + shape[i][0]), (short) (y + shape[i][1]) };
  XSetForeground (dpy, gc, pixel_of (visual, 0xff, 0xff, 0xff));
  XFillPolygon (dpy, d, gc, points, G_N_ELEMENTS (points), Nonconvex, CoordModeOrigin);
  XSetLineAttributes (dpy, gc, 1, LineSolid, CapButt, JoinMiter);
  XSetForeground (dpy, gc, pixel_of (visual, 0, 0, 0));
  XDrawLines (dpy, d, gc, points, G_N_ELEMENTS (points), CoordModeOrigin);
}

/* @rect grown to hold @x,@y. */
static void
rect_add_point (XRectangle *rect, gboolean *empty, int x, int y)
{
  int x1, y1, x2, y2;

  if (*empty)
    {
      *rect = (XRectangle) { (short) x, (short) y, 1, 1 };
      *empty = FALSE;
      return;
    }
  x1 = MIN (rect->x, x);
  y1 = MIN (rect->y, y);
  x2 = MAX (rect->x + rect->width, x + 1);
  y2 = MAX (rect->y + rect->height, y + 1);
  *rect = (XRectangle) { (short) x1, (short) y1, (unsigned short) (x2 - x1),
                         (unsigned short) (y2 - y1) };
}

static void
rect_add (XRectangle *rect, gboolean *empty, const XRectangle *other)
{
  if (other->width == 0 || other->height == 0)
    return;
  rect_add_point (rect, empty, other->x, other->y);
  rect_add_point (rect, empty, other->x + other->width - 1, other->y + other->height - 1);
}

/* What a step's picture shows: the app's windows, what the action aims
 * at, and the pointer if it is near them, with a margin; the whole screen
 * when nothing is known. */
static XRectangle
crop_area (const SnapshotMarks *marks, int screen_w, int screen_h)
{
  XRectangle area = { 0 };
  gboolean empty = TRUE;
  int x1, y1, x2, y2;

  for (guint i = 0; i < marks->n_windows; i++)
    rect_add (&area, &empty, &marks->windows[i]);
  rect_add (&area, &empty, &marks->target);
  if (marks->target_x >= 0 && marks->target_y >= 0)
    rect_add_point (&area, &empty, marks->target_x, marks->target_y);
  if (empty)
    return (XRectangle) { 0, 0, (unsigned short) screen_w, (unsigned short) screen_h };
  if (marks->pointer_x >= area.x - 100 && marks->pointer_x < area.x + area.width + 100
      && marks->pointer_y >= area.y - 100 && marks->pointer_y < area.y + area.height + 100)
    rect_add_point (&area, &empty, marks->pointer_x + 12, marks->pointer_y + 21);
  x1 = MAX (0, area.x - SNAPSHOT_MARGIN);
  y1 = MAX (0, area.y - SNAPSHOT_MARGIN);
  x2 = MIN (screen_w, area.x + area.width + SNAPSHOT_MARGIN);
  y2 = MIN (screen_h, area.y + area.height + SNAPSHOT_MARGIN);
  return (XRectangle) { (short) x1, (short) y1, (unsigned short) MAX (1, x2 - x1),
                        (unsigned short) MAX (1, y2 - y1) };
}

/* ---- cairo and pango: text and scaling ---- */

/* @snapshot as a cairo image (a copy: cairo's rows are 32-bit xRGB). */
static cairo_surface_t *
to_surface (const Snapshot *snapshot)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, snapshot->width,
                                                         snapshot->height);
  guint8 *data;
  int stride;

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return surface;
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < snapshot->height; y++)
    {
      guint32 *row = (guint32 *) (data + (gsize) y * stride);
      const guint8 *s = snapshot->rgb + (gsize) y * snapshot->width * 3;

      for (int x = 0; x < snapshot->width; x++, s += 3)
        row[x] = ((guint32) s[0] << 16) | ((guint32) s[1] << 8) | s[2];
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

static Snapshot *
from_surface (cairo_surface_t *surface, GError **error)
{
  int width = cairo_image_surface_get_width (surface);
  int height = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data;
  Snapshot *snapshot;

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot draw a picture: %s",
                   cairo_status_to_string (cairo_surface_status (surface)));
      return NULL;
    }
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  snapshot = snapshot_new (width, height);
  for (int y = 0; y < height; y++)
    {
      const guint32 *row = (const guint32 *) (data + (gsize) y * stride);
      guint8 *d = snapshot->rgb + (gsize) y * width * 3;

      for (int x = 0; x < width; x++, d += 3)
        {
          d[0] = (guint8) (row[x] >> 16);
          d[1] = (guint8) (row[x] >> 8);
          d[2] = (guint8) row[x];
        }
    }
  return snapshot;
}

PangoLayout *
snapshot_caption_layout (cairo_t *cr, const char *caption, int max_width)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (SNAPSHOT_CAPTION_FONT);
  cairo_font_options_t *options = cairo_font_options_create ();

  /* Antialiased grey, no hinting quirks of the machine it runs on: the
   * same caption is the same pixels everywhere the font is. */
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (pango_layout_get_context (layout), options);
  pango_layout_context_changed (layout);
  cairo_font_options_destroy (options);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, caption, -1);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  if (max_width > 0)
    {
      pango_layout_set_width (layout, max_width * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  return layout;
}

/* The size @caption takes in the caption font. */
static void
caption_size (const char *caption, int max_width, int *width, int *height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (PangoLayout) layout = snapshot_caption_layout (cr, caption, max_width);

  pango_layout_get_pixel_size (layout, width, height);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

Snapshot *
snapshot_add_caption (const Snapshot *picture, const char *caption, GError **error)
{
  int text_w, text_h, band_h, width;
  cairo_surface_t *surface, *below;
  cairo_t *cr;
  Snapshot *result;

  caption_size (caption, SNAPSHOT_CAPTION_MAX_WIDTH, &text_w, &text_h);
  band_h = text_h + 2 * SNAPSHOT_CAPTION_PAD_Y;
  width = MAX (picture->width, text_w + 2 * SNAPSHOT_CAPTION_PAD_X);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, band_h + picture->height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 0x30 / 255.0, 0x30 / 255.0, 0x30 / 255.0);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0xb0 / 255.0, 0x10 / 255.0, 0x10 / 255.0);
  cairo_rectangle (cr, 0, 0, width, band_h);
  cairo_fill (cr);
  below = to_surface (picture);
  cairo_set_source_surface (cr, below, 0, band_h);
  cairo_paint (cr);
  cairo_surface_destroy (below);
  {
    g_autoptr (PangoLayout) layout = snapshot_caption_layout (cr, caption,
                                                              SNAPSHOT_CAPTION_MAX_WIDTH);
    cairo_set_source_rgb (cr, 1, 1, 1);
    cairo_move_to (cr, SNAPSHOT_CAPTION_PAD_X, SNAPSHOT_CAPTION_PAD_Y);
    pango_cairo_show_layout (cr, layout);
  }
  cairo_destroy (cr);
  result = from_surface (surface, error);
  cairo_surface_destroy (surface);
  return result;
}

Snapshot *
snapshot_mark_end (const Snapshot *picture, const char *badge, GError **error)
{
  cairo_surface_t *surface = to_surface (picture);
  cairo_t *cr = cairo_create (surface);
  Snapshot *result;

  cairo_set_source_rgb (cr, 0xd0 / 255.0, 0x10 / 255.0, 0x10 / 255.0);
  cairo_set_line_width (cr, SNAPSHOT_END_FRAME);
  cairo_rectangle (cr, SNAPSHOT_END_FRAME / 2.0, SNAPSHOT_END_FRAME / 2.0,
                   picture->width - SNAPSHOT_END_FRAME, picture->height - SNAPSHOT_END_FRAME);
  cairo_stroke (cr);
  if (badge != NULL && *badge != '\0')
    {
      g_autoptr (PangoLayout) layout = snapshot_caption_layout (cr, badge, picture->width / 2);
      int w, h;

      pango_layout_get_pixel_size (layout, &w, &h);
      cairo_rectangle (cr, SNAPSHOT_END_FRAME, SNAPSHOT_END_FRAME,
                       w + 2 * SNAPSHOT_CAPTION_PAD_X, h + 2 * SNAPSHOT_CAPTION_PAD_Y);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, SNAPSHOT_END_FRAME + SNAPSHOT_CAPTION_PAD_X,
                     SNAPSHOT_END_FRAME + SNAPSHOT_CAPTION_PAD_Y);
      pango_cairo_show_layout (cr, layout);
    }
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  result = from_surface (surface, error);
  cairo_surface_destroy (surface);
  return result;
}

Snapshot *
snapshot_step_picture (const Snapshot *screen, Display *dpy, const SnapshotMarks *marks,
                       const char *caption, Snapshot **marked, GError **error)
{
  XRectangle area = crop_area (marks, screen->width, screen->height);
  Pixmap pixmap = to_pixmap (dpy, screen);
  GC gc = XCreateGC (dpy, pixmap, 0, NULL);
  Visual *visual = DefaultVisual (dpy, DefaultScreen (dpy));
  g_autoptr (Snapshot) cropped = NULL;

  /* A key goes to a window: outline it; a pointer action lands on a point. */
  if (marks->target_x < 0 && marks->target.width > 0)
    {
      XSetLineAttributes (dpy, gc, 3, LineOnOffDash, CapButt, JoinMiter);
      XSetForeground (dpy, gc, pixel_of (visual, 0xff, 0x20, 0x20));
      XDrawRectangle (dpy, pixmap, gc, marks->target.x + 1, marks->target.y + 1,
                      MAX (marks->target.width, 3) - 3, MAX (marks->target.height, 3) - 3);
    }
  if (marks->target_x >= 0 && marks->target_y >= 0)
    draw_target (dpy, pixmap, gc, marks->target_x, marks->target_y);
  if (marks->pointer_x >= 0 && marks->pointer_y >= 0)
    draw_pointer (dpy, pixmap, gc, marks->pointer_x, marks->pointer_y);
  cropped = from_drawable_area (dpy, pixmap, area.x, area.y, area.width, area.height, error);
  XFreeGC (dpy, gc);
  XFreePixmap (dpy, pixmap);
  if (cropped == NULL)
    return NULL;
  {
    Snapshot *result = snapshot_add_caption (cropped, caption, error);

    if (result != NULL && marked != NULL)
      *marked = g_steal_pointer (&cropped);
    return result;
  }
}

gboolean
snapshot_save_png (const Snapshot *snapshot, const char *path, GError **error)
{
  g_autofree char *tmp = NULL;
  /* A picture of what the user typed: a new 0600 file (output.h). */
  int fd = output_file_create_temp (path, OUTPUT_FILE_MODE, &tmp, error);
  FILE *file = fd >= 0 ? fdopen (fd, "wb") : NULL;
  png_structp png = NULL;
  png_infop info = NULL;
  g_autofree png_bytep *rows = NULL;

  if (fd < 0)
    return FALSE;
  if (file == NULL)
    {
      int saved = errno;
      close (fd);
      remove (tmp);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png != NULL ? png_create_info_struct (png) : NULL;
  if (png == NULL || info == NULL || setjmp (png_jmpbuf (png)))
    {
      /* libpng's "Write Error" is a failed fwrite: say why (a full disk). */
      int saved = errno;
      gboolean io = ferror (file);

      png_destroy_write_struct (&png, &info);
      fclose (file);
      remove (tmp);
      if (io && saved != 0)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                     g_strerror (saved));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot write PNG", path);
      return FALSE;
    }
  png_init_io (png, file);
  png_set_IHDR (png, info, snapshot->width, snapshot->height, 8, PNG_COLOR_TYPE_RGB,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level (png, 6);
  png_write_info (png, info);
  rows = g_new (png_bytep, snapshot->height);
  for (int y = 0; y < snapshot->height; y++)
    rows[y] = snapshot->rgb + (gsize) y * snapshot->width * 3;
  png_write_image (png, rows);
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  if (fclose (file) != 0)
    {
      int saved = errno;
      remove (tmp);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  return output_file_rename (tmp, path, error);
}

gboolean
snapshot_save_contact_sheet (GPtrArray *snapshots, const char *const *captions,
                             const char *path, GError **error)
{
  const int caption_h = 20, gap = 8, max_w = 400, max_h = 300;
  g_autofree double *scales = NULL;
  g_autoptr (Snapshot) sheet = NULL;
  int cell_w = 0, cell_h = 0, cols, rows;
  cairo_surface_t *surface;
  cairo_t *cr;

  if (snapshots->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no pictures to put on a sheet");
      return FALSE;
    }
  /* Each picture scaled to fit a cell (never enlarged), filtered. */
  scales = g_new (double, snapshots->len);
  for (guint i = 0; i < snapshots->len; i++)
    {
      const Snapshot *one = g_ptr_array_index (snapshots, i);

      scales[i] = MIN (1.0, MIN ((double) max_w / one->width, (double) max_h / one->height));
      cell_w = MAX (cell_w, (int) (one->width * scales[i] + 0.5));
      cell_h = MAX (cell_h, (int) (one->height * scales[i] + 0.5));
    }
  cell_w = MAX (cell_w, 160);
  cell_h += caption_h;
  cols = MIN ((int) snapshots->len, 4);
  rows = ((int) snapshots->len + cols - 1) / cols;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, gap + cols * (cell_w + gap),
                                        gap + rows * (cell_h + gap));
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 0xe8 / 255.0, 0xe8 / 255.0, 0xe8 / 255.0);
  cairo_paint (cr);
  for (guint i = 0; i < snapshots->len; i++)
    {
      const Snapshot *one = g_ptr_array_index (snapshots, i);
      cairo_surface_t *picture = to_surface (one);
      int x = gap + (int) (i % cols) * (cell_w + gap);
      int y = gap + (int) (i / cols) * (cell_h + gap);

      cairo_save (cr);
      cairo_translate (cr, x, y);
      cairo_rectangle (cr, 0, 0, one->width * scales[i], one->height * scales[i]);
      cairo_clip (cr);
      cairo_scale (cr, scales[i], scales[i]);
      cairo_set_source_surface (cr, picture, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_GOOD);
      cairo_paint (cr);
      cairo_restore (cr);
      cairo_surface_destroy (picture);
      if (captions != NULL && captions[i] != NULL)
        {
          g_autoptr (PangoLayout) layout = snapshot_caption_layout (cr, captions[i], cell_w);

          cairo_set_source_rgb (cr, 0x20 / 255.0, 0x20 / 255.0, 0x20 / 255.0);
          cairo_move_to (cr, x, y + cell_h - caption_h + 2);
          pango_cairo_show_layout (cr, layout);
        }
    }
  cairo_destroy (cr);
  sheet = from_surface (surface, error);
  cairo_surface_destroy (surface);
  return sheet != NULL && snapshot_save_png (sheet, path, error);
}

/* ---- the animated replay ---- */

/* @frames drawn one by one, top left, on a canvas as large as the largest
 * (scaled down to fit SNAPSHOT_GIF_MAX_*), each quantized to its own 256
 * colours (giflib's median cut): no dithering, which LZW compresses badly. */
/* giflib says "Failed to write to given file" where the disk said why
 * (errno, right after: ENOSPC). */
static const char *
gif_error_string (int gif_error, int saved_errno)
{
  if ((gif_error == E_GIF_ERR_WRITE_FAILED || gif_error == E_GIF_ERR_CLOSE_FAILED
       || gif_error == E_GIF_ERR_DISK_IS_FULL)
      && saved_errno != 0)
    return g_strerror (saved_errno);
  return GifErrorString (gif_error);
}

static int
gif_io_error (int gif_error, int saved_errno)
{
  if ((gif_error == E_GIF_ERR_WRITE_FAILED || gif_error == E_GIF_ERR_CLOSE_FAILED
       || gif_error == E_GIF_ERR_DISK_IS_FULL)
      && saved_errno != 0)
    return g_io_error_from_errno (saved_errno);
  return G_IO_ERROR_FAILED;
}

static gboolean
write_gif_frames (GifFileType *gif, GPtrArray *frames, const guint *delays_cs, int width,
                  int height, double scale, GError **error)
{
  cairo_surface_t *canvas = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  int saved = 0;
  g_autofree GifByteType *r = g_malloc ((gsize) width * height);
  g_autofree GifByteType *g = g_malloc ((gsize) width * height);
  g_autofree GifByteType *b = g_malloc ((gsize) width * height);
  g_autofree GifByteType *indexed = g_malloc ((gsize) width * height);
  gboolean ok = TRUE;

  for (guint i = 0; i < frames->len && ok; i++)
    {
      const Snapshot *frame = g_ptr_array_index (frames, i);
      cairo_surface_t *picture = to_surface (frame);
      cairo_t *cr = cairo_create (canvas);
      GraphicsControlBlock gcb = { .DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = false,
                                   .DelayTime = (int) delays_cs[i],
                                   .TransparentColor = NO_TRANSPARENT_COLOR };
      GifByteType extension[4];
      ColorMapObject *map = GifMakeMapObject (256, NULL);
      int colours = 256;
      const guint8 *data;
      int stride;

      cairo_set_source_rgb (cr, 0x30 / 255.0, 0x30 / 255.0, 0x30 / 255.0);
      cairo_paint (cr);
      cairo_scale (cr, scale, scale);
      cairo_set_source_surface (cr, picture, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_GOOD);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (picture);
      cairo_surface_flush (canvas);
      data = cairo_image_surface_get_data (canvas);
      stride = cairo_image_surface_get_stride (canvas);
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
          {
            guint32 px = ((const guint32 *) (data + (gsize) y * stride))[x];
            gsize at = (gsize) y * width + x;

            r[at] = (GifByteType) (px >> 16);
            g[at] = (GifByteType) (px >> 8);
            b[at] = (GifByteType) px;
          }
      EGifGCBToExtension (&gcb, extension);
      ok = map != NULL
           && GifQuantizeBuffer ((unsigned) width, (unsigned) height, &colours, r, g, b, indexed,
                                 map->Colors) == GIF_OK
           && EGifPutExtension (gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_OK
           && EGifPutImageDesc (gif, 0, 0, width, height, false, map) == GIF_OK;
      for (int y = 0; y < height && ok; y++)
        ok = EGifPutLine (gif, indexed + (gsize) y * width, width) == GIF_OK;
      saved = errno;
      GifFreeMapObject (map);
    }
  cairo_surface_destroy (canvas);
  if (!ok)
    g_set_error (error, G_IO_ERROR, gif_io_error (gif->Error, saved), "cannot write the GIF: %s",
                 gif_error_string (gif->Error, saved));
  return ok;
}

gboolean
snapshot_save_gif (GPtrArray *frames, const guint *delays_cs, const char *path, GError **error)
{
  g_autofree char *tmp = NULL;
  int width = 0, height = 0, fd, gif_error = 0;
  double scale;
  GifFileType *gif;
  gboolean ok;

  if (frames->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no frames for a GIF");
      return FALSE;
    }
  for (guint i = 0; i < frames->len; i++)
    {
      const Snapshot *frame = g_ptr_array_index (frames, i);
      width = MAX (width, frame->width);
      height = MAX (height, frame->height);
    }
  scale = MIN (1.0, MIN ((double) SNAPSHOT_GIF_MAX_WIDTH / width,
                         (double) SNAPSHOT_GIF_MAX_HEIGHT / height));
  width = MAX (1, (int) (width * scale));
  height = MAX (1, (int) (height * scale));

  /* What the user typed, again: a new 0600 file (output.h). */
  fd = output_file_create_temp (path, OUTPUT_FILE_MODE, &tmp, error);
  if (fd < 0)
    return FALSE;
  gif = EGifOpenFileHandle (fd, &gif_error);
  if (gif == NULL)
    {
      close (fd);
      remove (tmp);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                   GifErrorString (gif_error));
      return FALSE;
    }
  EGifSetGifVersion (gif, true);
  ok = EGifPutScreenDesc (gif, width, height, 8, 0, NULL) == GIF_OK
       /* Loops forever (the Netscape extension every browser reads). */
       && EGifPutExtensionLeader (gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK
       && EGifPutExtensionBlock (gif, 11, "NETSCAPE2.0") == GIF_OK
       && EGifPutExtensionBlock (gif, 3, (GifByteType[]) { 1, 0, 0 }) == GIF_OK
       && EGifPutExtensionTrailer (gif) == GIF_OK;
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                 GifErrorString (gif->Error));
  else
    ok = write_gif_frames (gif, frames, delays_cs, width, height, scale, error);
  errno = 0;
  if (EGifCloseFile (gif, &gif_error) != GIF_OK && ok)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, gif_io_error (gif_error, saved), "%s: %s", path,
                   gif_error_string (gif_error, saved));
      ok = FALSE;
    }
  if (!ok)
    {
      remove (tmp);
      return FALSE;
    }
  return output_file_rename (tmp, path, error);
}

void
snapshot_release_fonts (void)
{
  /* pango's default font map, with the fonts it loaded. Not cairo's and
   * fontconfig's own caches: cairo_debug_reset_static_data() asserts that
   * no scaled font is alive and aborted the process 6 times in 20 (one
   * still held by pango's shaping cache); what they keep is reachable
   * from their globals, which LeakSanitizer does not count. */
  pango_cairo_font_map_set_default (NULL);
}
