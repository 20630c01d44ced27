/* translate.c — recorded wire events to session records (see translate.h).
 *
 * translator_device() decides whether a user action was aimed at the app
 * and with which window identity; translator_delivered() spells out a
 * server event as free key=value fields. Start reading at
 * translator_device().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "translate.h"

#include <string.h>
#include <X11/XKBlib.h>
#include <X11/Xutil.h>

struct Translator
{
  Display *dpy;            /* the tracker connection, not owned */
  Toplevels *tops;         /* not owned */
  KeySym stop_key;

  /* The implicit pointer grab: from the first button press to the release
   * of the last button, the pointer belongs to the window pressed on. */
  guint buttons;           /* held buttons, bit N for button N */
  gboolean grab_is_app;
  Window grab_window;      /* the app's window pressed on */

  /* Where the pointer is, as far as device events tell. */
  gboolean have_pointer;
  int pointer_x, pointer_y;

  /* What each held key's press produced: its release releases that, even
   * when the keymap changed in between (xdotool binds a spare keycode to
   * each character it types, then unbinds it before the release is
   * read). */
  char *pressed[256];      /* keycode -> keysym name (owned), or NULL */

  /* The keys' keysyms as core ChangeKeyboardMapping requests in the
   * stream set them (xdotool, xmodmap): the tracker's map is the server's
   * *now*, and a recorder behind the stream would read a key xdotool has
   * bound to the next character since, or unbound (translator_keymap_request()). */
  KeySym bound[256][2];    /* keycode -> its first group's two levels */
  gboolean is_bound[256];

  GHashTable *atom_names;  /* Atom -> char* (owned) */
  GString *args;           /* the fields of the last server record */
  char *keysym;            /* the strings of the last record (owned) */
  char *wm_class;
  char *wm_name;
  pid_t app_pid;           /* the last action's target's */
};

Translator *
translator_new (Display *dpy, Toplevels *tops, KeySym stop_key)
{
  Translator *translator = g_new0 (Translator, 1);

  translator->dpy = dpy;
  translator->tops = tops;
  translator->stop_key = stop_key;
  translator->atom_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  translator->args = g_string_new (NULL);
  return translator;
}

void
translator_free (Translator *translator)
{
  if (translator == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (translator->pressed); i++)
    g_free (translator->pressed[i]);
  g_hash_table_unref (translator->atom_names);
  g_string_free (translator->args, TRUE);
  g_free (translator->keysym);
  g_free (translator->wm_class);
  g_free (translator->wm_name);
  g_free (translator);
}

/* A keysym's name: NULL for NoSymbol. */
static char *
keysym_name (KeySym sym)
{
  if (sym == NoSymbol)
    return NULL;
  /* A Unicode keysym (xdotool binds one for each character a keyboard
   * lacks): Xlib would allocate its name anew at every call, for good. */
  if ((sym & 0xff000000) == 0x01000000)
    return g_strdup_printf ("U%0*lX", (sym & 0xff0000) != 0 ? 6 : 4, sym & 0xffffff);
  return g_strdup (XKeysymToString (sym));
}

void
translator_keymap_request (Translator *translator, const guint8 *data, gsize len)
{
  xChangeKeyboardMappingReq req;
  gsize per;

  if (len < sz_xChangeKeyboardMappingReq || data[0] != X_ChangeKeyboardMapping)
    return;
  memcpy (&req, data, sz_xChangeKeyboardMappingReq);
  per = req.keySymsPerKeyCode;
  if (per == 0 || (gsize) req.keyCodes * per * 4 > len - sz_xChangeKeyboardMappingReq
      || (guint) req.firstKeyCode + req.keyCodes > 256)
    return;
  for (guint i = 0; i < req.keyCodes; i++)
    {
      guint keycode = (guint) req.firstKeyCode + i;
      const guint8 *syms = data + sz_xChangeKeyboardMappingReq + (gsize) i * per * 4;
      CARD32 level[2] = { NoSymbol, NoSymbol };

      memcpy (&level[0], syms, 4);
      if (per > 1)
        memcpy (&level[1], syms + 4, 4);
      translator->bound[keycode][0] = level[0];
      translator->bound[keycode][1] = level[1];
      /* Unbound (xdotool gives the key back): the server's map again. */
      translator->is_bound[keycode] = level[0] != NoSymbol || level[1] != NoSymbol;
    }
}

/* What @keycode produced with @state: as the last recorded core request
 * bound it (the core rules: Shift or Lock picks the second level, a
 * letter alone has its capital there), else as the server's map says. */
static KeySym
produced_keysym (Translator *translator, guint keycode, guint state)
{
  KeySym sym = NoSymbol;
  unsigned int consumed;

  if (keycode < 256 && translator->is_bound[keycode])
    {
      KeySym first = translator->bound[keycode][0], second = translator->bound[keycode][1];
      KeySym lower = NoSymbol, upper = NoSymbol;

      if (second == NoSymbol)
        {
          XConvertCase (first, &lower, &upper);
          first = lower;
          second = upper;
        }
      return (state & (ShiftMask | LockMask)) != 0 && second != NoSymbol ? second : first;
    }
  /* The keysym the key produced with the modifiers held: "H" for Shift+h,
   * "p" for Alt+p (Alt selects no level), "KP_1" with NumLock. */
  if (!XkbLookupKeySym (translator->dpy, (KeyCode) keycode, state, &consumed, &sym)
      || sym == NoSymbol)
    sym = XkbKeycodeToKeysym (translator->dpy, (KeyCode) keycode, 0, 0);
  return sym;
}

static gboolean
is_stop_key (Translator *translator, guint keycode, guint state)
{
  if (translator->stop_key == NoSymbol)
    return FALSE;
  if (keycode < 256 && translator->is_bound[keycode])
    return produced_keysym (translator, keycode, state) == translator->stop_key;
  if (XkbKeycodeToKeysym (translator->dpy, (KeyCode) keycode, 0, 0)
      == translator->stop_key)
    return TRUE;
  {
    KeySym sym = NoSymbol;
    unsigned int consumed;

    return XkbLookupKeySym (translator->dpy, (KeyCode) keycode, state,
                            &consumed, &sym)
           && sym == translator->stop_key;
  }
}

static void
set_target (Translator *translator, SessionEvent *out, int root_x, int root_y,
            const ToplevelTarget *target)
{
  out->has_pos = TRUE;
  out->root_x = root_x;
  out->root_y = root_y;
  out->x = CLAMP (root_x - target->origin_x, -SESSION_MAX_COORD, SESSION_MAX_COORD);
  out->y = CLAMP (root_y - target->origin_y, -SESSION_MAX_COORD, SESSION_MAX_COORD);
  out->window = target->index;
  if (target->index >= 0 && target->width > 0 && target->height > 0)
    {
      out->width = MIN (target->width, SESSION_MAX_COORD);
      out->height = MIN (target->height, SESSION_MAX_COORD);
    }
  g_free (translator->wm_class);
  g_free (translator->wm_name);
  translator->wm_class = g_strdup (target->wm_class);
  translator->wm_name = g_strdup (target->wm_name);
  out->wm_class = translator->wm_class;
  out->wm_name = translator->wm_name;
  translator->app_pid = target->app_pid;
}

pid_t
translator_get_app_pid (Translator *translator)
{
  return translator->app_pid;
}

/* The app's window a pointer event goes to: the grab's while a button is
 * held, else the one under the pointer. */
static gboolean
pointer_target (Translator *translator, int root_x, int root_y,
                ToplevelTarget *target)
{
  if (translator->buttons != 0)
    return translator->grab_is_app
           && toplevels_lookup (translator->tops, translator->grab_window, target);
  return toplevels_at (translator->tops, root_x, root_y, target);
}

TranslateResult
translator_device (Translator *translator, const xEvent *ev, guint64 time_ms,
                   SessionEvent *out)
{
  int type = ev->u.u.type & 0x7f;
  guint detail = ev->u.u.detail;
  int root_x = ev->u.keyButtonPointer.rootX;
  int root_y = ev->u.keyButtonPointer.rootY;
  guint state = ev->u.keyButtonPointer.state;
  ToplevelTarget target;
  gboolean aimed = FALSE;

  memset (out, 0, sizeof *out);
  out->time_ms = time_ms;
  out->state = state;
  out->window = -1;
  if (type == MotionNotify)
    {
      /* XTest (xdotool mousemove to where the pointer is) produces device
       * motion that moves nothing; the server delivers it to no one. */
      gboolean moved = !translator->have_pointer || root_x != translator->pointer_x
                       || root_y != translator->pointer_y;

      translator->have_pointer = TRUE;
      translator->pointer_x = root_x;
      translator->pointer_y = root_y;
      if (!moved)
        return TRANSLATE_SKIP;
    }
  else
    {
      translator->have_pointer = TRUE;
      translator->pointer_x = root_x;
      translator->pointer_y = root_y;
    }
  switch (type)
    {
    case KeyPress:
    case KeyRelease:
      {
        g_autofree char *produced = NULL;
        const char *name;

        if (is_stop_key (translator, detail, state))
          return type == KeyPress ? TRANSLATE_STOP : TRANSLATE_SKIP;
        /* Only keys the app's window would get: never what is typed into
         * another client. */
        if (!toplevels_focus (translator->tops, root_x, root_y, &target))
          return TRANSLATE_SKIP;
        name = produced = keysym_name (produced_keysym (translator, detail, state));
        if (type == KeyRelease && translator->pressed[detail & 0xff] != NULL)
          name = translator->pressed[detail & 0xff];
        if (name == NULL)
          {
            g_debug ("keycode %u produces no keysym: not recorded", detail);
            return TRANSLATE_SKIP;
          }
        g_free (translator->keysym);
        translator->keysym = g_strdup (name);
        g_free (translator->pressed[detail & 0xff]);
        translator->pressed[detail & 0xff] = type == KeyPress ? g_strdup (name) : NULL;
        out->kind = type == KeyPress ? SESSION_EVENT_KEY_PRESS
                                     : SESSION_EVENT_KEY_RELEASE;
        out->keysym = translator->keysym;
        out->keycode = detail;
        set_target (translator, out, root_x, root_y, &target);
        return TRANSLATE_EVENT;
      }
    case ButtonPress:
      if (detail == 0 || detail > 31)
        return TRANSLATE_SKIP;
      if (translator->buttons == 0)
        {
          translator->grab_is_app = toplevels_at (translator->tops, root_x,
                                                  root_y, &target);
          translator->grab_window = translator->grab_is_app ? target.window : None;
        }
      aimed = pointer_target (translator, root_x, root_y, &target);
      translator->buttons |= 1u << detail;
      out->kind = SESSION_EVENT_BUTTON_PRESS;
      out->button = detail;
      break;
    case ButtonRelease:
      if (detail == 0 || detail > 31)
        return TRANSLATE_SKIP;
      aimed = pointer_target (translator, root_x, root_y, &target);
      translator->buttons &= ~(1u << detail);
      out->kind = SESSION_EVENT_BUTTON_RELEASE;
      out->button = detail;
      break;
    case MotionNotify:
      aimed = pointer_target (translator, root_x, root_y, &target);
      out->kind = SESSION_EVENT_MOTION;
      break;
    default:
      return TRANSLATE_SKIP;
    }
  if (!aimed)
    return TRANSLATE_SKIP;
  set_target (translator, out, root_x, root_y, &target);
  return TRANSLATE_EVENT;
}

/* ---- server events ---- */

static const char *const event_names[] = {
  [EnterNotify] = "EnterNotify", [LeaveNotify] = "LeaveNotify",
  [FocusIn] = "FocusIn", [FocusOut] = "FocusOut",
  [KeymapNotify] = "KeymapNotify", [Expose] = "Expose",
  [GraphicsExpose] = "GraphicsExpose", [NoExpose] = "NoExpose",
  [VisibilityNotify] = "VisibilityNotify", [CreateNotify] = "CreateNotify",
  [DestroyNotify] = "DestroyNotify", [UnmapNotify] = "UnmapNotify",
  [MapNotify] = "MapNotify", [MapRequest] = "MapRequest",
  [ReparentNotify] = "ReparentNotify", [ConfigureNotify] = "ConfigureNotify",
  [ConfigureRequest] = "ConfigureRequest", [GravityNotify] = "GravityNotify",
  [ResizeRequest] = "ResizeRequest", [CirculateNotify] = "CirculateNotify",
  [CirculateRequest] = "CirculateRequest", [PropertyNotify] = "PropertyNotify",
  [SelectionClear] = "SelectionClear", [SelectionRequest] = "SelectionRequest",
  [SelectionNotify] = "SelectionNotify", [ColormapNotify] = "ColormapNotify",
  [ClientMessage] = "ClientMessage", [MappingNotify] = "MappingNotify",
};

static const char *const crossing_modes[] = {
  "NotifyNormal", "NotifyGrab", "NotifyUngrab", "NotifyWhileGrabbed",
};
static const char *const crossing_details[] = {
  "NotifyAncestor", "NotifyVirtual", "NotifyInferior", "NotifyNonlinear",
  "NotifyNonlinearVirtual", "NotifyPointer", "NotifyPointerRoot",
  "NotifyDetailNone",
};

static const char *
name_of (const char *const *names, gsize n_names, guint value)
{
  return value < n_names ? names[value] : "unknown";
}

/* An atom's name as a bare value (a number if it has spaces or quotes). */
static const char *
atom_name (Translator *translator, Atom atom)
{
  char *name;

  if (atom == None)
    return "None";
  name = g_hash_table_lookup (translator->atom_names, GSIZE_TO_POINTER (atom));
  if (name == NULL)
    {
      char *x_name = XGetAtomName (translator->dpy, atom);

      if (x_name != NULL && x_name[0] != '\0'
          && strpbrk (x_name, " \t\"\\=") == NULL
          && g_utf8_validate (x_name, -1, NULL))
        name = g_strdup (x_name);
      else
        name = g_strdup_printf ("%lu", (unsigned long) atom);
      if (x_name != NULL)
        XFree (x_name);
      g_hash_table_insert (translator->atom_names, GSIZE_TO_POINTER (atom), name);
    }
  return name;
}

static void
add (GString *args, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
add (GString *args, const char *format, ...)
{
  va_list ap;

  if (args->len > 0)
    g_string_append_c (args, ' ');
  va_start (ap, format);
  g_string_append_vprintf (args, format, ap);
  va_end (ap);
}

/* EnterNotify and LeaveNotify, FocusIn and FocusOut: the window, how and
 * from where. */
static void
add_crossing (GString *args, CARD32 window, guint mode, guint detail)
{
  add (args, "window=0x%lx mode=%s detail=%s", (unsigned long) window,
       name_of (crossing_modes, G_N_ELEMENTS (crossing_modes), mode),
       name_of (crossing_details, G_N_ELEMENTS (crossing_details), detail));
}

/* Expose and GraphicsExpose: @key's drawable, the area to paint again
 * and how many more areas follow. */
static void
add_exposed (GString *args, const char *key, CARD32 drawable, guint x, guint y, guint width,
             guint height, guint count)
{
  add (args, "%s=0x%lx area=%u,%u,%u,%u count=%u", key, (unsigned long) drawable, x, y, width,
       height, count);
}

static void
format_client_message (Translator *translator, const xEvent *ev, GString *args)
{
  int format = ev->u.u.detail;
  Atom type = ev->u.clientMessage.u.l.type;
  static Atom wm_protocols;

  if (wm_protocols == None)
    wm_protocols = XInternAtom (translator->dpy, "WM_PROTOCOLS", False);
  add (args, "window=0x%lx type=%s", (unsigned long) ev->u.clientMessage.window,
       atom_name (translator, type));
  if (format == 32 && type == wm_protocols)
    add (args, "data=%s",
         atom_name (translator, (Atom) (guint32) ev->u.clientMessage.u.l.longs0));
  else if (format == 32)
    add (args, "format=32 data=0x%x,0x%x,0x%x,0x%x,0x%x",
         (guint32) ev->u.clientMessage.u.l.longs0,
         (guint32) ev->u.clientMessage.u.l.longs1,
         (guint32) ev->u.clientMessage.u.l.longs2,
         (guint32) ev->u.clientMessage.u.l.longs3,
         (guint32) ev->u.clientMessage.u.l.longs4);
  else
    {
      const guint8 *bytes = (const guint8 *) &ev->u.clientMessage.u.b.bytes;

      add (args, "format=%d data=", format);
      for (int i = 0; i < 20; i++)
        g_string_append_printf (args, "%02x", bytes[i]);
    }
}

/* The arguments of an event about the window tree (SubstructureNotify
 * and its requests). */
static void
format_structure (const xEvent *ev, int type, GString *args)
{
  switch (type)
    {
    case CreateNotify:
      add (args, "window=0x%lx parent=0x%lx area=%d,%d,%u,%u border=%u override=%d",
           (unsigned long) ev->u.createNotify.window,
           (unsigned long) ev->u.createNotify.parent,
           ev->u.createNotify.x, ev->u.createNotify.y,
           ev->u.createNotify.width, ev->u.createNotify.height,
           ev->u.createNotify.borderWidth, ev->u.createNotify.override ? 1 : 0);
      break;
    case DestroyNotify:
      add (args, "window=0x%lx event=0x%lx",
           (unsigned long) ev->u.destroyNotify.window,
           (unsigned long) ev->u.destroyNotify.event);
      break;
    case UnmapNotify:
      add (args, "window=0x%lx event=0x%lx from_configure=%d",
           (unsigned long) ev->u.unmapNotify.window,
           (unsigned long) ev->u.unmapNotify.event,
           ev->u.unmapNotify.fromConfigure ? 1 : 0);
      break;
    case MapNotify:
      add (args, "window=0x%lx", (unsigned long) ev->u.mapNotify.window);
      if (ev->u.mapNotify.event != ev->u.mapNotify.window)
        add (args, "event=0x%lx", (unsigned long) ev->u.mapNotify.event);
      add (args, "override=%d", ev->u.mapNotify.override ? 1 : 0);
      break;
    case MapRequest:
      add (args, "window=0x%lx parent=0x%lx", (unsigned long) ev->u.mapRequest.window,
           (unsigned long) ev->u.mapRequest.parent);
      break;
    case ReparentNotify:
      add (args, "window=0x%lx parent=0x%lx at=%d,%d override=%d",
           (unsigned long) ev->u.reparent.window,
           (unsigned long) ev->u.reparent.parent, ev->u.reparent.x,
           ev->u.reparent.y, ev->u.reparent.override ? 1 : 0);
      break;
    case ConfigureNotify:
      add (args, "window=0x%lx area=%d,%d,%u,%u border=%u above=0x%lx override=%d",
           (unsigned long) ev->u.configureNotify.window,
           ev->u.configureNotify.x, ev->u.configureNotify.y,
           ev->u.configureNotify.width, ev->u.configureNotify.height,
           ev->u.configureNotify.borderWidth,
           (unsigned long) ev->u.configureNotify.aboveSibling,
           ev->u.configureNotify.override ? 1 : 0);
      break;
    case ConfigureRequest:
      add (args, "window=0x%lx parent=0x%lx area=%d,%d,%u,%u mask=0x%x",
           (unsigned long) ev->u.configureRequest.window,
           (unsigned long) ev->u.configureRequest.parent,
           ev->u.configureRequest.x, ev->u.configureRequest.y,
           ev->u.configureRequest.width, ev->u.configureRequest.height,
           ev->u.configureRequest.valueMask);
      break;
    case GravityNotify:
      add (args, "window=0x%lx at=%d,%d", (unsigned long) ev->u.gravity.window,
           ev->u.gravity.x, ev->u.gravity.y);
      break;
    case ResizeRequest:
      add (args, "window=0x%lx size=%ux%u", (unsigned long) ev->u.resizeRequest.window,
           ev->u.resizeRequest.width, ev->u.resizeRequest.height);
      break;
    case CirculateNotify:
    case CirculateRequest:
      add (args, "window=0x%lx place=%s", (unsigned long) ev->u.circulate.window,
           ev->u.circulate.place == PlaceOnTop ? "OnTop" : "OnBottom");
      break;
    default:
      break;
    }
}

/* The arguments of SelectionClear, SelectionRequest and SelectionNotify. */
static void
format_selection (Translator *translator, const xEvent *ev, int type, GString *args)
{
  switch (type)
    {
    case SelectionClear:
      add (args, "window=0x%lx selection=%s",
           (unsigned long) ev->u.selectionClear.window,
           atom_name (translator, ev->u.selectionClear.atom));
      break;
    case SelectionRequest:
      add (args, "owner=0x%lx requestor=0x%lx selection=%s target=%s property=%s",
           (unsigned long) ev->u.selectionRequest.owner,
           (unsigned long) ev->u.selectionRequest.requestor,
           atom_name (translator, ev->u.selectionRequest.selection),
           atom_name (translator, ev->u.selectionRequest.target),
           atom_name (translator, ev->u.selectionRequest.property));
      break;
    case SelectionNotify:
      add (args, "requestor=0x%lx selection=%s target=%s property=%s",
           (unsigned long) ev->u.selectionNotify.requestor,
           atom_name (translator, ev->u.selectionNotify.selection),
           atom_name (translator, ev->u.selectionNotify.target),
           atom_name (translator, ev->u.selectionNotify.property));
      break;
    }
}

TranslateResult
translator_delivered (Translator *translator, const xEvent *ev, guint64 time_ms,
                      SessionEvent *out)
{
  int type = ev->u.u.type & 0x7f;
  guint detail = ev->u.u.detail;
  GString *args = translator->args;

  if (type < EnterNotify || type >= (int) G_N_ELEMENTS (event_names)
      || event_names[type] == NULL)
    return TRANSLATE_SKIP;
  g_string_truncate (args, 0);
  switch (type)
    {
    case EnterNotify:
    case LeaveNotify:
      add_crossing (args, ev->u.enterLeave.event, ev->u.enterLeave.mode, detail);
      break;
    case FocusIn:
    case FocusOut:
      add_crossing (args, ev->u.focus.window, ev->u.focus.mode, detail);
      break;
    case KeymapNotify:
      break;
    case Expose:
      add_exposed (args, "window", ev->u.expose.window, ev->u.expose.x, ev->u.expose.y,
                   ev->u.expose.width, ev->u.expose.height, ev->u.expose.count);
      break;
    case GraphicsExpose:
      add_exposed (args, "drawable", ev->u.graphicsExposure.drawable,
                   ev->u.graphicsExposure.x, ev->u.graphicsExposure.y,
                   ev->u.graphicsExposure.width, ev->u.graphicsExposure.height,
                   ev->u.graphicsExposure.count);
      break;
    case NoExpose:
      add (args, "drawable=0x%lx", (unsigned long) ev->u.noExposure.drawable);
      break;
    case VisibilityNotify:
      add (args, "window=0x%lx state=%s", (unsigned long) ev->u.visibility.window,
           ev->u.visibility.state == VisibilityUnobscured ? "Unobscured"
           : ev->u.visibility.state == VisibilityPartiallyObscured
             ? "PartiallyObscured" : "FullyObscured");
      break;
    case PropertyNotify:
      add (args, "window=0x%lx atom=%s state=%s",
           (unsigned long) ev->u.property.window,
           atom_name (translator, ev->u.property.atom),
           ev->u.property.state == PropertyNewValue ? "NewValue" : "Deleted");
      break;
    case SelectionClear:
    case SelectionRequest:
    case SelectionNotify:
      format_selection (translator, ev, type, args);
      break;
    case ColormapNotify:
      add (args, "window=0x%lx colormap=0x%lx new=%d state=%s",
           (unsigned long) ev->u.colormap.window,
           (unsigned long) ev->u.colormap.colormap, ev->u.colormap.new ? 1 : 0,
           ev->u.colormap.state == ColormapInstalled ? "Installed" : "Uninstalled");
      break;
    case ClientMessage:
      format_client_message (translator, ev, args);
      break;
    case CreateNotify: case DestroyNotify: case UnmapNotify: case MapNotify:
    case MapRequest: case ReparentNotify: case ConfigureNotify: case ConfigureRequest:
    case GravityNotify: case ResizeRequest: case CirculateNotify: case CirculateRequest:
      format_structure (ev, type, args);
      break;
    case MappingNotify:
      add (args, "request=%s first=%u count=%u",
           ev->u.mappingNotify.request == MappingModifier ? "Modifier"
           : ev->u.mappingNotify.request == MappingKeyboard ? "Keyboard" : "Pointer",
           ev->u.mappingNotify.firstKeyCode, ev->u.mappingNotify.count);
      break;
    default:
      break;
    }
  if (ev->u.u.type & 0x80)
    add (args, "sent=1");
  memset (out, 0, sizeof *out);
  out->kind = SESSION_EVENT_SERVER;
  out->time_ms = time_ms;
  out->window = -1;
  out->name = (char *) event_names[type];
  out->args = args->str;
  return TRANSLATE_EVENT;
}

void
translator_tracker_event (Translator *translator, const xEvent *ev)
{
  if ((ev->u.u.type & 0x7f) == MappingNotify)
    {
      /* Xkb refreshes its own map on XkbMapNotify; the core one is
       * refreshed here for XkbKeycodeToKeysym's fallback. */
      XMappingEvent mapping = {
        .type = MappingNotify,
        .display = translator->dpy,
        .request = ev->u.mappingNotify.request,
        .first_keycode = ev->u.mappingNotify.firstKeyCode,
        .count = ev->u.mappingNotify.count,
      };
      XRefreshKeyboardMapping (&mapping);
    }
}
