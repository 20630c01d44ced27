/* recorder-events.c — what was recorded (recorder-private.h): every
 * recorded event goes through recorder_on_captured(): device events
 * become user actions if they were aimed at the app (translate.c),
 * events the server delivered to the app become server records, events
 * delivered to the tracker keep the window model in step. The app's
 * requests tell the model its windows' properties and start its pastes;
 * what it was given (a paste, a drop, a file) is written in order.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "recorder-private.h"

#include "xconn.h"

#include <X11/extensions/record.h>

static void
write_event (Recorder *recorder, const SessionEvent *ev)
{
  SessionEvent at = *ev;

  if (recorder->write_error != NULL || recorder->writer == NULL)
    return;
  /* What the app was given is written when it is known: never before a
   * line already written. */
  at.time_ms = MAX (ev->time_ms, recorder->last_time);
  if (!session_writer_append (recorder->writer, &at, &recorder->write_error))
    {
      recorder_begin_stop (recorder, "the log cannot be written");
      return;
    }
  recorder->last_time = at.time_ms;
  if (session_event_is_action (ev))
    {
      recorder->n_actions++;
      /* What the app asks for after an action is that action's paste,
       * and the files it opens meanwhile are seen now. */
      if (recorder->pastes != NULL)
        rec_pastes_action (recorder->pastes);
      if (recorder->files != NULL)
        rec_files_look (recorder->files, at.time_ms);
    }
  else if (ev->kind == SESSION_EVENT_SERVER)
    recorder->n_server++;
}

/* A Selection line or a Drop (pastes.h), a File (files.h). */
void
recorder_on_given (const SessionEvent *ev, gpointer user_data)
{
  write_event (user_data, ev);
}

void
recorder_on_captured (const xEvent *ev, XID id_base, guint64 time_ms, gpointer user_data)
{
  Recorder *recorder = user_data;
  int type = ev->u.u.type & 0x7f;
  SessionEvent out;

  if (type >= KeyPress && type <= MotionNotify)
    {
      /* Device events: nothing of the user's after the stop key. */
      if (recorder->stop_key_seen)
        return;
      switch (translator_device (recorder->translator, ev, time_ms, &out))
        {
        case TRANSLATE_EVENT:
          write_event (recorder, &out);
          break;
        case TRANSLATE_STOP:
          recorder->stop_key_seen = TRUE;
          if (!recorder->outcome_known)
            {
              recorder->outcome_known = TRUE;
              recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
            }
          recorder_begin_stop (recorder, "the stop key");
          break;
        case TRANSLATE_SKIP:
        default:
          break;
        }
      return;
    }
  if (id_base == recorder->tracker_base)
    {
      toplevels_handle_event (recorder->tops, ev);
      translator_tracker_event (recorder->translator, ev);
      /* The app never hears of its top-levels' creation; the tracker does. */
      if (type == CreateNotify
          && ev->u.createNotify.parent == DefaultRootWindow (recorder->tracker)
          && !ev->u.createNotify.override
          && toplevels_is_app_client (recorder->tops,
                                      ev->u.createNotify.window
                                      & XRecordIdBaseMask (recorder->tracker)))
        recorder->n_created++;
      if (type == CreateNotify
          && toplevels_is_app_client (recorder->tops,
                                      ev->u.createNotify.window
                                      & XRecordIdBaseMask (recorder->tracker))
          && translator_delivered (recorder->translator, ev, time_ms, &out)
             == TRANSLATE_EVENT)
        write_event (recorder, &out);
      return;
    }
  if (recorder->app_pid > 0 && toplevels_is_app_client (recorder->tops, id_base))
    {
      if (translator_delivered (recorder->translator, ev, time_ms, &out) == TRANSLATE_EVENT)
        write_event (recorder, &out);
      /* A drop from another app (XDND), after its message. */
      if (type == ClientMessage && recorder->pastes != NULL && !recorder->stop_key_seen)
        rec_pastes_client_message (recorder->pastes, ev, time_ms);
    }
}

void
recorder_on_client_gone (XID id_base, gpointer user_data)
{
  Recorder *recorder = user_data;

  toplevels_client_gone (recorder->tops, id_base);
}

void
recorder_on_request (const guint8 *data, gsize len, XID id_base, guint64 time_ms, gpointer user_data)
{
  Recorder *recorder = user_data;

  toplevels_handle_request (recorder->tops, data, len);
  if (len > 0 && data[0] == X_ChangeKeyboardMapping)
    translator_keymap_request (recorder->translator, data, len);
  /* At its start, most often: the replay's X server needs GLX only if
   * the app asks for it (session-model.h's SessionGlx). Any client but
   * ours: one the model cannot tell yet is counted (a GLX the app did
   * not need costs a slower start; one it needed, a second replay). */
  if (len > 0 && (data[0] == X_QueryExtension || data[0] == X_ListExtensions)
      && !toplevels_is_own_client (recorder->tops, id_base)
      && xconn_request_asks_glx (data, len, FALSE))
    recorder->glx_asked = TRUE;
  /* The app pastes: what it gets is fetched and written now, in order
   * (also while the recording drains after the app died of it: the
   * owner is still there). */
  if (len > 0 && data[0] == X_ConvertSelection && recorder->pastes != NULL
      && recorder->app_pid > 0 && toplevels_is_app_client (recorder->tops, id_base))
    rec_pastes_request (recorder->pastes, data, len, time_ms);
}

static void
print_ready (Recorder *recorder)
{
  if (recorder->ready || !recorder->enabled || recorder->app_pid <= 0
      || toplevels_get_n_app_mapped (recorder->tops) == 0)
    return;
  recorder->ready = TRUE;
  if (recorder->start_timer != 0)
    g_source_remove (recorder->start_timer);
  recorder->start_timer = 0;
  guard_set_deadline (recorder->guard, 0);
  /* Scripts and tests wait for this line. */
  g_printerr ("xrecord: recording %s (pid %d) on %s\n", recorder->argv[0],
              (int) recorder->app_pid, recorder->display);
}

void
recorder_on_app_map (Window window, gpointer user_data)
{
  print_ready (user_data);
}

void
recorder_on_capture_state (gboolean enabled, gpointer user_data)
{
  Recorder *recorder = user_data;

  if (enabled)
    {
      recorder->enabled = TRUE;
      g_main_loop_quit (recorder->loop);
      return;
    }
  recorder->drained = recorder->all_read = TRUE;
  if (recorder->stopping)
    g_main_loop_quit (recorder->loop);
}

