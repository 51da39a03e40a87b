/* suanli-i18n.c — setting up gettext for the GUI, the CLI and the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "suanli-i18n.h"

/* Binds the message catalog. SUANLI_LOCALEDIR points at an uninstalled build's po/ folder, so
 * `make run` and the tests show the translations without installing them. */
void
suanli_i18n_init (void)
{
  const char *localedir = g_getenv ("SUANLI_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
