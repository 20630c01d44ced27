/* test-xapp.c — xapp's rule of window indexes, without a display: the
 * recorder and the replayer both rank the app's windows by it. */
#include <string.h>
#include <glib.h>

#include "xapp.h"

typedef struct
{
  guint64 first_map;         /* 0: never the app's */
  gboolean mapped;
} Win;

static guint64
win_first_map (gconstpointer data)
{
  const Win *win = data;

  return win->mapped ? win->first_map : 0;
}

static void
test_index (void)
{
  /* Listed out of first-map order (the recorder's stacking order). */
  Win wins[] = { { 3, TRUE }, { 1, TRUE }, { 0, TRUE }, { 2, FALSE }, { 4, TRUE } };
  g_autoptr (GPtrArray) list = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (wins); i++)
    g_ptr_array_add (list, &wins[i]);
  /* The unmapped window (first map 2) and the one never the app's count
   * for nothing. */
  g_assert_cmpint (xapp_window_index (list, win_first_map, 1), ==, 0);
  g_assert_cmpint (xapp_window_index (list, win_first_map, 3), ==, 1);
  g_assert_cmpint (xapp_window_index (list, win_first_map, 4), ==, 2);
  g_assert_true (xapp_window_at_index (list, win_first_map, 0) == &wins[1]);
  g_assert_true (xapp_window_at_index (list, win_first_map, 1) == &wins[0]);
  g_assert_true (xapp_window_at_index (list, win_first_map, 2) == &wins[4]);
  g_assert_null (xapp_window_at_index (list, win_first_map, 3));
  g_assert_null (xapp_window_at_index (list, win_first_map, -1));
  /* Mapped again: it keeps its first map, and its index follows. */
  wins[3].mapped = TRUE;
  g_assert_cmpint (xapp_window_index (list, win_first_map, 3), ==, 2);
  g_assert_true (xapp_window_at_index (list, win_first_map, 1) == &wins[3]);
}

static void
test_empty (void)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new ();

  g_assert_cmpint (xapp_window_index (list, win_first_map, 1), ==, 0);
  g_assert_null (xapp_window_at_index (list, win_first_map, 0));
}

/* An _XSETTINGS_SETTINGS value as a settings daemon writes it: a string,
 * a colour and two integers, in either byte order. */
static GByteArray *
xsettings_value (gboolean msb, gint32 time, gint32 distance)
{
  GByteArray *b = g_byte_array_new ();
  guint8 pad[4] = { 0 };

#define PUT32(v) do { guint32 x = (guint32) (v); guint8 q[4];                            \
    if (msb) { q[0] = x >> 24; q[1] = x >> 16; q[2] = x >> 8; q[3] = x; }               \
    else { q[3] = x >> 24; q[2] = x >> 16; q[1] = x >> 8; q[0] = x; }                   \
    g_byte_array_append (b, q, 4); } while (0)
#define PUT16(v) do { guint16 x = (guint16) (v); guint8 q[2];                            \
    if (msb) { q[0] = x >> 8; q[1] = x; } else { q[1] = x >> 8; q[0] = x; }            \
    g_byte_array_append (b, q, 2); } while (0)
#define NAME(type, text) do { guint8 t[2] = { type, 0 }; g_byte_array_append (b, t, 2);  \
    PUT16 (strlen (text)); g_byte_array_append (b, (const guint8 *) text, strlen (text)); \
    g_byte_array_append (b, pad, (4 - strlen (text) % 4) % 4); PUT32 (0); } while (0)

  {
    guint8 order[4] = { msb ? 1 : 0, 0, 0, 0 };
    g_byte_array_append (b, order, 4);
  }
  PUT32 (7);   /* serial */
  PUT32 (4);   /* settings */
  NAME (1, "Net/ThemeName");
  PUT32 (7);
  g_byte_array_append (b, (const guint8 *) "Adwaita\0", 8);
  NAME (2, "Gtk/Color");
  PUT32 (0);
  PUT32 (0);
  NAME (0, "Net/DoubleClickTime");
  PUT32 (time);
  NAME (0, "Net/DoubleClickDistance");
  PUT32 (distance);
  return b;
#undef PUT32
#undef PUT16
#undef NAME
}

/* The desktop's double-click figures, read with every length checked:
 * a value cut anywhere says nothing rather than reading past its end. */
static void
test_xsettings (void)
{
  for (int msb = 0; msb < 2; msb++)
    {
      g_autoptr (GByteArray) b = xsettings_value (msb, 250, 8);
      gint32 value = 0;

      g_assert_true (xapp_xsettings_get_int (b->data, b->len, "Net/DoubleClickTime", &value));
      g_assert_cmpint (value, ==, 250);
      g_assert_true (xapp_xsettings_get_int (b->data, b->len, "Net/DoubleClickDistance", &value));
      g_assert_cmpint (value, ==, 8);
      g_assert_false (xapp_xsettings_get_int (b->data, b->len, "Net/ThemeName", &value));
      g_assert_false (xapp_xsettings_get_int (b->data, b->len, "Net/Nothing", &value));
      for (guint cut = 0; cut < b->len - 4; cut++)
        {
          /* On the heap at its length: a read past it is ASan's. */
          g_autofree guint8 *part = g_memdup2 (b->data, MAX (cut, 1));

          value = -7;
          if (xapp_xsettings_get_int (part, cut, "Net/DoubleClickDistance", &value))
            g_error ("a value cut at %u bytes read a setting", cut);
          g_assert_cmpint (value, ==, -7);
        }
    }
  {
    guint8 bad_order[16] = { 2 };
    guint8 lying[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0xff, 0xff };
    gint32 value;

    g_assert_false (xapp_xsettings_get_int (bad_order, sizeof bad_order, "Net/DoubleClickTime",
                                            &value));
    g_assert_false (xapp_xsettings_get_int (lying, sizeof lying, "Net/DoubleClickTime", &value));
    g_assert_false (xapp_xsettings_get_int (NULL, 0, "Net/DoubleClickTime", &value));
  }
}

/* Xt's multiClickTime from the resource database's text: the largest of
 * any spelling; other resources and garbage ignored. */
static void
test_resources (void)
{
  gint value = 0;

  g_assert_true (xapp_resources_get_max ("*multiClickTime: 300\n"
                                         "XTerm*multiClickTime:\t500\n"
                                         "xterm.vt100.multiClickTime: 400\n"
                                         "Xft.dpi: 96\n"
                                         "*notmultiClickTime: 9000\n"
                                         "*multiClickTime: lots\n", "multiClickTime", &value));
  g_assert_cmpint (value, ==, 500);
  g_assert_false (xapp_resources_get_max ("Xft.dpi: 96\n", "multiClickTime", &value));
  g_assert_false (xapp_resources_get_max (NULL, "multiClickTime", &value));
  g_assert_false (xapp_resources_get_max ("*multiClickTime: -5\n", "multiClickTime", &value));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/xapp/index", test_index);
  g_test_add_func ("/xapp/index-empty", test_empty);
  g_test_add_func ("/xapp/xsettings", test_xsettings);
  g_test_add_func ("/xapp/resources", test_resources);
  return g_test_run ();
}
