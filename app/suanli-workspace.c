/* suanli-workspace.c — the one shared object model of a window
 *
 * A window has one workspace; its pages take it as their "workspace" construct property and know
 * it only through these properties (g_object_bind_property, GBindingGroup, <lookup> in .ui
 * files), so ui/ never includes app/ and pages never talk to each other:
 *
 *  catalog    GListModel of catalog items, construct-only. One loaded catalog is shared by every
 *             workspace of the application. (SuanliCatalog, from the catalog issue.)
 *  plan       the SuanliPlan being edited, never NULL (a new workspace starts with an empty plan).
 *             It emits "changed" on every edit, and its estimate is recomputed then.
 *  trace      the trace being viewed, or NULL. A live capture appends to it and it emits "grown".
 *             (SuanliTrace, from the trace-engine issue.)
 *  selection  a SuanliSelection, never NULL: catalog items picked for compare and plan, the selected
 *             time range and the selected event.
 *
 * The trace property holds a plain GObject until SuanliTrace lands; its setter accepts any object
 * so the model can be exercised before then.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-workspace.h"

struct _SuanliWorkspace
{
  GObject          parent_instance;

  GListModel      *catalog;
  SuanliPlan      *plan;
  GObject         *trace;
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

static void
suanli_workspace_dispose (GObject *object)
{
  SuanliWorkspace *self = SUANLI_WORKSPACE (object);

  g_clear_object (&self->catalog);
  g_clear_object (&self->plan);
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
    self->catalog = G_LIST_MODEL (g_list_store_new (G_TYPE_OBJECT));
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
    g_param_spec_object ("catalog", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAN] =
    g_param_spec_object ("plan", NULL, NULL, SUANLI_TYPE_PLAN,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION] =
    g_param_spec_object ("selection", NULL, NULL, SUANLI_TYPE_SELECTION,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
suanli_workspace_init (SuanliWorkspace *self)
{
  self->selection = suanli_selection_new ();
  self->plan = suanli_plan_new ();
}

/* @catalog: (nullable): the application's catalog; NULL gives an empty one. */
SuanliWorkspace *
suanli_workspace_new (GListModel *catalog)
{
  g_return_val_if_fail (catalog == NULL || G_IS_LIST_MODEL (catalog), NULL);

  return g_object_new (SUANLI_TYPE_WORKSPACE, "catalog", catalog, NULL);
}

GListModel *
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

  if (g_set_object (&self->plan, plan))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAN]);
}

GObject *
suanli_workspace_get_trace (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->trace;
}

void
suanli_workspace_set_trace (SuanliWorkspace *self,
                            GObject         *trace)
{
  g_return_if_fail (SUANLI_IS_WORKSPACE (self));
  g_return_if_fail (trace == NULL || G_IS_OBJECT (trace));

  if (!g_set_object (&self->trace, trace))
    return;

  /* A new trace has other events and another clock: what was selected in the old one is gone. */
  suanli_selection_clear_range (self->selection);
  suanli_selection_set_event (self->selection, -1, SUANLI_SELECTION_NONE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
}

/* Returns: (transfer none): the selection; it lives as long as the workspace. */
SuanliSelection *
suanli_workspace_get_selection (SuanliWorkspace *self)
{
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (self), NULL);

  return self->selection;
}
