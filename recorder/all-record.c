/* all-record.c — what xrecord --all records (all-private.h): each user
 * action goes to the buffer of the app it was aimed at, each event the
 * server delivered to the app it was delivered to, each paste and drop
 * (pastes.h) to the app that asked; an app's top-levels up, and taken
 * down by its own requests, are noted (what tells a crash).
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "all-private.h"

#include <string.h>

/* The app's top-level @window (a frame or the client) is up. */
void
rec_all_note_mapped (RecAll *all, Window window)
{
  ToplevelTarget target;
  App *app;

  if (!toplevels_lookup (all->tops, window, &target) || target.app_pid <= 0)
    return;
  app = rec_all_app_get (all, target.app_pid);
  if (app != NULL && !rec_all_app_check_excluded (all, app))
    g_hash_table_add (app->shown, GSIZE_TO_POINTER (target.window));
}

/* An app's own UnmapWindow or DestroyWindow: it takes a window down. */
void
rec_all_note_taken_down (RecAll *all, const guint8 *data, gsize len, XID id_base)
{
  xResourceReq req;
  ToplevelTarget target;
  App *app;

  if (len < sz_xResourceReq)
    return;
  memcpy (&req, data, sz_xResourceReq);
  if (req.reqType != X_UnmapWindow && req.reqType != X_DestroyWindow)
    return;
  app = g_hash_table_lookup (all->apps, GINT_TO_POINTER (toplevels_client_pid (all->tops, id_base)));
  if (app == NULL)
    return;
  g_hash_table_remove (app->shown, GSIZE_TO_POINTER ((Window) req.id));
  if (toplevels_lookup (all->tops, req.id, &target))
    g_hash_table_remove (app->shown, GSIZE_TO_POINTER (target.window));
}

void
rec_all_append_delivered (RecAll *all, pid_t pid, XID id_base, const xEvent *ev, guint64 time_ms)
{
  SessionEvent out;
  App *app = rec_all_app_get (all, pid);

  if (app == NULL || app->watch != NULL || rec_all_app_check_excluded (all, app))
    return;
  if (id_base != 0)
    g_hash_table_add (app->bases, GSIZE_TO_POINTER (id_base));
  if (translator_delivered (all->translator, ev, time_ms, &out) == TRANSLATE_EVENT)
    rec_all_app_append (app, &out);
}

/* A user action, to the buffer of the app it was aimed at. */
void
rec_all_record_device (RecAll *all, const xEvent *ev, guint64 time_ms)
{
  SessionEvent out;
  App *app;

  if (translator_device (all->translator, ev, time_ms, &out) != TRANSLATE_EVENT)
    return;
  app = rec_all_app_get (all, translator_get_app_pid (all->translator));
  if (app != NULL && app->watch == NULL && !rec_all_app_check_excluded (all, app))
    {
      rec_all_app_append (app, &out);
      /* What an app asks for from now on is this action's paste. */
      if (all->pastes != NULL)
        rec_pastes_action (all->pastes);
    }
}

/* ---- pastes and drops from other apps ---- */

/* A Selection line or a Drop (pastes.h), for the app whose request or
 * message it answers. */
void
rec_all_on_given (const SessionEvent *ev, gpointer user_data)
{
  RecAll *all = user_data;

  if (all->pasting != NULL)
    rec_all_app_append (all->pasting, ev);
}

/* @pid's ConvertSelection (@data) or ClientMessage (@ev) to pastes. */
void
rec_all_give (RecAll *all, pid_t pid, const guint8 *data, gsize len, const xEvent *ev, guint64 time_ms)
{
  App *app = all->pastes != NULL ? rec_all_app_get (all, pid) : NULL;

  if (app == NULL || app->watch != NULL || rec_all_app_check_excluded (all, app))
    return;
  all->pasting = app;
  rec_pastes_set_app (all->pastes, pid);
  if (ev != NULL)
    rec_pastes_client_message (all->pastes, ev, time_ms);
  else
    rec_pastes_request (all->pastes, data, len, time_ms);
  rec_pastes_set_app (all->pastes, 0);
  all->pasting = NULL;
}
