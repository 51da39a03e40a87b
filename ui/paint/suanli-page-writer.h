/* suanli-page-writer.h — text, tables and drawings laid down page after page on a PDF surface
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _SuanliPageWriter SuanliPageWriter;

/* Draws into the box (0, 0)–(@width, @height), translated to where the writer put it. */
typedef void (*SuanliPageDraw) (cairo_t  *cr,
                                double    width,
                                double    height,
                                gpointer  user_data);

typedef enum {
  SUANLI_TEXT_BODY,
  SUANLI_TEXT_SMALL,      /* notes, sources */
  SUANLI_TEXT_MONOSPACE,  /* formulas */
  SUANLI_TEXT_TITLE,      /* the cover's */
} SuanliTextKind;

SuanliPageWriter *suanli_page_writer_new        (cairo_surface_t  *surface,
                                                 double            page_width,
                                                 double            page_height,
                                                 const char       *footer);
void              suanli_page_writer_free       (SuanliPageWriter *self);
void              suanli_page_writer_set_language (SuanliPageWriter *self,
                                                   const char       *language);
double            suanli_page_writer_get_width  (SuanliPageWriter *self);
void              suanli_page_writer_new_page   (SuanliPageWriter *self);
void              suanli_page_writer_keep_together (SuanliPageWriter *self,
                                                    double            height);
void              suanli_page_writer_space      (SuanliPageWriter *self,
                                                 double            points);
void              suanli_page_writer_heading    (SuanliPageWriter *self,
                                                 const char       *text,
                                                 int               level);
void              suanli_page_writer_text       (SuanliPageWriter *self,
                                                 const char       *text,
                                                 SuanliTextKind    kind);
void              suanli_page_writer_markup     (SuanliPageWriter *self,
                                                 const char       *markup,
                                                 SuanliTextKind    kind);
void              suanli_page_writer_table      (SuanliPageWriter  *self,
                                                 const char * const *headers,
                                                 const double      *widths,
                                                 guint              n_columns,
                                                 GPtrArray         *rows);
void              suanli_page_writer_drawing    (SuanliPageWriter *self,
                                                 double            height,
                                                 SuanliPageDraw    draw,
                                                 gpointer          user_data);
guint             suanli_page_writer_finish     (SuanliPageWriter *self);
int               suanli_page_writer_count_missing_glyphs (SuanliPageWriter *self,
                                                           const char       *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliPageWriter, suanli_page_writer_free)

G_END_DECLS
