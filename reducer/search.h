/* search.h — a session as the search sees it (X-free, beside dd.h).
 *
 * The hierarchy dd_reduce_hierarchy() reduces over: phrases (the steps a
 * person would name: "Type `ls /` and press Return", a click with the
 * motion that led to it), then gestures (a keystroke with its modifiers,
 * a click, a drag, a run of motion), each cut to the actions of the set
 * being reduced; and what a candidate really replays (session_subset()
 * drops a release whose press is not kept, and a press of a key still
 * held), so that candidates that replay the same are asked once.
 *
 * Used by the reducer (reduce.c) and by the simulations in tests/ and
 * bench/, which run the same search against model apps.
 */
#pragma once

#include <glib.h>
#include "dd.h"
#include "session.h"

G_BEGIN_DECLS

typedef struct SearchLevels SearchLevels;

/* The levels of @session's hierarchy cut to the actions @set (ascending;
 * NULL: all). @phrases: FALSE leaves the phrase level out (gestures, then
 * actions, as before phrases). */
SearchLevels *search_levels_new (const Session *session, const guint *set, guint n_set,
                                 gboolean phrases);
void search_levels_free (SearchLevels *levels);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SearchLevels, search_levels_free)

const DdLevel *search_levels_get (const SearchLevels *levels, guint *n_levels);

/* A DdOptions.normalize for @session: appends to @out the actions of
 * @elems that session_subset() keeps. */
void search_normalize (const Session *session, const guint *elems, guint n_elems, GArray *out);

/* The user's releases of what @set (ascending action numbers) presses
 * that @set does not keep (the search drops them: a key or button still
 * held changes nothing for most bugs), as action numbers, ascending: what
 * goes back in after the search, where the failure holds with it, so
 * that the steps read as done. Of a kept press, the release that ends its
 * hold in @set: the user's last one before the next press of it that @set
 * keeps (presses of it that @set drops do not end the hold). */
GArray *search_dropped_releases (const Session *session, const guint *set, guint n_set);

G_END_DECLS
