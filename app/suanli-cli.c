/* suanli-cli.c — Suanli without a display: `suanli-cli COMMAND [ARGS…]`
 *
 * Every command follows the same exit codes (README.md): 0 done (warnings allowed), 1 usage or I/O error,
 * 2 invalid input (the error names where). Results go to stdout, diagnostics to stderr. Nothing
 * here loads GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <gio/gio.h>

#include "suanli-atomic-file.h"
#include "suanli-cli.h"
#include "suanli-file-kind.h"
#include "suanli-i18n.h"
#include "suanli-import-nsys.h"

#define EXIT_DONE SUANLI_EXIT_DONE
#define EXIT_USAGE_OR_IO SUANLI_EXIT_USAGE_OR_IO
#define EXIT_INVALID_INPUT SUANLI_EXIT_INVALID_INPUT

typedef struct
{
  const char *name;
  const char *arguments;
  const char *summary;
  int       (*run) (int argc, char **argv);
} Command;

static int run_identify (int argc, char **argv);
static int run_help (int argc, char **argv);

static const Command commands[] = {
  { "catalog", N_("list [--kind KIND] [--json] | show ID [--json] | validate FILE…"),
    N_("List, show and check catalog items"), suanli_cli_catalog },
  { "plan", N_("FILE [--json] [--explain FIGURE] [--search [--budget AMOUNT] [--deadline-days DAYS] [--max-gpus N] "
               "[--cloud-only]] | new --preset MODEL --accelerator ID --gpus N [-o FILE]"),
    N_("Estimate memory, time, cost and energy of a plan; start a plan file"), suanli_cli_plan },
  { "trace", N_("summary FILE… [--json] | convert IN… OUT.json[.gz]|OUT.folded [--gpu] | diff A B [--json] | diff FILE… --rank R --against-rank B"),
    N_("Summarize PyTorch, Kineto and Chrome traces, or folded stacks (GPU time, top kernels, steps, collectives); convert them; compare two"),
    suanli_cli_trace },
  { "run", N_("-- COMMAND [ARGUMENTS…]"), N_("Start a command profilable: a capture can attach to it later"),
    suanli_cli_run },
  { "jobs", N_("[--json]"), N_("List this user's profilable jobs on this machine"), suanli_cli_jobs },
  { "record", N_("-o OUT.suanli-capture [--duration S] [--delay S] (-- COMMAND ARGUMENTS… | --attach PID)"),
    N_("Capture a job's GPU activity through CUPTI: one it launches, or one running"), suanli_cli_record },
#ifdef HAVE_PAINT
  { "report", N_("PLAN [--trace FILE] -o OUT.pdf [--paper a4|letter] [--lang en|zh_CN]"),
    N_("Write a plan, its estimate and a trace's profile as a PDF report"), suanli_cli_report },
#endif
  { "identify", N_("FILE…"), N_("Tell what each file is: a plan, a catalog or a trace, and its format"), run_identify },
  { "help", N_("[COMMAND]"), N_("Show help for a command"), run_help },
};

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (commands[i].name, name))
      return &commands[i];
  return NULL;
}

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n  suanli-cli [--version] [--help] %s\n\n%s\n", _("Usage:"), _("COMMAND [ARGUMENTS…]"),
           _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “suanli-cli help COMMAND” for a command's arguments."));
}

static void
print_command_usage (const Command *command,
                     FILE          *stream)
{
  fprintf (stream, "%s\n  suanli-cli %s %s\n\n%s\n", _("Usage:"), command->name, _(command->arguments),
           _(command->summary));
}

static int
run_help (int    argc,
          char **argv)
{
  const Command *command;

  if (argc < 2)
    {
      print_usage (stdout);
      return EXIT_DONE;
    }
  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_printerr (_("suanli-cli: unknown command “%s”\n"), argv[1]);
      return EXIT_USAGE_OR_IO;
    }
  print_command_usage (command, stdout);
  return EXIT_DONE;
}

/* One line per file on stdout: "FILE: kind", with the trace format for traces. A file that cannot
 * be read is an I/O error (1); one that is none of Suanli's kinds is invalid input (2). */
static int
run_identify (int    argc,
              char **argv)
{
  gboolean unreadable = FALSE, invalid = FALSE;

  if (argc < 2)
    {
      print_command_usage (find_command ("identify"), stderr);
      return EXIT_USAGE_OR_IO;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[i]);
      g_autoptr(GError) error = NULL;
      SuanliTraceFormat format = SUANLI_TRACE_FORMAT_UNKNOWN;
      SuanliFileKind kind = suanli_file_kind_detect (file, &format, NULL, &error);

      if (error != NULL)
        {
          g_printerr ("%s: %s\n", argv[i], error->message);
          unreadable = TRUE;
        }
      else if (kind == SUANLI_FILE_KIND_UNKNOWN)
        {
          g_printerr (_("%s: not a plan, catalog or trace Suanli can read\n"), argv[i]);
          invalid = TRUE;
        }
      else if (kind == SUANLI_FILE_KIND_TRACE && format == SUANLI_TRACE_FORMAT_NSYS_REPORT)
        {
          g_autofree char *command = suanli_import_nsys_export_command (argv[i]);

          /* Its format is not public: the answer is how to make what Suanli reads. */
          g_print (_("%s: %s; Suanli reads its SQLite export, which this command writes:\n  %s\n"), argv[i],
                   suanli_trace_format_describe (format), command);
        }
      else if (kind == SUANLI_FILE_KIND_TRACE)
        {
          g_print ("%s: %s, %s\n", argv[i], suanli_file_kind_describe (kind),
                   suanli_trace_format_describe (format));
        }
      else
        {
          g_print ("%s: %s\n", argv[i], suanli_file_kind_describe (kind));
        }
    }
  return unreadable ? EXIT_USAGE_OR_IO : invalid ? EXIT_INVALID_INPUT : EXIT_DONE;
}

int
main (int   argc,
      char *argv[])
{
  const Command *command;

  suanli_i18n_init ();
  g_set_prgname ("suanli-cli");
  /* An interrupted command leaves no half-written temporary file (record handles Ctrl+C itself). */
  suanli_atomic_file_clean_on_signals ();

  if (argc < 2)
    {
      print_usage (stderr);
      return EXIT_USAGE_OR_IO;
    }
  if (g_str_equal (argv[1], "--version") || g_str_equal (argv[1], "-v"))
    {
      g_print ("suanli-cli %s\n", PACKAGE_VERSION);
      return EXIT_DONE;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_usage (stdout);
      return EXIT_DONE;
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_printerr (_("suanli-cli: unknown command “%s”\n"), argv[1]);
      print_usage (stderr);
      return EXIT_USAGE_OR_IO;
    }
  if (argc > 2 && (g_str_equal (argv[2], "--help") || g_str_equal (argv[2], "-h")))
    {
      print_command_usage (command, stdout);
      return EXIT_DONE;
    }
  return command->run (argc - 1, argv + 1);
}
