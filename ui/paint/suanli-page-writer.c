/* suanli-page-writer.c — text, tables and drawings laid down page after page on a PDF surface
 *
 * Everything is drawn with pango and cairo as vectors and real text, so a PDF's text can be
 * selected and extracted. Headings become the PDF's outline (bookmarks); each page gets a footer
 * with its number.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "suanli-page-writer.h"

#define MARGIN        56.0   /* about 2 cm */
#define FOOTER_GAP    24.0
#define CELL_PADDING  3.0
#define KEEP_WITH_HEADING 72.0   /* a heading never ends a page: this much must fit after it */
#define MAX_CELL_LINES 4

struct _SuanliPageWriter
{
  cairo_surface_t *surface;
  cairo_t         *cr;
  double           page_width;
  double           page_height;
  double           y;             /* where the next thing goes */
  guint            page;          /* 1-based */
  gboolean         page_used;     /* something was drawn on this page */
  char            *footer;
  int              section;       /* the outline entry of the last level-1 heading */
  PangoLanguage   *language;      /* picks the glyphs of Han characters: Chinese, not Japanese */
};

static const char *
font_for (SuanliTextKind kind)
{
  switch (kind)
    {
    case SUANLI_TEXT_SMALL:
      return "Sans 8";
    case SUANLI_TEXT_MONOSPACE:
      return "Monospace 8";
    case SUANLI_TEXT_TITLE:
      return "Sans Bold 26";
    case SUANLI_TEXT_BODY:
    default:
      return "Sans 10";
    }
}

static PangoLayout *
new_layout (SuanliPageWriter *self,
            const char       *font,
            double            width)
{
  PangoLayout *layout = pango_cairo_create_layout (self->cr);
  PangoFontDescription *description = pango_font_description_from_string (font);

  if (self->language != NULL)
    {
      pango_context_set_language (pango_layout_get_context (layout), self->language);
      pango_layout_context_changed (layout);
      /* Full-width punctuation belongs to no script, and the fallback for "Sans" would take it
       * from the Japanese face: Chinese text asks for the Chinese one first. */
      if (pango_language_matches (self->language, "zh"))
        {
          g_autofree char *families = g_strconcat ("Noto Sans CJK SC,", pango_font_description_get_family (description),
                                                   NULL);

          pango_font_description_set_family (description, families);
        }
    }
  pango_layout_set_font_description (layout, description);
  pango_font_description_free (description);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  return layout;
}

static double
bottom (SuanliPageWriter *self)
{
  return self->page_height - MARGIN;
}

/**
 * suanli_page_writer_new:
 * @surface: a PDF surface of @page_width × @page_height points
 * @footer: what each page's footer says before its number
 *
 * Returns: (transfer full): a writer at the top of the first page.
 */
SuanliPageWriter *
suanli_page_writer_new (cairo_surface_t *surface,
                        double           page_width,
                        double           page_height,
                        const char      *footer)
{
  SuanliPageWriter *self = g_new0 (SuanliPageWriter, 1);

  self->surface = cairo_surface_reference (surface);
  self->cr = cairo_create (surface);
  self->page_width = page_width;
  self->page_height = page_height;
  self->y = MARGIN;
  self->page = 1;
  self->footer = g_strdup (footer);
  self->section = CAIRO_PDF_OUTLINE_ROOT;
  return self;
}

void
suanli_page_writer_free (SuanliPageWriter *self)
{
  cairo_destroy (self->cr);
  cairo_surface_destroy (self->surface);
  g_free (self->footer);
  g_free (self);
}

/* The language of the text to come, as an RFC 3066 tag ("zh-cn"), so that fonts are chosen for it. */
void
suanli_page_writer_set_language (SuanliPageWriter *self,
                                 const char       *language)
{
  self->language = pango_language_from_string (language);
}

/* The width between the margins. */
double
suanli_page_writer_get_width (SuanliPageWriter *self)
{
  return self->page_width - 2 * MARGIN;
}

static void
draw_footer (SuanliPageWriter *self)
{
  g_autoptr(PangoLayout) layout = new_layout (self, font_for (SUANLI_TEXT_SMALL), suanli_page_writer_get_width (self));
  g_autofree char *text = g_strdup_printf ("%s · %u", self->footer, self->page);

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  cairo_set_source_rgb (self->cr, 0.45, 0.45, 0.45);
  cairo_move_to (self->cr, MARGIN, self->page_height - MARGIN + FOOTER_GAP / 2);
  pango_cairo_show_layout (self->cr, layout);
}

void
suanli_page_writer_new_page (SuanliPageWriter *self)
{
  draw_footer (self);
  cairo_show_page (self->cr);
  self->page++;
  self->y = MARGIN;
  self->page_used = FALSE;
}

/* Starts a new page unless @height fits below what is there (or the page is empty). */
static void
make_room (SuanliPageWriter *self,
           double            height)
{
  if (self->page_used && self->y + height > bottom (self))
    suanli_page_writer_new_page (self);
  self->page_used = TRUE;
}

/* Starts a new page unless @height fits below what is there: to keep a heading with a tall
 * drawing that follows it. */
void
suanli_page_writer_keep_together (SuanliPageWriter *self,
                                  double            height)
{
  if (self->page_used && self->y + height > bottom (self))
    suanli_page_writer_new_page (self);
}

void
suanli_page_writer_space (SuanliPageWriter *self,
                          double            points)
{
  self->y = MIN (self->y + points, bottom (self));
}

/* Shows @layout's lines at the left margin from the current position on, carrying on onto new pages
 * between lines where it does not fit. */
static void
show_lines (SuanliPageWriter *self,
            PangoLayout      *layout,
            double            x)
{
  PangoLayoutIter *iter = pango_layout_get_iter (layout);
  double top = self->y;   /* where the layout's top falls on the current page */

  do
    {
      PangoRectangle logical;
      double line_top, line_height;

      pango_layout_iter_get_line_extents (iter, NULL, &logical);
      line_top = top + (double) logical.y / PANGO_SCALE;
      line_height = (double) logical.height / PANGO_SCALE;
      if (line_top + line_height > bottom (self) && line_top > MARGIN)
        {
          suanli_page_writer_new_page (self);
          self->page_used = TRUE;
          top = MARGIN - (double) logical.y / PANGO_SCALE;
          line_top = MARGIN;
        }
      cairo_move_to (self->cr, x + (double) logical.x / PANGO_SCALE,
                     top + (double) pango_layout_iter_get_baseline (iter) / PANGO_SCALE);
      pango_cairo_show_layout_line (self->cr, pango_layout_iter_get_line_readonly (iter));
      self->y = line_top + line_height;
    }
  while (pango_layout_iter_next_line (iter));
  pango_layout_iter_free (iter);
}

static void
write_layout (SuanliPageWriter *self,
              PangoLayout      *layout,
              gboolean          dim)
{
  int height;

  pango_layout_get_size (layout, NULL, &height);
  /* A short paragraph stays whole; a long one may break between its lines. */
  make_room (self, MIN ((double) height / PANGO_SCALE, 60));
  if (dim)
    cairo_set_source_rgb (self->cr, 0.35, 0.35, 0.35);
  else
    cairo_set_source_rgb (self->cr, 0, 0, 0);
  show_lines (self, layout, MARGIN);
  self->y += 4;
}

void
suanli_page_writer_text (SuanliPageWriter *self,
                         const char       *text,
                         SuanliTextKind    kind)
{
  g_autoptr(PangoLayout) layout = new_layout (self, font_for (kind), suanli_page_writer_get_width (self));

  pango_layout_set_text (layout, text, -1);
  write_layout (self, layout, kind == SUANLI_TEXT_SMALL);
}

/* As suanli_page_writer_text(), with Pango markup (escape what comes from files). */
void
suanli_page_writer_markup (SuanliPageWriter *self,
                           const char       *markup,
                           SuanliTextKind    kind)
{
  g_autoptr(PangoLayout) layout = new_layout (self, font_for (kind), suanli_page_writer_get_width (self));

  pango_layout_set_markup (layout, markup, -1);
  write_layout (self, layout, kind == SUANLI_TEXT_SMALL);
}

/**
 * suanli_page_writer_heading:
 * @level: 1 for a section, which starts the PDF outline's entry; 2 for a part of one
 *
 * A heading, kept on a page with what follows it, and an entry in the PDF's outline.
 */
void
suanli_page_writer_heading (SuanliPageWriter *self,
                            const char       *text,
                            int               level)
{
  g_autoptr(PangoLayout) layout = new_layout (self, level <= 1 ? "Sans Bold 15" : "Sans Bold 11.5",
                                              suanli_page_writer_get_width (self));
  g_autofree char *destination = NULL;
  int height, entry;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_size (layout, NULL, &height);
  if (self->page_used)
    self->y += level <= 1 ? 14 : 8;
  make_room (self, (double) height / PANGO_SCALE + KEEP_WITH_HEADING);
  destination = g_strdup_printf ("page=%u pos=[%g %g]", self->page, MARGIN, self->y);
  entry = cairo_pdf_surface_add_outline (self->surface, level <= 1 ? CAIRO_PDF_OUTLINE_ROOT : self->section, text,
                                         destination, 0);
  if (level <= 1)
    self->section = entry;
  cairo_set_source_rgb (self->cr, level <= 1 ? 0.1 : 0, level <= 1 ? 0.25 : 0, level <= 1 ? 0.5 : 0);
  cairo_move_to (self->cr, MARGIN, self->y);
  pango_cairo_show_layout (self->cr, layout);
  self->y += (double) height / PANGO_SCALE + 6;
}

/* The height of a row of cells, each wrapped to its column. */
static double
row_height (GPtrArray *cells)
{
  double height = 0;

  for (guint c = 0; c < cells->len; c++)
    {
      int cell_height;

      pango_layout_get_size (g_ptr_array_index (cells, c), NULL, &cell_height);
      height = MAX (height, (double) cell_height / PANGO_SCALE);
    }
  return height + 2 * CELL_PADDING;
}

static GPtrArray *
row_layouts (SuanliPageWriter   *self,
             const char * const *texts,
             const double       *widths,
             guint               n_columns,
             gboolean            header)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_object_unref);
  double width = suanli_page_writer_get_width (self);

  for (guint c = 0; c < n_columns; c++)
    {
      PangoLayout *layout = new_layout (self, header ? "Sans Bold 8" : "Sans 8", widths[c] * width - 2 * CELL_PADDING);

      pango_layout_set_text (layout, texts[c] != NULL ? texts[c] : "", -1);
      /* A C++ kernel's name can run to forty lines: cells stop at a few, with an ellipsis. */
      pango_layout_set_height (layout, -MAX_CELL_LINES);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      g_ptr_array_add (cells, layout);
    }
  return cells;
}

static void
draw_row (SuanliPageWriter *self,
          GPtrArray        *cells,
          const double     *widths,
          double            height,
          gboolean          header)
{
  double x = MARGIN, width = suanli_page_writer_get_width (self);

  if (header)
    {
      cairo_set_source_rgb (self->cr, 0.92, 0.93, 0.95);
      cairo_rectangle (self->cr, MARGIN, self->y, width, height);
      cairo_fill (self->cr);
    }
  cairo_set_source_rgb (self->cr, 0, 0, 0);
  for (guint c = 0; c < cells->len; c++)
    {
      cairo_move_to (self->cr, x + CELL_PADDING, self->y + CELL_PADDING);
      pango_cairo_show_layout (self->cr, g_ptr_array_index (cells, c));
      x += widths[c] * width;
    }
  cairo_set_source_rgb (self->cr, 0.8, 0.8, 0.8);
  cairo_set_line_width (self->cr, 0.5);
  cairo_move_to (self->cr, MARGIN, self->y + height);
  cairo_line_to (self->cr, MARGIN + width, self->y + height);
  cairo_stroke (self->cr);
  self->y += height;
}

/**
 * suanli_page_writer_table:
 * @headers: a heading per column
 * @widths: each column's share of the width (they add up to 1)
 * @rows: (element-type GStrv): the rows, @n_columns strings each
 *
 * A table whose cells wrap; a row never splits, and the heading row is drawn again at the top of
 * each page the table runs onto.
 */
void
suanli_page_writer_table (SuanliPageWriter   *self,
                          const char * const *headers,
                          const double       *widths,
                          guint               n_columns,
                          GPtrArray          *rows)
{
  g_autoptr(GPtrArray) header_cells = row_layouts (self, headers, widths, n_columns, TRUE);
  double header_height = row_height (header_cells);

  make_room (self, header_height + 40);
  draw_row (self, header_cells, widths, header_height, TRUE);
  for (guint r = 0; r < rows->len; r++)
    {
      g_autoptr(GPtrArray) cells = row_layouts (self, g_ptr_array_index (rows, r), widths, n_columns, FALSE);
      double height = row_height (cells);

      if (self->y + height > bottom (self))
        {
          suanli_page_writer_new_page (self);
          self->page_used = TRUE;
          draw_row (self, header_cells, widths, header_height, TRUE);
        }
      draw_row (self, cells, widths, height, FALSE);
    }
  self->y += 8;
}

/* Room for a drawing @height points tall, the width between the margins, drawn by @draw. */
void
suanli_page_writer_drawing (SuanliPageWriter *self,
                            double            height,
                            SuanliPageDraw    draw,
                            gpointer          user_data)
{
  double width = suanli_page_writer_get_width (self);

  make_room (self, height);
  cairo_save (self->cr);
  cairo_translate (self->cr, MARGIN, self->y);
  cairo_rectangle (self->cr, 0, 0, width, height);
  cairo_clip (self->cr);
  draw (self->cr, width, height, user_data);
  cairo_restore (self->cr);
  self->y += height + 8;
}

/* Ends the last page. Returns: how many pages there are. */
guint
suanli_page_writer_finish (SuanliPageWriter *self)
{
  draw_footer (self);
  cairo_show_page (self->cr);
  return self->page;
}

/* How many characters of @text no font has a glyph for: CJK text without a CJK font, say. */
int
suanli_page_writer_count_missing_glyphs (SuanliPageWriter *self,
                                         const char       *text)
{
  g_autoptr(PangoLayout) layout = new_layout (self, font_for (SUANLI_TEXT_BODY), suanli_page_writer_get_width (self));

  pango_layout_set_text (layout, text, -1);
  return pango_layout_get_unknown_glyphs_count (layout);
}
