/* stranger.c — another user of the node, for test-agent-attacks: listens where a workbench may look for
 * an agent and either relays every connection to the real agent or redirects every request to it
 *
 *   stranger relay|redirect LISTEN-IP LISTEN-PORT AGENT-IP AGENT-PORT
 *
 * Started as root, it first becomes user nobody (group nogroup), as a second user of the machine
 * would be; not root, it stays who it is and says so. It prints "user NAME", then "listening PORT"
 * once bound (or "cannot listen: WHY" and exits 2), then everything the workbench sends it, as it
 * comes: what a stranger would learn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int
parse_address (const char              *ip,
               const char              *port,
               struct sockaddr_storage *address,
               socklen_t               *length)
{
  struct sockaddr_in *v4 = (struct sockaddr_in *) address;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) address;

  memset (address, 0, sizeof *address);
  if (inet_pton (AF_INET, ip, &v4->sin_addr) == 1)
    {
      v4->sin_family = AF_INET;
      v4->sin_port = htons ((unsigned short) atoi (port));
      *length = sizeof *v4;
      return AF_INET;
    }
  if (inet_pton (AF_INET6, ip, &v6->sin6_addr) == 1)
    {
      v6->sin6_family = AF_INET6;
      v6->sin6_port = htons ((unsigned short) atoi (port));
      *length = sizeof *v6;
      return AF_INET6;
    }
  return -1;
}

static void
tell (const void *data,
      size_t      length)
{
  fwrite (data, 1, length, stdout);
  fflush (stdout);
}

/* Passes bytes both ways between @client and the agent, telling what the client sent. */
static void
relay (int                      client,
       struct sockaddr_storage *agent_address,
       socklen_t                agent_length)
{
  int agent = socket (agent_address->ss_family, SOCK_STREAM, 0);
  struct pollfd ends[2] = { { client, POLLIN, 0 }, { agent, POLLIN, 0 } };
  char buffer[16384];

  if (agent < 0 || connect (agent, (struct sockaddr *) agent_address, agent_length) != 0)
    return;
  while (poll (ends, 2, 30000) > 0)
    for (int i = 0; i < 2; i++)
      if (ends[i].revents != 0)
        {
          ssize_t got = read (ends[i].fd, buffer, sizeof buffer);

          if (got <= 0)
            return;
          if (i == 0)
            tell (buffer, (size_t) got);
          if (write (ends[1 - i].fd, buffer, (size_t) got) != got)
            return;
        }
}

/* Answers the request on @client with a 302 to the same path on the agent. */
static void
redirect (int         client,
          const char *agent_ip,
          const char *agent_port)
{
  char request[16384], answer[20000], path[8192] = "/";
  size_t have = 0;
  int written;

  request[0] = '\0';
  while (have < sizeof request - 1 && strstr (request, "\r\n\r\n") == NULL)
    {
      ssize_t got = read (client, request + have, sizeof request - 1 - have);

      if (got <= 0)
        break;
      have += (size_t) got;
      request[have] = '\0';
    }
  request[have] = '\0';
  tell (request, have);
  sscanf (request, "%*s %8191s", path);
  written = snprintf (answer, sizeof answer,
                      "HTTP/1.1 302 Found\r\nLocation: http://%s%s%s:%s%s\r\nContent-Length: 0\r\n"
                      "Connection: close\r\n\r\n", strchr (agent_ip, ':') != NULL ? "[" : "", agent_ip,
                      strchr (agent_ip, ':') != NULL ? "]" : "", agent_port, path);
  if (written > 0 && write (client, answer, (size_t) written) != written)
    return;
}

static int
become_nobody (void)
{
  struct passwd *nobody = getpwnam ("nobody");
  struct group *nogroup = getgrnam ("nogroup");
  gid_t group = nogroup != NULL ? nogroup->gr_gid : (nobody != NULL ? nobody->pw_gid : 65534);

  if (nobody == NULL || setgroups (0, NULL) != 0 || setgid (group) != 0 || setuid (nobody->pw_uid) != 0 ||
      getuid () == 0 || setuid (0) == 0)
    return -1;
  return 0;
}

int
main (int    argc,
      char **argv)
{
  struct sockaddr_storage listen_address, agent_address;
  socklen_t listen_length, agent_length;
  struct sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  int listener, one = 1;

  prctl (PR_SET_PDEATHSIG, SIGTERM);
  signal (SIGCHLD, SIG_IGN);
  alarm (300);   /* whatever becomes of the test, the stranger does not outlive it long */
  if (argc != 6 || (strcmp (argv[1], "relay") != 0 && strcmp (argv[1], "redirect") != 0) ||
      parse_address (argv[2], argv[3], &listen_address, &listen_length) < 0 ||
      parse_address (argv[4], argv[5], &agent_address, &agent_length) < 0)
    {
      fprintf (stderr, "usage: stranger relay|redirect LISTEN-IP LISTEN-PORT AGENT-IP AGENT-PORT\n");
      return 1;
    }
  if (getuid () == 0 && become_nobody () != 0)
    {
      printf ("cannot become nobody: %s\n", strerror (errno));
      return 2;
    }
  /* A change of user clears the parent-death signal: asked for again, as the user it now is. */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () == 1)
    return 2;
  printf ("user %s\n", getpwuid (getuid ()) != NULL ? getpwuid (getuid ())->pw_name : "?");
  listener = socket (listen_address.ss_family, SOCK_STREAM, 0);
  setsockopt (listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (listener < 0 || bind (listener, (struct sockaddr *) &listen_address, listen_length) != 0 ||
      listen (listener, 16) != 0 || getsockname (listener, (struct sockaddr *) &bound, &bound_length) != 0)
    {
      printf ("cannot listen: %s\n", strerror (errno));
      return 2;
    }
  printf ("listening %u\n", ntohs (bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *) &bound)->sin6_port
                                                                : ((struct sockaddr_in *) &bound)->sin_port));
  fflush (stdout);
  for (;;)
    {
      int client = accept (listener, NULL, NULL);

      if (client < 0)
        continue;
      if (fork () == 0)
        {
          prctl (PR_SET_PDEATHSIG, SIGTERM);
          close (listener);
          if (strcmp (argv[1], "relay") == 0)
            relay (client, &agent_address, agent_length);
          else
            redirect (client, argv[4], argv[5]);
          _exit (0);
        }
      close (client);
    }
}
