/* xsource.c — the X connection as a GSource (see xsource.h).
 *
 * The same pattern as i3's ev_prepare: an fd watch on ConnectionNumber,
 * plus XPending() in prepare and check, because Xlib may already hold
 * buffered events that poll(2) cannot see.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "xsource.h"

typedef struct
{
  GSource source;
  Display *dpy;            /* not owned */
  gpointer fd_tag;
  XSourceReadyFunc ready;
  gpointer ready_data;
} XSource;

static gboolean
xsource_ready (XSource *xs)
{
  return XPending (xs->dpy) > 0 || (xs->ready != NULL && xs->ready (xs->ready_data));
}

static gboolean
xsource_prepare (GSource *source, int *timeout)
{
  XSource *xs = (XSource *) source;

  *timeout = -1;
  return xsource_ready (xs);
}

static gboolean
xsource_check (GSource *source)
{
  XSource *xs = (XSource *) source;

  if (g_source_query_unix_fd (source, xs->fd_tag) & (G_IO_HUP | G_IO_ERR))
    return TRUE;
  return xsource_ready (xs);
}

static gboolean
xsource_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  XSource *xs = (XSource *) source;
  XSourceFunc func = (XSourceFunc) (void (*) (void)) callback;
  gboolean broken = (g_source_query_unix_fd (source, xs->fd_tag)
                     & (G_IO_HUP | G_IO_ERR)) != 0;

  if (func == NULL)
    return G_SOURCE_REMOVE;
  /* On a broken connection the callback runs once more (Xlib's I/O error
   * handler tells it what happened), then the source goes: the fd would
   * stay readable for ever. */
  if (!func (xs->dpy, user_data) || broken)
    return G_SOURCE_REMOVE;
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs xsource_funcs = {
  .prepare = xsource_prepare,
  .check = xsource_check,
  .dispatch = xsource_dispatch,
};

GSource *
xsource_new (Display *dpy, XSourceFunc func, XSourceReadyFunc ready,
             gpointer user_data, GDestroyNotify notify)
{
  GSource *source = g_source_new (&xsource_funcs, sizeof (XSource));
  XSource *xs = (XSource *) source;

  xs->dpy = dpy;
  xs->ready = ready;
  xs->ready_data = user_data;
  xs->fd_tag = g_source_add_unix_fd (source, ConnectionNumber (dpy),
                                     G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (source, (GSourceFunc) (void (*) (void)) func,
                         user_data, notify);
  g_source_set_name (source, "xrecord X connection");
  return source;
}
