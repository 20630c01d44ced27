/* pace-rules.c — see pace-rules.h. Start reading at pace_rules_window(). */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "pace-rules.h"

#include <string.h>

static gboolean
is_key (const SessionEvent *ev)
{
  return ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE;
}

gboolean
pace_rules_is_click (const SessionEvent *ev)
{
  if (ev == NULL)
    return FALSE;
  if (ev->kind == SESSION_EVENT_KEY_PRESS)
    return TRUE;
  /* The wheel's notches are scroll steps, not clicks (GTK and Qt make
   * scroll events of them, which count no clicks). */
  return ev->kind == SESSION_EVENT_BUTTON_PRESS && (ev->button < 4 || ev->button > 7);
}

/* The same button, or the same key (its keycode and what it typed). */
static gboolean
same_input (const SessionEvent *a, const SessionEvent *b)
{
  if (is_key (a) != is_key (b))
    return FALSE;
  if (is_key (a))
    return a->keycode == b->keycode && g_strcmp0 (a->keysym, b->keysym) == 0;
  return a->button == b->button;
}

gboolean
pace_rules_same_place (const SessionEvent *a, const SessionEvent *b, guint distance)
{
  if (is_key (a) || is_key (b))
    return TRUE;
  /* Two of the app's top-level windows: GTK counts a double click in one
   * window only, Xt in one widget's translations (whatever the
   * distance), and Qt's distance is crossed on the way. A menu's release
   * and, 14 ms later, a press in the dialog it opened are no double
   * click. */
  if (a->window >= 0 && b->window >= 0 && a->window != b->window)
    return FALSE;
  if (distance == PACE_ANY_DISTANCE || !a->has_pos || !b->has_pos)
    return TRUE;
  /* As GTK and Qt count it: each axis within the distance. */
  return (guint) ABS (a->root_x - b->root_x) <= distance
         && (guint) ABS (a->root_y - b->root_y) <= distance;
}

static gboolean
is_modifier (const SessionEvent *ev)
{
  return ev->keysym != NULL && (session_keysym_is_modifier (ev->keysym)
                                || session_keysym_is_lock (ev->keysym));
}

/* Two presses of one input in a row: were they a double click as
 * recorded, and what keeps them so (or not) for the app? */
static void
double_click_window (const PaceTiming *recorded, const PaceTiming *app, const PacePress *last,
                     const SessionEvent *next, PaceWindow *window)
{
  guint64 gap = next->time_ms > last->ev->time_ms ? next->time_ms - last->ev->time_ms : 0;
  gboolean was_double = gap < recorded->double_click_ms
                        && pace_rules_same_place (last->ev, next,
                                                  recorded->double_click_distance);

  /* Far apart for the app (its distance): it counts no double click,
   * whatever the time. */
  if (!pace_rules_same_place (last->ev, next, app->double_click_distance))
    return;
  if (was_double)
    {
      /* Within the app's time, with room for the server to take it. */
      guint margin = MIN (PACE_RULES_MARGIN_MS, app->double_click_ms / 4);

      window->not_after_ms = last->sent_ms + (gint64) app->double_click_ms - (gint64) margin;
      window->why = "a double click as recorded";
    }
  else
    {
      /* Apart by more than the app's time, counted from when the server
       * had the first press. */
      window->not_before_ms = last->done_ms + (gint64) app->double_click_ms + PACE_RULES_MARGIN_MS;
      window->why = "no double click as recorded";
    }
}

void
pace_rules_window (const PaceTiming *recorded, const PaceTiming *app,
                   const PacePress *last, const PacePress *held, const SessionEvent *next,
                   PaceWindow *window)
{
  window->not_before_ms = G_MININT64;
  window->not_after_ms = G_MAXINT64;
  window->why = NULL;
  /* A press of a key still held is its auto-repeat: a rhythm of its own. */
  if (pace_rules_is_click (next) && held != NULL && held->ev != NULL)
    return;
  if (pace_rules_is_click (next) && last != NULL && last->ev != NULL
      && same_input (last->ev, next))
    {
      double_click_window (recorded, app, last, next, window);
      return;
    }
  if (next->kind == SESSION_EVENT_KEY_RELEASE && held != NULL && held->ev != NULL
      && !is_modifier (next)
      && next->time_ms < held->ev->time_ms + recorded->repeat_delay_ms)
    {
      /* Released before it repeated: before the app's server would make
       * it repeat too. */
      guint margin = MIN (PACE_RULES_MARGIN_MS, app->repeat_delay_ms / 4);

      window->not_after_ms = held->sent_ms + (gint64) app->repeat_delay_ms - (gint64) margin;
      window->why = "a key released before its auto-repeat as recorded";
    }
}

void
pace_rules_click_run (const PaceTiming *recorded, const PaceTiming *app,
                      const SessionEvent *const *events, const guint *gaps_ms, guint n_events,
                      PaceClickRun *run)
{
  n_events = MIN (n_events, PACE_CLICK_RUN_MAX);
  run->n = MIN (n_events, 1);
  memset (run->delay_ms, 0, sizeof run->delay_ms);
  if (n_events == 0 || events[0]->kind != SESSION_EVENT_BUTTON_PRESS
      || !pace_rules_is_click (events[0]))
    return;
  for (guint i = 0; i + 2 < n_events; i += 2)
    {
      const SessionEvent *press = events[i], *release = events[i + 1], *again = events[i + 2];
      /* The press before, as if sent at 0: the window's end is then the
       * most the server may put between the two presses. */
      PacePress last = { press, 0, 0 };
      PaceWindow window;
      guint most, up;

      if (release->kind != SESSION_EVENT_BUTTON_RELEASE || release->button != press->button
          || again->kind != SESSION_EVENT_BUTTON_PRESS)
        return;
      pace_rules_window (recorded, app, &last, NULL, again, &window);
      if (window.not_after_ms == G_MAXINT64 || window.not_after_ms <= 0)
        return;
      most = (guint) MIN (window.not_after_ms, (gint64) G_MAXUINT);
      up = MIN (gaps_ms[i + 1], most);
      run->delay_ms[i + 1] = up;
      run->delay_ms[i + 2] = MIN (gaps_ms[i + 2], most - up);
      run->n = i + 3;
    }
}

guint
pace_rules_clamp (const PaceWindow *window, gint64 now_ms, guint wait_ms)
{
  gint64 at = now_ms + (gint64) wait_ms;

  if (at < window->not_before_ms)
    at = window->not_before_ms;
  if (at > window->not_after_ms)
    at = window->not_after_ms;
  return at <= now_ms ? 0 : (guint) MIN (at - now_ms, (gint64) G_MAXUINT);
}

gboolean
pace_rules_typing_run (const Session *session, guint prev, guint next)
{
  static const char *const drawing[] = { "Expose", "NoExpose", "GraphicsExpose",
                                         "PropertyNotify", NULL };
  const SessionEvent *a = session_get_event (session, prev);
  const SessionEvent *b = session_get_event (session, next);
  gboolean keys = (a->kind == SESSION_EVENT_KEY_PRESS || a->kind == SESSION_EVENT_KEY_RELEASE)
                  && (b->kind == SESSION_EVENT_KEY_PRESS || b->kind == SESSION_EVENT_KEY_RELEASE);

  if (!keys || a->window != b->window || b->time_ms >= a->time_ms + PACE_HOLD_MS)
    return FALSE;
  for (guint i = prev + 1; i < next; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind == SESSION_EVENT_SERVER && !g_strv_contains (drawing, ev->name))
        return FALSE;
    }
  return TRUE;
}

gboolean
pace_rules_idle (const ProcTreeGlance *glance, const ProcTreeGlance *before, gboolean first)
{
  gboolean same = first || (glance->n_procs == before->n_procs
                            && glance->pid_sum == before->pid_sum);

  return glance->n_active == 0 && !glance->handler_asleep && same;
}
