/* suanli-timeline-painter.c — a trace's tracks on a time axis, drawn with cairo at any zoom
 *
 * Rows are laid out once: per file (rank) and process, a header row, then its CPU threads, async
 * tracks, GPU streams and counters, each track as tall as its deepest slice. A frame draws only
 * the rows in view, and for each lane asks the track's SuanliTrackIndex for what shows at one
 * pixel per bucket of time: whole slices where they are wide enough, the longest slice of each
 * pixel column where they are not. Names are drawn only inside slices wide enough for them. The
 * ruler at the top and the labels in the left gutter stay put while the rows scroll under them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-analysis.h"
#include "suanli-timeline-painter.h"
#include "suanli-trace-names.h"
#include "suanli-track-index.h"
#include "suanli-units.h"

#define HEADER_HEIGHT      22.0
#define COUNTER_HEIGHT     32.0
#define TRACK_GAP           4.0
#define MIN_LABEL_WIDTH    28.0
#define MIN_TICK_SPACING   90.0

typedef enum {
  ROW_HEADER,
  ROW_TRACK,
} RowKind;

typedef struct
{
  RowKind  kind;
  guint    group;
  gint64   pid;
  guint    track;      /* ROW_TRACK */
  double   y;          /* from the top of its area: the pinned strip, or the rows before scrolling */
  double   height;
  char    *label;
  gboolean pinned;     /* in the strip under the ruler, which does not scroll */
} Row;

struct _SuanliTimelinePainter
{
  SuanliTrace *trace;
  GArray      *rows;          /* of Row, top to bottom */
  GHashTable  *collapsed;     /* "group:pid" of folded processes */
  GHashTable  *colors;        /* (name << 1 | dark) → SuanliColor */
  GHashTable  *categories;    /* category string id + 1 → SuanliCategory + 1 */
  double       content_height;
  gint64       origin;        /* the trace's first time: the ruler's zero */
  guint        selected_track;
  guint32      selected_slice;
  gboolean     has_selection;
  GArray      *linked;        /* of SuanliFlow: the flows touching the selected slice */
  GArray      *pinned;        /* of guint: tracks pinned under the ruler, in the order pinned */
  double       pinned_height;
  gint64       range_from, range_to;   /* a selected range; equal when there is none */
  char        *search;        /* casefolded; NULL when not searching */
  GByteArray  *matched;       /* by name: NAME_UNSEEN, NAME_OTHER or NAME_MATCHES, for the search */
};

static void
row_clear (Row *row)
{
  g_free (row->label);
}

static int
track_order (SuanliTrackKind kind)
{
  switch (kind)
    {
    case SUANLI_TRACK_THREAD:
      return 0;
    case SUANLI_TRACK_ASYNC:
      return 1;
    case SUANLI_TRACK_GPU_STREAM:
      return 2;
    case SUANLI_TRACK_COUNTER:
    default:
      return 3;
    }
}

/* Whether the process of @track holds GPU streams: such processes are GPUs, drawn after the
 * CPU processes of their file: launches above the work they start. */
static gboolean
is_gpu_process (GHashTable  *gpus,
                SuanliTrack *track)
{
  g_autofree char *key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, track->group, track->pid);

  return g_hash_table_contains (gpus, key);
}

typedef struct
{
  SuanliTrace *trace;
  GHashTable  *gpus;   /* "group:pid" of processes with GPU streams */
} Ordering;

static int
compare_tracks (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  Ordering *ordering = data;
  SuanliTrack *x = suanli_trace_get_track (ordering->trace, *(const guint *) a);
  SuanliTrack *y = suanli_trace_get_track (ordering->trace, *(const guint *) b);
  gboolean x_gpu, y_gpu;

  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  x_gpu = is_gpu_process (ordering->gpus, x);
  y_gpu = is_gpu_process (ordering->gpus, y);
  if (x_gpu != y_gpu)
    return x_gpu ? 1 : -1;
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (track_order (x->kind) != track_order (y->kind))
    return track_order (x->kind) - track_order (y->kind);
  if (x->sort_index != y->sort_index)
    return x->sort_index < y->sort_index ? -1 : 1;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

static double
track_height (SuanliTrack *track)
{
  if (track->kind == SUANLI_TRACK_COUNTER)
    return COUNTER_HEIGHT;
  return (track->slices->len > 0 ? track->max_depth + 1 : 1) * SUANLI_TIMELINE_LANE_HEIGHT + TRACK_GAP;
}

gboolean
suanli_timeline_painter_is_pinned (SuanliTimelinePainter *self,
                                   guint                  track)
{
  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, guint, i) == track)
      return TRUE;
  return FALSE;
}

static void
layout_rows (SuanliTimelinePainter *self)
{
  guint n_tracks = suanli_trace_get_n_tracks (self->trace);
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_tracks);
  double y = 0;
  gboolean have_header = FALSE;
  guint last_group = 0;
  gint64 last_pid = 0;

  g_autoptr(GHashTable) gpus = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Ordering ordering = { self->trace, gpus };

  g_array_set_size (self->rows, 0);
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (self->trace, t);

      g_array_append_val (order, t);
      if (track->kind == SUANLI_TRACK_GPU_STREAM)
        g_hash_table_add (gpus, g_strdup_printf ("%u:%" G_GINT64_FORMAT, track->group, track->pid));
    }
  g_array_sort_with_data (order, compare_tracks, &ordering);
  /* Pinned tracks first, in their strip; they leave their place in the rows. */
  self->pinned_height = 0;
  for (guint i = 0; i < self->pinned->len; i++)
    {
      guint t = g_array_index (self->pinned, guint, i);
      SuanliTrack *track = suanli_trace_get_track (self->trace, t);
      g_autofree char *label = suanli_trace_track_label (self->trace, track);
      Row row = { ROW_TRACK, track->group, track->pid, t, self->pinned_height, track_height (track),
                  g_strdup_printf (_("%s (pinned)"), label), TRUE };

      g_array_append_val (self->rows, row);
      self->pinned_height += row.height;
    }
  for (guint i = 0; i < order->len; i++)
    {
      guint t = g_array_index (order, guint, i);
      SuanliTrack *track = suanli_trace_get_track (self->trace, t);
      g_autofree char *key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, track->group, track->pid);
      Row row = { ROW_TRACK, track->group, track->pid, t, 0, 0, NULL, FALSE };

      if (!have_header || track->group != last_group || track->pid != last_pid)
        {
          Row header = { ROW_HEADER, track->group, track->pid, 0, y, HEADER_HEIGHT,
                         suanli_trace_process_label (self->trace, track->group, track->pid, is_gpu_process (gpus, track)), FALSE };

          g_array_append_val (self->rows, header);
          y += HEADER_HEIGHT;
          have_header = TRUE;
          last_group = track->group;
          last_pid = track->pid;
        }
      if (g_hash_table_contains (self->collapsed, key) || suanli_timeline_painter_is_pinned (self, t))
        continue;
      row.y = y;
      row.height = track_height (track);
      row.label = suanli_trace_track_label (self->trace, track);
      g_array_append_val (self->rows, row);
      y += row.height;
    }
  self->content_height = y;
}

/* Where @row's top is drawn in the frame. */
static double
row_top (SuanliTimelinePainter    *self,
         const Row                *row,
         const SuanliTimelineView *view)
{
  if (row->pinned)
    return SUANLI_TIMELINE_RULER_HEIGHT + row->y;
  return SUANLI_TIMELINE_RULER_HEIGHT + self->pinned_height + row->y - view->scroll_y;
}

/* Returns: (transfer full): a painter of @trace, which must stay as it is while the painter lives
 * (a grown trace needs a new painter). */
SuanliTimelinePainter *
suanli_timeline_painter_new (SuanliTrace *trace)
{
  SuanliTimelinePainter *self = g_new0 (SuanliTimelinePainter, 1);
  gint64 last;

  self->trace = g_object_ref (trace);
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, (GDestroyNotify) row_clear);
  self->collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->colors = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->categories = g_hash_table_new (NULL, NULL);
  self->matched = g_byte_array_new ();
  self->linked = g_array_new (FALSE, FALSE, sizeof (SuanliFlow));
  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint));
  /* The trace's drawing indexes: the loader made them on its worker; otherwise they are made here. */
  suanli_trace_index_tracks (trace);
  suanli_trace_get_time_range (trace, &self->origin, &last);
  layout_rows (self);
  return self;
}

/* The trace grew (a live capture): rows for its new tracks, and deeper lanes where they deepened.
 * What was folded, pinned, selected or searched for stays so. */
void
suanli_timeline_painter_refresh (SuanliTimelinePainter *self)
{
  g_byte_array_set_size (self->matched, 0);   /* new names: matched again as they are drawn */
  layout_rows (self);
}

void
suanli_timeline_painter_free (SuanliTimelinePainter *self)
{
  g_object_unref (self->trace);
  g_array_unref (self->rows);
  g_hash_table_unref (self->collapsed);
  g_hash_table_unref (self->colors);
  g_hash_table_unref (self->categories);
  g_byte_array_unref (self->matched);
  g_array_unref (self->linked);
  g_array_unref (self->pinned);
  g_free (self->search);
  g_free (self);
}

/* The rows' height, ruler excluded: how far they can scroll. */
double
suanli_timeline_painter_content_height (SuanliTimelinePainter *self)
{
  return self->content_height;
}

void
suanli_timeline_painter_set_selected (SuanliTimelinePainter *self,
                                      guint                  track,
                                      guint32                slice)
{
  GArray *flows = suanli_trace_get_flows (self->trace);

  self->has_selection = track < suanli_trace_get_n_tracks (self->trace);
  self->selected_track = track;
  self->selected_slice = slice;
  /* Its flows (a launch and its kernel, say), for arrows between them. */
  g_array_set_size (self->linked, 0);
  for (guint f = 0; f < flows->len && self->has_selection; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);

      if ((flow->from_track == track && flow->from_slice == slice) || (flow->to_track == track && flow->to_slice == slice))
        g_array_append_val (self->linked, *flow);
    }
}

/* The top of @slice_index's lane on @track in the frame, or FALSE when its row is not laid out. */
static gboolean
lane_top (SuanliTimelinePainter    *self,
          guint                     track,
          guint32                   slice_index,
          const SuanliTimelineView *view,
          double                   *y)
{
  const SuanliSlice *slice = &g_array_index (suanli_trace_get_track (self->trace, track)->slices, SuanliSlice, slice_index);

  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);

      if (row->kind == ROW_TRACK && row->track == track)
        {
          *y = row_top (self, row, view) + TRACK_GAP / 2 + slice->depth * SUANLI_TIMELINE_LANE_HEIGHT;
          return TRUE;
        }
    }
  return FALSE;
}

enum {
  NAME_UNSEEN,
  NAME_OTHER,
  NAME_MATCHES,
};

/* Whether @name contains the search text, worked out once per name (a trace repeats its names)
 * and kept in a byte per name, so that a search over millions of slices costs a load each. */
static gboolean
name_matches (SuanliTimelinePainter *self,
              SuanliString           name)
{
  guint8 *state;

  if (name >= self->matched->len)
    {
      guint old = self->matched->len;

      g_byte_array_set_size (self->matched, name + 1024);
      memset (self->matched->data + old, NAME_UNSEEN, self->matched->len - old);
    }
  state = &self->matched->data[name];
  if (*state == NAME_UNSEEN)
    {
      g_autofree char *folded = g_utf8_casefold (suanli_trace_get_string (self->trace, name), -1);

      *state = strstr (folded, self->search) != NULL ? NAME_MATCHES : NAME_OTHER;
    }
  return *state == NAME_MATCHES;
}

/**
 * suanli_timeline_painter_set_search:
 * @text: (nullable): what slice names must contain, case-insensitively; NULL or "" to stop
 *
 * Other slices are drawn faded. Returns: how many slices match.
 */
guint64
suanli_timeline_painter_set_search (SuanliTimelinePainter *self,
                                    const char            *text)
{
  guint n_strings = suanli_trace_get_n_strings (self->trace);
  const guint8 *state;
  guint64 count = 0;

  g_clear_pointer (&self->search, g_free);
  g_byte_array_set_size (self->matched, 0);
  if (text == NULL || *text == '\0')
    return 0;
  self->search = g_utf8_casefold (text, -1);
  /* Every name once, then a byte per slice. */
  for (SuanliString name = 0; name < n_strings; name++)
    name_matches (self, name);
  state = self->matched->data;
  for (guint t = 0; t < suanli_trace_get_n_tracks (self->trace); t++)
    {
      GArray *slices = suanli_trace_get_track (self->trace, t)->slices;
      const SuanliSlice *slice = (const SuanliSlice *) slices->data;

      for (guint i = 0; i < slices->len; i++)
        count += state[slice[i].name] == NAME_MATCHES;
    }
  return count;
}

/* The first slice of @slices that starts after @time (@forward), or the last that starts before it;
 * -1 when there is none. */
static gint64
first_beyond (GArray   *slices,
              gint64    time,
              gboolean  forward)
{
  guint low = 0, high = slices->len;

  /* The number of slices starting at or before @time (forward), or before it (backward). */
  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      gint64 start = g_array_index (slices, SuanliSlice, middle).start;

      if (forward ? start <= time : start < time)
        low = middle + 1;
      else
        high = middle;
    }
  if (forward)
    return low < slices->len ? (gint64) low : -1;
  return (gint64) low - 1;
}

/**
 * suanli_timeline_painter_find_match:
 * @forward: the next match after @time, or (FALSE) the last one before it
 *
 * Returns: whether there is one, with its track and index.
 */
gboolean
suanli_timeline_painter_find_match (SuanliTimelinePainter *self,
                                    gint64                 time,
                                    gboolean               forward,
                                    guint                 *track,
                                    guint32               *slice)
{
  gboolean found = FALSE;
  gint64 best = 0;

  if (self->search == NULL)
    return FALSE;
  for (guint t = 0; t < suanli_trace_get_n_tracks (self->trace); t++)
    {
      GArray *slices = suanli_trace_get_track (self->trace, t)->slices;

      /* From the time outwards, until a match or past the best one of the other tracks. */
      for (gint64 i = first_beyond (slices, time, forward); i >= 0 && i < (gint64) slices->len; i += forward ? 1 : -1)
        {
          const SuanliSlice *candidate = &g_array_index (slices, SuanliSlice, i);

          if (found && (forward ? candidate->start >= best : candidate->start <= best))
            break;
          if (name_matches (self, candidate->name))
            {
              /* Of matches that start together (nested), the outermost, whichever way. */
              while (!forward && i > 0 && g_array_index (slices, SuanliSlice, i - 1).start == candidate->start &&
                     name_matches (self, g_array_index (slices, SuanliSlice, i - 1).name))
                candidate = &g_array_index (slices, SuanliSlice, --i);
              found = TRUE;
              best = candidate->start;
              *track = t;
              *slice = (guint32) i;
              break;
            }
        }
    }
  return found;
}

/* Marks [@from, @to) as the selected range (nothing when they are equal). */
void
suanli_timeline_painter_set_range (SuanliTimelinePainter *self,
                                   gint64                 from,
                                   gint64                 to)
{
  self->range_from = MIN (from, to);
  self->range_to = MAX (from, to);
}

/* Pins @track under the ruler, where it stays while the rest scrolls, or unpins it. */
void
suanli_timeline_painter_set_pinned (SuanliTimelinePainter *self,
                                    guint                  track,
                                    gboolean               pinned)
{
  if (pinned == suanli_timeline_painter_is_pinned (self, track) || track >= suanli_trace_get_n_tracks (self->trace))
    return;
  if (pinned)
    g_array_append_val (self->pinned, track);
  else
    for (guint i = 0; i < self->pinned->len; i++)
      if (g_array_index (self->pinned, guint, i) == track)
        g_array_remove_index (self->pinned, i--);
  layout_rows (self);
}

/* The height of the pinned strip under the ruler (0 with nothing pinned). */
double
suanli_timeline_painter_get_pinned_height (SuanliTimelinePainter *self)
{
  return self->pinned_height;
}

/* Folds a process to its header row, or unfolds it. */
void
suanli_timeline_painter_set_collapsed (SuanliTimelinePainter *self,
                                       guint                  group,
                                       gint64                 pid,
                                       gboolean               collapsed)
{
  char *key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, group, pid);

  if (collapsed)
    g_hash_table_add (self->collapsed, key);
  else
    {
      g_hash_table_remove (self->collapsed, key);
      g_free (key);
    }
  layout_rows (self);
}

/* The palette's colours: blue CPU work, green kernels, orange copies and memsets, purple communication. */
static SuanliCategory
category_of (SuanliTimelinePainter *self,
             const SuanliSlice     *slice)
{
  gpointer key = GUINT_TO_POINTER (slice->category + 1);
  gpointer found = g_hash_table_lookup (self->categories, key);
  const char *category;
  SuanliCategory result = SUANLI_CATEGORY_CPU;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  category = suanli_trace_get_string (self->trace, slice->category);
  if (g_str_equal (category, "kernel") || g_str_equal (category, "Kernel"))
    result = SUANLI_CATEGORY_KERNEL;
  else if (g_str_has_prefix (category, "gpu_mem") || g_str_equal (category, "Memcpy") || g_str_equal (category, "Memset"))
    result = SUANLI_CATEGORY_MEMORY;
  else if (g_str_equal (category, "gpu_user_annotation") || g_str_equal (category, "cuda_sync") ||
           g_str_equal (category, "overhead"))
    result = SUANLI_CATEGORY_OTHER;
  g_hash_table_insert (self->categories, key, GUINT_TO_POINTER (result + 1));
  return result;
}

/* A slice's colour: its category's ramp, at a shade its name picks. */
typedef struct
{
  SuanliColor    named;
  SuanliColor    faded;      /* the same, see-through, for slices a search does not match */
  SuanliCategory category;   /* communication kernels told apart by name */
} SliceColor;

static const SliceColor *
color_of (SuanliTimelinePainter *self,
          const SuanliSlice     *slice,
          gboolean               dark)
{
  gpointer key = GUINT_TO_POINTER (slice->name << 1 | (dark ? 1 : 0));
  SliceColor *color = g_hash_table_lookup (self->colors, key);

  if (color == NULL)
    {
      const char *name = suanli_trace_get_string (self->trace, slice->name);

      color = g_new (SliceColor, 1);
      color->category = category_of (self, slice);
      if (color->category == SUANLI_CATEGORY_KERNEL && suanli_analysis_is_communication (name))
        color->category = SUANLI_CATEGORY_COMMUNICATION;
      suanli_palette_named (color->category, name, dark, &color->named);
      color->faded = color->named;
      color->faded.alpha = 0.25;
      g_hash_table_insert (self->colors, key, color);
    }
  return color;
}

/* What one frame needs while the track index calls back. */
typedef struct
{
  SuanliTimelinePainter    *self;
  cairo_t                  *cr;
  const SuanliChartStyle   *style;
  PangoLayout              *layout;
  const SuanliTimelineView *view;
  double                    x0;         /* where time @view->from is drawn */
  double                    px_per_ns;
  double                    right;
  double                    y;          /* the lane's top */
  guint                     track;
  SuanliColor               categories[SUANLI_N_CATEGORIES];   /* for merged columns */
  SuanliColor               faded[SUANLI_N_CATEGORIES];        /* the same, while searching */
  /* Narrow pieces of one colour are gathered and filled together: a zoomed-out frame has tens
   * of thousands of one-pixel columns, and a fill each would cost most of the frame. */
  const SuanliColor        *run_color;
  double                    run_left, run_right, run_y;
  gboolean                  run_open;
} Frame;

/* Fills the gathered run, if any. */
static void
flush_run (Frame *frame)
{
  if (!frame->run_open)
    return;
  cairo_rectangle (frame->cr, frame->run_left, frame->run_y, frame->run_right - frame->run_left,
                   SUANLI_TIMELINE_LANE_HEIGHT - 1);
  suanli_color_set_source (frame->cr, frame->run_color);
  cairo_fill (frame->cr);
  frame->run_open = FALSE;
}

/* Adds [@left, @right) of @color to the run, extending it when they touch, else starting anew. */
static void
add_to_run (Frame             *frame,
            const SuanliColor *color,
            double             left,
            double             right)
{
  if (frame->run_open && frame->run_color == color && frame->run_y == frame->y && left <= frame->run_right + 0.01)
    {
      frame->run_right = MAX (frame->run_right, right);
      return;
    }
  flush_run (frame);
  frame->run_open = TRUE;
  frame->run_color = color;
  frame->run_left = left;
  frame->run_right = right;
  frame->run_y = frame->y;
}

static double
x_of (const Frame *frame,
      gint64       time)
{
  return frame->x0 + (double) (time - frame->view->from) * frame->px_per_ns;
}

static void
draw_slice (guint32            slice_index,
            const SuanliSlice *slice,
            gboolean           merged,
            gint64             bucket_start,
            gpointer           data)
{
  Frame *frame = data;
  cairo_t *cr = frame->cr;
  const SliceColor *slice_color = color_of (frame->self, slice, frame->style->dark);
  /* A column standing for many slices takes its category's colour, so that neighbouring columns
   * merge into one rectangle; a slice shown on its own takes its name's shade. */
  /* While searching, what does not match steps back. (Colours are compared by address when
   * runs are gathered, so each is one that lives as long as the frame.) */
  gboolean fade = frame->self->search != NULL && !name_matches (frame->self, slice->name);
  const SuanliColor *color = merged ? (fade ? &frame->faded[slice_color->category] : &frame->categories[slice_color->category])
                                    : (fade ? &slice_color->faded : &slice_color->named);
  double left = MAX (x_of (frame, slice->start), frame->x0);
  double right = MIN (x_of (frame, slice->start + slice->duration), frame->right);
  double height = SUANLI_TIMELINE_LANE_HEIGHT - 1;
  gboolean selected = frame->self->has_selection && frame->self->selected_track == frame->track &&
                      frame->self->selected_slice == slice_index;

  if (merged || right - left < 1)
    {
      /* Too short to see: a column of its pixel, so that spikes stay visible. A merged column
       * is its bucket's pixel: its longest slice may start in the next one. */
      left = floor (merged ? MAX (x_of (frame, bucket_start), frame->x0) : left);
      right = left + 1;
    }
  if (!selected && right - left < MIN_LABEL_WIDTH)
    {
      add_to_run (frame, color, left, right);
      return;
    }
  flush_run (frame);
  suanli_color_set_source (cr, color);
  cairo_rectangle (cr, left, frame->y, right - left, height);
  cairo_fill (cr);
  if (selected)
    {
      SuanliColor outline;

      suanli_chart_style_foreground (frame->style, 1.0, &outline);
      suanli_color_set_source (cr, &outline);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, left + 1, frame->y + 1, MAX (right - left - 2, 1), height - 2);
      cairo_stroke (cr);
    }
  if (!merged && right - left >= MIN_LABEL_WIDTH)
    {
      SuanliColor text;

      suanli_palette_text_on (color, &text);
      suanli_color_set_source (cr, &text);
      pango_layout_set_text (frame->layout, suanli_trace_get_string (frame->self->trace, slice->name), -1);
      pango_layout_set_width (frame->layout, (int) ((right - left - 6) * PANGO_SCALE));
      cairo_move_to (cr, left + 3, frame->y + 2);
      pango_cairo_show_layout (cr, frame->layout);
    }
}

static void
draw_instants (Frame       *frame,
               SuanliTrack *track)
{
  SuanliColor color;

  suanli_chart_style_foreground (frame->style, 0.7, &color);
  suanli_color_set_source (frame->cr, &color);
  for (guint i = 0; i < track->instants->len; i++)
    {
      gint64 time = g_array_index (track->instants, SuanliInstant, i).time;
      double x = x_of (frame, time);

      if (time < frame->view->from || time > frame->view->to)
        continue;
      cairo_move_to (frame->cr, x, frame->y);
      cairo_line_to (frame->cr, x + 4, frame->y + 6);
      cairo_line_to (frame->cr, x - 4, frame->y + 6);
      cairo_close_path (frame->cr);
    }
  cairo_fill (frame->cr);
}

/* A counter as an area: per pixel column the largest sample in it. */
static void
draw_counter (Frame       *frame,
              SuanliTrack *track,
              double       height)
{
  GArray *samples = track->samples;
  double low = 0, high = 0, base = frame->y + height - 2;
  double column_left = 0, column_right = 0, column_top = base;
  gboolean column_open = FALSE;
  SuanliColor color;

  for (guint i = 0; i < samples->len; i++)
    {
      double value = g_array_index (samples, SuanliSample, i).value;

      if (isfinite (value))
        high = MAX (high, value), low = MIN (low, value);
    }
  if (samples->len == 0 || high <= low)
    return;
  suanli_palette_category (SUANLI_CATEGORY_CPU, frame->style->dark, &color);
  color.alpha = 0.6;
  suanli_color_set_source (frame->cr, &color);
  /* One step per pixel column, as high as the largest sample in it: a queue that filled and
   * drained within a pixel still shows how full it got. */
  cairo_move_to (frame->cr, frame->x0, base);
  for (guint i = 0; i < samples->len; i++)
    {
      SuanliSample *sample = &g_array_index (samples, SuanliSample, i);
      SuanliSample *next = i + 1 < samples->len ? &g_array_index (samples, SuanliSample, i + 1) : NULL;
      double x = CLAMP (x_of (frame, sample->time), frame->x0, frame->right);
      double x_next = next != NULL ? CLAMP (x_of (frame, next->time), frame->x0, frame->right) : frame->right;
      double top = base - (isfinite (sample->value) ? (sample->value - low) / (high - low) : 0) * (height - 6);

      if (next != NULL && x_next < frame->x0)
        continue;
      if (column_open && floor (x) == floor (column_left))
        column_top = MIN (column_top, top);
      else
        {
          if (column_open)
            {
              cairo_line_to (frame->cr, column_left, column_top);
              cairo_line_to (frame->cr, x, column_top);
            }
          column_open = TRUE;
          column_left = x;
          column_top = top;
        }
      if (x_next > floor (x) + 1)
        {
          /* It runs on past its pixel: the column ends there, and the pixels after show it alone. */
          cairo_line_to (frame->cr, column_left, column_top);
          cairo_line_to (frame->cr, floor (x) + 1, column_top);
          column_left = floor (x) + 1;
          column_top = top;
        }
      column_right = x_next;
      if (x_next >= frame->right)
        break;
    }
  if (column_open)
    {
      cairo_line_to (frame->cr, column_left, column_top);
      cairo_line_to (frame->cr, column_right, column_top);
    }
  cairo_line_to (frame->cr, frame->right, base);
  cairo_close_path (frame->cr);
  cairo_fill (frame->cr);
}

/* A step between ruler ticks: 1, 2 or 5 times a power of ten nanoseconds, at least
 * MIN_TICK_SPACING pixels apart. */
static gint64
tick_step (double px_per_ns)
{
  static const gint64 multiples[] = { 1, 2, 5 };
  gint64 power = 1;

  for (guint guard = 0; guard < 19; guard++, power *= 10)
    for (guint m = 0; m < G_N_ELEMENTS (multiples); m++)
      if ((double) (power * multiples[m]) * px_per_ns >= MIN_TICK_SPACING)
        return power * multiples[m];
  return power;
}

/* The first tick at or before @from (from the trace's start), a multiple of @step. */
static gint64
first_tick (gint64 from,
            gint64 step)
{
  return (from >= 0 ? from / step : from / step - 1) * step;
}

/* A tick's time from the trace's start, with the digits that tell it from the next one: zoomed
 * into a kernel, 250.00010 ms and 250.00012 ms, not "250 ms" twice. */
static char *
tick_label (gint64 tick,
            gint64 step)
{
  return suanli_format_duration_to (tick, step);
}

/**
 * suanli_timeline_painter_ruler_labels:
 * @width: the area's width, gutter included
 *
 * Returns: (transfer full): the ruler's labels in @view, left to right, as they are drawn.
 */
GStrv
suanli_timeline_painter_ruler_labels (SuanliTimelinePainter    *self,
                                      double                    width,
                                      const SuanliTimelineView *view)
{
  g_autoptr(GStrvBuilder) labels = g_strv_builder_new ();
  double px_per_ns = MAX (width - SUANLI_TIMELINE_GUTTER_WIDTH, 1) / (double) MAX (view->to - view->from, 1);
  gint64 step = tick_step (px_per_ns);

  for (gint64 tick = first_tick (view->from - self->origin, step); self->origin + tick <= view->to; tick += step)
    if (self->origin + tick >= view->from)
      {
        g_autofree char *label = tick_label (tick, step);

        g_strv_builder_add (labels, label);
      }
  return g_strv_builder_end (labels);
}

static void
draw_ruler (SuanliTimelinePainter    *self,
            Frame                    *frame,
            double                    width)
{
  cairo_t *cr = frame->cr;
  gint64 step = tick_step (frame->px_per_ns);
  gint64 first = frame->view->from - self->origin;
  SuanliColor color;

  suanli_chart_style_foreground (frame->style, 0.04, &color);
  suanli_color_set_source (cr, &color);
  cairo_rectangle (cr, 0, 0, width, SUANLI_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);
  suanli_chart_style_foreground (frame->style, 0.25, &color);
  suanli_color_set_source (cr, &color);
  cairo_rectangle (cr, 0, SUANLI_TIMELINE_RULER_HEIGHT - 1, width, 1);
  cairo_fill (cr);
  /* Ticks at multiples of the step from the trace's start. */
  for (gint64 tick = first_tick (first, step); self->origin + tick <= frame->view->to; tick += step)
    {
      double x = x_of (frame, self->origin + tick);
      g_autofree char *label = NULL;

      if (x < frame->x0)
        continue;
      suanli_color_set_source (cr, &color);
      cairo_rectangle (cr, floor (x), SUANLI_TIMELINE_RULER_HEIGHT - 7, 1, 6);
      cairo_fill (cr);
      label = tick_label (tick, step);
      suanli_chart_style_draw_text (frame->style, cr, label, x + 3, SUANLI_TIMELINE_RULER_HEIGHT / 2 - 2,
                                    SUANLI_TEXT_START, 0.7);
    }
}

static void
draw_track_row (SuanliTimelinePainter *self,
                Frame                 *frame,
                const Row             *row,
                double                 top)
{
  SuanliTrack *track = suanli_trace_get_track (self->trace, row->track);
  SuanliTrackIndex *index = suanli_trace_get_track_index (self->trace, row->track);
  gint64 bucket = (gint64) MAX (1.0, 1.0 / frame->px_per_ns);

  frame->track = row->track;
  if (track->kind == SUANLI_TRACK_COUNTER)
    {
      frame->y = top;
      draw_counter (frame, track, row->height);
      return;
    }
  for (guint depth = 0; depth < suanli_track_index_n_depths (index); depth++)
    {
      frame->y = top + depth * SUANLI_TIMELINE_LANE_HEIGHT;
      suanli_track_index_visit (index, depth, frame->view->from, frame->view->to, bucket, draw_slice, frame);
      flush_run (frame);
    }
  frame->y = top;
  draw_instants (frame, track);
}

static void
draw_gutter_label (Frame      *frame,
                   const char *text,
                   double      y,
                   double      height,
                   gboolean    bold)
{
  SuanliColor color;

  pango_layout_set_text (frame->layout, text, -1);
  pango_layout_set_width (frame->layout, (int) ((SUANLI_TIMELINE_GUTTER_WIDTH - 16) * PANGO_SCALE));
  suanli_chart_style_foreground (frame->style, bold ? 0.9 : 0.7, &color);
  suanli_color_set_source (frame->cr, &color);
  cairo_move_to (frame->cr, bold ? 6 : 14, y + (MIN (height, HEADER_HEIGHT) - 14) / 2);
  pango_cairo_show_layout (frame->cr, frame->layout);
}

/* Arrows along the selected slice's flows: from the start of the one that launched to the start
 * of what it launched. */
static void
draw_flows (SuanliTimelinePainter *self,
            Frame                 *frame)
{
  SuanliColor color;

  suanli_chart_style_foreground (frame->style, 0.85, &color);
  suanli_color_set_source (frame->cr, &color);
  cairo_set_line_width (frame->cr, 1.5);
  for (guint i = 0; i < self->linked->len; i++)
    {
      SuanliFlow *flow = &g_array_index (self->linked, SuanliFlow, i);
      const SuanliSlice *from = &g_array_index (suanli_trace_get_track (self->trace, flow->from_track)->slices, SuanliSlice,
                                                flow->from_slice);
      const SuanliSlice *to = &g_array_index (suanli_trace_get_track (self->trace, flow->to_track)->slices, SuanliSlice,
                                              flow->to_slice);
      double x0 = x_of (frame, from->start), x1 = x_of (frame, to->start), y0, y1, angle;

      if (!lane_top (self, flow->from_track, flow->from_slice, frame->view, &y0) ||
          !lane_top (self, flow->to_track, flow->to_slice, frame->view, &y1))
        continue;
      y0 += SUANLI_TIMELINE_LANE_HEIGHT / 2;
      y1 += y1 > y0 ? 0 : SUANLI_TIMELINE_LANE_HEIGHT;
      cairo_move_to (frame->cr, x0, y0);
      cairo_line_to (frame->cr, x1, y1);
      cairo_stroke (frame->cr);
      /* The head. */
      angle = atan2 (y1 - y0, x1 - x0);
      cairo_move_to (frame->cr, x1, y1);
      cairo_line_to (frame->cr, x1 - 8 * cos (angle - 0.4), y1 - 8 * sin (angle - 0.4));
      cairo_line_to (frame->cr, x1 - 8 * cos (angle + 0.4), y1 - 8 * sin (angle + 0.4));
      cairo_close_path (frame->cr);
      cairo_fill (frame->cr);
    }
}

static void
draw_row (SuanliTimelinePainter *self,
          Frame                 *frame,
          const Row             *row,
          double                 width,
          double                 height)
{
  cairo_t *cr = frame->cr;
  double top = row_top (self, row, frame->view);
  SuanliColor color;

  if (top + row->height < SUANLI_TIMELINE_RULER_HEIGHT || top > height)
    return;
  if (row->kind == ROW_HEADER)
    {
      g_autofree char *key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, row->group, row->pid);
      g_autofree char *text = g_strdup_printf ("%s %s", g_hash_table_contains (self->collapsed, key) ? "▸" : "▾",
                                               row->label);

      suanli_chart_style_foreground (frame->style, 0.06, &color);
      suanli_color_set_source (cr, &color);
      cairo_rectangle (cr, 0, top, width, row->height);
      cairo_fill (cr);
      draw_gutter_label (frame, text, top, row->height, TRUE);
      return;
    }
  cairo_save (cr);
  cairo_rectangle (cr, SUANLI_TIMELINE_GUTTER_WIDTH, top, width - SUANLI_TIMELINE_GUTTER_WIDTH, row->height);
  cairo_clip (cr);
  draw_track_row (self, frame, row, top + TRACK_GAP / 2);
  cairo_restore (cr);
  suanli_chart_style_foreground (frame->style, row->pinned ? 0.25 : 0.08, &color);
  suanli_color_set_source (cr, &color);
  cairo_rectangle (cr, 0, top + row->height - 1, width, 1);
  cairo_fill (cr);
  draw_gutter_label (frame, row->label, top, row->height, FALSE);
}

/**
 * suanli_timeline_painter_draw:
 * @width, @height: the area, in user units (pixels on screen)
 *
 * Draws the ruler, the rows in view and their labels.
 */
void
suanli_timeline_painter_draw (SuanliTimelinePainter    *self,
                              cairo_t                  *cr,
                              const SuanliChartStyle   *style,
                              double                    width,
                              double                    height,
                              const SuanliTimelineView *view)
{
  g_autoptr(PangoLayout) layout = suanli_chart_style_layout (style, cr, "", FALSE);
  Frame frame = { self, cr, style, layout, view, SUANLI_TIMELINE_GUTTER_WIDTH };
  double span = (double) MAX (view->to - view->from, 1);
  SuanliColor color;

  frame.right = width;
  frame.px_per_ns = MAX (width - SUANLI_TIMELINE_GUTTER_WIDTH, 1) / span;
  for (SuanliCategory c = 0; c < SUANLI_N_CATEGORIES; c++)
    {
      suanli_palette_category (c, style->dark, &frame.categories[c]);
      frame.faded[c] = frame.categories[c];
      frame.faded[c].alpha = 0.25;
    }
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);

  /* The rows that scroll, under the pinned strip; then the strip over them. */
  cairo_save (cr);
  cairo_rectangle (cr, 0, SUANLI_TIMELINE_RULER_HEIGHT + self->pinned_height, width,
                   height - SUANLI_TIMELINE_RULER_HEIGHT - self->pinned_height);
  cairo_clip (cr);
  for (guint i = 0; i < self->rows->len; i++)
    if (!g_array_index (self->rows, Row, i).pinned)
      draw_row (self, &frame, &g_array_index (self->rows, Row, i), width, height);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_rectangle (cr, 0, SUANLI_TIMELINE_RULER_HEIGHT, width, self->pinned_height);
  cairo_clip (cr);
  suanli_chart_style_foreground (style, 0.03, &color);
  suanli_color_set_source (cr, &color);
  cairo_paint (cr);
  for (guint i = 0; i < self->rows->len && g_array_index (self->rows, Row, i).pinned; i++)
    draw_row (self, &frame, &g_array_index (self->rows, Row, i), width, height);
  cairo_restore (cr);
  /* Arrows stay over the time axis: one from a launch scrolled off to the left would cross the
   * track labels. */
  cairo_save (cr);
  cairo_rectangle (cr, SUANLI_TIMELINE_GUTTER_WIDTH, SUANLI_TIMELINE_RULER_HEIGHT, MAX (width - SUANLI_TIMELINE_GUTTER_WIDTH, 0),
                   height - SUANLI_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  draw_flows (self, &frame);
  cairo_restore (cr);
  draw_ruler (self, &frame, width);
  if (self->range_to > self->range_from && self->range_to > view->from && self->range_from < view->to)
    {
      /* The selected range: a veil over it, and its edges. */
      double left = MAX (x_of (&frame, self->range_from), SUANLI_TIMELINE_GUTTER_WIDTH);
      double right = MIN (x_of (&frame, self->range_to), width);
      SuanliColor accent;

      suanli_palette_category (SUANLI_CATEGORY_CPU, style->dark, &accent);
      accent.alpha = 0.15;
      suanli_color_set_source (cr, &accent);
      cairo_rectangle (cr, left, 0, MAX (right - left, 1), height);
      cairo_fill (cr);
      accent.alpha = 0.9;
      suanli_color_set_source (cr, &accent);
      cairo_rectangle (cr, floor (left), 0, 1, height);
      cairo_rectangle (cr, floor (right), 0, 1, height);
      cairo_fill (cr);
    }
}

static const Row *
row_at (SuanliTimelinePainter    *self,
        double                    y,
        const SuanliTimelineView *view)
{
  gboolean in_strip = y < SUANLI_TIMELINE_RULER_HEIGHT + self->pinned_height;

  if (y < SUANLI_TIMELINE_RULER_HEIGHT)
    return NULL;
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double top = row_top (self, row, view);

      if (row->pinned == in_strip && y >= top && y < top + row->height)
        return row;
    }
  return NULL;
}

/* The slice under (@x, @y), within two pixels: its track and index. */
gboolean
suanli_timeline_painter_hit (SuanliTimelinePainter    *self,
                             double                    x,
                             double                    y,
                             double                    width,
                             const SuanliTimelineView *view,
                             guint                    *track,
                             guint32                  *slice)
{
  const Row *row = row_at (self, y, view);
  double ns_per_px = (double) MAX (view->to - view->from, 1) / MAX (width - SUANLI_TIMELINE_GUTTER_WIDTH, 1);
  double lane_y;
  gint64 time;

  if (row == NULL || row->kind != ROW_TRACK || x < SUANLI_TIMELINE_GUTTER_WIDTH)
    return FALSE;
  lane_y = y - row_top (self, row, view) - TRACK_GAP / 2;
  if (lane_y < 0)
    return FALSE;
  time = view->from + (gint64) ((x - SUANLI_TIMELINE_GUTTER_WIDTH) * ns_per_px);
  *track = row->track;
  return suanli_track_index_find (suanli_trace_get_track_index (self->trace, row->track), (guint) (lane_y / SUANLI_TIMELINE_LANE_HEIGHT),
                                  time, (gint64) (2 * ns_per_px), slice);
}

/* Where @track's row starts among the rows that scroll (FALSE when it is pinned or folded away). */
gboolean
suanli_timeline_painter_track_y (SuanliTimelinePainter *self,
                                 guint                  track,
                                 double                *y)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);

      if (row->kind == ROW_TRACK && row->track == track && !row->pinned)
        {
          *y = row->y;
          return TRUE;
        }
    }
  return FALSE;
}

/* The track whose row is at @y (its label, say), for pinning it. */
gboolean
suanli_timeline_painter_hit_track (SuanliTimelinePainter    *self,
                                   double                    y,
                                   const SuanliTimelineView *view,
                                   guint                    *track)
{
  const Row *row = row_at (self, y, view);

  if (row == NULL || row->kind != ROW_TRACK)
    return FALSE;
  *track = row->track;
  return TRUE;
}

/* The process whose header row is at @y, for folding it. */
gboolean
suanli_timeline_painter_hit_header (SuanliTimelinePainter    *self,
                                    double                    y,
                                    const SuanliTimelineView *view,
                                    guint                    *group,
                                    gint64                   *pid)
{
  const Row *row = row_at (self, y, view);

  if (row == NULL || row->kind != ROW_HEADER)
    return FALSE;
  *group = row->group;
  *pid = row->pid;
  return TRUE;
}
