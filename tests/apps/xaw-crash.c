/* xaw-crash.c — a small Xaw (Athena widgets) app that crashes (SIGSEGV)
 * only after a sequence through a menu and a dialog, for the toolkit tests
 * (tests/x11/test-toolkits.c). Xt sets no _NET_WM_PID; its menus are
 * override-redirect shells with no WM_CLASS and no title.
 *
 * The main window "Xaw crash test" (400x300 at +0+0): a menu button File
 * at 4,4 (60x24) whose menu (pressed, dragged to an entry, released, as
 * Athena menus go) has About... and Settings...; a text entry at 20,110
 * (360x40); a button Hello at 20,210 (360x60) that counts its clicks.
 * About... opens "About" (300x120 at +420+0) with one button OK over all
 * of it, which closes it. Settings... opens "Settings" (300x120 at
 * +420+0): Apply over its left half crashes the app, Close over its right
 * half closes it. The dialogs are created when opened and destroyed when
 * closed.
 *
 * Start reading at main().
 */
#include <signal.h>
#include <stdio.h>
#include <X11/Intrinsic.h>
#include <X11/StringDefs.h>
#include <X11/Shell.h>
#include <X11/Xaw/AsciiText.h>
#include <X11/Xaw/Command.h>
#include <X11/Xaw/Form.h>
#include <X11/Xaw/MenuButton.h>
#include <X11/Xaw/SimpleMenu.h>
#include <X11/Xaw/SmeBSB.h>

static Widget top_shell;
static Widget about_shell, settings_shell;
static int clicks;

/* The bug: a settings record that was never made. */
typedef struct
{
  int applied;
} Settings;

static Settings *volatile current_settings;

static void
on_apply (Widget w, XtPointer client, XtPointer call)
{
  current_settings->applied = 1;   /* SIGSEGV: never set */
}

static void
on_close (Widget w, XtPointer client, XtPointer call)
{
  Widget *shell = client;

  XtDestroyWidget (*shell);
  *shell = NULL;
}

static void
on_hello (Widget w, XtPointer client, XtPointer call)
{
  char label[32];

  snprintf (label, sizeof label, "Hello (%d)", ++clicks);
  XtVaSetValues (w, XtNlabel, label, NULL);
}

/* A 300x120 dialog at +420+0 with one or two buttons side by side. */
static Widget
dialog (const char *title, const char *first, XtCallbackProc first_cb,
        const char *second, XtCallbackProc second_cb, Widget *shell)
{
  Widget form, button;
  Dimension width = second != NULL ? 148 : 298;

  *shell = XtVaCreatePopupShell (title, transientShellWidgetClass, top_shell,
                                 XtNtitle, title, XtNx, 420, XtNy, 0,
                                 XtNwidth, 300, XtNheight, 120, NULL);
  form = XtVaCreateManagedWidget ("form", formWidgetClass, *shell,
                                  XtNdefaultDistance, 0, NULL);
  button = XtVaCreateManagedWidget (first, commandWidgetClass, form,
                                    XtNlabel, first, XtNwidth, width, XtNheight, 118,
                                    XtNhorizDistance, 0, XtNvertDistance, 0, NULL);
  XtAddCallback (button, XtNcallback, first_cb, shell);
  if (second != NULL)
    {
      Widget other = XtVaCreateManagedWidget (second, commandWidgetClass, form,
                                              XtNlabel, second, XtNwidth, width,
                                              XtNheight, 118, XtNfromHoriz, button,
                                              XtNhorizDistance, 0, XtNvertDistance, 0,
                                              NULL);
      XtAddCallback (other, XtNcallback, second_cb, shell);
    }
  XtPopup (*shell, XtGrabNone);
  return *shell;
}

static void
on_about (Widget w, XtPointer client, XtPointer call)
{
  if (about_shell == NULL)
    dialog ("About", "OK", on_close, NULL, NULL, &about_shell);
}

static void
on_settings (Widget w, XtPointer client, XtPointer call)
{
  if (settings_shell == NULL)
    dialog ("Settings", "Apply", on_apply, "Close", on_close, &settings_shell);
}

int
main (int argc, char **argv)
{
  XtAppContext app;
  Widget form, file, menu, item, hello;

  top_shell = XtVaOpenApplication (&app, "XawCrash", NULL, 0, &argc, argv, NULL,
                                   applicationShellWidgetClass,
                                   XtNtitle, "Xaw crash test", XtNx, 0, XtNy, 0,
                                   XtNwidth, 400, XtNheight, 300, NULL);
  form = XtVaCreateManagedWidget ("form", formWidgetClass, top_shell,
                                  XtNdefaultDistance, 0, XtNwidth, 400, XtNheight, 300,
                                  NULL);
  file = XtVaCreateManagedWidget ("file", menuButtonWidgetClass, form,
                                  XtNlabel, "File", XtNmenuName, "menu",
                                  XtNwidth, 60, XtNheight, 24,
                                  XtNhorizDistance, 4, XtNvertDistance, 4, NULL);
  menu = XtVaCreatePopupShell ("menu", simpleMenuWidgetClass, file, NULL);
  item = XtVaCreateManagedWidget ("about", smeBSBObjectClass, menu,
                                  XtNlabel, "About...", NULL);
  XtAddCallback (item, XtNcallback, on_about, NULL);
  item = XtVaCreateManagedWidget ("settings", smeBSBObjectClass, menu,
                                  XtNlabel, "Settings...", NULL);
  XtAddCallback (item, XtNcallback, on_settings, NULL);
  XtVaCreateManagedWidget ("entry", asciiTextWidgetClass, form,
                           XtNeditType, XawtextEdit, XtNwidth, 360, XtNheight, 40,
                           XtNhorizDistance, 20, XtNvertDistance, 110, NULL);
  hello = XtVaCreateManagedWidget ("hello", commandWidgetClass, form,
                                   XtNlabel, "Hello", XtNwidth, 360, XtNheight, 60,
                                   XtNhorizDistance, 20, XtNvertDistance, 210, NULL);
  XtAddCallback (hello, XtNcallback, on_hello, NULL);
  XtRealizeWidget (top_shell);
  XtAppMainLoop (app);
  return 0;
}
