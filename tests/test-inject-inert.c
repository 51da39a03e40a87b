/* test-inject-inert.c — the built libsuanli-inject.so with the real libcupti and no GPU: it starts
 * idle, answers STATUS, refuses START quoting CUPTI, and refuses bad control messages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

static char *runtime_dir;
static char *socket_path;

/* Registered before the library's own exit handler, so it runs after it: the socket is gone by then. */
static void
remove_runtime_dir (void)
{
  g_autofree char *folder = g_build_filename (runtime_dir, "suanli", NULL);

  g_rmdir (folder);
  g_rmdir (runtime_dir);
}

/* Sends @command (as given: a newline or not) and reads the whole reply, until the library closes. */
static char *
ask (const char *command)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  GString *answer = g_string_new (NULL);
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);
  char buffer[512];
  ssize_t got;

  g_assert_cmpint (fd, >=, 0);
  g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  g_assert_cmpint (send (fd, command, strlen (command), MSG_NOSIGNAL), ==, (gssize) strlen (command));
  while ((got = recv (fd, buffer, sizeof buffer, 0)) > 0)
    g_string_append_len (answer, buffer, got);
  close (fd);
  return g_string_free (answer, FALSE);
}

static void
test_idle_and_status (void)
{
  g_autofree char *status = ask ("STATUS\n");
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *job;
  GStatBuf info;

  /* Owner-only: the folder 0700, the socket 0600. */
  g_assert_cmpint (g_stat (socket_path, &info), ==, 0);
  g_assert_true (S_ISSOCK (info.st_mode));
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  {
    g_autofree char *folder = g_path_get_dirname (socket_path);

    g_assert_cmpint (g_stat (folder, &info), ==, 0);
    g_assert_cmpint (info.st_mode & 0777, ==, 0700);
  }

  g_test_message ("%s", status);
  g_assert_true (json_parser_load_from_data (parser, status, -1, NULL));
  job = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (job, "pid"), ==, getpid ());
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "idle");
  g_assert_cmpint (json_object_get_int_member (job, "rank"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (job, "world_size"), ==, 16);
  g_assert_nonnull (strstr (json_object_get_string_member (job, "command"), "test-inject-inert"));
  /* No CUDA driver in this process: no devices to tell. */
  g_assert_cmpint (json_object_get_int_member (job, "devices"), ==, 0);
}

/* With the job's driver loaded (a stand-in here), STATUS counts its devices before any capture. */
static void
test_status_devices (void)
{
  void *driver = dlopen (g_getenv ("SUANLI_FAKE_CUDA"), RTLD_NOW | RTLD_LOCAL);   /* as cudart loads it */
  g_autofree char *status = NULL;

  g_assert_nonnull (driver);
  status = ask ("STATUS\n");
  g_assert_nonnull (strstr (status, "\"devices\": 2"));
}

static void
test_start_refused (void)
{
  g_autofree char *answer = ask ("START\n");

  /* No GPU here: CUPTI loads, and one of the calls that start a capture fails; the refusal says
   * which, in CUPTI's words, whatever the error is. */
  g_test_message ("%s", answer);
  g_assert_true (g_str_has_prefix (answer, "ERROR "));
  g_assert_nonnull (strstr (answer, "CUPTI error"));
  g_assert_nonnull (strstr (answer, "failed: CUPTI_ERROR_"));
  /* And it stays attachable, idle. */
  {
    g_autofree char *status = ask ("STATUS\n");
    g_assert_nonnull (strstr (status, "\"state\": \"idle\""));
  }
}

static void
test_bad_messages (void)
{
  g_autofree char *long_line = g_strnfill (4000, 'A');
  g_autofree char *command = g_strconcat (long_line, "\n", NULL);
  g_autofree char *too_long = ask (command);
  g_autofree char *unknown = ask ("HELLO\n");
  g_autofree char *binary = ask ("\x01\x02\x03\xff\n");

  g_assert_cmpstr (too_long, ==, "ERROR the command is too long\n");
  g_assert_true (g_str_has_prefix (unknown, "ERROR unknown command"));
  g_assert_true (g_str_has_prefix (binary, "ERROR unknown command"));
  /* Still serving afterwards. */
  {
    g_autofree char *status = ask ("STATUS\n");
    g_assert_nonnull (strstr (status, "\"pid\""));
  }
}

int
main (int    argc,
      char **argv)
{
  const char *library_path = g_getenv ("SUANLI_INJECT_LIBRARY");
  void *library;
  int (*initialize) (void);

  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (library_path);
  runtime_dir = g_dir_make_tmp ("suanli-inject-XXXXXX", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  g_setenv ("RANK", "5", TRUE);
  g_setenv ("WORLD_SIZE", "16", TRUE);

  atexit (remove_runtime_dir);
  /* As the CUDA driver does: load the library and call InitializeInjection, twice (it is idempotent). */
  library = dlopen (library_path, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (library);
  initialize = (int (*) (void)) dlsym (library, "InitializeInjection");
  g_assert_nonnull (initialize);
  g_assert_cmpint (initialize (), ==, 1);
  g_assert_cmpint (initialize (), ==, 1);
  socket_path = g_strdup_printf ("%s/suanli/%d.sock", runtime_dir, (int) getpid ());
  g_assert_true (g_file_test (socket_path, G_FILE_TEST_EXISTS));

  g_test_add_func ("/inject/idle-and-status", test_idle_and_status);
  g_test_add_func ("/inject/start-refused", test_start_refused);
  g_test_add_func ("/inject/bad-messages", test_bad_messages);
  g_test_add_func ("/inject/status-devices", test_status_devices);
  return g_test_run ();
}
