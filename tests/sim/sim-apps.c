/* sim-apps.c — model apps for the search (see sim-apps.h). */
#include "sim-apps.h"
#include "search.h"

#include <stdio.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

/* The US keymap's shifted symbols and the keys they are on. */
static const char shifted[] = "~!@#$%^&*()_+{}|:\"<>?";
static const char unshifted[] = "`1234567890-=[]\\;',./";

static gunichar
keysym_char (const char *keysym)
{
  xkb_keysym_t sym = xkb_keysym_from_name (keysym, XKB_KEYSYM_NO_FLAGS);
  gunichar c = sym != XKB_KEY_NoSymbol ? xkb_keysym_to_utf32 (sym) : 0;

  return c >= 0x20 && c < 0x7f ? c : 0;
}

/* What pressing the key of @ev types in the replay: the injector sends
 * the keycode of the recorded keysym and adds a Shift of its own only when
 * the recording held none (replayer/injector.c); the X server applies the
 * Shift held in the replay. */
static gunichar
typed_char (const SessionEvent *ev, gboolean shift_held)
{
  gunichar c = keysym_char (ev->keysym);
  const char *at;
  gboolean needs_shift;
  gunichar base;

  if (c == 0)
    return 0;
  needs_shift = g_ascii_isupper ((char) c) || strchr (shifted, (char) c) != NULL;
  base = g_ascii_isupper ((char) c) ? (gunichar) g_ascii_tolower ((char) c)
         : (at = strchr (shifted, (char) c)) != NULL ? (gunichar) unshifted[at - shifted] : c;
  if (needs_shift && !shift_held && (ev->state & 1))
    return base;   /* the recording held Shift, the replay does not */
  if (!needs_shift && shift_held)
    return g_ascii_isalpha ((char) c) ? (gunichar) g_ascii_toupper ((char) c)
           : (at = strchr (unshifted, (char) c)) != NULL ? (gunichar) shifted[at - unshifted] : c;
  return c;
}

static gboolean
is_shift (const SessionEvent *ev)
{
  return g_str_equal (ev->keysym, "Shift_L") || g_str_equal (ev->keysym, "Shift_R");
}

gboolean
sim_terminal_fails (const Session *replayed, gconstpointer command)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_auto (GStrv) commands = g_strsplit (command, "\n", -1);
  guint shifts = 0, next = 0;

  for (guint i = 0; i < session_get_n_events (replayed); i++)
    {
      const SessionEvent *ev = session_get_event (replayed, i);
      gunichar c;

      if (ev->kind == SESSION_EVENT_KEY_RELEASE && is_shift (ev) && shifts > 0)
        shifts--;
      if (ev->kind != SESSION_EVENT_KEY_PRESS)
        continue;
      if (is_shift (ev))
        shifts++;
      else if (g_str_equal (ev->keysym, "Return") || g_str_equal (ev->keysym, "KP_Enter"))
        {
          if (g_str_equal (line->str, commands[next]) && commands[++next] == NULL)
            return TRUE;
          g_string_truncate (line, 0);
        }
      else if (g_str_equal (ev->keysym, "BackSpace"))
        {
          if (line->len > 0)
            g_string_truncate (line, line->len - 1);
        }
      else if ((c = typed_char (ev, shifts > 0)) != 0)
        g_string_append_c (line, (char) c);
    }
  return FALSE;
}

/* A browser's address bar fixes a URL up: the slashes after its scheme
 * are optional (chrome:version is chrome://version). */
static gboolean
same_url (const char *typed, const char *url)
{
  const char *a = strchr (typed, ':'), *b = strchr (url, ':');

  if (a == NULL || b == NULL || a - typed != b - url || strncmp (typed, url, (size_t) (a - typed)) != 0)
    return g_str_equal (typed, url);
  a++, b++;
  while (*a == '/')
    a++;
  while (*b == '/')
    b++;
  return g_str_equal (a, b);
}

gboolean
sim_browser_fails (const Session *replayed, gconstpointer url)
{
  g_autoptr (GString) bar = g_string_new (NULL);
  gboolean focused = TRUE, ctrl = FALSE, alt = FALSE, fresh = TRUE;
  guint shifts = 0;

  for (guint i = 0; i < session_get_n_events (replayed); i++)
    {
      const SessionEvent *ev = session_get_event (replayed, i);
      gboolean press = ev->kind == SESSION_EVENT_KEY_PRESS;
      gunichar c;

      if (ev->kind == SESSION_EVENT_BUTTON_PRESS && ev->button == 1)
        {
          focused = ev->y < 80;
          fresh = TRUE;
          continue;
        }
      if (ev->kind != SESSION_EVENT_KEY_PRESS && ev->kind != SESSION_EVENT_KEY_RELEASE)
        continue;
      if (is_shift (ev))
        shifts = press ? shifts + 1 : shifts > 0 ? shifts - 1 : 0;
      else if (g_str_has_prefix (ev->keysym, "Control_"))
        ctrl = press;
      else if (g_str_has_prefix (ev->keysym, "Alt_"))
        alt = press;
      else if (!press)
        continue;
      else if ((ctrl && g_ascii_strcasecmp (ev->keysym, "l") == 0)
               || (alt && g_ascii_strcasecmp (ev->keysym, "d") == 0))
        focused = fresh = TRUE;
      else if (!focused || ctrl || alt)
        continue;
      else if (g_str_equal (ev->keysym, "Return") || g_str_equal (ev->keysym, "KP_Enter"))
        {
          if (same_url (bar->str, url))
            return TRUE;
          focused = FALSE;
          g_string_truncate (bar, 0);
        }
      else if (g_str_equal (ev->keysym, "Escape"))
        {
          g_string_truncate (bar, 0);
          fresh = TRUE;
        }
      else if (g_str_equal (ev->keysym, "BackSpace"))
        {
          if (fresh)
            g_string_truncate (bar, 0);
          else if (bar->len > 0)
            g_string_truncate (bar, bar->len - 1);
          fresh = FALSE;
        }
      else if ((c = typed_char (ev, shifts > 0)) != 0)
        {
          if (fresh)
            g_string_truncate (bar, 0);
          g_string_append_c (bar, (char) c);
          fresh = FALSE;
        }
    }
  return FALSE;
}

/* The demo editor's windows, as xdemo.c lays them out. */
static gboolean
inside (const SessionEvent *ev, int x, int y, int w, int h)
{
  return ev->x >= x && ev->y >= y && ev->x < x + w && ev->y < y + h;
}

gboolean
sim_editor_fails (const Session *replayed, gconstpointer unused)
{
  gboolean print_open = FALSE, alt = FALSE;

  for (guint i = 0; i < session_get_n_events (replayed); i++)
    {
      const SessionEvent *ev = session_get_event (replayed, i);
      gboolean in_print = g_strcmp0 (ev->wm_name, "Print") == 0;

      if (!session_event_is_action (ev))
        continue;
      /* The replay waits for the dialog an action aims at; it never comes. */
      if (in_print && !print_open && ev->kind != SESSION_EVENT_KEY_RELEASE
          && ev->kind != SESSION_EVENT_BUTTON_RELEASE)
        return FALSE;
      if (ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE)
        {
          gboolean press = ev->kind == SESSION_EVENT_KEY_PRESS;

          if (g_str_has_prefix (ev->keysym, "Alt_"))
            alt = press;
          else if (press && alt && g_ascii_strcasecmp (ev->keysym, "p") == 0)
            print_open = TRUE;
          else if (press && g_str_equal (ev->keysym, "Escape"))
            print_open = FALSE;
        }
      else if (ev->kind == SESSION_EVENT_BUTTON_PRESS && ev->button == 1)
        {
          if (in_print && inside (ev, 40, 112, 100, 32))
            return TRUE;
          if (in_print && inside (ev, 180, 112, 100, 32))
            print_open = FALSE;
          if (!in_print && ev->window == 0 && inside (ev, 145, 130, 110, 30))
            print_open = TRUE;
        }
    }
  return FALSE;
}

gboolean
sim_oracle_test (const DdCandidate *cands, guint n, DdOutcome *outcomes, gpointer data,
                 GError **error)
{
  SimOracle *oracle = data;
  g_autofree double *took = g_new0 (double, n);
  g_autofree double *ends = g_new0 (double, n);
  g_autofree gboolean *wanted = g_new0 (gboolean, n);
  g_autofree double *seq_fail_at = g_new (double, n + 1);
  double batch_ms = 0.0;

  /* Every candidate starts at once (a call has at most as many as there
   * are workers). The wanted ones (dd.h's DdCandidate: the batch's own up
   * to the first failure, then that one's branch, and so on) are tested,
   * and the call returns when they are in, as the runner waits for them.
   * Any other one runs until it is known not to be wanted: its branch's
   * candidate passed, or was itself not wanted, or one before it in its
   * sequence failed. */
  for (guint i = 0; i <= n; i++)
    seq_fail_at[i] = G_MAXDOUBLE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (Session) replayed = session_subset (oracle->session, cands[i].elems,
                                                     cands[i].n_elems);
      guint b = cands[i].if_fails;
      double dead = seq_fail_at[b];   /* when it is known not to be wanted */

      took[i] = (double) oracle->start_ms
                + (double) oracle->action_ms * session_get_n_actions (replayed);
      if (b > 0 && !wanted[b - 1])
        dead = MIN (dead, ends[b - 1]);
      else if (b > 0 && outcomes[b - 1] != DD_FAIL)
        dead = MIN (dead, took[b - 1]);
      if (dead < G_MAXDOUBLE)
        {
          ends[i] = MIN (took[i], dead);
          continue;
        }
      wanted[i] = TRUE;
      ends[i] = took[i];
      oracle->replays++;
      outcomes[i] = oracle->fails (replayed, oracle->data) ? DD_FAIL : DD_PASS;
      if (oracle->trace)
        {
          g_autoptr (GString) line = g_string_new (NULL);

          for (guint k = 0; k < cands[i].n_elems; k++)
            g_string_append_printf (line, " %u", cands[i].elems[k] + 1);
          printf ("  test %" G_GUINT64_FORMAT " (%u of %u in a batch%s): %s, %u actions:%s\n",
                  oracle->replays, i + 1, n,
                  !cands[i].speculative ? "" : b == 0 ? ", speculative" : ", in a branch",
                  outcomes[i] == DD_FAIL ? "FAIL" : "pass", cands[i].n_elems, line->str);
        }
      if (outcomes[i] == DD_FAIL)
        seq_fail_at[b] = took[i];
    }
  for (guint i = 0; i < n; i++)
    if (wanted[i])
      batch_ms = MAX (batch_ms, took[i]);
  oracle->wall_ms += batch_ms;
  for (guint i = 0; i < n; i++)
    oracle->busy_ms += MIN (ends[i], batch_ms);
  return TRUE;
}

static void
sim_normalize (const guint *elems, guint n, GArray *out, gpointer data)
{
  SimOracle *oracle = data;

  search_normalize (oracle->session, elems, n, out);
}

gboolean
sim_reduce (SimOracle *oracle, guint parallel, gboolean phrases, guint **result,
            guint *n_result, DdStats *stats, GError **error)
{
  g_autoptr (SearchLevels) levels = search_levels_new (oracle->session, NULL, 0, phrases);
  DdOptions options;
  const DdLevel *level;
  guint n_levels;

  dd_options_init (&options);
  options.parallel = parallel;
  options.last_units_first = TRUE;
  options.normalize = sim_normalize;
  options.user_data = oracle;
  level = search_levels_get (levels, &n_levels);
  if (oracle->no_typed)
    {
      g_autofree DdLevel *plain = g_memdup2 (level, n_levels * sizeof *level);

      for (guint l = 0; l < n_levels; l++)
        plain[l].typed = NULL;
      return dd_reduce_hierarchy (plain, n_levels, sim_oracle_test, oracle, &options, result,
                                  n_result, stats, error);
    }
  return dd_reduce_hierarchy (level, n_levels, sim_oracle_test, oracle, &options, result,
                              n_result, stats, error);
}
