/* suanli-test-support.c — helpers for the widget tests: frames, screenshots, finding widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <adwaita.h>

#include "suanli-i18n.h"
#include "suanli-test-support.h"

/* GLib's test set-up, gettext bound to the build's translations, and libadwaita. */
void
suanli_test_init_gtk (int    *argc,
                      char ***argv)
{
  suanli_i18n_init ();
  g_test_init (argc, argv, NULL);
  gtk_init ();
  adw_init ();
  /* A blinking text cursor ticks the frame clock for as long as an entry has the focus; without
   * it, a frame that nothing updated means the window is still (suanli_test_settle). */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, "gtk-enable-animations", FALSE, NULL);
  /* What AdwApplication does for the application: its style sheet and icons live in its resources. */
  {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/org/suanli/Suanli/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/org/suanli/Suanli/icons");
}

/* "zh_CN" when the test runs with LANGUAGE=zh_CN (as meson sets it), else "en": the last part of
 * every screenshot's name. */
const char *
suanli_test_language_tag (void)
{
  const char *language = g_getenv ("LANGUAGE");

  return language != NULL && g_str_has_prefix (language, "zh") ? "zh_CN" : "en";
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
widget_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

/* Waits until @widget's window has painted a frame since this call (at most ten seconds). */
void
suanli_test_wait_for_frame (GtkWidget *widget)
{
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong handler;

  suanli_test_await (widget_is_mapped, widget);
  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  suanli_test_await (flag_is_set, &painted);
  g_signal_handler_disconnect (clock, handler);
}

static void
on_update (GdkFrameClock *clock,
           gpointer       user_data)
{
  *(gboolean *) user_data = TRUE;
}

/* Waits until @widget's window has drawn a frame in which nothing moved: transitions and
 * animations run from tick callbacks, which make the frame clock emit "update" in every frame
 * they are running in; a frame without one means they are over. */
void
suanli_test_settle (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + (gint64) suanli_test_patience_ms () * 1000;
  GdkFrameClock *clock;
  gboolean updated = TRUE;
  gulong handler;

  suanli_test_wait_for_frame (widget);
  clock = gtk_widget_get_frame_clock (widget);
  handler = g_signal_connect (clock, "update", G_CALLBACK (on_update), &updated);
  while (updated)
    {
      if (g_get_monotonic_time () >= end)
        g_error ("%s is still animating after %u s", G_OBJECT_TYPE_NAME (widget), suanli_test_patience_ms () / 1000);
      updated = FALSE;
      suanli_test_wait_for_frame (widget);
    }
  g_signal_handler_disconnect (clock, handler);
}

typedef struct
{
  GtkWidget  *root;
  const char *text;
} LabelSearch;

static gboolean
label_is_shown (gpointer data)
{
  LabelSearch *search = data;

  return suanli_test_find_label (search->root, search->text) != NULL;
}

/* Waits until a label under @root shows @text: for what a debounced entry or a worker thread
 * puts on the page in its own time. */
void
suanli_test_await_label (GtkWidget  *root,
                         const char *text)
{
  LabelSearch search = { root, text };

  if (!suanli_test_wait_until (label_is_shown, &search, suanli_test_patience_ms ()))
    g_error ("no label saying “%s” under %s after %u s", text, G_OBJECT_TYPE_NAME (root),
             suanli_test_patience_ms () / 1000);
}

static gboolean
label_is_gone (gpointer data)
{
  return !label_is_shown (data);
}

/* Waits until no label under @root shows @text any more: a toast dismissed, say. */
void
suanli_test_await_no_label (GtkWidget  *root,
                            const char *text)
{
  LabelSearch search = { root, text };

  if (!suanli_test_wait_until (label_is_gone, &search, suanli_test_patience_ms ()))
    g_error ("a label under %s still says “%s” after %u s", G_OBJECT_TYPE_NAME (root), text,
             suanli_test_patience_ms () / 1000);
}

static gboolean
widget_is_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (GTK_WIDGET (data));
}

/* Waits until @widget is off the screen (a popover popped down, a window hidden). */
void
suanli_test_await_unmapped (GtkWidget *widget)
{
  suanli_test_await (widget_is_unmapped, widget);
}

/* Renders @widget as it is on screen to $SUANLI_SCREENSHOT_DIR/@name.png, through the widget's
 * own renderer (gtk_widget_paintable_new → GtkSnapshot → gsk_renderer_render_texture). Returns
 * the path written, or NULL when SUANLI_SCREENSHOT_DIR is unset (the widget is rendered all the
 * same, so that path is tested everywhere). */
char *
suanli_test_screenshot (GtkWidget  *widget,
                        const char *name)
{
  const char *directory = g_getenv ("SUANLI_SCREENSHOT_DIR");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *filename = NULL;
  g_autofree char *path = NULL;

  /* A screenshot shows the end state: a frame in which nothing moved any more. */
  suanli_test_settle (widget);
  texture = suanli_test_render (widget);
  if (directory == NULL || *directory == '\0')
    return NULL;

  g_mkdir_with_parents (directory, 0755);
  filename = g_strconcat (name, ".png", NULL);
  path = g_build_filename (directory, filename, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
  return g_steal_pointer (&path);
}

/* Screenshots of @widget in the light style, then the dark: @what-light-LANG and @what-dark-LANG. */
void
suanli_test_screenshot_styles (GtkWidget  *widget,
                               const char *what)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  const char *schemes[] = { "light", "dark" };

  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s-%s", what, schemes[i], suanli_test_language_tag ());

      adw_style_manager_set_color_scheme (style, i == 0 ? ADW_COLOR_SCHEME_FORCE_LIGHT : ADW_COLOR_SCHEME_FORCE_DARK);
      g_free (suanli_test_screenshot (widget, name));
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

/* Renders @widget as it is on screen, once it has been drawn. Returns: (transfer full) */
GdkTexture *
suanli_test_render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GdkTexture *texture;
  GskRenderer *renderer;
  int width, height;

  suanli_test_wait_for_frame (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_nonnull (texture);
  return texture;
}

/* The pixel at (@x, @y) as 0xAARRGGBB. */
guint32
suanli_test_pixel (GdkTexture *texture,
                   int         x,
                   int         y)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) width * height);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, width);
  g_assert_cmpint (y, <, height);
  gdk_texture_download (texture, (guchar *) pixels, (gsize) width * 4);
  return pixels[(gsize) y * width + x];
}

/* @x, @y of @widget as text of screen coordinates, for xdotool. */
static void
screen_point (GtkWidget *widget,
              double     x,
              double     y,
              char     **x_text,
              char     **y_text)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  double surface_x = 0, surface_y = 0;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out));
  gtk_native_get_surface_transform (native, &surface_x, &surface_y);
  *x_text = g_strdup_printf ("%d", (int) (out.x + surface_x));
  *y_text = g_strdup_printf ("%d", (int) (out.y + surface_y));
}

static void
run_xdotool (char **argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* Moves the pointer to (@x, @y) of @widget through the X server and then, unless @action is NULL,
 * has xdotool do @action with @argument there ("click" "1", "key" "Escape"). */
static void
xdotool_at (GtkWidget  *widget,
            double      x,
            double      y,
            const char *action,
            const char *argument)
{
  g_autofree char *x_text = NULL;
  g_autofree char *y_text = NULL;

  screen_point (widget, x, y, &x_text, &y_text);
  run_xdotool ((char *[]) { (char *) "xdotool", (char *) "mousemove", (char *) "--sync", x_text, y_text,
                            (char *) action, (char *) argument, NULL });
}

/* Clicks the first mouse button at (@x, @y) of @widget through the X server (xdotool), as a person
 * would: the event goes through GDK and the widget's gestures like any other. The window must be
 * at the screen's top left corner, where Xvfb without a window manager puts it. */
void
suanli_test_click (GtkWidget *widget,
                   double     x,
                   double     y)
{
  xdotool_at (widget, x, y, "click", "1");
}

/* Moves the pointer to (@x, @y) of @widget through the X server and leaves it there, as a person
 * resting it on something to read its tooltip. */
void
suanli_test_point_at (GtkWidget *widget,
                      double     x,
                      double     y)
{
  xdotool_at (widget, x, y, NULL, NULL);
}

/* Presses @keys ("Escape", "ctrl+w") in @widget's window through the X server: the pointer goes over
 * @widget first, since without a window manager the keyboard follows the pointer. */
void
suanli_test_key (GtkWidget  *widget,
                 const char *keys)
{
  xdotool_at (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0, "key", keys);
}

/* Presses @keys (NULL-terminated xdotool key names: "ctrl+a", "4", "Return") one after another
 * in the window under the pointer, without moving it: for typing into a field just clicked. */
void
suanli_test_press (const char * const *keys)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) "xdotool");
  g_ptr_array_add (argv, (char *) "key");
  for (guint i = 0; keys[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) keys[i]);
  g_ptr_array_add (argv, NULL);
  run_xdotool ((char **) argv->pdata);
}

/* What GTK has seen of a drag: the last event of the kind expected, at the place expected. */
typedef struct
{
  GdkEventType expected;
  double       x, y;          /* in the native's coordinates; NAN for anywhere */
  gboolean     seen;
} DragStep;

static gboolean
on_drag_event (GtkEventControllerLegacy *controller,
               GdkEvent                 *event,
               DragStep                 *step)
{
  GtkNative *native = gtk_widget_get_native (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)));
  double x = 0, y = 0, surface_x = 0, surface_y = 0;

  if (gdk_event_get_event_type (event) != step->expected || !gdk_event_get_position (event, &x, &y))
    return FALSE;
  gtk_native_get_surface_transform (native, &surface_x, &surface_y);
  if (isnan (step->x) || (fabs (x - surface_x - step->x) < 1.5 && fabs (y - surface_y - step->y) < 1.5))
    step->seen = TRUE;
  return FALSE;   /* the widget's own gestures see every event too */
}

static gboolean
drag_step_seen (gpointer data)
{
  return ((DragStep *) data)->seen;
}

/* Runs xdotool's @argv and waits until GTK has delivered the event it makes to @widget. */
static void
drag_step (GtkWidget    *widget,
           DragStep     *step,
           GdkEventType  expected,
           double        x,
           double        y,
           char        **argv)
{
  GtkWidget *native = GTK_WIDGET (gtk_widget_get_native (widget));
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out = GRAPHENE_POINT_INIT (NAN, NAN);

  if (!isnan (x))
    g_assert_true (gtk_widget_compute_point (widget, native, &in, &out));
  step->expected = expected, step->x = out.x, step->y = out.y, step->seen = FALSE;
  run_xdotool (argv);
  suanli_test_await (drag_step_seen, step);
}

/* Presses the first button at @x0, @y0 of @widget, moves to @x1, @y1 in steps, and lets go: a real
 * drag through the X server. Each step waits until GTK has delivered its event, so the widget
 * sees every one as a person's drag would make it. */
void
suanli_test_drag (GtkWidget *widget,
                  double     x0,
                  double     y0,
                  double     x1,
                  double     y1)
{
  GtkEventController *watcher = gtk_event_controller_legacy_new ();
  DragStep step = { 0 };
  g_autofree char *x_text = NULL;
  g_autofree char *y_text = NULL;

  gtk_event_controller_set_propagation_phase (watcher, GTK_PHASE_CAPTURE);
  g_signal_connect (watcher, "event", G_CALLBACK (on_drag_event), &step);
  gtk_widget_add_controller (widget, watcher);

  screen_point (widget, x0, y0, &x_text, &y_text);
  drag_step (widget, &step, GDK_BUTTON_PRESS, x0, y0,
             (char *[]) { (char *) "xdotool", (char *) "mousemove", (char *) "--sync", x_text, y_text,
                          (char *) "mousedown", (char *) "1", NULL });
  for (int i = 1; i <= 4; i++)
    {
      double x = x0 + (x1 - x0) * i / 4, y = y0 + (y1 - y0) * i / 4;
      g_autofree char *step_x = NULL;
      g_autofree char *step_y = NULL;

      screen_point (widget, x, y, &step_x, &step_y);
      drag_step (widget, &step, GDK_MOTION_NOTIFY, x, y,
                 (char *[]) { (char *) "xdotool", (char *) "mousemove", (char *) "--sync", step_x, step_y, NULL });
    }
  drag_step (widget, &step, GDK_BUTTON_RELEASE, NAN, NAN,
             (char *[]) { (char *) "xdotool", (char *) "mouseup", (char *) "1", NULL });
  gtk_widget_remove_controller (widget, watcher);
}

static gboolean
on_scroll_event (GtkEventControllerLegacy *controller,
                 GdkEvent                 *event,
                 DragStep                 *step)
{
  if (gdk_event_get_event_type (event) == GDK_SCROLL)
    step->seen = TRUE;
  return FALSE;
}

/* Turns the mouse wheel @clicks clicks down (up when negative) with the pointer at @x, @y of
 * @widget, through the X server: each click waits until GTK has delivered a scroll event to
 * @widget (a scroll event carries no position GTK gives back, so any will do). */
void
suanli_test_scroll (GtkWidget *widget,
                    double     x,
                    double     y,
                    int        clicks)
{
  GtkEventController *watcher = gtk_event_controller_legacy_new ();
  DragStep step = { 0 };

  gtk_event_controller_set_propagation_phase (watcher, GTK_PHASE_CAPTURE);
  g_signal_connect (watcher, "event", G_CALLBACK (on_scroll_event), &step);
  gtk_widget_add_controller (widget, watcher);
  xdotool_at (widget, x, y, NULL, NULL);
  for (int i = 0; i < ABS (clicks); i++)
    {
      step.seen = FALSE;
      run_xdotool ((char *[]) { (char *) "xdotool", (char *) "click", (char *) (clicks > 0 ? "5" : "4"), NULL });
      suanli_test_await (drag_step_seen, &step);
    }
  gtk_widget_remove_controller (widget, watcher);
}

/* Chooses the entry titled @title in @choice, an AdwComboRow or a GtkDropDown of strings. */
void
suanli_test_select_choice (GtkWidget  *choice,
                           const char *title)
{
  GListModel *titles = ADW_IS_COMBO_ROW (choice) ? adw_combo_row_get_model (ADW_COMBO_ROW (choice))
                                                 : gtk_drop_down_get_model (GTK_DROP_DOWN (choice));

  for (guint i = 0; i < g_list_model_get_n_items (titles); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (titles), i), title))
      {
        if (ADW_IS_COMBO_ROW (choice))
          adw_combo_row_set_selected (ADW_COMBO_ROW (choice), i);
        else
          gtk_drop_down_set_selected (GTK_DROP_DOWN (choice), i);
        return;
      }
  g_error ("no choice “%s”", title);
}

/* Returns: (nullable) (transfer none): the first widget under @root (depth first, @root included)
 * that @matches. */
GtkWidget *
suanli_test_find_matching (GtkWidget             *root,
                           SuanliTestWidgetMatch  matches,
                           gconstpointer          data)
{
  if (matches (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = suanli_test_find_matching (child, matches, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
label_contains (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

static gboolean
is_named (GtkWidget     *widget,
          gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

static gboolean
is_of_type (GtkWidget     *widget,
            gconstpointer  type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

/* The first label under @root whose text holds @text, or NULL. */
GtkWidget *
suanli_test_find_label (GtkWidget  *root,
                        const char *text)
{
  return suanli_test_find_matching (root, label_contains, text);
}

/* Returns: (nullable) (transfer none): the widget under @root (itself included) named @name. */
GtkWidget *
suanli_test_find_named (GtkWidget  *root,
                        const char *name)
{
  return suanli_test_find_matching (root, is_named, name);
}

/* The first widget of @type under @root (depth first, @root included), or NULL. */
GtkWidget *
suanli_test_find_widget (GtkWidget *root,
                         GType      type)
{
  return suanli_test_find_matching (root, is_of_type, GSIZE_TO_POINTER (type));
}

/* Destroys @window (which the caller holds one reference to) and checks that nothing else keeps
 * it alive. */
void
suanli_test_destroy_window (GtkWindow *window)
{
  gtk_window_destroy (window);
  suanli_test_await_finalized (window);
}

static gboolean
is_last_reference (gpointer object)
{
  return g_atomic_int_get (&G_OBJECT (object)->ref_count) == 1;
}

/* Waits until the caller's is the last reference to @object (whatever else held it, a closing
 * window's idle work say, has let go), then drops it and checks that @object is finalized. */
void
suanli_test_await_finalized (gpointer object)
{
  suanli_test_await (is_last_reference, object);
  g_assert_finalize_object (object);
}

/* A Kineto-form trace the project makes itself, modelled on the real fixtures, of rank 0 of eight
 * on H100s (as the starter plan has them): a CPU process
 * (pid 100) whose main thread runs two ProfilerStep#N with operators and launches, and GPU 0
 * whose streams run a GEMM, an NCCL all-reduce and a copy per step, joined by correlation ids;
 * plus one 100 ns kernel at SUANLI_TEST_TRACE_SPIKE_US on stream 7, alone for milliseconds
 * around it. The matrix product carries PyTorch's FLOP count, and "[memory]" events raise GPU 0's
 * allocated memory to 30 GiB and back to 28 within each step (36 GiB reserved). Returns: (transfer full): the file's path inside @directory. */
char *
suanli_test_write_kineto_trace (const char *directory)
{
  g_autoptr(GString) text = g_string_new ("{\"schemaVersion\":1,\"distributedInfo\":{\"rank\":0,\"world_size\":8},"
                                          "\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\","
                                          "\"totalGlobalMem\":85520809984}],"
                                          "\"traceEvents\":[\n");
  char *path = g_build_filename (directory, "generated-rank0.json", NULL);

  g_string_append (text,
                   "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":100,\"tid\":0,\"args\":{\"name\":\"python3\"}},\n"
                   "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":100,\"args\":{\"name\":\"thread 100 (python3)\"}},\n"
                   "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"python3\"}},\n");
  for (guint step = 0; step < 2; step++)
    {
      guint base = step * 400000, correlation = 10 * step;

      g_string_append_printf (text,
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%u\",\"pid\":100,\"tid\":100,\"ts\":%u,\"dur\":399000},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":100,\"tid\":100,\"ts\":%u,\"dur\":150000},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":100,\"tid\":100,\"ts\":%u,\"dur\":120000,"
        "\"args\":{\"flops\":274877906944}},\n"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":%u,\"dur\":5000,"
        "\"args\":{\"correlation\":%u}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_sgemm_128x64_tn\",\"pid\":0,\"tid\":7,\"ts\":%u,\"dur\":100000,"
        "\"args\":{\"correlation\":%u,\"grid\":[128,4,1],\"stream\":7}},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":100,\"tid\":100,\"ts\":%u,\"dur\":20000,"
        "\"args\":{\"Collective name\":\"allreduce\",\"In msg nelems\":16777216,\"Out msg nelems\":16777216,"
        "\"dtype\":\"Float\",\"Group size\":8}},\n"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":%u,\"dur\":5000,"
        "\"args\":{\"correlation\":%u}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)\",\"pid\":0,"
        "\"tid\":13,\"ts\":%u,\"dur\":80000,\"args\":{\"correlation\":%u,\"stream\":13}},\n"
        "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\",\"pid\":0,\"tid\":7,\"ts\":%u,"
        "\"dur\":30000,\"args\":{\"bytes\":1073741824}},\n"
        "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cpu_instant_event\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,\"ts\":%u,"
        "\"args\":{\"Device Type\":1,\"Device Id\":0,\"Bytes\":2147483648,\"Total Allocated\":32212254720,"
        "\"Total Reserved\":38654705664}},\n"
        "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cpu_instant_event\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,\"ts\":%u,"
        "\"args\":{\"Device Type\":1,\"Device Id\":0,\"Bytes\":-2147483648,\"Total Allocated\":30064771072,"
        "\"Total Reserved\":38654705664}},\n",
        step + 1, base, base + 10000, base + 20000, base + 25000, correlation + 1, base + 40000, correlation + 1,
        base + 170000, base + 175000, correlation + 2, base + 200000, correlation + 2, base + 300000,
        base + 20000, base + 140000);
    }
  g_string_append_printf (text,
                          "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"tiny_spike\",\"pid\":0,\"tid\":7,\"ts\":%u,\"dur\":0.1},\n"
                          "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"Iteration Start\",\"pid\":100,\"tid\":100,\"ts\":0}\n"
                          "]}\n",
                          SUANLI_TEST_TRACE_SPIKE_US);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return path;
}

