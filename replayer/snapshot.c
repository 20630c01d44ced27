/* snapshot.c — screenshots as PNG (libpng), with the action marked.
 *
 * Images live here as packed RGB bytes. To draw on one, it goes to the
 * server as a pixmap (to_pixmap), the core X drawing calls mark it, and it
 * comes back (from_drawable): the server renders the text, in the "fixed"
 * font every X server has built in.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "snapshot.h"
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
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

static Snapshot *
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

/* @picture below a band with @caption in it, as wide as either needs. */
static Snapshot *
add_caption_band (Display *dpy, const Snapshot *picture, const char *caption, GError **error)
{
  Visual *visual = DefaultVisual (dpy, DefaultScreen (dpy));
  XFontStruct *font = XLoadQueryFont (dpy, "fixed");
  int len = (int) strlen (caption);
  int band_h = font != NULL ? font->ascent + font->descent + 10 : 0;
  int text_w = font != NULL ? XTextWidth (font, caption, len) + 16 : 0;
  g_autoptr (Snapshot) canvas = snapshot_new (MAX (picture->width, text_w),
                                              band_h + picture->height);
  Snapshot *result;
  Pixmap pixmap;
  GC gc;

  memset (canvas->rgb, 0x30, (gsize) canvas->width * canvas->height * 3);
  for (int y = 0; y < picture->height; y++)
    memcpy (canvas->rgb + ((gsize) (band_h + y) * canvas->width) * 3,
            picture->rgb + (gsize) y * picture->width * 3, (gsize) picture->width * 3);
  if (font == NULL)
    return g_steal_pointer (&canvas);
  pixmap = to_pixmap (dpy, canvas);
  gc = XCreateGC (dpy, pixmap, 0, NULL);
  XSetFont (dpy, gc, font->fid);
  XSetForeground (dpy, gc, pixel_of (visual, 0xb0, 0x10, 0x10));
  XFillRectangle (dpy, pixmap, gc, 0, 0, canvas->width, band_h);
  XSetForeground (dpy, gc, pixel_of (visual, 0xff, 0xff, 0xff));
  XDrawString (dpy, pixmap, gc, 8, 5 + font->ascent, caption, len);
  result = from_drawable (dpy, pixmap, canvas->width, canvas->height, error);
  XFreeFont (dpy, font);
  XFreeGC (dpy, gc);
  XFreePixmap (dpy, pixmap);
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
    Snapshot *result = add_caption_band (dpy, cropped, caption, error);

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
      png_destroy_write_struct (&png, &info);
      fclose (file);
      remove (tmp);
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

/* Box-filter shrink by an integer @factor. */
static void
blit_shrunk (Snapshot *dest, int dx, int dy, const Snapshot *src, int factor)
{
  int w = src->width / factor, h = src->height / factor;

  for (int y = 0; y < h && dy + y < dest->height; y++)
    for (int x = 0; x < w && dx + x < dest->width; x++)
      {
        guint sum[3] = { 0, 0, 0 };
        guint8 *d = dest->rgb + ((gsize) (dy + y) * dest->width + dx + x) * 3;

        for (int j = 0; j < factor; j++)
          for (int i = 0; i < factor; i++)
            {
              const guint8 *s = src->rgb + ((gsize) (y * factor + j) * src->width
                                            + x * factor + i) * 3;
              sum[0] += s[0];
              sum[1] += s[1];
              sum[2] += s[2];
            }
        for (int c = 0; c < 3; c++)
          d[c] = (guint8) (sum[c] / (guint) (factor * factor));
      }
}

gboolean
snapshot_save_contact_sheet (GPtrArray *snapshots, const char *const *captions,
                             Display *dpy, const char *path, GError **error)
{
  const int caption_h = 20, gap = 8, max_w = 400, max_h = 300;
  g_autoptr (Snapshot) sheet = NULL;
  g_autoptr (Snapshot) labelled = NULL;
  int cell_w = 0, cell_h = 0, cols, rows;
  Pixmap pixmap;
  GC gc;
  XFontStruct *font;
  Visual *visual = DefaultVisual (dpy, DefaultScreen (dpy));
  g_autofree int *factors = NULL;

  if (snapshots->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no pictures to put on a sheet");
      return FALSE;
    }
  /* Each picture shrunk by the least whole factor that fits a cell. */
  factors = g_new (int, snapshots->len);
  for (guint i = 0; i < snapshots->len; i++)
    {
      const Snapshot *one = g_ptr_array_index (snapshots, i);

      factors[i] = MAX (1, MAX ((one->width + max_w - 1) / max_w,
                                (one->height + max_h - 1) / max_h));
      cell_w = MAX (cell_w, one->width / factors[i]);
      cell_h = MAX (cell_h, one->height / factors[i]);
    }
  cell_w = MAX (cell_w, 160);
  cell_h += caption_h;
  cols = MIN ((int) snapshots->len, 4);
  rows = ((int) snapshots->len + cols - 1) / cols;
  sheet = snapshot_new (gap + cols * (cell_w + gap), gap + rows * (cell_h + gap));
  memset (sheet->rgb, 0xe8, (gsize) sheet->width * sheet->height * 3);
  for (guint i = 0; i < snapshots->len; i++)
    blit_shrunk (sheet, gap + (int) (i % cols) * (cell_w + gap),
                 gap + (int) (i / cols) * (cell_h + gap),
                 g_ptr_array_index (snapshots, i), factors[i]);

  /* Captions under the pictures, drawn by the server. */
  pixmap = to_pixmap (dpy, sheet);
  gc = XCreateGC (dpy, pixmap, 0, NULL);
  font = XLoadQueryFont (dpy, "fixed");
  if (font != NULL)
    {
      XSetFont (dpy, gc, font->fid);
      XSetForeground (dpy, gc, pixel_of (visual, 0x20, 0x20, 0x20));
      for (guint i = 0; i < snapshots->len && captions != NULL && captions[i] != NULL; i++)
        {
          int x = gap + (int) (i % cols) * (cell_w + gap);
          int y = gap + (int) (i / cols) * (cell_h + gap) + cell_h - caption_h + 4 + font->ascent;
          g_autofree char *text = g_strndup (captions[i], (gsize) MAX (1, cell_w / 6));
          XDrawString (dpy, pixmap, gc, x, y, text, (int) strlen (text));
        }
      XFreeFont (dpy, font);
    }
  labelled = from_drawable (dpy, pixmap, sheet->width, sheet->height, error);
  XFreeGC (dpy, gc);
  XFreePixmap (dpy, pixmap);
  if (labelled == NULL)
    return FALSE;
  return snapshot_save_png (labelled, path, error);
}
