/* suanli-image-export.c — a painter's drawing written to an SVG or PNG file
 *
 * The same painters draw on screen and into the file: SVG (vector, text kept as text) when the
 * name ends in .svg, PNG otherwise, on a white page. The bytes are gathered in memory and the
 * file replaced in one go, so a failed export leaves the old file as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "suanli-image-export.h"

static cairo_status_t
append_to_bytes (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
suanli_image_export (GFile          *file,
                     double          width,
                     double          height,
                     SuanliDrawFunc  draw,
                     gpointer        user_data,
                     GError        **error)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  gboolean svg = name != NULL && g_str_has_suffix (name, ".svg");
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  surface = svg ? cairo_svg_surface_create_for_stream (append_to_bytes, bytes, width, height)
                : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw (cr, width, height, user_data);
  cairo_destroy (cr);
  if (svg)
    cairo_surface_finish (surface);
  else
    cairo_surface_write_to_png_stream (surface, append_to_bytes, bytes);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot draw the chart: %s"), cairo_status_to_string (status));
      return FALSE;
    }
  return g_file_replace_contents (file, (const char *) bytes->data, bytes->len, NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}
