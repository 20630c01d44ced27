/* toplevels-private.h — the window model's records (toplevels.h),
 * shared by its two halves: toplevels.c tracks the root's children
 * (geometry, stacking, mapping, reparenting, focus) from the events;
 * toplevels-clients.c knows the windows the apps created as their
 * top-levels (their identity from the recorded properties, whose each
 * is, what names a top-level, the target of an action). Not a module's
 * interface: only those two include it.
 */
#pragma once

#include "toplevels.h"
#include "xapp.h"

G_BEGIN_DECLS

typedef enum
{
  DECISION_UNKNOWN,
  DECISION_NO,
  DECISION_YES,
  DECISION_SILENT,         /* of a client base: the server cannot tell its pid */
} Decision;

typedef enum
{
  FOCUS_NONE,              /* nobody, or not known: keys are not recorded */
  FOCUS_POINTER,           /* PointerRoot or the root: under the pointer */
  FOCUS_WINDOW,            /* focus_top's subtree */
} FocusMode;

typedef struct
{
  Window id;
  Decision app;            /* cached; reset when _NET_WM_PID changes */
  guint64 first_map;       /* 0: never mapped as the app's */
  pid_t pid;               /* _NET_WM_PID, 0: not known */
  pid_t app_pid;           /* all: the app it was taken for (DECISION_YES) */
  XAppIdentity identity;   /* owned strings */
  gboolean reread;         /* the identity read again at its first map */
  int extents[4];          /* _GTK_FRAME_EXTENTS: left, right, top, bottom (a
                            * client-side decorated window's invisible margins,
                            * its shadows under a compositor), or zeros */
} Client;

typedef struct
{
  Window id;
  Client *client;          /* borrowed from clients; NULL: none found */
  Client *inner;           /* borrowed: a window of the same client reparented
                            * into this one (Tk's), or NULL */
  int x, y, width, height, border;
  int client_dx, client_dy; /* client origin from the frame's origin */
  int client_width, client_height; /* the client's size, when it is not the frame */
  Window client_parent;    /* the client's parent: the frame, or a window in it */
  gboolean mapped;
} Toplevel;

typedef struct
{
  Window id;               /* the window that names it */
  char *wm_class;          /* owned, or NULL */
  char *title;             /* owned, or NULL */
} Seen;

struct Toplevels
{
  Display *dpy;            /* the tracker connection, not owned */
  XApp *xapp;              /* owned: whose a window is */
  Window root;
  pid_t app_pgid;
  gboolean private_server;
  Atom net_wm_pid, net_wm_name, gtk_frame_extents;

  GHashTable *toplevels;   /* Window -> Toplevel* (owned) */
  GPtrArray *stack;        /* Toplevel*, bottom to top (borrowed) */
  GHashTable *clients;     /* Window -> Client* (owned) */
  GHashTable *app_bases;   /* XID id_base -> Decision, of clients; forgotten
                            * when the client leaves (its base is reused) */
  GPtrArray *seen;         /* of Seen* (owned): windows mapped while recording */
  gboolean all;            /* toplevels_set_all: every client is an app */
  char **exclude;          /* all: classes recorded nothing of (owned) */
  GHashTable *base_pids;   /* all: XID id_base -> pid (0: nobody can tell) */
  GHashTable *excluded;    /* all: pids of apps that showed an excluded class */

  guint64 map_seq;
  FocusMode focus_mode;
  Window focus_top;

  ToplevelsMapFunc map_func;
  gpointer map_data;
};

/* toplevels-clients.c: the record of the client window @id, made (its
 * events selected, its identity read) when first seen; the frees of the
 * hash table and array that own them; the identity a window mapped while
 * recording showed, remembered (@add) or updated. */
Client *toplevels_client_get (Toplevels *tops, Window id);
void toplevels_client_free (Client *client);
void toplevels_seen_free (Seen *seen);
void toplevels_seen_note (Toplevels *tops, Client *client, gboolean add);
/* Is @client the app's? (DECISION_UNKNOWN: nobody can tell yet.) Its
 * _NET_WM_PID changed: it is asked again. */
Decision toplevels_client_decide (Toplevels *tops, Client *client);
void toplevels_client_pid_changed (Toplevels *tops, Client *client);
/* A mapped top-level of the app's gets its place in the first-map order
 * (and the map function is called). */
void toplevels_note_map (Toplevels *tops, Toplevel *top);
/* The client whose identity names @top (its client, or the window the
 * app reparented into it); @top as the target of an action (FALSE: not
 * the app's). */
Client *toplevels_named (const Toplevel *top);
gboolean toplevels_target (Toplevels *tops, Toplevel *top, ToplevelTarget *target);

G_END_DECLS
