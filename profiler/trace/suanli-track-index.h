/* suanli-track-index.h — a track's slices by depth, for drawing millions of them at any zoom
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

/* One thing to draw: a slice wide enough to show on its own (@merged FALSE), or the longest of the
 * slices that start inside one bucket (@merged TRUE), standing for all of them. @bucket_start is
 * where that bucket begins: a merged column is drawn there, since its longest slice may start in
 * the next pixel column and leave this one empty. */
typedef void (*SuanliTrackVisit) (guint32            slice_index,
                                  const SuanliSlice *slice,
                                  gboolean           merged,
                                  gint64             bucket_start,
                                  gpointer           user_data);

SuanliTrackIndex *suanli_track_index_new      (SuanliTrack      *track);
void              suanli_track_index_free     (SuanliTrackIndex *self);
guint             suanli_track_index_n_depths (SuanliTrackIndex *self);
gsize             suanli_track_index_get_size (SuanliTrackIndex *self);
void              suanli_track_index_visit    (SuanliTrackIndex *self,
                                               guint             depth,
                                               gint64            from,
                                               gint64            to,
                                               gint64            bucket_ns,
                                               SuanliTrackVisit  visit,
                                               gpointer          user_data);
gboolean          suanli_track_index_find     (SuanliTrackIndex *self,
                                               guint             depth,
                                               gint64            time,
                                               gint64            slack_ns,
                                               guint32          *slice_index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliTrackIndex, suanli_track_index_free)

G_END_DECLS
