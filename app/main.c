/* main.c — the GUI's entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-application.h"
#include "suanli-i18n.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SuanliApplication) application = NULL;

  suanli_i18n_init ();
  g_set_application_name ("Suanli");

  application = suanli_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (application), argc, argv);
}
