/* toplevels-clients.c — the windows the apps created as their top-levels
 * (toplevels-private.h's Client): their identity, from the recorded
 * ChangeProperty requests (WM_CLASS, WM_NAME, _NET_WM_NAME, _NET_WM_PID,
 * _GTK_FRAME_EXTENTS); whose each is (xapp/'s rule, or with
 * toplevels_set_all every client an app by its pid); which client names a
 * top-level; and a top-level as the target of an action (its window
 * index, identity, origin and size). toplevels.c tracks the top-levels
 * themselves and calls here.
 *
 * Start reading at toplevels_target().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "toplevels-private.h"

#include <string.h>
#include <X11/Xatom.h>

static XID
base_of (Toplevels *tops, XID id)
{
  return xapp_client_base (tops->xapp, id);
}

void
toplevels_client_free (Client *client)
{
  xapp_identity_clear (&client->identity);
  g_free (client);
}

void
toplevels_seen_free (Seen *seen)
{
  g_free (seen->wm_class);
  g_free (seen->title);
  g_free (seen);
}

void
toplevels_set_app (Toplevels *tops, pid_t app_pgid)
{
  tops->app_pgid = app_pgid;
  xapp_set_app (tops->xapp, app_pgid);
}

void
toplevels_set_all (Toplevels *tops, const char *const *exclude_classes)
{
  tops->all = TRUE;
  tops->exclude = g_strdupv ((char **) exclude_classes);
  tops->base_pids = g_hash_table_new (NULL, NULL);
  tops->excluded = g_hash_table_new (NULL, NULL);
}

pid_t
toplevels_client_pid (Toplevels *tops, XID id_base)
{
  gpointer value = NULL;
  gboolean asked;
  pid_t pid;
  GHashTableIter iter;

  if (!tops->all || xapp_is_own_client (tops->xapp, id_base))
    return 0;
  asked = g_hash_table_lookup_extended (tops->base_pids, GSIZE_TO_POINTER (id_base), NULL,
                                        &value);
  if (asked && GPOINTER_TO_INT (value) > 0)
    return GPOINTER_TO_INT (value);
  /* Asked of the server once per client (until it leaves); else what one
   * of its windows says. */
  if (!asked)
    {
      pid = xapp_client_pid (tops->xapp, id_base);
      g_hash_table_insert (tops->base_pids, GSIZE_TO_POINTER (id_base),
                           GINT_TO_POINTER (MAX (pid, 0)));
      if (pid > 0)
        return pid;
    }
  g_hash_table_iter_init (&iter, tops->clients);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Client *client = value;

      if (client->pid > 0 && base_of (tops, client->id) == id_base)
        {
          g_hash_table_insert (tops->base_pids, GSIZE_TO_POINTER (id_base),
                               GINT_TO_POINTER (client->pid));
          return client->pid;
        }
    }
  return 0;
}

gboolean
toplevels_is_excluded (Toplevels *tops, pid_t pid)
{
  return tops->excluded != NULL && g_hash_table_contains (tops->excluded, GINT_TO_POINTER (pid));
}

void
toplevels_add_own_client (Toplevels *tops, XID id_base)
{
  xapp_add_own_client (tops->xapp, id_base);
}

gboolean
toplevels_server_tells_pids (Toplevels *tops)
{
  return xapp_has_xres (tops->xapp);
}

void
toplevels_client_gone (Toplevels *tops, XID id_base)
{
  g_hash_table_remove (tops->app_bases, GSIZE_TO_POINTER (id_base));
  if (tops->base_pids != NULL)
    g_hash_table_remove (tops->base_pids, GSIZE_TO_POINTER (id_base));
}

/* ---- what it was mapped as ---- */

/* Remembers (or updates) the identity a window mapped while recording
 * showed; the window may be gone when it is asked for. */
void
toplevels_seen_note (Toplevels *tops, Client *client, gboolean add)
{
  Seen *seen = NULL;

  for (guint i = 0; i < tops->seen->len && seen == NULL; i++)
    if (((Seen *) g_ptr_array_index (tops->seen, i))->id == client->id)
      seen = g_ptr_array_index (tops->seen, i);
  if (seen == NULL)
    {
      if (!add)
        return;
      seen = g_new0 (Seen, 1);
      seen->id = client->id;
      g_ptr_array_add (tops->seen, seen);
    }
  g_free (seen->wm_class);
  g_free (seen->title);
  seen->wm_class = g_strdup (client->identity.wm_class);
  seen->title = g_strdup (xapp_identity_title (&client->identity));
}

guint
toplevels_get_n_seen (Toplevels *tops)
{
  return tops->seen->len;
}

void
toplevels_get_seen (Toplevels *tops, guint i, Window *window, const char **wm_class,
                    const char **title)
{
  Seen *seen = g_ptr_array_index (tops->seen, i);

  *window = seen->id;
  *wm_class = seen->wm_class;
  *title = seen->title;
}

/* ---- properties (read on the tracker connection; the window may be gone) ---- */

/* A client-side decorated window's invisible margins (GTK's
 * _GTK_FRAME_EXTENTS, CARDINAL[4]): set, or deleted (maximized, no
 * compositor). Positions and sizes are the visible window's. */
static void
set_extents (Client *client, const char *value, gsize n_units)
{
  for (guint i = 0; i < 4; i++)
    {
      guint32 v = 0;

      if (value != NULL && i < n_units)
        memcpy (&v, value + 4 * i, sizeof v);
      /* (A margin wider than a screen is no margin.) */
      client->extents[i] = v <= 4096 ? (int) v : 0;
    }
}

void
toplevels_handle_request (Toplevels *tops, const guint8 *data, gsize len)
{
  xChangePropertyReq req;
  Client *client;
  const char *value;
  gsize size;

  if (len >= sz_xDeletePropertyReq && data[0] == X_DeleteProperty)
    {
      xDeletePropertyReq del;

      memcpy (&del, data, sz_xDeletePropertyReq);
      client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER ((Window) del.window));
      if (client != NULL && del.property == tops->gtk_frame_extents)
        set_extents (client, NULL, 0);
      return;
    }
  if (len < sz_xChangePropertyReq)
    return;
  memcpy (&req, data, sz_xChangePropertyReq);
  if (req.reqType != X_ChangeProperty || req.mode != PropModeReplace
      || (req.format != 8 && req.format != 32))
    return;
  client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER ((Window) req.window));
  if (client == NULL)
    return;   /* not a top-level */
  size = (gsize) req.nUnits * (req.format / 8);
  if (size > len - sz_xChangePropertyReq)
    return;
  value = (const char *) data + sz_xChangePropertyReq;
  if (req.property == XA_WM_NAME && req.format == 8)
    {
      g_free (client->identity.wm_name);
      client->identity.wm_name = xapp_text_from_property (tops->xapp, req.type, value, size);
    }
  else if (req.property == tops->net_wm_name && req.format == 8)
    {
      g_free (client->identity.net_wm_name);
      client->identity.net_wm_name = xapp_text_from_value (value, size);
    }
  else if (req.property == XA_WM_CLASS && req.format == 8)
    {
      g_free (client->identity.wm_class);
      client->identity.wm_class = xapp_class_from_value (value, size);
    }
  else if (req.property == tops->gtk_frame_extents && req.format == 32)
    {
      set_extents (client, value, req.nUnits == 4 ? 4 : 0);
      return;
    }
  else if (req.property == tops->net_wm_pid && req.format == 32 && req.nUnits >= 1)
    {
      guint32 pid;

      memcpy (&pid, value, sizeof pid);
      client->pid = (pid_t) pid;
      toplevels_client_pid_changed (tops, client);
      return;
    }
  else
    return;
  toplevels_seen_note (tops, client, FALSE);
}

/* Is @client the app's? xapp's rule (on a private server every client but
 * ours; else its X client's pid, else its _NET_WM_PID); when nobody can
 * tell, not until it says so. */
Decision
toplevels_client_decide (Toplevels *tops, Client *client)
{
  XID base = base_of (tops, client->id);

  if (client->app != DECISION_UNKNOWN)
    return client->app;
  if (xapp_is_own_client (tops->xapp, client->id))
    return client->app = DECISION_NO;
  if (tops->all)
    {
      /* Every client is an app: which one, by its process. */
      pid_t pid = toplevels_client_pid (tops, base);

      if (pid <= 0)
        pid = client->pid > 0 ? client->pid : xapp_read_net_wm_pid (tops->xapp, client->id);
      if (pid <= 0)
        return DECISION_UNKNOWN;
      client->app_pid = pid;
      return client->app = DECISION_YES;
    }
  if (GPOINTER_TO_INT (g_hash_table_lookup (tops->app_bases,
                                            GSIZE_TO_POINTER (base))) == DECISION_YES)
    return client->app = DECISION_YES;
  /* (Its _NET_WM_PID is read only if the server cannot tell.) */
  switch (xapp_window_owner (tops->xapp, client->id, client->pid))
    {
    case XAPP_APP:
      g_hash_table_insert (tops->app_bases, GSIZE_TO_POINTER (base),
                           GINT_TO_POINTER (DECISION_YES));
      return client->app = DECISION_YES;
    case XAPP_NOT_APP:
      return client->app = DECISION_NO;
    case XAPP_UNKNOWN:
    default:
      /* Nobody can tell (yet): not the app's until it says so. */
      return DECISION_UNKNOWN;
    }
}

gboolean
toplevels_is_own_client (Toplevels *tops, XID id_base)
{
  return xapp_is_own_client (tops->xapp, id_base);
}

gboolean
toplevels_is_app_client (Toplevels *tops, XID id_base)
{
  GHashTableIter iter;
  gpointer value;
  Decision known;

  if (xapp_is_own_client (tops->xapp, id_base))
    return FALSE;
  if (tops->all)
    return toplevels_client_pid (tops, id_base) > 0;
  if (tops->private_server)
    return TRUE;
  known = GPOINTER_TO_INT (g_hash_table_lookup (tops->app_bases, GSIZE_TO_POINTER (id_base)));
  if (known == DECISION_YES || known == DECISION_NO)
    return known == DECISION_YES;
  if (known == DECISION_UNKNOWN && tops->app_pgid > 0)
    {
      /* Asked once per client (until it leaves): its pid, from the server. */
      XAppOwner owner = xapp_client_owner (tops->xapp, id_base);

      known = owner == XAPP_APP ? DECISION_YES
              : owner == XAPP_NOT_APP ? DECISION_NO : DECISION_SILENT;
      g_hash_table_insert (tops->app_bases, GSIZE_TO_POINTER (id_base),
                           GINT_TO_POINTER (known));
      if (known != DECISION_SILENT)
        return known == DECISION_YES;
    }
  /* The server cannot tell: one of its windows may say. */
  g_hash_table_iter_init (&iter, tops->clients);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Client *client = value;

      if (base_of (tops, client->id) == id_base
          && toplevels_client_decide (tops, client) == DECISION_YES)
        return TRUE;
    }
  return FALSE;
}

/* ---- the clients of the top-levels ---- */

Client *
toplevels_client_get (Toplevels *tops, Window id)
{
  Client *client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER (id));

  if (client == NULL)
    {
      client = g_new0 (Client, 1);
      client->id = id;
      g_hash_table_insert (tops->clients, GSIZE_TO_POINTER (id), client);
      /* Its title and pid may change, and it tells us so. */
      XSelectInput (tops->dpy, id, PropertyChangeMask | FocusChangeMask
                                   | StructureNotifyMask);
      /* What it had before we saw it; usually the recorded ChangeProperty
       * requests tell (toplevels_handle_request). */
      xapp_identity_read (tops->xapp, id, &client->identity);
    }
  return client;
}

/* A top-level's place in the first-map order while it is mapped (its
 * client's), for xapp_window_index(). */
static guint64
toplevel_first_map (gconstpointer data)
{
  const Toplevel *top = data;

  return top->mapped && top->client != NULL ? top->client->first_map : 0;
}

/* A mapped top-level whose client is the app's gets its place in the
 * first-map order. */
void
toplevels_note_map (Toplevels *tops, Toplevel *top)
{
  Client *client = top->client;

  if (!top->mapped || client == NULL || client->first_map != 0
      || toplevels_client_decide (tops, client) != DECISION_YES)
    return;
  client->first_map = ++tops->map_seq;
  if (tops->map_func != NULL)
    tops->map_func (client->id, tops->map_data);
}

void
toplevels_client_pid_changed (Toplevels *tops, Client *client)
{
  if (client->app == DECISION_YES)
    return;
  client->app = DECISION_UNKNOWN;
  /* It may have been mapped before it said whose it is. */
  for (guint i = 0; i < tops->stack->len; i++)
    {
      Toplevel *top = g_ptr_array_index (tops->stack, i);

      if (top->client == client)
        toplevels_note_map (tops, top);
    }
}

/* The client whose identity names @top (not NULL): its client, unless
 * that says nothing and the window the app reparented into it does. */
Client *
toplevels_named (const Toplevel *top)
{
  if (top->inner != NULL && !xapp_identity_is_set (&top->client->identity)
      && xapp_identity_is_set (&top->inner->identity))
    return top->inner;
  return top->client;
}

/* ---- the target of an action ---- */

/* --exclude-class: is @top's class one of them? Its app is excluded from
 * then on. */
static gboolean
toplevel_excluded (Toplevels *tops, Toplevel *top)
{
  const char *wm_class = toplevels_named (top)->identity.wm_class;

  if (tops->exclude == NULL || wm_class == NULL
      || !g_strv_contains ((const char *const *) tops->exclude, wm_class))
    return FALSE;
  g_hash_table_add (tops->excluded, GINT_TO_POINTER (top->client->app_pid));
  return TRUE;
}

gboolean
toplevels_target (Toplevels *tops, Toplevel *top, ToplevelTarget *target)
{
  Client *client = top->client;

  if (client == NULL || toplevels_client_decide (tops, client) != DECISION_YES)
    return FALSE;
  if (tops->all && toplevel_excluded (tops, top))
    return FALSE;
  if (client->first_map == 0)
    toplevels_note_map (tops, top);
  target->window = client->id;
  target->app_pid = client->app_pid;
  if (tops->all && client->first_map != 0)
    {
      /* Among the windows of its own app. */
      g_autoptr (GPtrArray) mine = g_ptr_array_new ();

      for (guint i = 0; i < tops->stack->len; i++)
        {
          Toplevel *other = g_ptr_array_index (tops->stack, i);

          if (other->client != NULL && other->client->app == DECISION_YES
              && other->client->app_pid == client->app_pid)
            g_ptr_array_add (mine, other);
        }
      target->index = xapp_window_index (mine, toplevel_first_map, client->first_map);
    }
  else
    target->index = client->first_map != 0
                    ? xapp_window_index (tops->stack, toplevel_first_map, client->first_map)
                    : -1;
  target->wm_class = toplevels_named (top)->identity.wm_class;
  target->wm_name = xapp_identity_title (&toplevels_named (top)->identity);
  /* The visible window: without a client-side decorated window's
   * invisible margins (a compositor's shadows), so that a position means
   * the same widget on a bare server, where they are narrower or none. */
  target->origin_x = top->x + top->border + top->client_dx + client->extents[0];
  target->origin_y = top->y + top->border + top->client_dy + client->extents[2];
  target->width = (client->id == top->id ? top->width : top->client_width)
                  - client->extents[0] - client->extents[1];
  target->height = (client->id == top->id ? top->height : top->client_height)
                   - client->extents[2] - client->extents[3];
  return TRUE;
}
