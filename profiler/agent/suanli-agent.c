/* suanli-agent.c — serves this node's profilable jobs to remote workbenches
 *
 *   suanli-agent [--address 127.0.0.1] [--port 7811] [--tls-certificate F --tls-key F] …
 *
 * The token clients present is made on first start (32 random bytes, hex) into a file only its
 * owner may read, $XDG_CONFIG_HOME/suanli/agent-token unless --token-file says otherwise; copy it
 * to the workbench. Nothing a client sends is run: it can list jobs and start and stop captures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <locale.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#include "suanli-agent-protocol.h"
#include "suanli-agent-server.h"
#include "suanli-inject.h"

#define TOKEN_BYTES 32

static gboolean
make_token (const char  *path,
            GError     **error)
{
  guint8 bytes[TOKEN_BYTES];
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *folder = g_path_get_dirname (path);

  if (getrandom (bytes, sizeof bytes, 0) != sizeof bytes)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), _("Cannot make a token: %s"), g_strerror (errno));
      return FALSE;
    }
  for (guint i = 0; i < sizeof bytes; i++)
    g_string_append_printf (text, "%02x", bytes[i]);
  g_string_append_c (text, '\n');
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), _("Cannot make %s: %s"), folder, g_strerror (errno));
      return FALSE;
    }
  return g_file_set_contents_full (path, text->str, (gssize) text->len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

/* Returns: (transfer full) (nullable): the token in @path, made there first when there is none. A
 * file others may read is refused: anyone who reads it can capture this user's jobs. */
static char *
load_token (const char  *path,
            GError     **error)
{
  g_autofree char *contents = NULL;
  GStatBuf info;

  if (g_stat (path, &info) != 0)
    {
      int saved = errno;

      if (saved != ENOENT)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot read %s: %s"), path,
                       g_strerror (saved));
          return NULL;
        }
      if (!make_token (path, error))
        return NULL;
      g_print (_("Made a new token in %s: give it to the workbenches that may connect\n"), path);
    }
  else if (!S_ISREG (info.st_mode))
    {
      /* A FIFO would hold the agent at its start for as long as nothing writes to it. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is not a plain file: a token is kept in one"),
                   path);
      return NULL;
    }
  else if ((info.st_mode & 077) != 0 || info.st_uid != getuid ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("%s may be read by others than its owner: make it yours alone (chmod 600)"), path);
      return NULL;
    }
  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;
  g_strstrip (contents);
  if (strlen (contents) < 16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: a token has at least 16 characters"), path);
      return NULL;
    }
  return g_steal_pointer (&contents);
}

/* A socket folder given by hand (a container's) must be this user's and closed to others, as the
 * injection library makes its own. */
static gboolean
check_socket_folder (const char  *folder,
                     GError     **error)
{
  GStatBuf info;

  if (strlen (folder) >= SUANLI_INJECT_SOCKET_DIR_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FILENAME_TOO_LONG,
                   _("%s is longer than a socket's path allows (%d bytes)"), folder, SUANLI_INJECT_SOCKET_DIR_SIZE - 1);
      return FALSE;
    }
  if (g_stat (folder, &info) != 0 || !S_ISDIR (info.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s is not a folder"), folder);
      return FALSE;
    }
  if (info.st_uid != getuid () || (info.st_mode & 022) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("%s must belong to this user and be writable by no one else"), folder);
      return FALSE;
    }
  return TRUE;
}

static gboolean
quit (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  GIOStream       *stream;
  GTlsCertificate *certificate;
  GError          *error;
} ServerSide;

static gpointer
serve_handshake (gpointer data)
{
  ServerSide *side = data;
  g_autoptr(GIOStream) tls = g_tls_server_connection_new (side->stream, side->certificate, &side->error);

  if (tls != NULL)
    g_tls_connection_handshake (G_TLS_CONNECTION (tls), NULL, &side->error);
  return NULL;
}

static gboolean
accept_any (GTlsConnection       *connection,
            GTlsCertificate      *certificate,
            GTlsCertificateFlags  errors,
            gpointer              data)
{
  return TRUE;   /* only the key's signature is under test here, not who signed the certificate */
}

/* Whether the private key given with @certificate is the one its certificate names: GLib loads a
 * certificate with any key, and clients would only find out at their handshake. Checked by a TLS
 * handshake with this process over a socket pair, in which the key must sign for the certificate. */
static gboolean
key_signs_for (GTlsCertificate  *certificate,
               GError          **error)
{
  g_autoptr(GSocket) server_end = NULL;
  g_autoptr(GSocket) client_end = NULL;
  g_autoptr(GIOStream) client_stream = NULL;
  g_autoptr(GIOStream) tls = NULL;
  g_autoptr(GError) client_error = NULL;
  ServerSide server = { NULL, certificate, NULL };
  GThread *thread;
  int fds[2];
  gboolean signed_right;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s", g_strerror (errno));
      return FALSE;
    }
  if ((server_end = g_socket_new_from_fd (fds[0], error)) == NULL)
    {
      close (fds[0]);
      close (fds[1]);
      return FALSE;
    }
  if ((client_end = g_socket_new_from_fd (fds[1], error)) == NULL)
    {
      close (fds[1]);
      return FALSE;
    }
  server.stream = G_IO_STREAM (g_socket_connection_factory_create_connection (server_end));
  client_stream = G_IO_STREAM (g_socket_connection_factory_create_connection (client_end));
  thread = g_thread_new ("key-check", serve_handshake, &server);
  tls = g_tls_client_connection_new (client_stream, NULL, &client_error);
  if (tls != NULL)
    {
      g_signal_connect (tls, "accept-certificate", G_CALLBACK (accept_any), NULL);
      g_tls_connection_handshake (G_TLS_CONNECTION (tls), NULL, &client_error);
    }
  /* The client's end goes, whatever happened: a server side still waiting reads the end. */
  g_socket_shutdown (client_end, TRUE, TRUE, NULL);
  g_thread_join (thread);
  g_object_unref (server.stream);
  signed_right = client_error == NULL && server.error == NULL;
  if (!signed_right)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("the key does not belong to the certificate (a handshake with it failed: %s)"),
                 client_error != NULL ? client_error->message : server.error->message);
  g_clear_error (&server.error);
  return signed_right;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *address = NULL;
  g_autofree char *certificate_file = NULL, *key_file = NULL, *token_file = NULL, *socket_folder = NULL;
  int port = SUANLI_AGENT_DEFAULT_PORT, max_connections = 16, rate = 100, queue_mib = 16, clock_shift_ms = 0;
  int idle_timeout = 60, header_timeout = 10, max_per_address = 32, first_byte_timeout = 3, max_strangers = 8;
  const GOptionEntry entries[] = {
    { "address", 0, 0, G_OPTION_ARG_STRING, &address, N_("Address to listen on (default 127.0.0.1)"), N_("IP") },
    { "port", 0, 0, G_OPTION_ARG_INT, &port, N_("Port to listen on (default 7811; 0: any free one)"), N_("PORT") },
    { "tls-certificate", 0, 0, G_OPTION_ARG_FILENAME, &certificate_file, N_("PEM certificate: serve HTTPS (needed off loopback)"), N_("FILE") },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &key_file, N_("The certificate's PEM private key"), N_("FILE") },
    { "token-file", 0, 0, G_OPTION_ARG_FILENAME, &token_file, N_("Where the clients' token is (made when missing)"), N_("FILE") },
    { "socket-dir", 0, 0, G_OPTION_ARG_FILENAME, &socket_folder, N_("Where the jobs' sockets are, e.g. one shared with a container"), N_("DIR") },
    { "max-connections", 0, 0, G_OPTION_ARG_INT, &max_connections, N_("Captures served at once (default 16)"), N_("N") },
    { "rate", 0, 0, G_OPTION_ARG_INT, &rate, N_("Requests per second per client address (default 100; 0: no limit)"), N_("N") },
    { "queue", 0, 0, G_OPTION_ARG_INT, &queue_mib, N_("MiB of records kept for a slow client before they drop (default 16)"), N_("MIB") },
    { "idle-timeout", 0, 0, G_OPTION_ARG_INT, &idle_timeout, N_("Seconds a connection may send nothing before it is dropped (default 60)"), N_("S") },
    { "header-timeout", 0, 0, G_OPTION_ARG_INT, &header_timeout, N_("Seconds a request may take to send its headers (default 10)"), N_("S") },
    { "first-byte-timeout", 0, 0, G_OPTION_ARG_INT, &first_byte_timeout, N_("Seconds a new connection may take to send its first byte (default 3)"), N_("S") },
    { "max-per-address", 0, 0, G_OPTION_ARG_INT, &max_per_address, N_("Requests with the token open at once from one address (default 32)"), N_("N") },
    { "max-strangers", 0, 0, G_OPTION_ARG_INT, &max_strangers, N_("Connections without the token open at once from one address; the oldest is closed for a new one (default 8)"), N_("N") },
    { "clock-shift-ms", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &clock_shift_ms, "For tests: act as a host whose clock is this far ahead", "MS" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(SuanliAgentServer) server = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *token = NULL, *url = NULL;
  char default_folder[256] = "", message[256];
  SuanliAgentOptions options = { 0 };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("SUANLI_LOCALEDIR") != NULL ? g_getenv ("SUANLI_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_option_context_set_summary (context, _("Serves this node's profilable jobs to remote Suanli workbenches."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 1)
    {
      g_printerr ("suanli-agent: %s\n", error != NULL ? error->message : _("no arguments are taken"));
      return 1;
    }
  if (port < 0 || port > 65535 || max_connections < 1 || rate < 0 || queue_mib < 1 || queue_mib > 1024 ||
      idle_timeout < 1 || header_timeout < 1 || max_per_address < 1 || first_byte_timeout < 1 || max_strangers < 1 ||
      (certificate_file == NULL) != (key_file == NULL))
    {
      g_printerr ("suanli-agent: %s\n", _("an option is out of range, or a certificate came without its key"));
      return 1;
    }
  if (token_file == NULL)
    token_file = g_build_filename (g_get_user_config_dir (), "suanli", "agent-token", NULL);
  if ((token = load_token (token_file, &error)) == NULL)
    {
      g_printerr ("suanli-agent: %s\n", error->message);
      return 1;
    }
  if (socket_folder == NULL)
    {
      if (suanli_inject_socket_dir (default_folder, sizeof default_folder, message, sizeof message) != 0)
        {
          g_printerr ("suanli-agent: %s\n", message);
          return 1;
        }
      /* Left NULL: the jobs are looked for where suanli-cli jobs looks, the fallback folder too. */
    }
  else if (!check_socket_folder (socket_folder, &error))
    {
      g_printerr ("suanli-agent: %s\n", error->message);
      return 1;
    }
  if (certificate_file != NULL &&
      ((certificate = g_tls_certificate_new_from_files (certificate_file, key_file, &error)) == NULL ||
       !key_signs_for (certificate, &error)))
    {
      g_printerr ("suanli-agent: %s: %s\n", certificate_file, error->message);
      return 1;
    }

  options.address = address != NULL ? address : "127.0.0.1";
  options.port = (guint) port;
  options.certificate = certificate;
  options.token = token;
  options.socket_folder = socket_folder;
  options.max_connections = (guint) max_connections;
  options.rate = (guint) rate;
  options.queue_limit = (guint) queue_mib << 20;
  options.clock_shift_ns = (gint64) clock_shift_ms * 1000000;
  options.idle_timeout = (guint) idle_timeout;
  options.header_timeout = (guint) header_timeout;
  options.max_per_address = (guint) max_per_address;
  options.first_byte_timeout = (guint) first_byte_timeout;
  options.max_strangers = (guint) max_strangers;
  if ((server = suanli_agent_server_new (&options, &error)) == NULL)
    {
      g_printerr ("suanli-agent: %s\n", error->message);
      return 1;
    }
  url = suanli_agent_server_get_url (server);
  /* Tests and scripts read the first line for the port. */
  g_print (_("Listening on %s for the jobs in %s\n"), url, socket_folder != NULL ? socket_folder : default_folder);
  fflush (stdout);

  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGINT, quit, loop);
  g_unix_signal_add (SIGTERM, quit, loop);
  g_main_loop_run (loop);
  return 0;
}
