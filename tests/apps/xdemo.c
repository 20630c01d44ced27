/* xdemo.c — the demo app that xreduce's tests and demo sessions crash.
 *
 * A small editor written against plain Xlib (no toolkit, no GLib), so that
 * it behaves like a real app under XTest-injected input on a bare Xvfb with
 * no window manager: the focus follows the pointer (PointerRoot), so a key
 * goes to whichever of xdemo's windows is under the pointer, and keyboard
 * shortcuts act the same in all of them.  Each bug, chosen with --bug, is
 * a deliberate crash (or hang) reached through a definite sequence of user
 * actions; each crash site is its own noinline function so that a gdb
 * backtrace names it.
 *
 * Layout at the default geometry (+100+100); every position below is
 * relative to its window, and the dialogs are placed relative to the main
 * window, so --geometry moves everything.  The windows have no border, so
 * a root position is the window's position plus the window-relative one:
 *
 *   "Editor" (main)   640x480 at +100+100
 *     menu bar 0,0 640x24, label "File" 6,2 40x20 (press: open the menu)
 *     text field 20,44 600x28
 *     check box "Wrap" 20,88 90x22
 *     buttons "Options..." 20,130  "Print..." 145,130  "Clear" 270,130
 *             (each 110x30)
 *     drop area "Trash" 440,290 180x160
 *   "File" menu       override-redirect, 120x88 at main+6+24 (+106+124);
 *                     items New, Open..., Print..., Quit, 20 high from y=4
 *   "Print" dialog    320x160 at main+660+20 (+760+120), transient for main;
 *                     buttons "Print" 40,112 and "Cancel" 180,112 (100x32)
 *   "Options" dialog  320x180 at main+660+220 (+760+320), transient;
 *                     check boxes "Bold" 20,30 and "Italic" 20,62 (120x24),
 *                     buttons "OK" 40,130 and "Cancel" 180,130 (100x32)
 *
 * Input: printable keys typed into the main window append to the text
 * field, BackSpace deletes; Alt+F, Alt+P, Alt+O open the File menu, the
 * Print and the Options dialog; Escape closes the topmost of them; F5
 * redraws.  A button or check box acts on the release of button 1 inside
 * it after a press inside it.  The dialogs are created when opened and
 * destroyed when closed, like a toolkit's.
 *
 * To understand everything else, start reading main(), then the widget
 * table `widgets[]` and activate().
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <ctype.h>
#include <pthread.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/select.h>

#ifdef __clang__
#define CRASH_SITE __attribute__ ((noinline))
#else
#define CRASH_SITE __attribute__ ((noinline, noclone))
#endif

#define EXIT_USAGE 2
#define TEXT_MAX 200

/* The top-level windows, by role. */
enum { WIN_MAIN, WIN_MENU, WIN_PRINT, WIN_OPTIONS, N_WINS };

typedef enum {
  BUG_NONE, BUG_PRINT, BUG_TWIN, BUG_ORDER, BUG_ABORT, BUG_HANG, BUG_DRAG, BUG_FLAKY,
  BUG_CHILD, BUG_GL, BUG_QUIT,
} Bug;

static const char *const bug_names[] = {
  [BUG_NONE] = "none", [BUG_PRINT] = "print", [BUG_TWIN] = "twin",
  [BUG_ORDER] = "order", [BUG_ABORT] = "abort", [BUG_HANG] = "hang",
  [BUG_DRAG] = "drag", [BUG_FLAKY] = "flaky", [BUG_CHILD] = "child", [BUG_GL] = "gl",
  [BUG_QUIT] = "quit",
};

typedef enum {
  W_NONE,
  W_FILE_LABEL, W_TEXT, W_WRAP, W_OPTIONS_BUTTON, W_PRINT_BUTTON, W_CLEAR, W_TRASH,
  W_MENU_NEW, W_MENU_OPEN, W_MENU_PRINT, W_MENU_QUIT,
  W_PRINT_PRINT, W_PRINT_CANCEL,
  W_OPT_BOLD, W_OPT_ITALIC, W_OPT_OK, W_OPT_CANCEL,
} WidgetId;

typedef enum { K_LABEL, K_TEXT, K_CHECK, K_BUTTON, K_AREA, K_ITEM } WidgetKind;

typedef struct {
  WidgetId id;
  int win;              /* WIN_* it lives in */
  WidgetKind kind;
  int x, y, w, h;       /* relative to its window */
  const char *label;
} Widget;

/* The whole layout; docs in the top comment and the demo session
 * generator (tests/data/make-demo-session.py) follow it. */
static const Widget widgets[] = {
  { W_FILE_LABEL,     WIN_MAIN,    K_LABEL,    6,   2,  40,  20, "File" },
  { W_TEXT,           WIN_MAIN,    K_TEXT,    20,  44, 600,  28, NULL },
  { W_WRAP,           WIN_MAIN,    K_CHECK,   20,  88,  90,  22, "Wrap" },
  { W_OPTIONS_BUTTON, WIN_MAIN,    K_BUTTON,  20, 130, 110,  30, "Options..." },
  { W_PRINT_BUTTON,   WIN_MAIN,    K_BUTTON, 145, 130, 110,  30, "Print..." },
  { W_CLEAR,          WIN_MAIN,    K_BUTTON, 270, 130, 110,  30, "Clear" },
  { W_TRASH,          WIN_MAIN,    K_AREA,   440, 290, 180, 160, "Trash" },
  { W_MENU_NEW,       WIN_MENU,    K_ITEM,     2,   4, 116,  20, "New" },
  { W_MENU_OPEN,      WIN_MENU,    K_ITEM,     2,  24, 116,  20, "Open..." },
  { W_MENU_PRINT,     WIN_MENU,    K_ITEM,     2,  44, 116,  20, "Print..." },
  { W_MENU_QUIT,      WIN_MENU,    K_ITEM,     2,  64, 116,  20, "Quit" },
  { W_PRINT_PRINT,    WIN_PRINT,   K_BUTTON,  40, 112, 100,  32, "Print" },
  { W_PRINT_CANCEL,   WIN_PRINT,   K_BUTTON, 180, 112, 100,  32, "Cancel" },
  { W_OPT_BOLD,       WIN_OPTIONS, K_CHECK,   20,  30, 120,  24, "Bold" },
  { W_OPT_ITALIC,     WIN_OPTIONS, K_CHECK,   20,  62, 120,  24, "Italic" },
  { W_OPT_OK,         WIN_OPTIONS, K_BUTTON,  40, 130, 100,  32, "OK" },
  { W_OPT_CANCEL,     WIN_OPTIONS, K_BUTTON, 180, 130, 100,  32, "Cancel" },
};

/* Window geometry: main from --geometry, the others relative to it. */
typedef struct {
  const char *title;
  int dx, dy, w, h;     /* offset from the main window's origin */
  bool override;        /* override-redirect (the menu) */
} WinSpec;

static const WinSpec win_specs[N_WINS] = {
  [WIN_MAIN]    = { "Editor",    0,   0, 640, 480, false },
  [WIN_MENU]    = { "File",      6,  24, 120,  88, true },
  [WIN_PRINT]   = { "Print",   660,  20, 320, 160, false },
  [WIN_OPTIONS] = { "Options", 660, 220, 320, 180, false },
};

typedef struct {
  Bug bug;
  double probability;   /* --bug flaky */
  const char *geometry; /* NULL: +100+100 */
  const char *display;  /* NULL: $DISPLAY */
  bool echo_keys;       /* say every key press's keysym */
  bool no_pid;          /* set no _NET_WM_PID, as Tk, Xaw and Motif */
  long slow_dialogs_ms; /* a dialog is filled by a worker this much CPU time */
} Options;

typedef struct {
  Options opt;
  Display *dpy;
  int screen;
  Window root;
  Window win[N_WINS];   /* None while closed */
  int stack[N_WINS];    /* open menu and dialogs, topmost last */
  int n_stack;
  GC gc;
  XFontStruct *font;    /* may be NULL: then the server's default font */
  unsigned long black, white, face, shadow;
  int main_x, main_y;

  Atom wm_protocols, wm_delete_window, net_wm_ping, net_wm_pid, net_wm_name,
       net_wm_user_time, utf8_string;

  char text[TEXT_MAX + 1];
  size_t text_len;
  bool wrap;
  bool bold, italic;                  /* applied options */
  bool pending_bold, pending_italic;  /* in the open Options dialog */
  WidgetId hover_item;                /* menu item under the pointer */

  /* Button 1 press in progress. */
  bool pressed;
  int press_win;
  WidgetId press_widget;

  unsigned int rng;                   /* xorshift32 state, --bug flaky */

  /* --slow-dialogs: the worker filling a dialog. */
  int slow_fd;                        /* a pipe's end: EOF when it is done, or -1 */
  int slow_done_fd;                   /* the worker's end */
  int slow_idx;                       /* the dialog, WIN_* */
} App;

/* ---- The bugs.  Each crash site is its own function. ---- */

typedef struct {
  const char *name;
  int queue_length;
} Printer;

typedef struct {
  const char *text;
  Printer *printer;     /* the bug: never set */
} Document;

/* One informative line on stdout, flushed at once: a crash must not eat it. */
static void say (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

static void
say (const char *fmt, ...)
{
  va_list args;

  fputs ("xdemo: ", stdout);
  va_start (args, fmt);
  vprintf (fmt, args);
  va_end (args);
  fputc ('\n', stdout);
  fflush (stdout);
}

/* Mozilla bug #24735's shape: printing follows a NULL printer. */
static CRASH_SITE void
print_document (Document *doc)
{
  volatile Printer *volatile printer = doc->printer;

  say ("printing \"%s\"", doc->text);
  printer->queue_length++;
  say ("queued on %s", printer->name);
}

static CRASH_SITE void
print_empty_document (Document *doc)
{
  volatile Printer *volatile printer = doc->printer;

  say ("printing an empty document");
  printer->queue_length = 0;
}

static CRASH_SITE void
refresh_wrapped (App *app)
{
  const volatile char *volatile line_starts = NULL;

  say ("refreshing wrapped text");
  app->text_len += (size_t) line_starts[app->text_len];
}

static CRASH_SITE void
drop_on_trash (App *app)
{
  volatile char *volatile trash_bin = NULL;

  say ("dropping \"%s\" on the trash", app->text);
  trash_bin[0] = app->text[0];
}

static CRASH_SITE void
apply_options (App *app, const XFontStruct *font)
{
  if (font == NULL)
    {
      fflush (stdout);
      fprintf (stderr, "xdemo: options.c:123: apply_options: Assertion `font != NULL' failed.\n");
      fflush (stderr);
      abort ();
    }
  app->bold = app->pending_bold;
  app->italic = app->pending_italic;
}

/* A crash on quit: the windows are gone, the clean-up after them (saving
 * the settings, a toolkit's destructors) follows a freed pointer a
 * second later. */
static CRASH_SITE void
save_settings_on_quit (App *app)
{
  volatile char *volatile settings = NULL;
  const struct timespec cleanup = { 1, 0 };

  say ("closed the display; saving the settings");
  nanosleep (&cleanup, NULL);
  settings[0] = app->bold ? 'b' : '-';
}

static CRASH_SITE void
hang_printing (void)
{
  say ("waiting for the printer");
  for (;;)
    pause ();
}

static unsigned int
rng_next (App *app)
{
  unsigned int x = app->rng;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return app->rng = x;
}

/* ---- Drawing ---- */

static const Widget *
widget_at (int win, int x, int y)
{
  for (size_t i = 0; i < sizeof widgets / sizeof widgets[0]; i++)
    {
      const Widget *w = &widgets[i];

      if (w->win == win && x >= w->x && x < w->x + w->w && y >= w->y && y < w->y + w->h)
        return w;
    }
  return NULL;
}

static void
draw_string (App *app, Window w, int x, int y, const char *s)
{
  XDrawString (app->dpy, w, app->gc, x, y, s, (int) strlen (s));
}

static int
text_width (App *app, const char *s)
{
  if (app->font == NULL)
    return 6 * (int) strlen (s);
  return XTextWidth (app->font, s, (int) strlen (s));
}

static bool
check_value (App *app, WidgetId id)
{
  switch (id)
    {
    case W_WRAP: return app->wrap;
    case W_OPT_BOLD: return app->pending_bold;
    case W_OPT_ITALIC: return app->pending_italic;
    default: return false;
    }
}

static void
draw_widget (App *app, Window w, const Widget *wd)
{
  Display *dpy = app->dpy;
  int base = wd->y + wd->h / 2 + 4;

  switch (wd->kind)
    {
    case K_LABEL:
      XSetForeground (dpy, app->gc, app->black);
      draw_string (app, w, wd->x + 6, base, wd->label);
      break;
    case K_TEXT:
      XSetForeground (dpy, app->gc, app->white);
      XFillRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w, (unsigned) wd->h);
      XSetForeground (dpy, app->gc, app->black);
      XDrawRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w - 1, (unsigned) wd->h - 1);
      draw_string (app, w, wd->x + 4, base, app->text);
      {
        int caret = wd->x + 5 + text_width (app, app->text);

        XDrawLine (dpy, w, app->gc, caret, wd->y + 5, caret, wd->y + wd->h - 6);
      }
      break;
    case K_CHECK:
      XSetForeground (dpy, app->gc, app->white);
      XFillRectangle (dpy, w, app->gc, wd->x + 2, wd->y + 3, 16, 16);
      XSetForeground (dpy, app->gc, app->black);
      XDrawRectangle (dpy, w, app->gc, wd->x + 2, wd->y + 3, 15, 15);
      if (check_value (app, wd->id))
        {
          XDrawLine (dpy, w, app->gc, wd->x + 5, wd->y + 11, wd->x + 9, wd->y + 15);
          XDrawLine (dpy, w, app->gc, wd->x + 9, wd->y + 15, wd->x + 15, wd->y + 6);
        }
      draw_string (app, w, wd->x + 26, base, wd->label);
      break;
    case K_BUTTON:
      {
        bool down = app->pressed && app->press_widget == wd->id;

        XSetForeground (dpy, app->gc, down ? app->shadow : app->face);
        XFillRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w, (unsigned) wd->h);
        XSetForeground (dpy, app->gc, app->black);
        XDrawRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w - 1, (unsigned) wd->h - 1);
        draw_string (app, w, wd->x + (wd->w - text_width (app, wd->label)) / 2, base, wd->label);
      }
      break;
    case K_AREA:
      XSetForeground (dpy, app->gc, app->face);
      XFillRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w, (unsigned) wd->h);
      XSetForeground (dpy, app->gc, app->black);
      XSetLineAttributes (dpy, app->gc, 1, LineOnOffDash, CapButt, JoinMiter);
      XDrawRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w - 1, (unsigned) wd->h - 1);
      XSetLineAttributes (dpy, app->gc, 0, LineSolid, CapButt, JoinMiter);
      draw_string (app, w, wd->x + (wd->w - text_width (app, wd->label)) / 2, base, wd->label);
      break;
    case K_ITEM:
      XSetForeground (dpy, app->gc, app->hover_item == wd->id ? app->shadow : app->face);
      XFillRectangle (dpy, w, app->gc, wd->x, wd->y, (unsigned) wd->w, (unsigned) wd->h);
      XSetForeground (dpy, app->gc, app->black);
      draw_string (app, w, wd->x + 8, base, wd->label);
      break;
    }
}

static void
draw_window (App *app, int idx)
{
  Display *dpy = app->dpy;
  Window w = app->win[idx];
  char status[128];

  if (w == None)
    return;
  XClearWindow (dpy, w);
  XSetForeground (dpy, app->gc, app->black);
  switch (idx)
    {
    case WIN_MAIN:
      XSetForeground (dpy, app->gc, app->face);
      XFillRectangle (dpy, w, app->gc, 0, 0, (unsigned) win_specs[WIN_MAIN].w, 24);
      XSetForeground (dpy, app->gc, app->black);
      XDrawLine (dpy, w, app->gc, 0, 24, win_specs[WIN_MAIN].w, 24);
      snprintf (status, sizeof status, "%zu characters, wrap %s, bold %s, italic %s",
                app->text_len, app->wrap ? "on" : "off", app->bold ? "on" : "off",
                app->italic ? "on" : "off");
      draw_string (app, w, 20, 470, status);
      break;
    case WIN_PRINT:
      draw_string (app, w, 20, 30, "Print document");
      draw_string (app, w, 20, 56, "Printer: lp0 (default)");
      draw_string (app, w, 20, 76, "Copies:  1");
      break;
    case WIN_OPTIONS:
      draw_string (app, w, 20, 20, "Font style");
      break;
    default:
      break;
    }
  if (idx != WIN_MAIN)
    XDrawRectangle (dpy, w, app->gc, 0, 0, (unsigned) win_specs[idx].w - 1,
                    (unsigned) win_specs[idx].h - 1);
  for (size_t i = 0; i < sizeof widgets / sizeof widgets[0]; i++)
    if (widgets[i].win == idx)
      draw_widget (app, w, &widgets[i]);
}

static void
redraw_all (App *app)
{
  for (int i = 0; i < N_WINS; i++)
    draw_window (app, i);
}

/* ---- Windows ---- */

static int
win_index (App *app, Window w)
{
  for (int i = 0; i < N_WINS; i++)
    if (app->win[i] != None && app->win[i] == w)
      return i;
  return -1;
}

static void
create_window (App *app, int idx)
{
  Display *dpy = app->dpy;
  const WinSpec *spec = &win_specs[idx];
  XSetWindowAttributes attrs = {
    .background_pixel = app->face,
    .override_redirect = spec->override,
    .event_mask = KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask
                  | PointerMotionMask | ExposureMask | StructureNotifyMask
                  | EnterWindowMask | LeaveWindowMask | FocusChangeMask
                  | PropertyChangeMask,
  };
  int x = app->main_x + spec->dx, y = app->main_y + spec->dy;
  /* No border: with no window manager, root = window origin + pos, with
   * no border width to account for (the drawn frame is inside). */
  Window w = XCreateWindow (dpy, app->root, x, y, (unsigned) spec->w, (unsigned) spec->h, 0,
                            CopyFromParent, InputOutput, CopyFromParent,
                            CWBackPixel | CWOverrideRedirect | CWEventMask,
                            &attrs);
  XSizeHints *size = XAllocSizeHints ();
  XWMHints *hints = XAllocWMHints ();
  XClassHint *class = XAllocClassHint ();
  Atom protocols[2] = { app->wm_delete_window, app->net_wm_ping };
  long pid = (long) getpid ();
  char *title = (char *) spec->title;
  XTextProperty name;

  if (size == NULL || hints == NULL || class == NULL)
    {
      fprintf (stderr, "xdemo: out of memory\n");
      exit (1);
    }
  size->flags = USPosition | PPosition | USSize | PSize;
  size->x = x;
  size->y = y;
  size->width = spec->w;
  size->height = spec->h;
  if (idx != WIN_MAIN)
    {
      size->flags |= PMinSize | PMaxSize;
      size->min_width = size->max_width = spec->w;
      size->min_height = size->max_height = spec->h;
    }
  hints->flags = InputHint | StateHint;
  hints->input = True;
  hints->initial_state = NormalState;
  class->res_name = (char *) "xdemo";
  class->res_class = (char *) "XDemo";
  if (XStringListToTextProperty (&title, 1, &name) == 0)
    {
      fprintf (stderr, "xdemo: out of memory\n");
      exit (1);
    }
  XSetWMProperties (dpy, w, &name, &name, NULL, 0, size, hints, class);
  XFree (name.value);
  XFree (size);
  XFree (hints);
  XFree (class);
  XChangeProperty (dpy, w, app->net_wm_name, app->utf8_string, 8, PropModeReplace,
                   (const unsigned char *) spec->title, (int) strlen (spec->title));
  XSetWMProtocols (dpy, w, protocols, 2);
  if (!app->opt.no_pid)
    XChangeProperty (dpy, w, app->net_wm_pid, XA_CARDINAL, 32, PropModeReplace,
                     (const unsigned char *) &pid, 1);
  if (idx != WIN_MAIN)
    XSetTransientForHint (dpy, w, app->win[WIN_MAIN]);
  app->win[idx] = w;
  XMapRaised (dpy, w);
}

static void
close_window (App *app, int idx)
{
  if (app->win[idx] == None)
    return;
  if (idx == WIN_MENU)
    XUngrabPointer (app->dpy, CurrentTime);
  XDestroyWindow (app->dpy, app->win[idx]);
  app->win[idx] = None;
  int n = 0;
  for (int i = 0; i < app->n_stack; i++)
    if (app->stack[i] != idx)
      app->stack[n++] = app->stack[i];
  app->n_stack = n;
  if (app->pressed && app->press_win == idx)
    app->pressed = false;
  say ("%s closed", win_specs[idx].title);
}

/* Works until this process has had @ms of CPU time. */
static void
work_cpu (long ms)
{
  for (;;)
    {
      struct timespec used;
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &used);
      if (used.tv_sec * 1000 + used.tv_nsec / 1000000 >= ms)
        break;
    }
}

/* --slow-dialogs: dialog @idx is filled by a worker thread, which works
 * for the option's CPU time first; xdemo maps it once the worker is done
 * (main()'s loop), handling events and pings meanwhile, as a toolkit
 * whose worker thread fills a dialog (a folder read, a preview drawn).
 * FALSE: made at once. */
static void *
fill_dialog (void *data)
{
  App *app = data;
  struct timespec used;

  do
    clock_gettime (CLOCK_THREAD_CPUTIME_ID, &used);
  while (used.tv_sec * 1000 + used.tv_nsec / 1000000 < app->opt.slow_dialogs_ms);
  close (app->slow_done_fd);
  return NULL;
}

static bool
make_dialog_slowly (App *app, int idx)
{
  int fds[2];
  pthread_t worker;

  if (app->opt.slow_dialogs_ms <= 0 || idx == WIN_MENU)
    return false;
  if (app->slow_fd >= 0)
    return true;   /* one at a time: the one on its way */
  if (pipe (fds) != 0)
    return false;
  app->slow_done_fd = fds[1];
  if (pthread_create (&worker, NULL, fill_dialog, app) != 0)
    {
      close (fds[0]);
      close (fds[1]);
      return false;
    }
  pthread_detach (worker);
  app->slow_fd = fds[0];
  app->slow_idx = idx;
  say ("%s on its way", win_specs[idx].title);
  return true;
}

static void open_window_now (App *app, int idx);

/* Opens the menu or a dialog, or raises it when it is open already. */
static void
open_window (App *app, int idx)
{
  if (app->win[idx] != None)
    {
      XRaiseWindow (app->dpy, app->win[idx]);
      return;
    }
  if (!make_dialog_slowly (app, idx))
    open_window_now (app, idx);
}

static void
open_window_now (App *app, int idx)
{
  if (idx != WIN_MENU && app->win[WIN_MENU] != None)
    close_window (app, WIN_MENU);
  if (idx == WIN_OPTIONS)
    {
      app->pending_bold = app->bold;
      app->pending_italic = app->italic;
    }
  create_window (app, idx);
  app->stack[app->n_stack++] = idx;
  if (idx == WIN_MENU)
    {
      /* Like a toolkit's menu: grab the pointer so that a click anywhere
       * outside the menu closes it.  owner_events: clicks on xdemo's own
       * windows are reported to them as usual. */
      XSync (app->dpy, False);
      app->hover_item = W_NONE;
      if (XGrabPointer (app->dpy, app->win[WIN_MENU], True,
                        ButtonPressMask | ButtonReleaseMask | PointerMotionMask,
                        GrabModeAsync, GrabModeAsync, None, None, CurrentTime) != GrabSuccess)
        say ("could not grab the pointer for the %s menu", "File");
    }
  say ("%s opened", win_specs[idx].title);
}

/* ---- Actions ---- */

static void
set_text (App *app, const char *text)
{
  snprintf (app->text, sizeof app->text, "%s", text);
  app->text_len = strlen (app->text);
  draw_window (app, WIN_MAIN);
}

/* --bug child: printing is left to a helper process, which works for
 * CHILD_WORK_MS of its own CPU time and then kills xdemo with SIGSEGV, as a
 * command typed into a terminal kills the terminal: the crash comes from
 * elsewhere, after the action, while xdemo itself stays idle. */
#define CHILD_WORK_MS 800

static void
print_in_child (void)
{
  pid_t pid = fork ();

  if (pid != 0)
    return;   /* xdemo, or fork failed */
  work_cpu (CHILD_WORK_MS);
  kill (getppid (), SIGSEGV);
  _exit (0);
}

/* The Print dialog's Print button: where most bugs live. */
static void
do_print (App *app)
{
  Document doc = { .text = app->text, .printer = NULL };

  switch (app->opt.bug)
    {
    case BUG_PRINT:
      print_document (&doc);
      break;
    case BUG_TWIN:
      if (app->text_len == 0)
        print_empty_document (&doc);
      else
        print_document (&doc);
      break;
    case BUG_HANG:
      hang_printing ();
      break;
    case BUG_FLAKY:
      if (rng_next (app) % 1000000u < (unsigned int) (app->opt.probability * 1000000.0))
        print_document (&doc);
      break;
    case BUG_CHILD:
      print_in_child ();
      break;
    case BUG_GL:
      {
        /* As a print preview drawn with OpenGL would: only a server
         * with GLX takes it down that path. */
        int opcode, event, error;

        if (XQueryExtension (app->dpy, "GLX", &opcode, &event, &error))
          print_document (&doc);
      }
      break;
    default:
      break;
    }
  say ("printed \"%s\"", app->text);
  close_window (app, WIN_PRINT);
}

static void
do_refresh (App *app)
{
  if (app->opt.bug == BUG_ORDER && app->wrap)
    refresh_wrapped (app);
  redraw_all (app);
  say ("refreshed");
}

static void
activate (App *app, WidgetId id)
{
  switch (id)
    {
    case W_WRAP:
      app->wrap = !app->wrap;
      say ("wrap %s", app->wrap ? "on" : "off");
      draw_window (app, WIN_MAIN);
      break;
    case W_OPTIONS_BUTTON:
      open_window (app, WIN_OPTIONS);
      break;
    case W_PRINT_BUTTON:
      open_window (app, WIN_PRINT);
      break;
    case W_CLEAR:
      set_text (app, "");
      say ("text cleared");
      break;
    case W_MENU_NEW:
      close_window (app, WIN_MENU);
      set_text (app, "");
      say ("new document");
      break;
    case W_MENU_OPEN:
      close_window (app, WIN_MENU);
      say ("open: %s", "no files to open");
      break;
    case W_MENU_PRINT:
      close_window (app, WIN_MENU);
      open_window (app, WIN_PRINT);
      break;
    case W_MENU_QUIT:
      say ("quit");
      if (app->opt.bug == BUG_QUIT)
        {
          XCloseDisplay (app->dpy);
          app->dpy = NULL;
          save_settings_on_quit (app);
        }
      exit (0);
    case W_PRINT_PRINT:
      do_print (app);
      break;
    case W_PRINT_CANCEL:
      close_window (app, WIN_PRINT);
      break;
    case W_OPT_BOLD:
      app->pending_bold = !app->pending_bold;
      say ("bold %s", app->pending_bold ? "checked" : "unchecked");
      draw_window (app, WIN_OPTIONS);
      break;
    case W_OPT_ITALIC:
      app->pending_italic = !app->pending_italic;
      say ("italic %s", app->pending_italic ? "checked" : "unchecked");
      draw_window (app, WIN_OPTIONS);
      break;
    case W_OPT_OK:
      /* The bug: the bold font is never loaded. */
      apply_options (app, app->opt.bug == BUG_ABORT && app->pending_bold ? NULL : app->font);
      say ("options applied (bold %s)", app->bold ? "on" : "off");
      close_window (app, WIN_OPTIONS);
      draw_window (app, WIN_MAIN);
      break;
    case W_OPT_CANCEL:
      close_window (app, WIN_OPTIONS);
      break;
    default:
      break;
    }
}

/* ---- Event handlers, dispatched by type ---- */

static void
note_user_time (App *app, Window w, Time t)
{
  long value = (long) t;

  XChangeProperty (app->dpy, w, app->net_wm_user_time, XA_CARDINAL, 32, PropModeReplace,
                   (const unsigned char *) &value, 1);
}

static void
on_key_press (App *app, XEvent *ev)
{
  XKeyEvent *kev = &ev->xkey;
  int idx = win_index (app, kev->window);
  char buf[16];
  KeySym sym = NoSymbol, base = XLookupKeysym (kev, 0);
  int len = XLookupString (kev, buf, sizeof buf - 1, &sym, NULL);

  if (idx < 0)
    return;
  if (app->opt.echo_keys)
    {
      const char *name = XKeysymToString (sym != NoSymbol ? sym : base);
      say ("key %s in %s", name != NULL ? name : "NoSymbol", win_specs[idx].title);
    }
  note_user_time (app, kev->window, kev->time);
  if (kev->state & Mod1Mask)
    {
      /* Shortcuts: the same in every window. */
      if (base == XK_f)
        open_window (app, WIN_MENU);
      else if (base == XK_p)
        open_window (app, WIN_PRINT);
      else if (base == XK_o)
        open_window (app, WIN_OPTIONS);
      return;
    }
  switch (sym)
    {
    case XK_Escape:
      if (app->n_stack > 0)
        close_window (app, app->stack[app->n_stack - 1]);
      return;
    case XK_F5:
      do_refresh (app);
      return;
    case XK_BackSpace:
      if (idx == WIN_MAIN && app->text_len > 0)
        {
          app->text[--app->text_len] = '\0';
          draw_window (app, WIN_MAIN);
        }
      return;
    default:
      break;
    }
  /* Printable characters go to the text field, the only one, when typed
   * into the main window. */
  if (idx == WIN_MAIN && len == 1 && !(kev->state & ControlMask)
      && isprint ((unsigned char) buf[0]) && app->text_len < TEXT_MAX)
    {
      app->text[app->text_len++] = buf[0];
      app->text[app->text_len] = '\0';
      draw_window (app, WIN_MAIN);
    }
}

static void
on_button_press (App *app, XEvent *ev)
{
  XButtonEvent *bev = &ev->xbutton;
  int idx = win_index (app, bev->window);
  const Widget *w;

  note_user_time (app, bev->window, bev->time);
  /* While the menu is open (and has the pointer grabbed), a press outside
   * it closes it and goes no further. */
  if (app->win[WIN_MENU] != None
      && (idx != WIN_MENU || bev->x < 0 || bev->y < 0
          || bev->x >= win_specs[WIN_MENU].w || bev->y >= win_specs[WIN_MENU].h))
    {
      close_window (app, WIN_MENU);
      return;
    }
  if (idx < 0 || bev->button != Button1)
    return;
  w = widget_at (idx, bev->x, bev->y);
  app->pressed = true;
  app->press_win = idx;
  app->press_widget = w != NULL ? w->id : W_NONE;
  if (w != NULL && w->id == W_FILE_LABEL)
    {
      app->pressed = false;
      open_window (app, WIN_MENU);
      return;
    }
  if (w != NULL && w->kind == K_BUTTON)
    draw_window (app, idx);
}

static void
on_button_release (App *app, XEvent *ev)
{
  XButtonEvent *bev = &ev->xbutton;
  int idx = win_index (app, bev->window);
  const Widget *w;
  WidgetId pressed;

  if (idx < 0 || bev->button != Button1 || !app->pressed)
    return;
  app->pressed = false;
  pressed = app->press_widget;
  w = widget_at (idx, bev->x, bev->y);
  if (pressed != W_NONE)
    draw_window (app, app->press_win);
  if (w == NULL)
    return;
  if (pressed == W_TEXT && idx == WIN_MAIN && w->id == W_TRASH)
    {
      if (app->opt.bug == BUG_DRAG)
        drop_on_trash (app);
      say ("the trash does not take text");
      return;
    }
  /* Menu items act on release, wherever the press was; the rest only
   * after a press inside them. */
  if (w->kind == K_ITEM || (w->id == pressed && idx == app->press_win))
    activate (app, w->id);
}

static void
on_motion (App *app, XEvent *ev)
{
  XMotionEvent *mev = &ev->xmotion;
  const Widget *w;
  WidgetId hover;

  if (win_index (app, mev->window) != WIN_MENU)
    return;
  w = widget_at (WIN_MENU, mev->x, mev->y);
  hover = w != NULL ? w->id : W_NONE;
  if (hover != app->hover_item)
    {
      app->hover_item = hover;
      draw_window (app, WIN_MENU);
    }
}

static void
on_expose (App *app, XEvent *ev)
{
  int idx = win_index (app, ev->xexpose.window);

  if (idx >= 0 && ev->xexpose.count == 0)
    draw_window (app, idx);
}

static void
on_client_message (App *app, XEvent *ev)
{
  XClientMessageEvent *cm = &ev->xclient;
  int idx = win_index (app, cm->window);

  if (cm->message_type != app->wm_protocols || cm->format != 32)
    return;
  if ((Atom) cm->data.l[0] == app->net_wm_ping)
    {
      /* The standard answer: the same event, sent back to the root. */
      XEvent reply = *ev;

      reply.xclient.window = app->root;
      XSendEvent (app->dpy, app->root, False,
                  SubstructureNotifyMask | SubstructureRedirectMask, &reply);
      XFlush (app->dpy);
    }
  else if ((Atom) cm->data.l[0] == app->wm_delete_window && idx >= 0)
    {
      if (idx == WIN_MAIN)
        {
          say ("main window closed");
          exit (0);
        }
      close_window (app, idx);
    }
}

static void
on_destroy (App *app, XEvent *ev)
{
  /* Destroyed by someone else (xdotool windowkill, xkill). */
  if (ev->xdestroywindow.window == app->win[WIN_MAIN])
    {
      say ("main window destroyed");
      exit (0);
    }
}

/* The keyboard mapping changed (a replayer bound a spare keycode): as every
 * well-behaved client, refresh Xlib's copy. */
static void
on_mapping (App *app, XEvent *ev)
{
  XRefreshKeyboardMapping (&ev->xmapping);
}

typedef void (*Handler) (App *app, XEvent *ev);

static const Handler handlers[LASTEvent] = {
  [KeyPress] = on_key_press,
  [ButtonPress] = on_button_press,
  [ButtonRelease] = on_button_release,
  [MotionNotify] = on_motion,
  [Expose] = on_expose,
  [ClientMessage] = on_client_message,
  [DestroyNotify] = on_destroy,
  [MappingNotify] = on_mapping,
};

/* X errors arrive asynchronously; the only expected ones come from racing
 * a window that someone else destroyed.  Report them and go on. */
static int
on_x_error (Display *dpy, XErrorEvent *err)
{
  char text[128];

  XGetErrorText (dpy, err->error_code, text, sizeof text);
  fprintf (stderr, "xdemo: X error: %s (request %d)\n", text, err->request_code);
  return 0;
}

/* ---- Start-up ---- */

static void
usage (FILE *out)
{
  fputs ("Usage: xdemo [OPTION...]\n"
         "A small X11 editor with deliberate bugs, for testing xreduce.\n"
         "\n"
         "  --bug NAME         which bug to enable (default: print):\n"
         "                     print  Print dialog > Print dereferences NULL (SIGSEGV)\n"
         "                     twin   like print, but empty text crashes elsewhere\n"
         "                     order  F5 while Wrap is checked (SIGSEGV)\n"
         "                     abort  Options > OK with Bold checked (SIGABRT)\n"
         "                     hang   Print dialog > Print loops forever\n"
         "                     drag   drag from the text field to Trash (SIGSEGV)\n"
         "                     flaky  like print, with probability P\n"
         "                     child  Print starts a helper that kills xdemo with SIGSEGV\n"
         "                            after 0.8 s of CPU work\n"
         "                     gl     like print, only where the X server has GLX (Print\n"
         "                            asks the server for it)\n"
         "                     quit   File > Quit closes the display, then crashes\n"
         "                            (SIGSEGV) a second later, saving its settings\n"
         "                     none   no bug\n"
         "  --probability P    for --bug flaky, 0 to 1 (default 0.5); the seed is\n"
         "                     $XDEMO_SEED, or the time\n"
         "  --geometry GEOM    main window placement, WxH+X+Y or +X+Y (default +100+100)\n"
         "  --display NAME     X display (default: $DISPLAY)\n"
         "  --echo-keys        say the keysym of every key press on stdout\n"
         "  --no-pid           set no _NET_WM_PID on the windows (as Tk, Xaw, Motif)\n"
         "  --slow-dialogs MS  a dialog is filled by a worker thread that works MS of\n"
         "                     CPU time first; events are handled meanwhile\n"
         "  --version          print the version and exit\n"
         "  --help             show this help\n", out);
}

static bool
parse_args (int argc, char **argv, Options *opt)
{
  *opt = (Options) { .bug = BUG_PRINT, .probability = 0.5 };
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *value = NULL;

      if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          usage (stdout);
          exit (0);
        }
      /* As real apps tell it: the bug report names the version. */
      if (strcmp (arg, "--version") == 0)
        {
          puts ("xdemo 1.0");
          exit (0);
        }
      if (strcmp (arg, "--bug") == 0 || strcmp (arg, "--probability") == 0
          || strcmp (arg, "--geometry") == 0 || strcmp (arg, "--display") == 0
          || strcmp (arg, "--slow-dialogs") == 0)
        {
          if (i + 1 >= argc)
            {
              fprintf (stderr, "xdemo: %s needs a value\n", arg);
              return false;
            }
          value = argv[++i];
        }
      if (strcmp (arg, "--bug") == 0)
        {
          size_t n = sizeof bug_names / sizeof bug_names[0];
          size_t b;

          for (b = 0; b < n && strcmp (bug_names[b], value) != 0; b++)
            ;
          if (b == n)
            {
              fprintf (stderr, "xdemo: unknown bug '%s' (print, twin, order, abort, "
                       "hang, drag, flaky, child, gl, none)\n", value);
              return false;
            }
          opt->bug = (Bug) b;
        }
      else if (strcmp (arg, "--probability") == 0)
        {
          char *end;

          errno = 0;
          opt->probability = strtod (value, &end);
          if (errno != 0 || end == value || *end != '\0'
              || !(opt->probability >= 0.0 && opt->probability <= 1.0))
            {
              fprintf (stderr, "xdemo: bad probability '%s' (0 to 1)\n", value);
              return false;
            }
        }
      else if (strcmp (arg, "--geometry") == 0)
        opt->geometry = value;
      else if (strcmp (arg, "--display") == 0)
        opt->display = value;
      else if (strcmp (arg, "--echo-keys") == 0)
        opt->echo_keys = true;
      else if (strcmp (arg, "--no-pid") == 0)
        opt->no_pid = true;
      else if (strcmp (arg, "--slow-dialogs") == 0)
        {
          char *end;

          errno = 0;
          opt->slow_dialogs_ms = strtol (value, &end, 10);
          if (errno != 0 || end == value || *end != '\0' || opt->slow_dialogs_ms < 0
              || opt->slow_dialogs_ms > 600000)
            {
              fprintf (stderr, "xdemo: bad --slow-dialogs '%s' (0 to 600000 ms)\n", value);
              return false;
            }
        }
      else
        {
          fprintf (stderr, "xdemo: unknown option '%s'\n", arg);
          return false;
        }
    }
  return true;
}

static unsigned long
named_color (App *app, const char *name, unsigned long fallback)
{
  XColor screen, exact;

  if (XAllocNamedColor (app->dpy, DefaultColormap (app->dpy, app->screen), name,
                        &screen, &exact))
    return screen.pixel;
  return fallback;
}

static bool
place_main (App *app)
{
  int x = 100, y = 100;
  unsigned int w = 0, h = 0;
  int flags;

  app->main_x = x;
  app->main_y = y;
  if (app->opt.geometry == NULL)
    return true;
  flags = XParseGeometry (app->opt.geometry, &x, &y, &w, &h);
  if (!(flags & XValue) || !(flags & YValue))
    return false;
  /* The size is fixed; a WxH part is accepted and ignored. */
  if (flags & XNegative)
    x += DisplayWidth (app->dpy, app->screen) - win_specs[WIN_MAIN].w - 2;
  if (flags & YNegative)
    y += DisplayHeight (app->dpy, app->screen) - win_specs[WIN_MAIN].h - 2;
  app->main_x = x;
  app->main_y = y;
  return true;
}

static void
seed_rng (App *app)
{
  const char *env = getenv ("XDEMO_SEED");
  unsigned long seed;

  if (env != NULL && *env != '\0')
    seed = strtoul (env, NULL, 0);
  else
    seed = (unsigned long) time (NULL) ^ ((unsigned long) getpid () << 16);
  app->rng = (unsigned int) (seed * 2654435761u) | 1u;
  if (app->opt.bug == BUG_FLAKY)
    printf ("xdemo: flaky seed %lu, probability %g\n", seed, app->opt.probability);
}

int
main (int argc, char **argv)
{
  static App app;
  XGCValues gcv = { 0 };

  if (!parse_args (argc, argv, &app.opt))
    {
      usage (stderr);
      return EXIT_USAGE;
    }
  app.dpy = XOpenDisplay (app.opt.display);
  if (app.dpy == NULL)
    {
      fprintf (stderr, "xdemo: cannot open display '%s'\n", XDisplayName (app.opt.display));
      return 1;
    }
  if (!place_main (&app))
    {
      fprintf (stderr, "xdemo: bad geometry '%s' (WxH+X+Y or +X+Y)\n", app.opt.geometry);
      return EXIT_USAGE;
    }
  XSetErrorHandler (on_x_error);
  seed_rng (&app);
  app.screen = DefaultScreen (app.dpy);
  app.root = RootWindow (app.dpy, app.screen);
  app.black = BlackPixel (app.dpy, app.screen);
  app.white = WhitePixel (app.dpy, app.screen);
  app.face = named_color (&app, "grey85", app.white);
  app.shadow = named_color (&app, "grey60", app.black);
  app.wm_protocols = XInternAtom (app.dpy, "WM_PROTOCOLS", False);
  app.wm_delete_window = XInternAtom (app.dpy, "WM_DELETE_WINDOW", False);
  app.net_wm_ping = XInternAtom (app.dpy, "_NET_WM_PING", False);
  app.net_wm_pid = XInternAtom (app.dpy, "_NET_WM_PID", False);
  app.net_wm_name = XInternAtom (app.dpy, "_NET_WM_NAME", False);
  app.net_wm_user_time = XInternAtom (app.dpy, "_NET_WM_USER_TIME", False);
  app.utf8_string = XInternAtom (app.dpy, "UTF8_STRING", False);

  app.font = XLoadQueryFont (app.dpy, "fixed");
  gcv.foreground = app.black;
  gcv.background = app.face;
  app.gc = XCreateGC (app.dpy, app.root, GCForeground | GCBackground, &gcv);
  if (app.font != NULL)
    XSetFont (app.dpy, app.gc, app.font->fid);

  create_window (&app, WIN_MAIN);
  printf ("xdemo: bug %s, main window 0x%lx at +%d+%d\n", bug_names[app.opt.bug],
          app.win[WIN_MAIN], app.main_x, app.main_y);
  fflush (stdout);

  app.slow_fd = -1;
  for (;;)
    {
      XEvent ev;

      if (app.slow_fd >= 0 && XPending (app.dpy) == 0)
        {
          /* A dialog on its way: its worker's EOF, or the next event. */
          int xfd = ConnectionNumber (app.dpy);
          fd_set readable;
          char c;

          FD_ZERO (&readable);
          FD_SET (xfd, &readable);
          FD_SET (app.slow_fd, &readable);
          if (select ((xfd > app.slow_fd ? xfd : app.slow_fd) + 1, &readable, NULL, NULL,
                      NULL) > 0
              && FD_ISSET (app.slow_fd, &readable) && read (app.slow_fd, &c, 1) <= 0)
            {
              close (app.slow_fd);
              app.slow_fd = -1;
              open_window_now (&app, app.slow_idx);
              XFlush (app.dpy);
            }
          continue;
        }
      XNextEvent (app.dpy, &ev);
      if (ev.type < LASTEvent && handlers[ev.type] != NULL)
        handlers[ev.type] (&app, &ev);
    }
}
