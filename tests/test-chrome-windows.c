/* test-chrome-windows.c — the windows a trace on one line is cut into
 *
 * PyTorch's own export writes a trace on one line, so a window cannot end at a newline: it ends
 * just past the last '}' read, when simdjson finds that brace outside strings, and else where a
 * scan finds the last whole element. Either way every element is walked in the windows, and none
 * is left to yajl. The fuzz replay checks that the import equals yajl's wherever a window ends;
 * this checks that the windows read the whole array, whose strings hold braces (and escaped
 * quotes before them) at every place a window of 16 to 200 bytes can end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "suanli-import-chrome-private.h"

/* The elements of a one-line events array, from after its '[', as the windows walk them. */
static guint
elements_walked (const char *events,
                 gsize      *left_to_yajl)
{
  /* As the importer hands them over: the bytes yajl had read past the '[' first, then the stream */
  const gsize rest = 10;
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (events + rest, (gssize) (strlen (events) - rest), NULL);
  ChromeProducer *producer = chrome_producer_new (stream, NULL, (const guchar *) events, rest, 1, 1, 1);
  guint walked = 0;

  for (;;)
    {
      ChromeWindow *window = chrome_producer_next (producer, FALSE);

      walked += window->n_elements;
      if (window->last)
        {
          *left_to_yajl = window->raw_length;
          chrome_window_free (window);
          break;
        }
      chrome_producer_recycle (producer, window);
    }
  chrome_producer_free (producer);
  return walked;
}

static void
test_braces_in_strings (void)
{
  static const char *const names[] = { "}", "{}}", "a\\\"}", "}\\\\}", "plain", "}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}" };
  g_autoptr(GString) events = g_string_new (NULL);
  const guint count = 300;

  for (guint i = 0; i < count; i++)
    g_string_append_printf (events, "%s{\"name\": \"%s\", \"ph\": \"X\", \"ts\": %u, \"dur\": 1, \"pid\": 1, \"tid\": 1, "
                            "\"args\": {\"note\": \"%s\"}}", i > 0 ? ", " : "", names[i % G_N_ELEMENTS (names)], i,
                            names[(i / 2) % G_N_ELEMENTS (names)]);
  g_string_append (events, "]}");
  g_assert_null (strchr (events->str, '\n'));
  for (guint size = 16; size <= 200; size++)
    {
      g_autofree char *window = g_strdup_printf ("%u", size);
      gsize left = 0;

      g_setenv ("SUANLI_TRACE_WINDOW", window, TRUE);
      g_assert_cmpuint (elements_walked (events->str, &left), ==, count);
      /* Only the array's ']' and what follows it are left */
      g_assert_cmpuint (left, ==, 2);
    }
  g_unsetenv ("SUANLI_TRACE_WINDOW");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/windows/one-line-braces-in-strings", test_braces_in_strings);
  return g_test_run ();
}
