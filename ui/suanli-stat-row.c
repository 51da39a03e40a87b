/* suanli-stat-row.c — one row of a statistics table: a name, its figures and a note
 *
 * A table of kernels or operators has a few hundred rows, one per distinct name, so a small
 * object per row is fine here (unlike per event). The figures are plain doubles, in the units
 * the table's columns say; the note is a sentence about the row (why a kernel was scaled so), shown
 * in a text column and in the name's tooltip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-stat-row.h"

struct _SuanliStatRow
{
  GObject  parent_instance;

  char    *name;
  char    *note;
  double   values[SUANLI_STAT_ROW_N_VALUES];
};

G_DEFINE_FINAL_TYPE (SuanliStatRow, suanli_stat_row, G_TYPE_OBJECT)

static void
suanli_stat_row_finalize (GObject *object)
{
  g_free (SUANLI_STAT_ROW (object)->name);
  g_free (SUANLI_STAT_ROW (object)->note);
  G_OBJECT_CLASS (suanli_stat_row_parent_class)->finalize (object);
}

static void
suanli_stat_row_class_init (SuanliStatRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_stat_row_finalize;
}

static void
suanli_stat_row_init (SuanliStatRow *self)
{
}

SuanliStatRow *
suanli_stat_row_new (const char   *name,
                     const double *values,
                     guint         n_values)
{
  SuanliStatRow *self = g_object_new (SUANLI_TYPE_STAT_ROW, NULL);

  self->name = g_strdup (name);
  for (guint i = 0; i < MIN (n_values, SUANLI_STAT_ROW_N_VALUES); i++)
    self->values[i] = values[i];
  return self;
}

const char *
suanli_stat_row_get_name (SuanliStatRow *self)
{
  return self->name;
}

double
suanli_stat_row_get_value (SuanliStatRow *self,
                           guint          index)
{
  return index < SUANLI_STAT_ROW_N_VALUES ? self->values[index] : 0;
}

void
suanli_stat_row_set_note (SuanliStatRow *self,
                          const char    *note)
{
  g_free (self->note);
  self->note = g_strdup (note);
}

/* Returns: the row's note, or NULL. */
const char *
suanli_stat_row_get_note (SuanliStatRow *self)
{
  return self->note;
}
