/* suanli-flame-painter.c — a flame graph of a SuanliFlame, laid out left-heavy or in time order
 * and drawn with cairo
 *
 * The layout is done once per order: every node gets its offset inside its parent, children
 * ordered by total time, heaviest first (speedscope's "left heavy"), so identical stacks line up
 * whatever their order in time; or by when each first ran, earliest first (the time-order view:
 * merged frames keep their widths, so it reads as the program's course, not a timeline). A focused node fills the width and its ancestors are drawn full width as
 * the path to it; nodes narrower than a pixel are not drawn (their parent's box covers them).
 * Root at the bottom (flame) or at the top (icicle). A search marks matching frames and gives
 * the share of the focused total they account for, counting nested matches once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "suanli-analysis.h"
#include "suanli-flame-painter.h"

#define MIN_LABEL_WIDTH 30.0

typedef struct
{
  gint64 offset;      /* where the node starts inside the root, in the flame's unit */
  gint64 heaviest;    /* the total of its heaviest child: below half a pixel, none is drawn */
  guint  depth;       /* 0 for the root */
} Place;

struct _SuanliFlamePainter
{
  SuanliFlame *flame;
  gboolean     gpu;
  GArray      *places;      /* of Place, by node */
  GArray      *order;       /* of guint32: nodes, parents before children */
  guint        max_depth;
  guint        focus;
  gboolean     icicle;
  gboolean     by_category; /* one colour per kind of work, rather than a shade per name */
  gboolean     time_order;  /* children by when they first ran, not heaviest first */
  GHashTable  *matches;     /* node → TRUE, for the search */
};

static int
compare_by_total (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  SuanliFlame *flame = data;
  gint64 x = suanli_flame_get_node (flame, *(const guint32 *) a)->total;
  gint64 y = suanli_flame_get_node (flame, *(const guint32 *) b)->total;

  return (x < y) - (x > y);
}

static int
compare_by_first (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  SuanliFlame *flame = data;
  const SuanliFlameNode *x = suanli_flame_get_node (flame, *(const guint32 *) a);
  const SuanliFlameNode *y = suanli_flame_get_node (flame, *(const guint32 *) b);

  if (x->first != y->first)
    return (x->first > y->first) - (x->first < y->first);
  return (x->total < y->total) - (x->total > y->total);
}

/* Offsets and depths, parents first: each node's children side by side, heaviest (or earliest)
 * first. */
static void
lay_out (SuanliFlamePainter *self)
{
  guint n = suanli_flame_get_n_nodes (self->flame);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root = 0;

  g_array_set_size (self->places, n);
  g_array_set_size (self->order, 0);
  g_array_append_val (self->order, root);
  g_array_index (self->places, Place, 0).offset = 0;
  g_array_index (self->places, Place, 0).depth = 0;
  for (guint k = 0; k < self->order->len; k++)
    {
      guint32 parent = g_array_index (self->order, guint32, k);
      Place *parent_place = &g_array_index (self->places, Place, parent);
      gint64 offset = parent_place->offset;

      g_array_set_size (children, 0);
      for (guint32 c = suanli_flame_get_node (self->flame, parent)->first_child; c != 0;
           c = suanli_flame_get_node (self->flame, c)->next_sibling)
        g_array_append_val (children, c);
      g_array_sort_with_data (children, compare_by_total, self->flame);
      parent_place->heaviest = children->len > 0 ? suanli_flame_get_node (self->flame, g_array_index (children, guint32, 0))->total
                                                 : 0;
      if (self->time_order)
        g_array_sort_with_data (children, compare_by_first, self->flame);
      for (guint i = 0; i < children->len; i++)
        {
          guint32 c = g_array_index (children, guint32, i);
          Place *place = &g_array_index (self->places, Place, c);

          place->offset = offset;
          place->depth = parent_place->depth + 1;
          offset += suanli_flame_get_node (self->flame, c)->total;
          self->max_depth = MAX (self->max_depth, place->depth);
          g_array_append_val (self->order, c);
        }
    }
}

/* Returns: (transfer full): a painter of @flame; @gpu colours leaves as GPU work. The layout is
 * the slow part (about 0.1 s for a million nodes) and only reads the flame: make it on a worker
 * thread where it matters. */
SuanliFlamePainter *
suanli_flame_painter_new (SuanliFlame *flame,
                          gboolean     gpu)
{
  SuanliFlamePainter *self = g_new0 (SuanliFlamePainter, 1);

  self->flame = g_object_ref (flame);
  self->gpu = gpu;
  self->places = g_array_new (FALSE, TRUE, sizeof (Place));
  self->order = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->matches = g_hash_table_new (NULL, NULL);
  lay_out (self);
  return self;
}

void
suanli_flame_painter_free (SuanliFlamePainter *self)
{
  g_object_unref (self->flame);
  g_array_unref (self->places);
  g_array_unref (self->order);
  g_hash_table_unref (self->matches);
  g_free (self);
}

SuanliFlame *
suanli_flame_painter_get_flame (SuanliFlamePainter *self)
{
  return self->flame;
}

gboolean
suanli_flame_painter_is_gpu (SuanliFlamePainter *self)
{
  return self->gpu;
}

/* Lays the frames out in time order (@time_order) or left-heavy, the default. */
void
suanli_flame_painter_set_time_order (SuanliFlamePainter *self,
                                     gboolean            time_order)
{
  if (self->time_order == time_order)
    return;
  self->time_order = time_order;
  lay_out (self);
}

gboolean
suanli_flame_painter_get_time_order (SuanliFlamePainter *self)
{
  return self->time_order;
}

void
suanli_flame_painter_set_focus (SuanliFlamePainter *self,
                                guint               node)
{
  self->focus = node < suanli_flame_get_n_nodes (self->flame) ? node : 0;
}

guint
suanli_flame_painter_get_focus (SuanliFlamePainter *self)
{
  return self->focus;
}

void
suanli_flame_painter_set_icicle (SuanliFlamePainter *self,
                                 gboolean            icicle)
{
  self->icicle = icicle;
}

/* Colours frames by their kind of work only (CPU, kernel, copy, communication), not by name. */
void
suanli_flame_painter_set_by_category (SuanliFlamePainter *self,
                                      gboolean            by_category)
{
  self->by_category = by_category;
}

/* The deepest level, for the widget's height. */
guint
suanli_flame_painter_get_depth (SuanliFlamePainter *self)
{
  return self->max_depth;
}

static gboolean
is_inside (SuanliFlamePainter *self,
           guint32             node,
           guint32             ancestor)
{
  for (guint32 at = node; ; at = suanli_flame_get_node (self->flame, at)->parent)
    {
      if (at == ancestor)
        return TRUE;
      if (at == 0)
        return FALSE;
    }
}

/**
 * suanli_flame_painter_set_search:
 * @text: (nullable): what frame names must contain (case-insensitively); NULL or "" for none
 *
 * Returns: the share (0–1) of the focused node's total spent in matching frames, nested matches
 * counted once.
 */
double
suanli_flame_painter_set_search (SuanliFlamePainter *self,
                                 const char         *text)
{
  g_autofree char *needle = text != NULL && *text != '\0' ? g_utf8_casefold (text, -1) : NULL;
  gint64 matched = 0, total = suanli_flame_get_node (self->flame, self->focus)->total;

  g_hash_table_remove_all (self->matches);
  if (needle == NULL)
    return 0;
  for (guint k = 1; k < self->order->len; k++)
    {
      guint32 node = g_array_index (self->order, guint32, k);
      g_autofree char *name = g_utf8_casefold (suanli_flame_get_name (self->flame, node), -1);

      if (strstr (name, needle) == NULL)
        continue;
      g_hash_table_add (self->matches, GUINT_TO_POINTER (node));
      /* Counted inside the focus, once: not when an ancestor matched already (parents come
       * first in the order, so theirs are in the set). */
      if (is_inside (self, node, self->focus))
        {
          gboolean nested = FALSE;

          for (guint32 at = suanli_flame_get_node (self->flame, node)->parent; at != 0 && !nested;
               at = suanli_flame_get_node (self->flame, at)->parent)
            nested = g_hash_table_contains (self->matches, GUINT_TO_POINTER (at));
          if (!nested)
            matched += suanli_flame_get_node (self->flame, node)->total;
        }
    }
  return total > 0 ? (double) matched / (double) total : 0;
}

static SuanliCategory
category_of (SuanliFlamePainter *self,
             guint32             node,
             const char         *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  if (suanli_analysis_is_communication (name))
    return SUANLI_CATEGORY_COMMUNICATION;
  if (g_str_has_prefix (lower, "memcpy") || g_str_has_prefix (lower, "memset"))
    return SUANLI_CATEGORY_MEMORY;
  if (self->gpu && suanli_flame_get_node (self->flame, node)->first_child == 0)
    return SUANLI_CATEGORY_KERNEL;
  return SUANLI_CATEGORY_CPU;
}

/* A differential flame's frame: red where it takes longer than in the baseline, blue where it
 * takes less, pale where about the same; the stronger, the larger the change relative to the
 * frame (as in Brendan Gregg's differential flame graphs). */
static void
differential_color (const SuanliFlameNode *node,
                    gboolean               dark,
                    SuanliColor           *color)
{
  double larger = (double) MAX (MAX (node->total, node->baseline_total), 1);
  double change = CLAMP ((double) (node->total - node->baseline_total) / larger, -1, 1);
  double strength = 0.25 + 0.75 * fabs (change);
  double neutral = dark ? 0.35 : 0.92;

  /* From neutral grey towards Red 3 (#e01b24) or Blue 3 (#3584e4). */
  color->red = neutral + ((change > 0 ? 0xe0 : 0x35) / 255.0 - neutral) * strength;
  color->green = neutral + ((change > 0 ? 0x1b : 0x84) / 255.0 - neutral) * strength;
  color->blue = neutral + ((change > 0 ? 0x24 : 0xe4) / 255.0 - neutral) * strength;
  color->alpha = 1;
}

/* The y of a row at @depth counted from the focus's row. */
static double
row_y (SuanliFlamePainter *self,
       guint               row,
       double              height)
{
  return self->icicle ? row * SUANLI_FLAME_ROW_HEIGHT : height - (row + 1) * SUANLI_FLAME_ROW_HEIGHT;
}

/* The row a node is drawn in: its depth counted from the root, so the focus's ancestors keep
 * their rows. */
static void
draw_box (SuanliFlamePainter     *self,
          cairo_t                *cr,
          const SuanliChartStyle *style,
          PangoLayout            *layout,
          guint32                 node,
          double                  x,
          double                  box_width,
          double                  y,
          gboolean                dim)
{
  const char *name = node == 0 ? "all" : suanli_flame_get_name (self->flame, node);
  SuanliColor color, text;
  gboolean searching = g_hash_table_size (self->matches) > 0;

  if (suanli_flame_is_differential (self->flame))
    differential_color (suanli_flame_get_node (self->flame, node), style->dark, &color);
  else if (self->by_category)
    suanli_palette_category (category_of (self, node, name), style->dark, &color);
  else
    suanli_palette_named (category_of (self, node, name), name, style->dark, &color);
  if (dim || (searching && !g_hash_table_contains (self->matches, GUINT_TO_POINTER (node))))
    color.alpha = 0.35;
  suanli_color_set_source (cr, &color);
  cairo_rectangle (cr, x, y, MAX (box_width - 1, 1), SUANLI_FLAME_ROW_HEIGHT - 1);
  cairo_fill (cr);
  if (box_width < MIN_LABEL_WIDTH)
    return;
  suanli_palette_text_on (&color, &text);
  if (color.alpha < 1)
    suanli_chart_style_foreground (style, 0.7, &text);
  suanli_color_set_source (cr, &text);
  pango_layout_set_text (layout, name, -1);
  pango_layout_set_width (layout, (int) ((box_width - 6) * PANGO_SCALE));
  cairo_move_to (cr, x + 3, y + 1);
  pango_cairo_show_layout (cr, layout);
}

void
suanli_flame_painter_draw (SuanliFlamePainter     *self,
                           cairo_t                *cr,
                           const SuanliChartStyle *style,
                           double                  width,
                           double                  height)
{
  g_autoptr(PangoLayout) layout = suanli_chart_style_layout (style, cr, "", FALSE);
  const SuanliFlameNode *focus = suanli_flame_get_node (self->flame, self->focus);
  Place *focus_place = &g_array_index (self->places, Place, self->focus);
  double scale = width / (double) MAX (focus->total, 1);

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  /* The path to the focus: full width, dimmed. */
  for (guint32 at = self->focus; ; at = suanli_flame_get_node (self->flame, at)->parent)
    {
      draw_box (self, cr, style, layout, at, 0, width, row_y (self, g_array_index (self->places, Place, at).depth, height),
                at != self->focus);
      if (at == 0)
        break;
    }
  /* Down from the focus, depth first; a frame narrower than half a pixel is skipped with all
   * that is under it (narrower still), so a frame costs what it shows, not the whole tree. */
  {
    g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

    if ((double) focus_place->heaviest * scale >= 0.5)
      for (guint32 c = focus->first_child; c != 0; c = suanli_flame_get_node (self->flame, c)->next_sibling)
        g_array_append_val (stack, c);
    while (stack->len > 0)
      {
        guint32 node = g_array_index (stack, guint32, stack->len - 1);
        const SuanliFlameNode *data = suanli_flame_get_node (self->flame, node);
        Place *place = &g_array_index (self->places, Place, node);
        double box_width = (double) data->total * scale;

        g_array_set_size (stack, stack->len - 1);
        if (box_width < 0.5)
          continue;
        draw_box (self, cr, style, layout, node, (double) (place->offset - focus_place->offset) * scale, box_width,
                  row_y (self, place->depth, height), FALSE);
        if ((double) place->heaviest * scale < 0.5)
          continue;
        for (guint32 c = data->first_child; c != 0; c = suanli_flame_get_node (self->flame, c)->next_sibling)
          g_array_append_val (stack, c);
      }
  }
}

/* The node drawn at (@x, @y). */
gboolean
suanli_flame_painter_hit (SuanliFlamePainter *self,
                          double              x,
                          double              y,
                          double              width,
                          double              height,
                          guint              *node)
{
  const SuanliFlameNode *focus = suanli_flame_get_node (self->flame, self->focus);
  Place *focus_place = &g_array_index (self->places, Place, self->focus);
  double scale = width / (double) MAX (focus->total, 1);
  double row = self->icicle ? floor (y / SUANLI_FLAME_ROW_HEIGHT) : floor ((height - y) / SUANLI_FLAME_ROW_HEIGHT);
  gint64 at;

  if (row < 0)
    return FALSE;
  if (row <= focus_place->depth)
    {
      /* On the path to the focus. */
      for (guint32 n = self->focus; ; n = suanli_flame_get_node (self->flame, n)->parent)
        {
          if (g_array_index (self->places, Place, n).depth == (guint) row)
            {
              *node = n;
              return TRUE;
            }
          if (n == 0)
            return FALSE;
        }
    }
  at = focus_place->offset + (gint64) (x / scale);
  for (guint k = 1; k < self->order->len; k++)
    {
      guint32 n = g_array_index (self->order, guint32, k);
      Place *place = &g_array_index (self->places, Place, n);

      if (place->depth == (guint) row && at >= place->offset && at < place->offset + suanli_flame_get_node (self->flame, n)->total &&
          is_inside (self, n, self->focus))
        {
          *node = n;
          return TRUE;
        }
    }
  return FALSE;
}
