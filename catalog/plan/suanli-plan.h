/* suanli-plan.h — a configuration: job, system and assumptions, as a `suanli-plan/1` document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_PLAN (suanli_plan_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPlan, suanli_plan, SUANLI, PLAN, GObject)

#define SUANLI_PLAN_SCHEMA "suanli-plan/1"

/* Plan files larger than this are refused: a plan is a few kilobytes. */
#define SUANLI_PLAN_MAX_FILE_SIZE (1024 * 1024)

SuanliPlan *suanli_plan_new               (void);
SuanliPlan *suanli_plan_new_from_data     (const char   *data,
                                           gssize        length,
                                           const char   *file_name,
                                           GError      **error);
SuanliPlan *suanli_plan_new_from_file     (GFile        *file,
                                           GError      **error);
JsonObject *suanli_plan_get_root          (SuanliPlan   *self);
char       *suanli_plan_to_data           (SuanliPlan   *self);
gboolean    suanli_plan_save              (SuanliPlan   *self,
                                           GFile        *file,
                                           GError      **error);
void        suanli_plan_apply_merge_patch (SuanliPlan   *self,
                                           JsonNode     *patch);
gboolean    suanli_plan_apply_merge_patch_data (SuanliPlan *self,
                                           const char   *patch,
                                           GError      **error);
const char *suanli_plan_get_name          (SuanliPlan   *self);
void        suanli_plan_replace           (SuanliPlan   *self,
                                           SuanliPlan   *source);

G_END_DECLS
