/* suanli-whatif-view.h — "What If…": the trace's step replayed on other hardware and with other
 * choices, its figures and timeline beside the measured ones
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-catalog.h"
#include "suanli-trace.h"
#include "suanli-whatif.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_WHATIF_VIEW (suanli_whatif_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliWhatifView, suanli_whatif_view, SUANLI, WHATIF_VIEW, GtkWidget)

/* The view's signal:
 *
 *  "use-projection"  void (*) (SuanliWhatifView *view, const char *accelerator, guint gpus, double mfu,
 *                              gpointer user_data)
 *                    Plan with This: the plan should take the target and the projected MFU. */

GtkWidget    *suanli_whatif_view_new         (void);
void          suanli_whatif_view_set_trace   (SuanliWhatifView *self,
                                              SuanliTrace      *trace,
                                              SuanliCatalog    *catalog,
                                              const char       *measured_accelerator,
                                              guint             gpus);
gboolean      suanli_whatif_view_set_target  (SuanliWhatifView *self,
                                              const char       *accelerator);
gboolean      suanli_whatif_view_is_ready    (SuanliWhatifView *self);
SuanliWhatif *suanli_whatif_view_get_whatif  (SuanliWhatifView *self);

G_END_DECLS
