/* suanli-workspace.c — the one shared object model of a window
 *
 * The application makes one workspace a window and hands it to the window, which hands it to its
 * pages; pages never talk to each other, only to the workspace, by its getters and its signals:
 *
 *  catalog    the SuanliCatalog, construct-only: one loaded catalog is shared by every workspace
 *             of the application (it may still be loading: watch its "items-changed").
 *  plan       the SuanliPlan being edited, never NULL (a new workspace starts with an empty plan).
 *             It emits "changed" on every edit; "plan-replaced" says another plan took its place.
 *  plan file  the file the plan was opened from or saved to, which Save writes, or NULL;
 *             "plan-file-changed" says another. Whichever page opens a plan sets it, so that
 *             Save never writes one plan over the file of another.
 *  trace      the SuanliTrace being viewed, or NULL. A live capture appends to it and it emits
 *             "grown"; "trace-replaced" says another trace (or none) took its place.
 *  selection  a SuanliSelection, never NULL: catalog items picked for compare and plan, the selected
 *             time range and the selected event.
 *
 * The same four are GObject properties too, for g_object_bind_property and the tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-workspace.h"

struct _SuanliWorkspace
{
  GObject          parent_instance;

  SuanliCatalog   *catalog;
  SuanliPlan      *plan;
  GFile           *plan_file;
  SuanliTrace     *trace;
  SuanliSelection *selection;
};

G_DEFINE_FINAL_TYPE (SuanliWorkspace, suanli_workspace, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CATALOG,
  PROP_PLAN,
  PROP_TRACE,
  PROP_SELECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PLAN_REPLACED,
  PLAN_FILE_CHANGED,
  TRACE_REPLACED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
suanli_workspace_dispose (GObject *object)
{
  SuanliWorkspace *self = SUANLI_WORKSPACE (object);

  g_clear_object (&self->catalog);
  g_clear_object (&self->plan);
  g_clear_object (&self->plan_file);
  g_clear_object (&self->trace);
  g_clear_object (&self->selection);

  G_OBJECT_CLASS (suanli_workspace_parent_class)->dispose (object);
}

static void
suanli_workspace_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SuanliWorkspace *self = SUANLI_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_CATALOG:
      g_value_set_object (value, self->catalog);
      break;
    case PROP_PLAN:
      g_value_set_object (value, self->plan);
      break;
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case PROP_SELECTION:
      g_value_set_object (value, self->selection);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_workspace_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SuanliWorkspace *self = SUANLI_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_CATALOG:
      self->catalog = g_value_dup_object (value);
      break;
    case PROP_PLAN:
      {
        /* NULL stands for a new, empty plan: the workspace always has one. */
        g_autoptr(SuanliPlan) empty = g_value_get_object (value) == NULL ? suanli_plan_new () : NULL;

        suanli_workspace_set_plan (self, empty != NULL ? empty : g_value_get_object (value));
      }
      break;
    case PROP_TRACE:
      suanli_workspace_set_trace (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_workspace_constructed (GObject *object)
{
  SuanliWorkspace *self = SUANLI_WORKSPACE (object);

  G_OBJECT_CLASS (suanli_workspace_parent_class)->constructed (object);

  /* A workspace without a catalog still works: every page then shows its empty state. */
  if (self->catalog == NULL)
    self->catalog = suanli_catalog_new ();
}

static void
suanli_workspace_class_init (SuanliWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = suanli_workspace_constructed;
  object_class->dispose = suanli_workspace_dispose;
  object_class->get_property = suanli_workspace_get_property;
  object_class->set_property = suanli_workspace_set_property;

  properties[PROP_CATALOG] =
    g_param_spec_object ("catalog", NULL, NULL, SUANLI_TYPE_CATALOG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAN] =
    g_param_spec_object ("plan", NULL, NULL, SUANLI_TYPE_PLAN,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, SUANLI_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION] =
    g_param_spec_object ("selection", NULL, NULL, SUANLI_TYPE_SELECTION,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[PLAN_REPLACED] =
    g_signal_new ("plan-replaced", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, SUANLI_TYPE_PLAN);
  signals[PLAN_FILE_CHANGED] =
    g_signal_new ("plan-file-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_FILE);
  signals[TRACE_REPLACED] =
    g_signal_new ("trace-replaced", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, SUANLI_TYPE_TRACE);
}

static void
suanli_workspace_init (SuanliWorkspace *self)
{
  self->selection = suanli_selection_new ();
  self->plan = suanli_plan_new ();
}

/* @catalog: (nullable): the application's catalog; NULL gives an empty one. */
SuanliWorkspace *
suanli_workspace_new (SuanliCatalog *catalog)
{
  g_return_val_if_fail (catalog == NULL || SUANLI_IS_CATALOG (catalog), NULL);

  return g_object_new (SUANLI_TYPE_WORKSPACE, "catalog", catalog, NULL);
}

/* Returns: (transfer none): the catalog; never NULL. */
SuanliCatalog *
suanli_workspace_get_catalog (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->catalog;
}

/* Returns: (transfer none): the plan; never NULL. */
SuanliPlan *
suanli_workspace_get_plan (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->plan;
}

void
suanli_workspace_set_plan (SuanliWorkspace *self,
                           SuanliPlan      *plan)
{
  g_return_if_fail (SUANLI_IS_WORKSPACE (self));
  g_return_if_fail (SUANLI_IS_PLAN (plan));

  if (!g_set_object (&self->plan, plan))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAN]);
  g_signal_emit (self, signals[PLAN_REPLACED], 0, plan);
}

/* Returns: (transfer none) (nullable): the file Save writes the plan to, or NULL. */
GFile *
suanli_workspace_get_plan_file (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->plan_file;
}

/* Called once the plan holds what @file holds (opened or saved); NULL: the plan is no file's. */
void
suanli_workspace_set_plan_file (SuanliWorkspace *self,
                                GFile           *file)
{
  g_return_if_fail (SUANLI_IS_WORKSPACE (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  if (self->plan_file == file || (self->plan_file != NULL && file != NULL && g_file_equal (self->plan_file, file)))
    return;
  g_set_object (&self->plan_file, file);
  g_signal_emit (self, signals[PLAN_FILE_CHANGED], 0, file);
}

/* Returns: (transfer none) (nullable): the trace being viewed. */
SuanliTrace *
suanli_workspace_get_trace (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->trace;
}

void
suanli_workspace_set_trace (SuanliWorkspace *self,
                            SuanliTrace     *trace)
{
  g_return_if_fail (SUANLI_IS_WORKSPACE (self));
  g_return_if_fail (trace == NULL || SUANLI_IS_TRACE (trace));

  if (!g_set_object (&self->trace, trace))
    return;

  /* A new trace has other events and another clock: what was selected in the old one is gone. */
  suanli_selection_clear_range (self->selection);
  suanli_selection_set_event (self->selection, -1, SUANLI_SELECTION_NONE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
  g_signal_emit (self, signals[TRACE_REPLACED], 0, trace);
}

/* Returns: (transfer none): the selection; it lives as long as the workspace. */
SuanliSelection *
suanli_workspace_get_selection (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->selection;
}
