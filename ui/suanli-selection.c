/* suanli-selection.c — what the user has selected, shared by every page of a window
 *
 * Three things can be selected at once and independently:
 *  - items: catalog items picked for comparison and for the plan (a GListStore of SuanliItem);
 *  - a time range of the trace, in nanoseconds on the trace's clock (the timeline's ruler sets it,
 *    every profiler view filters by it);
 *  - one event of the trace, as (track, index into that track's slices).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-item.h"
#include "suanli-selection.h"

struct _SuanliSelection
{
  GObject     parent_instance;

  GListStore *items;
  gint64      range_start;
  gint64      range_end;
  gint        event_track;
  gint64      event_index;
};

G_DEFINE_FINAL_TYPE (SuanliSelection, suanli_selection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ITEMS,
  PROP_HAS_RANGE,
  PROP_RANGE_START,
  PROP_RANGE_END,
  PROP_EVENT_TRACK,
  PROP_EVENT_INDEX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
suanli_selection_finalize (GObject *object)
{
  SuanliSelection *self = SUANLI_SELECTION (object);

  g_clear_object (&self->items);

  G_OBJECT_CLASS (suanli_selection_parent_class)->finalize (object);
}

static void
suanli_selection_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SuanliSelection *self = SUANLI_SELECTION (object);

  switch (prop_id)
    {
    case PROP_ITEMS:
      g_value_set_object (value, self->items);
      break;
    case PROP_HAS_RANGE:
      g_value_set_boolean (value, suanli_selection_get_has_range (self));
      break;
    case PROP_RANGE_START:
      g_value_set_int64 (value, self->range_start);
      break;
    case PROP_RANGE_END:
      g_value_set_int64 (value, self->range_end);
      break;
    case PROP_EVENT_TRACK:
      g_value_set_int (value, self->event_track);
      break;
    case PROP_EVENT_INDEX:
      g_value_set_int64 (value, self->event_index);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_selection_class_init (SuanliSelectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = suanli_selection_finalize;
  object_class->get_property = suanli_selection_get_property;

  properties[PROP_ITEMS] =
    g_param_spec_object ("items", NULL, NULL, G_TYPE_LIST_STORE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_RANGE] =
    g_param_spec_boolean ("has-range", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RANGE_START] =
    g_param_spec_int64 ("range-start", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RANGE_END] =
    g_param_spec_int64 ("range-end", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EVENT_TRACK] =
    g_param_spec_int ("event-track", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EVENT_INDEX] =
    g_param_spec_int64 ("event-index", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
suanli_selection_init (SuanliSelection *self)
{
  self->items = g_list_store_new (SUANLI_TYPE_ITEM);
  self->range_start = SUANLI_SELECTION_NONE;
  self->range_end = SUANLI_SELECTION_NONE;
  self->event_track = -1;
  self->event_index = SUANLI_SELECTION_NONE;
}

SuanliSelection *
suanli_selection_new (void)
{
  return g_object_new (SUANLI_TYPE_SELECTION, NULL);
}

/* Returns: (transfer none): a GListStore of SuanliItem; add and remove items on it directly. */
GListStore *
suanli_selection_get_items (SuanliSelection *self)
{
  g_return_val_if_fail (SUANLI_IS_SELECTION (self), NULL);

  return self->items;
}

gboolean
suanli_selection_get_has_range (SuanliSelection *self)
{
  g_return_val_if_fail (SUANLI_IS_SELECTION (self), FALSE);

  return self->range_start != SUANLI_SELECTION_NONE;
}

gint64
suanli_selection_get_range_start (SuanliSelection *self)
{
  g_return_val_if_fail (SUANLI_IS_SELECTION (self), SUANLI_SELECTION_NONE);

  return self->range_start;
}

gint64
suanli_selection_get_range_end (SuanliSelection *self)
{
  g_return_val_if_fail (SUANLI_IS_SELECTION (self), SUANLI_SELECTION_NONE);

  return self->range_end;
}

static void
update_range (SuanliSelection *self,
              gint64           start,
              gint64           end)
{
  gboolean had_range = suanli_selection_get_has_range (self);

  g_object_freeze_notify (G_OBJECT (self));
  if (self->range_start != start)
    {
      self->range_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_START]);
    }
  if (self->range_end != end)
    {
      self->range_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_END]);
    }
  if (had_range != suanli_selection_get_has_range (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_RANGE]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Selects [@start_ns, @end_ns]; the bounds may come in either order. */
void
suanli_selection_set_range (SuanliSelection *self,
                            gint64           start_ns,
                            gint64           end_ns)
{
  g_return_if_fail (SUANLI_IS_SELECTION (self));
  g_return_if_fail (start_ns >= 0 && end_ns >= 0);

  update_range (self, MIN (start_ns, end_ns), MAX (start_ns, end_ns));
}

void
suanli_selection_clear_range (SuanliSelection *self)
{
  g_return_if_fail (SUANLI_IS_SELECTION (self));

  update_range (self, SUANLI_SELECTION_NONE, SUANLI_SELECTION_NONE);
}

gint
suanli_selection_get_event_track (SuanliSelection *self)
{
  g_return_val_if_fail (SUANLI_IS_SELECTION (self), -1);

  return self->event_track;
}

gint64
suanli_selection_get_event_index (SuanliSelection *self)
{
  g_return_val_if_fail (SUANLI_IS_SELECTION (self), SUANLI_SELECTION_NONE);

  return self->event_index;
}

/* Selects one event; pass -1 for both to select none. */
void
suanli_selection_set_event (SuanliSelection *self,
                            gint             track,
                            gint64           index)
{
  g_return_if_fail (SUANLI_IS_SELECTION (self));
  g_return_if_fail ((track < 0) == (index < 0));

  g_object_freeze_notify (G_OBJECT (self));
  if (self->event_track != track)
    {
      self->event_track = track;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EVENT_TRACK]);
    }
  if (self->event_index != index)
    {
      self->event_index = index;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EVENT_INDEX]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}
