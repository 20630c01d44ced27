/* test-pace-rules.c — pacing's decisions from narrow inputs
 * (replayer/pace-rules.h), no display: when the next press may go so that
 * a double click stays one and three slow clicks stay three, when a key
 * is released so that it does not repeat, which clicks go at once as one
 * multi-click, which keys are a typed run that goes at once, and when an
 * app that cannot be pinged is idle.
 */
#include <glib.h>
#include <string.h>

#include "pace-rules.h"

static const PaceTiming gtk = { 400, 5, 660 };

static SessionEvent
button (SessionEventKind kind, guint64 time_ms, guint button, int x, int y)
{
  return (SessionEvent) { .kind = kind, .time_ms = time_ms, .button = button, .has_pos = TRUE,
                          .root_x = x, .root_y = y, .window = 0 };
}

static SessionEvent
key (SessionEventKind kind, guint64 time_ms, const char *keysym, guint keycode)
{
  return (SessionEvent) { .kind = kind, .time_ms = time_ms, .keysym = (char *) keysym,
                          .keycode = keycode, .window = 0 };
}

/* Three clicks 1.1 s apart: at the app's pace the second press may not
 * come before the app's double-click time has passed since the server had
 * the first (the replay took 10 ms: a double click, a false crash). */
static void
test_slow_clicks (void)
{
  SessionEvent first = button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150);
  SessionEvent second = button (SESSION_EVENT_BUTTON_PRESS, 2100, 1, 200, 150);
  PacePress last = { &first, 5000, 5003 };
  PaceWindow window;

  pace_rules_window (&gtk, &gtk, &last, NULL, &second, &window);
  g_assert_cmpint (window.not_before_ms, ==, 5003 + 400 + PACE_RULES_MARGIN_MS);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  g_assert_nonnull (window.why);
  /* The app answered at once: the click waits. */
  g_assert_cmpuint (pace_rules_clamp (&window, 5020, 0), ==, 5003 + 400 + PACE_RULES_MARGIN_MS - 5020);
  /* Later than that anyway: no wait more. */
  g_assert_cmpuint (pace_rules_clamp (&window, 6000, 0), ==, 0);
}

/* A double click 120 ms apart stays one, however slow the app between:
 * the second press comes before the app's time is over. */
static void
test_double_click (void)
{
  SessionEvent first = button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150);
  SessionEvent second = button (SESSION_EVENT_BUTTON_PRESS, 1120, 1, 202, 149);
  PacePress last = { &first, 5000, 5003 };
  PaceWindow window;

  pace_rules_window (&gtk, &gtk, &last, NULL, &second, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  g_assert_cmpint (window.not_after_ms, ==, 5000 + 400 - PACE_RULES_MARGIN_MS);
  /* The recorded gap is kept when it fits... */
  g_assert_cmpuint (pace_rules_clamp (&window, 5003, 117), ==, 117);
  /* ... and cut when the app made the replay late. */
  g_assert_cmpuint (pace_rules_clamp (&window, 5300, 200), ==, 400 - PACE_RULES_MARGIN_MS - 300);
  g_assert_cmpuint (pace_rules_clamp (&window, 5500, 0), ==, 0);
}

/* A double click, then a triple click, sent at once: the releases and the
 * presses after them keep their recorded gaps, spaced by the X server. */
static void
test_click_run (void)
{
  SessionEvent ev[] = {
    button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_RELEASE, 1003, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 1100, 1, 201, 150),
    button (SESSION_EVENT_BUTTON_RELEASE, 1160, 1, 201, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 1250, 1, 201, 151),
    button (SESSION_EVENT_BUTTON_RELEASE, 1320, 1, 201, 151),
    button (SESSION_EVENT_MOTION, 1400, 0, 300, 151),
  };
  const SessionEvent *events[G_N_ELEMENTS (ev)];
  guint gaps[G_N_ELEMENTS (ev)] = { 0, 5, 97, 60, 90, 70, 80 };
  PaceClickRun run;

  for (guint i = 0; i < G_N_ELEMENTS (ev); i++)
    events[i] = &ev[i];
  /* The triple click's presses and the releases between: not its last
   * release, which waits for the app as the end of any click. */
  pace_rules_click_run (&gtk, &gtk, events, gaps, G_N_ELEMENTS (ev), &run);
  g_assert_cmpuint (run.n, ==, 5);
  g_assert_cmpuint (run.delay_ms[0], ==, 0);
  g_assert_cmpuint (run.delay_ms[1], ==, 5);
  g_assert_cmpuint (run.delay_ms[2], ==, 97);
  g_assert_cmpuint (run.delay_ms[3], ==, 60);
  g_assert_cmpuint (run.delay_ms[4], ==, 90);
  /* A double click only. */
  pace_rules_click_run (&gtk, &gtk, events, gaps, 4, &run);
  g_assert_cmpuint (run.n, ==, 3);
  /* At --speed 0.25 the gaps are four times as long: cut so that each
   * press comes within the app's time of the one before. */
  for (guint i = 1; i < G_N_ELEMENTS (gaps); i++)
    gaps[i] *= 4;
  pace_rules_click_run (&gtk, &gtk, events, gaps, G_N_ELEMENTS (ev), &run);
  g_assert_cmpuint (run.n, ==, 5);
  g_assert_cmpuint (run.delay_ms[1], ==, 20);
  g_assert_cmpuint (run.delay_ms[1] + run.delay_ms[2], ==, 400 - PACE_RULES_MARGIN_MS);
  g_assert_cmpuint (run.delay_ms[3] + run.delay_ms[4], ==, 400 - PACE_RULES_MARGIN_MS);
  /* A release held longer than the app's time: the press right after. */
  gaps[1] = 1000;
  pace_rules_click_run (&gtk, &gtk, events, gaps, 3, &run);
  g_assert_cmpuint (run.n, ==, 3);
  g_assert_cmpuint (run.delay_ms[1], ==, 400 - PACE_RULES_MARGIN_MS);
  g_assert_cmpuint (run.delay_ms[2], ==, 0);
}

/* No run: clicks that were no double click (three slow clicks), another
 * button, the wheel, a press far away for the app, a motion between, a
 * press alone, or nothing. */
static void
test_no_click_run (void)
{
  SessionEvent slow[] = {
    button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_RELEASE, 1003, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 2100, 1, 200, 150),
  };
  SessionEvent other[] = {
    button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_RELEASE, 1003, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 1100, 3, 200, 150),
  };
  SessionEvent wheel[] = {
    button (SESSION_EVENT_BUTTON_PRESS, 1000, 4, 200, 150),
    button (SESSION_EVENT_BUTTON_RELEASE, 1003, 4, 200, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 1100, 4, 200, 150),
  };
  SessionEvent far[] = {
    button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_RELEASE, 1003, 1, 200, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 1100, 1, 260, 150),
  };
  SessionEvent moved[] = {
    button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150),
    button (SESSION_EVENT_MOTION, 1050, 0, 201, 150),
    button (SESSION_EVENT_BUTTON_PRESS, 1100, 1, 201, 150),
  };
  SessionEvent *cases[] = { slow, other, wheel, far, moved };
  guint gaps[3] = { 0, 5, 97 };
  PaceClickRun run;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const SessionEvent *events[3] = { &cases[c][0], &cases[c][1], &cases[c][2] };

      pace_rules_click_run (&gtk, &gtk, events, gaps, 3, &run);
      g_assert_cmpuint (run.n, ==, 1);
      g_assert_cmpuint (run.delay_ms[0], ==, 0);
      pace_rules_click_run (&gtk, &gtk, events, gaps, 1, &run);
      g_assert_cmpuint (run.n, ==, 1);
    }
  pace_rules_click_run (&gtk, &gtk, NULL, gaps, 0, &run);
  g_assert_cmpuint (run.n, ==, 0);
}

/* The boundary is the app's and the desktop's: strictly less is a double
 * click (GTK's rule). A desktop whose double click was 250 ms: 300 ms
 * apart was none for the user, and must be none for an app of 400. */
static void
test_boundaries (void)
{
  SessionEvent first = button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 10, 10);
  SessionEvent at = button (SESSION_EVENT_BUTTON_PRESS, 1400, 1, 10, 10);
  SessionEvent below = button (SESSION_EVENT_BUTTON_PRESS, 1399, 1, 10, 10);
  SessionEvent three_hundred = button (SESSION_EVENT_BUTTON_PRESS, 1300, 1, 10, 10);
  PaceTiming quick_desktop = { 250, 5, 660 };
  PacePress last = { &first, 0, 0 };
  PaceWindow window;

  pace_rules_window (&gtk, &gtk, &last, NULL, &at, &window);
  g_assert_cmpint (window.not_before_ms, !=, G_MININT64);
  pace_rules_window (&gtk, &gtk, &last, NULL, &below, &window);
  g_assert_cmpint (window.not_after_ms, !=, G_MAXINT64);
  pace_rules_window (&quick_desktop, &gtk, &last, NULL, &three_hundred, &window);
  g_assert_cmpint (window.not_before_ms, ==, 400 + PACE_RULES_MARGIN_MS);
  /* A slower app than the desktop: 300 ms apart was a double click of a
   * desktop of 400, and the app's 250 keeps it one. */
  pace_rules_window (&gtk, &quick_desktop, &last, NULL, &three_hundred, &window);
  g_assert_cmpint (window.not_after_ms, ==, 250 - PACE_RULES_MARGIN_MS);
}

/* Far apart, or another button, or the wheel: no double click to keep,
 * none to avoid. Xt counts no distance. */
static void
test_no_bounds (void)
{
  SessionEvent first = button (SESSION_EVENT_BUTTON_PRESS, 1000, 1, 200, 150);
  SessionEvent far = button (SESSION_EVENT_BUTTON_PRESS, 2100, 1, 260, 150);
  SessionEvent right = button (SESSION_EVENT_BUTTON_PRESS, 2100, 3, 200, 150);
  SessionEvent wheel = button (SESSION_EVENT_BUTTON_PRESS, 2100, 4, 200, 150);
  SessionEvent motion = button (SESSION_EVENT_MOTION, 1050, 0, 200, 150);
  PaceTiming xt = { 250, PACE_ANY_DISTANCE, 660 };
  PacePress last = { &first, 5000, 5003 };
  PaceWindow window;

  pace_rules_window (&gtk, &gtk, &last, NULL, &far, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  pace_rules_window (&gtk, &gtk, &last, NULL, &right, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  pace_rules_window (&gtk, &gtk, &last, NULL, &wheel, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  pace_rules_window (&gtk, &gtk, &last, NULL, &motion, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  pace_rules_window (&gtk, &gtk, NULL, NULL, &far, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  /* An Xt app counts the far click too. */
  pace_rules_window (&xt, &xt, &last, NULL, &far, &window);
  g_assert_cmpint (window.not_before_ms, ==, 5003 + 250 + PACE_RULES_MARGIN_MS);
  g_assert_false (pace_rules_same_place (&first, &far, 5));
  g_assert_true (pace_rules_same_place (&first, &far, PACE_ANY_DISTANCE));
  /* Not in another window, whatever the distance: a menu's release on
   * its item and a press in the dialog it opened, 14 ms apart. */
  {
    SessionEvent release = button (SESSION_EVENT_BUTTON_RELEASE, 1576, 1, 48, 93);
    SessionEvent dialog = button (SESSION_EVENT_BUTTON_PRESS, 1590, 1, 48, 93);
    SessionEvent root = button (SESSION_EVENT_BUTTON_PRESS, 1590, 1, 48, 93);

    dialog.window = 1;
    root.window = -1;
    g_assert_false (pace_rules_same_place (&release, &dialog, PACE_ANY_DISTANCE));
    g_assert_false (pace_rules_same_place (&release, &dialog, 5));
    g_assert_true (pace_rules_same_place (&release, &root, PACE_ANY_DISTANCE));
    last.ev = &release;
    pace_rules_window (&xt, &xt, &last, NULL, &dialog, &window);
    g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
    g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  }
  g_assert_true (pace_rules_is_click (&first));
  g_assert_false (pace_rules_is_click (&wheel));
}

/* Keys: the same key twice, and a key's release before it repeats. An
 * auto-repeat (a press of a key held) keeps its own rhythm. */
static void
test_keys (void)
{
  SessionEvent shift1 = key (SESSION_EVENT_KEY_PRESS, 1000, "Shift_L", 50);
  SessionEvent shift2 = key (SESSION_EVENT_KEY_PRESS, 1150, "Shift_L", 50);
  SessionEvent e1 = key (SESSION_EVENT_KEY_PRESS, 1000, "e", 26);
  SessionEvent e2 = key (SESSION_EVENT_KEY_PRESS, 3000, "e", 26);
  SessionEvent e_release = key (SESSION_EVENT_KEY_RELEASE, 1100, "e", 26);
  SessionEvent e_held_release = key (SESSION_EVENT_KEY_RELEASE, 1900, "e", 26);
  SessionEvent shift_release = key (SESSION_EVENT_KEY_RELEASE, 1100, "Shift_L", 50);
  SessionEvent f = key (SESSION_EVENT_KEY_PRESS, 1150, "f", 41);
  PacePress last_shift = { &shift1, 100, 102 }, last_e = { &e1, 100, 102 };
  PaceWindow window;

  /* A double tap of Shift stays one. */
  pace_rules_window (&gtk, &gtk, &last_shift, NULL, &shift2, &window);
  g_assert_cmpint (window.not_after_ms, ==, 100 + 400 - PACE_RULES_MARGIN_MS);
  /* Two e typed two seconds apart are no double tap. */
  pace_rules_window (&gtk, &gtk, &last_e, NULL, &e2, &window);
  g_assert_cmpint (window.not_before_ms, ==, 102 + 400 + PACE_RULES_MARGIN_MS);
  /* Another key: nothing. */
  pace_rules_window (&gtk, &gtk, &last_e, NULL, &f, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  /* Released 100 ms after its press: before the replay's delay too. */
  pace_rules_window (&gtk, &gtk, NULL, &last_e, &e_release, &window);
  g_assert_cmpint (window.not_after_ms, ==, 100 + 660 - PACE_RULES_MARGIN_MS);
  /* Held past the delay as recorded (its repeats are in the session):
   * nothing here. */
  pace_rules_window (&gtk, &gtk, NULL, &last_e, &e_held_release, &window);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  /* A modifier does not repeat. */
  pace_rules_window (&gtk, &gtk, NULL, &last_shift, &shift_release, &window);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
  /* An auto-repeat: a press of a key held. */
  pace_rules_window (&gtk, &gtk, &last_e, &last_e, &e2, &window);
  g_assert_cmpint (window.not_before_ms, ==, G_MININT64);
  g_assert_cmpint (window.not_after_ms, ==, G_MAXINT64);
}

static Session *
parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  Session *session = session_parse (text, strlen (text), "t.log", &error);

  g_assert_no_error (error);
  return session;
}

/* Event @n's index among the actions of @session. */
static guint
action_event (const Session *session, guint n)
{
  g_autoptr (GArray) actions = session_get_actions (session);

  return g_array_index (actions, guint, n);
}

/* Keys typed into one window less than PACE_HOLD_MS apart, with only
 * drawing recorded between them, are a run; a pause, another window, a
 * window mapped between them, or a click, are not. */
static void
test_typing_run (void)
{
  g_autoptr (Session) session = parse (
    "xreduce-session 1\nscreen 800x600\n"
    "100 KeyPress keysym=e keycode=26 state=0x0 window=0 class=\"T\" title=\"T\"\n"
    "150 Expose window=0x400003 area=0,0,10,10 count=0\n"
    "180 KeyRelease keysym=e keycode=26 state=0x0 window=0 class=\"T\" title=\"T\"\n"
    "900 KeyPress keysym=c keycode=54 state=0x0 window=0 class=\"T\" title=\"T\"\n"
    "950 MapNotify window=0x400007 override=0\n"
    "990 KeyRelease keysym=c keycode=54 state=0x0 window=0 class=\"T\" title=\"T\"\n"
    "1100 KeyPress keysym=h keycode=43 state=0x0 window=1 class=\"T\" title=\"D\"\n"
    "1200 ButtonPress button=1 state=0x0 root=10,10 pos=10,10 window=1 class=\"T\" title=\"D\"\n"
    "1250 ButtonRelease button=1 state=0x100 root=10,10 pos=10,10 window=1 class=\"T\" title=\"D\"\n"
    "1300 KeyRelease keysym=h keycode=43 state=0x0 window=1 class=\"T\" title=\"D\"\n");

  /* e's press and release, an Expose between: a run. */
  g_assert_true (pace_rules_typing_run (session, action_event (session, 0),
                                        action_event (session, 1)));
  /* 720 ms later: the user stopped to look. */
  g_assert_false (pace_rules_typing_run (session, action_event (session, 1),
                                         action_event (session, 2)));
  /* A window mapped between c's press and release: the app answered. */
  g_assert_false (pace_rules_typing_run (session, action_event (session, 2),
                                         action_event (session, 3)));
  /* Another window. */
  g_assert_false (pace_rules_typing_run (session, action_event (session, 3),
                                         action_event (session, 4)));
  /* A key, then a click. */
  g_assert_false (pace_rules_typing_run (session, action_event (session, 4),
                                         action_event (session, 5)));
}

/* An app that cannot be pinged is idle at a glance with nothing of its
 * running, none of it asleep in a handler, and the same processes as at
 * the glance before; the first glance of a wait has none before it. */
static void
test_idle (void)
{
  ProcTreeGlance before = { .n_active = 0, .n_procs = 2, .pid_sum = 300, .timer_ms = -1 };
  ProcTreeGlance glance = before;

  g_assert_true (pace_rules_idle (&glance, &before, FALSE));
  glance.n_active = 1;
  g_assert_false (pace_rules_idle (&glance, &before, FALSE));
  g_assert_false (pace_rules_idle (&glance, &before, TRUE));
  glance.n_active = 0;
  glance.handler_asleep = TRUE;
  g_assert_false (pace_rules_idle (&glance, &before, FALSE));
  glance.handler_asleep = FALSE;
  /* A process started (a retry loop's sleep): work going on, unless
   * nothing came before. */
  glance.n_procs = 3;
  glance.pid_sum = 700;
  g_assert_false (pace_rules_idle (&glance, &before, FALSE));
  g_assert_true (pace_rules_idle (&glance, &before, TRUE));
  /* One ended, another started, the same count: a change too. */
  glance.n_procs = 2;
  glance.pid_sum = 301;
  g_assert_false (pace_rules_idle (&glance, &before, FALSE));
  /* A timer its loop waits on is no work now. */
  glance.pid_sum = 300;
  glance.timer_ms = 10;
  g_assert_true (pace_rules_idle (&glance, &before, FALSE));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pace-rules/slow-clicks", test_slow_clicks);
  g_test_add_func ("/pace-rules/double-click", test_double_click);
  g_test_add_func ("/pace-rules/click-run", test_click_run);
  g_test_add_func ("/pace-rules/no-click-run", test_no_click_run);
  g_test_add_func ("/pace-rules/boundaries", test_boundaries);
  g_test_add_func ("/pace-rules/no-bounds", test_no_bounds);
  g_test_add_func ("/pace-rules/keys", test_keys);
  g_test_add_func ("/pace-rules/typing-run", test_typing_run);
  g_test_add_func ("/pace-rules/idle", test_idle);
  return g_test_run ();
}
