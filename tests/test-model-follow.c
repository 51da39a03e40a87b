/* test-model-follow.c — a view follows one list model at a time (suanli-model-follow.c): the
 * catalog's chart and its comparison both hold their items this way
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-model-follow.h"

typedef struct
{
  GListModel *items;
  guint       changes;
} View;

static void
on_items_changed (View *view)
{
  view->changes++;
}

static void
append (GListStore *store)
{
  g_autoptr(GSimpleAction) item = g_simple_action_new ("item", NULL);

  g_list_store_append (store, item);
}

static void
test_swap_and_stop (void)
{
  GListStore *first = g_list_store_new (G_TYPE_SIMPLE_ACTION);
  GListStore *second = g_list_store_new (G_TYPE_SIMPLE_ACTION);
  View view = { NULL, 0 };

  suanli_model_follow (&view.items, G_LIST_MODEL (first), G_CALLBACK (on_items_changed), &view);
  g_assert_true (view.items == G_LIST_MODEL (first));
  append (first);
  g_assert_cmpuint (view.changes, ==, 1);

  /* The same model again: still one handler, not two. */
  suanli_model_follow (&view.items, G_LIST_MODEL (first), G_CALLBACK (on_items_changed), &view);
  append (first);
  g_assert_cmpuint (view.changes, ==, 2);

  /* Another model: the first one's changes no longer reach the view. */
  suanli_model_follow (&view.items, G_LIST_MODEL (second), G_CALLBACK (on_items_changed), &view);
  append (first);
  g_assert_cmpuint (view.changes, ==, 2);
  append (second);
  g_assert_cmpuint (view.changes, ==, 3);

  /* Stopping (a view's dispose): nothing held, nothing connected. */
  suanli_model_follow (&view.items, NULL, NULL, &view);
  g_assert_null (view.items);
  append (second);
  g_assert_cmpuint (view.changes, ==, 3);
  g_assert_finalize_object (first);
  g_assert_finalize_object (second);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model-follow/swap-and-stop", test_swap_and_stop);
  return g_test_run ();
}
