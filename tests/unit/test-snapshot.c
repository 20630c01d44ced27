/* test-snapshot.c — the report's captions, without a display: UTF-8 text
 * in any script is drawn as pango draws it, not as '?'. */
#include <string.h>
#include <glib.h>

#include "quote.h"
#include "snapshot.h"

/* What pango itself draws for @text in the caption band's place: red
 * band, white text at the padding, the font antialiased without hinting.
 * Built here from pango's calls, not from snapshot.c's layout. */
static cairo_surface_t *
pango_reference (const char *text, int width, int band_h, int *unknown_glyphs)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, band_h);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (SNAPSHOT_CAPTION_FONT);
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (pango_layout_get_context (layout), options);
  pango_layout_context_changed (layout);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  *unknown_glyphs = pango_layout_get_unknown_glyphs_count (layout);
  cairo_set_source_rgb (cr, 0xb0 / 255.0, 0x10 / 255.0, 0x10 / 255.0);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, SNAPSHOT_CAPTION_PAD_X, SNAPSHOT_CAPTION_PAD_Y);
  pango_cairo_show_layout (cr, layout);
  cairo_surface_flush (surface);
  cairo_font_options_destroy (options);
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  return surface;
}

/* Pixels of @snapshot's band that differ from @reference. */
static guint
count_differences (const Snapshot *snapshot, cairo_surface_t *reference, int band_h)
{
  const guint8 *data = cairo_image_surface_get_data (reference);
  int stride = cairo_image_surface_get_stride (reference);
  guint differ = 0;

  for (int y = 0; y < band_h; y++)
    for (int x = 0; x < snapshot_get_width (snapshot); x++)
      {
        guint32 want = ((const guint32 *) (data + (gsize) y * stride))[x] & 0xffffff;
        if (snapshot_get_pixel (snapshot, x, y) != want)
          differ++;
      }
  return differ;
}

static void
test_caption_cyrillic (void)
{
  /* A step's words with a title in Cyrillic and typed text with an
   * accent, as report.c makes them (quote_terminal keeps UTF-8). */
  const char *words = "2. Click at 84,129 in \"Печать\", then type café";
  g_autofree char *caption = quote_terminal (words);
  g_autofree char *ascii = NULL;
  g_autoptr (Snapshot) picture = snapshot_new (200, 50);
  g_autoptr (Snapshot) band = NULL;
  g_autoptr (GError) error = NULL;
  cairo_surface_t *same, *questions;
  int band_h, unknown = -1, unknown_q = -1;

  g_assert_cmpstr (caption, ==, words);
  band = snapshot_add_caption (picture, caption, &error);
  g_assert_no_error (error);
  band_h = snapshot_get_height (band) - 50;
  g_assert_cmpint (band_h, >, 2 * SNAPSHOT_CAPTION_PAD_Y + 6);
  g_assert_cmpint (snapshot_get_width (band), >, 200);
  /* The picture itself is below the band, untouched. */
  g_assert_cmpuint (snapshot_get_pixel (band, 10, band_h + 10), ==, 0);

  /* The band is what pango draws for the text, pixel for pixel... */
  same = pango_reference (caption, snapshot_get_width (band), band_h, &unknown);
  g_assert_cmpint (unknown, ==, 0);   /* the font has the glyphs */
  g_assert_cmpuint (count_differences (band, same, band_h), ==, 0);

  /* ... and not what it draws when every non-ASCII character is '?'. */
  ascii = g_strdup (caption);
  {
    GString *q = g_string_new (NULL);
    for (const char *p = caption; *p != '\0'; p = g_utf8_next_char (p))
      g_string_append_c (q, (guchar) *p < 0x80 ? *p : '?');
    g_free (ascii);
    ascii = g_string_free (q, FALSE);
  }
  questions = pango_reference (ascii, snapshot_get_width (band), band_h, &unknown_q);
  g_assert_cmpuint (count_differences (band, questions, band_h), >, 50);
  /* Antialiased: more than the two colours of the band and the text. */
  {
    GHashTable *colours = g_hash_table_new (NULL, NULL);
    for (int y = 0; y < band_h; y++)
      for (int x = 0; x < snapshot_get_width (band); x++)
        g_hash_table_add (colours, GUINT_TO_POINTER (snapshot_get_pixel (band, x, y) + 1));
    g_assert_cmpuint (g_hash_table_size (colours), >, 8);
    g_hash_table_unref (colours);
  }
  cairo_surface_destroy (same);
  cairo_surface_destroy (questions);
}

/* A caption wider than the most a band takes is cut with an ellipsis, not
 * a band miles wide. */
static void
test_caption_long (void)
{
  g_autofree char *caption = g_strnfill (2000, 'W');
  g_autoptr (Snapshot) picture = snapshot_new (100, 10);
  g_autoptr (Snapshot) band = snapshot_add_caption (picture, caption, NULL);

  g_assert_nonnull (band);
  g_assert_cmpint (snapshot_get_width (band), <=,
                   SNAPSHOT_CAPTION_MAX_WIDTH + 2 * SNAPSHOT_CAPTION_PAD_X);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/snapshot/caption-cyrillic", test_caption_cyrillic);
  g_test_add_func ("/snapshot/caption-long", test_caption_long);
  status = g_test_run ();
  snapshot_release_fonts ();
  return status;
}
