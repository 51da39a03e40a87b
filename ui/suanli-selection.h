/* suanli-selection.h — what the user has selected, shared by every page of a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_SELECTION (suanli_selection_get_type ())

G_DECLARE_FINAL_TYPE (SuanliSelection, suanli_selection, SUANLI, SELECTION, GObject)

/* Range bounds and the event index are -1 when nothing is selected. */
#define SUANLI_SELECTION_NONE ((gint64) -1)

SuanliSelection *suanli_selection_new             (void);
GListStore      *suanli_selection_get_items       (SuanliSelection *self);
gboolean         suanli_selection_get_has_range   (SuanliSelection *self);
gint64           suanli_selection_get_range_start (SuanliSelection *self);
gint64           suanli_selection_get_range_end   (SuanliSelection *self);
void             suanli_selection_set_range       (SuanliSelection *self,
                                                   gint64           start_ns,
                                                   gint64           end_ns);
void             suanli_selection_clear_range     (SuanliSelection *self);
gint             suanli_selection_get_event_track (SuanliSelection *self);
gint64           suanli_selection_get_event_index (SuanliSelection *self);
void             suanli_selection_set_event       (SuanliSelection *self,
                                                   gint             track,
                                                   gint64           index);

G_END_DECLS
