/* test-json-writer.c — the one JSON writer: numbers that read back as written, nothing that is not JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "suanli-json-writer.h"

/* Parses @text with json-glib, as every reader in Suanli does, and returns its root. */
static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("not JSON: %s\n%s", error->message, text);
  return json_node_copy (json_parser_get_root (parser));
}

/* Writes @value alone in an array and reads it back as a double, bit for bit. */
static void
assert_round_trip (double value)
{
  g_autoptr(JsonNode) array = json_node_init_array (json_node_alloc (), json_array_new ());
  g_autoptr(JsonNode) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonNode *element;

  json_array_add_double_element (json_node_get_array (array), value);
  text = suanli_json_write (array, FALSE, &error);
  g_assert_no_error (error);
  back = parse (text);
  element = json_array_get_element (json_node_get_array (back), 0);
  /* Written with a point or an exponent, so that it reads back as a double, not an integer. */
  g_assert_cmpint (json_node_get_value_type (element), ==, G_TYPE_DOUBLE);
  if (memcmp (&(double) { json_node_get_double (element) }, &value, sizeof value) != 0)
    g_error ("%.17g was written %s and read back as %.17g", value, text, json_node_get_double (element));
}

/* The significant digits @text writes: "830317756598520.0" and "8.3031775659852e+14" both 14. */
static guint
significant_digits (const char *text)
{
  g_autoptr(GString) digits = g_string_new (NULL);
  gsize start = 0;

  for (const char *p = text; *p != '\0' && *p != 'e'; p++)
    if (g_ascii_isdigit (*p))
      g_string_append_c (digits, *p);
  while (start < digits->len && digits->str[start] == '0')
    start++;
  while (digits->len > start && digits->str[digits->len - 1] == '0')
    g_string_truncate (digits, digits->len - 1);
  return digits->len - start;
}

static void
test_numbers (void)
{
  static const struct { double value; const char *text; } cases[] = {
    { 2e17, "2e+17" },               /* json-glib 1.6 wrote "2e+17.0" */
    { 1e18, "1e+18" },
    { 0.1, "0.1" },                  /* json-glib wrote 0.10000000000000001 */
    { 1.0, "1.0" },
    { -0.0, "-0.0" },
    { 1e-7, "1e-07" },
    { 5e-324, "5e-324" },
    { DBL_MAX, "1.7976931348623157e+308" },
    { 123456789012345680.0, "1.2345678901234568e+17" },
    { 2.5, "2.5" },
  };
  char text[SUANLI_JSON_NUMBER_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (suanli_json_format_double (cases[i].value, text));
      g_assert_cmpstr (text, ==, cases[i].text);
      assert_round_trip (cases[i].value);
    }
  g_assert_true (suanli_json_format_number (4096, text));
  g_assert_cmpstr (text, ==, "4096");
  g_assert_true (suanli_json_format_number (1e300, text));
  g_assert_cmpstr (text, ==, "1e+300");

  g_assert_false (suanli_json_format_double (INFINITY, text));
  g_assert_cmpstr (text, ==, "null");
  g_assert_false (suanli_json_format_number (NAN, text));
  g_assert_cmpstr (text, ==, "null");

  /* Any finite double, whatever its bits, in as few digits as any that read back. */
  for (guint i = 0; i < 100000; i++)
    {
      guint64 bits = ((guint64) g_test_rand_int () << 32) | (guint32) g_test_rand_int ();
      char shortest[G_ASCII_DTOSTR_BUF_SIZE];
      double value;

      memcpy (&value, &bits, sizeof value);
      if (!isfinite (value))
        continue;
      assert_round_trip (value);
      for (int digits = 1; digits <= 17; digits++)
        {
          char format[8];

          g_snprintf (format, sizeof format, "%%.%dg", digits);
          g_ascii_formatd (shortest, sizeof shortest, format, value);
          if (g_ascii_strtod (shortest, NULL) == value)
            break;
        }
      suanli_json_format_double (value, text);
      if (significant_digits (text) > significant_digits (shortest))
        g_error ("%.17g was written %s, not in its fewest digits %s", value, text, shortest);
    }
}

/* Infinity and NaN are refused with the member's path, and nothing is written. */
static void
test_not_finite_refused (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "items");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, 1);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "price");
  json_builder_add_double_value (builder, -INFINITY);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  text = suanli_json_write_builder (builder, TRUE, &error);
  g_assert_null (text);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "items[1].price: -infinity is not a number JSON can hold");
  g_clear_error (&error);

  {
    g_autoptr(JsonNode) nan = json_node_init_double (json_node_alloc (), NAN);

    g_assert_null (suanli_json_write (nan, FALSE, &error));
    g_assert_cmpstr (error->message, ==, "(root): NaN is not a number JSON can hold");
  }
}

/* The indented layout is json-glib's, so that files saved before read the same; strings with any
 * character read back as they were. */
static void
test_layout (void)
{
  const char *document = "{\"schema\":\"suanli-plan/1\",\"model\":{\"preset\":\"llama-2-7b\",\"layers\":32},"
                         "\"list\":[1,true,null,\"x\",[2]],\"name\":\"q\\\"\\\\/\\n\\t\\u0001\\u007f é\"}";
  g_autoptr(JsonNode) root = parse (document);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *theirs = NULL;
  g_autofree char *ours = NULL;
  g_autofree char *compact = NULL;
  g_autoptr(JsonNode) back = NULL;

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  theirs = json_generator_to_data (generator, NULL);
  ours = suanli_json_write (root, TRUE, NULL);
  g_assert_cmpstr (ours, ==, theirs);

  compact = suanli_json_write (root, FALSE, NULL);
  g_assert_null (strchr (compact, '\n'));
  back = parse (compact);
  g_assert_true (json_node_equal (back, root));

  /* Empty containers. */
  {
    g_autoptr(JsonNode) empty = parse ("{\"a\": {}, \"b\": []}");
    g_autofree char *text = suanli_json_write (empty, TRUE, NULL);

    g_assert_cmpstr (text, ==, "{\n  \"a\" : {},\n  \"b\" : []\n}");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-writer/numbers", test_numbers);
  g_test_add_func ("/json-writer/not-finite-refused", test_not_finite_refused);
  g_test_add_func ("/json-writer/layout", test_layout);
  return g_test_run ();
}
