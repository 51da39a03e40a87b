/* suanli-cli-report.c — `suanli-cli report PLAN [--trace FILE] -o OUT.pdf [--paper a4|letter] [--lang en|zh_CN]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "suanli-catalog.h"
#include "suanli-cli.h"
#include "suanli-import.h"
#include "suanli-report.h"

/* Messages from here on in @language, whatever the locale: gettext reads LANGUAGE unless the
 * messages' locale is plain C, so that becomes C.UTF-8 (which every glibc has). */
static void
use_language (const char *language)
{
  const char *messages;

  g_setenv ("LANGUAGE", language, TRUE);
  setlocale (LC_ALL, "");
  messages = setlocale (LC_MESSAGES, NULL);
  if (messages == NULL || g_str_equal (messages, "C") || g_str_equal (messages, "POSIX"))
    setlocale (LC_MESSAGES, "C.UTF-8");
}

static SuanliTrace *
read_trace (const char *path,
            int        *status)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  gboolean imported = suanli_import_file (trace, file, &stats, NULL, &error);

  suanli_import_stats_clear (&stats);
  if (!imported)
    {
      g_printerr (_("suanli-cli report: cannot read the trace: %s\n"), error->message);
      *status = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) ? SUANLI_EXIT_INVALID_INPUT
                                                                            : SUANLI_EXIT_USAGE_OR_IO;
      return NULL;
    }
  return g_steal_pointer (&trace);
}

int
suanli_cli_report (int    argc,
                   char **argv)
{
  g_autofree char *trace_path = NULL;
  g_autofree char *output = NULL;
  g_autofree char *paper_nick = NULL;
  g_autofree char *language = NULL;
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_("Add a profile of this trace"), N_("FILE") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the PDF here"), N_("OUT.pdf") },
    { "paper", 0, 0, G_OPTION_ARG_STRING, &paper_nick, N_("Paper size: a4 (the default) or letter"), N_("SIZE") },
    { "lang", 0, 0, G_OPTION_ARG_STRING, &language, N_("Language of the report: en or zh_CN (the default: the locale's)"),
      N_("LANGUAGE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("PLAN"));
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(SuanliCatalog) catalog = NULL;
  g_autoptr(SuanliPlan) plan = NULL;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliReport) report = NULL;
  g_autoptr(GError) error = NULL;
  SuanliPaper paper = SUANLI_PAPER_A4;
  SuanliPlanInputs inputs;
  guint pages = 0;
  int status = SUANLI_EXIT_DONE;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || output == NULL)
    {
      g_printerr ("suanli-cli report: %s\n", error != NULL ? error->message : _("give one plan file and -o OUT.pdf"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (paper_nick != NULL && !suanli_paper_from_nick (paper_nick, &paper))
    {
      g_printerr (_("suanli-cli report: no paper size “%s” (a4, letter)\n"), paper_nick);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (language != NULL)
    {
      if (!g_str_equal (language, "en") && !g_str_equal (language, "zh_CN"))
        {
          g_printerr (_("suanli-cli report: no language “%s” (en, zh_CN)\n"), language);
          return SUANLI_EXIT_USAGE_OR_IO;
        }
      use_language (language);
    }

  plan = suanli_cli_read_plan (argv[1], &status);
  if (plan == NULL)
    return status;
  catalog = suanli_cli_load_catalog ();
  if (!suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings))
    {
      g_printerr (_("suanli-cli report: %s is not a valid plan; no report written\n"), argv[1]);
      for (guint i = 0; i < errors->len; i++)
        {
          SuanliPlanIssue *issue = g_ptr_array_index (errors, i);

          g_printerr ("%s: %s\n", issue->field, issue->message);
        }
      return SUANLI_EXIT_INVALID_INPUT;
    }
  if (trace_path != NULL && (trace = read_trace (trace_path, &status)) == NULL)
    return status;

  report = suanli_report_new (plan, catalog, &inputs, warnings);
  suanli_report_set_paper (report, paper);
  if (trace != NULL)
    {
      g_autofree char *trace_name = g_path_get_basename (trace_path);

      suanli_report_set_trace (report, trace, trace_name);
    }
  if (!suanli_report_write (report, output, &pages, &error))
    {
      g_printerr ("suanli-cli report: %s\n", error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (suanli_report_get_font_warning (report) != NULL)
    g_printerr (_("warning: %s\n"), suanli_report_get_font_warning (report));
  {
    g_autofree char *shown = g_filename_display_name (output);

    g_print (ngettext ("Wrote %s (%u page)\n", "Wrote %s (%u pages)\n", pages), shown, pages);
  }
  return SUANLI_EXIT_DONE;
}
