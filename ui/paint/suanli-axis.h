/* suanli-axis.h — mapping values to pixels along a chart axis, linear or logarithmic, with ticks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double   min;          /* the data range shown, after padding to nice bounds */
  double   max;
  gboolean logarithmic;
  double   pixel_start;  /* where min is drawn */
  double   pixel_end;    /* where max is drawn */
} SuanliAxis;

void     suanli_axis_fit        (SuanliAxis    *axis,
                                 const double  *values,
                                 guint          n_values,
                                 gboolean       logarithmic,
                                 gboolean       include_zero);
double   suanli_axis_to_pixel   (const SuanliAxis *axis,
                                 double            value);
guint    suanli_axis_ticks      (const SuanliAxis *axis,
                                 double           *ticks,
                                 guint             max_ticks);
char    *suanli_axis_format_tick (double           value);

G_END_DECLS
