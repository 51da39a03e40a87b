/* suanli-test-crowd.c — strangers crowding a suanli-agent from loopback, for the tests and benches
 *
 * A crowd is a thread of this process, so every connection comes from 127.0.0.1, like the token
 * holder's own: it holds some connections open without sending a byte, opening a new one as soon
 * as the agent closes one, and may ask for /v1/health and /v1/hello without the token as fast as
 * it is answered. Nothing here knows the token.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "suanli-test-crowd.h"

struct _SuanliTestCrowd
{
  GThread *thread;
  guint    port;
  guint    silent;
  gboolean asking;
  gint     stop;        /* atomic */
  gint     finished;    /* atomic */
  gint     asked;       /* atomic: token-less requests answered */
  gint     reopened;    /* atomic: silent connections opened again after the agent closed them */
};

/* A TCP connection to the agent on 127.0.0.1:@port, or -1. Reads wait 30 s at most. */
int
suanli_test_connect_loopback (guint port)
{
  struct sockaddr_in address = { .sin_family = AF_INET };
  struct timeval patience = { 30, 0 };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  address.sin_port = htons ((guint16) port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (fd < 0 || connect (fd, (struct sockaddr *) &address, sizeof address) != 0)
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  return fd;
}

/* A GET of @path without the token on a connection of its own, read until the agent closes it:
 * whether an HTTP answer came. */
gboolean
suanli_test_ask_bare (guint       port,
                      const char *path)
{
  g_autofree char *request = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
  int fd = suanli_test_connect_loopback (port);
  char buffer[2048];
  gsize got = 0;
  ssize_t length;

  if (fd < 0)
    return FALSE;
  if (send (fd, request, strlen (request), MSG_NOSIGNAL) == (ssize_t) strlen (request))
    while ((length = recv (fd, buffer + MIN (got, 16), sizeof buffer - 17, 0)) > 0)
      got += (gsize) length;
  close (fd);
  return got >= 12 && memcmp (buffer, "HTTP/1.1 ", 9) == 0;
}

/* Process @pid's resident memory in bytes (VmRSS), or 0 when it cannot be read. */
guint64
suanli_test_process_rss (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (line = strstr (text, "\nVmRSS:")) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10) * 1024;
}

static gpointer
crowd_run (gpointer data)
{
  SuanliTestCrowd *crowd = data;
  g_autofree struct pollfd *fds = g_new0 (struct pollfd, MAX (crowd->silent, 1));
  const char *paths[] = {
    "/v1/health",
    "/v1/hello?challenge=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
  };
  guint turn = 0;

  for (guint i = 0; i < crowd->silent; i++)
    {
      fds[i].fd = suanli_test_connect_loopback (crowd->port);
      fds[i].events = POLLIN;
    }
  while (!g_atomic_int_get (&crowd->stop))
    {
      /* Without asking, wait for the agent to close one; asking, only look. */
      if (crowd->silent > 0 && poll (fds, crowd->silent, crowd->asking ? 0 : 50) < 0)
        g_usleep (1000);
      for (guint i = 0; i < crowd->silent; i++)
        if (fds[i].revents != 0 || fds[i].fd < 0)
          {
            char byte;

            fds[i].revents = 0;
            if (fds[i].fd >= 0 && recv (fds[i].fd, &byte, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN)
              continue;
            if (fds[i].fd >= 0)
              close (fds[i].fd);
            fds[i].fd = suanli_test_connect_loopback (crowd->port);
            g_atomic_int_inc (&crowd->reopened);
          }
      if (crowd->asking && suanli_test_ask_bare (crowd->port, paths[turn++ % G_N_ELEMENTS (paths)]))
        g_atomic_int_inc (&crowd->asked);
    }
  for (guint i = 0; i < crowd->silent; i++)
    if (fds[i].fd >= 0)
      close (fds[i].fd);
  g_atomic_int_set (&crowd->finished, TRUE);
  return NULL;
}

/* Starts a crowd against the agent on @port: @silent silent connections, kept; @asking: token-less
 * requests one after another besides. */
SuanliTestCrowd *
suanli_test_crowd_start (guint    port,
                         guint    silent,
                         gboolean asking)
{
  SuanliTestCrowd *crowd = g_new0 (SuanliTestCrowd, 1);

  crowd->port = port;
  crowd->silent = silent;
  crowd->asking = asking;
  crowd->thread = g_thread_new ("crowd", crowd_run, crowd);
  return crowd;
}

/* How many token-less requests @crowd has had answered so far. */
guint
suanli_test_crowd_asked (SuanliTestCrowd *crowd)
{
  return (guint) g_atomic_int_get (&crowd->asked);
}

/* How many silent connections @crowd has had to open again so far. */
guint
suanli_test_crowd_reopened (SuanliTestCrowd *crowd)
{
  return (guint) g_atomic_int_get (&crowd->reopened);
}

/* Stops and frees @crowd. The main loop runs meanwhile: the agent's log is read there, and an
 * agent whose log is not read stops answering. */
void
suanli_test_crowd_stop (SuanliTestCrowd *crowd)
{
  g_atomic_int_set (&crowd->stop, TRUE);
  while (!g_atomic_int_get (&crowd->finished))
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  g_thread_join (crowd->thread);
  g_free (crowd);
}
