/* suanli-agent-proof.c — an agent proving that it knows the token, without either side sending it
 *
 * On a shared node, another user can bind the agent's port while the agent is down. A workbench
 * that sent its token in its next request would hand it over. So before any request that carries
 * the token, the workbench sends a fresh random challenge (GET /v1/hello?challenge=…, no token)
 * and the agent answers HMAC-SHA256 of it and of the address it was reached at (its side of the
 * connection), keyed with the token. Only an agent that knows the token can answer; the answer
 * tells nothing of the token, and a fresh challenge each time makes an old answer worthless. The
 * address makes a relayed answer worthless too: another user who listens where the workbench looks
 * ([::1]:PORT, when the agent listens on 127.0.0.1:PORT) and passes the hello on to the agent
 * gets back an answer for the agent's address, which is not the one the workbench reached.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "suanli-agent-proof.h"

#define PROOF_CONTEXT "suanli-agent-hello/2:"

/* Returns: (transfer full): a new challenge from the kernel's random source. */
char *
suanli_agent_challenge_new (void)
{
  guint8 bytes[SUANLI_AGENT_CHALLENGE_LENGTH / 2];
  GString *text = g_string_sized_new (SUANLI_AGENT_CHALLENGE_LENGTH);
  gsize got = 0;

  while (got < sizeof bytes)
    {
      ssize_t more = getrandom (bytes + got, sizeof bytes - got, 0);

      if (more > 0)
        got += (gsize) more;
      else
        g_assert (errno == EINTR);   /* getrandom() of 32 bytes fails in no other way once booted */
    }
  for (gsize i = 0; i < sizeof bytes; i++)
    g_string_append_printf (text, "%02x", bytes[i]);
  return g_string_free (text, FALSE);
}

/* Whether @challenge is one: 64 lowercase hexadecimal digits. */
gboolean
suanli_agent_challenge_check (const char *challenge)
{
  if (challenge == NULL || strlen (challenge) != SUANLI_AGENT_CHALLENGE_LENGTH)
    return FALSE;
  for (const char *c = challenge; *c != '\0'; c++)
    if (!g_ascii_isxdigit (*c) || g_ascii_isupper (*c))
      return FALSE;
  return TRUE;
}

/* Whether this machine has an IPv6 loopback address that can be listened on: where it has none,
 * no one can listen on [::1] to be found first as localhost. */
gboolean
suanli_agent_has_ipv6_loopback (void)
{
  g_autoptr(GSocket) probe = g_socket_new (G_SOCKET_FAMILY_IPV6, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV6);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);

  return probe != NULL && g_socket_bind (probe, any_port, FALSE, NULL);
}

/* Returns: (transfer full): @address as a proof names it: "127.0.0.1:7811", "[::1]:7811". */
char *
suanli_agent_address_text (GInetSocketAddress *address)
{
  g_autofree char *ip = g_inet_address_to_string (g_inet_socket_address_get_address (address));
  guint16 port = g_inet_socket_address_get_port (address);

  if (g_inet_address_get_family (g_inet_socket_address_get_address (address)) == G_SOCKET_FAMILY_IPV6)
    return g_strdup_printf ("[%s]:%u", ip, port);
  return g_strdup_printf ("%s:%u", ip, port);
}

/* Returns: (transfer full): the answer to @challenge, reached at @address ("127.0.0.1:7811"), of
 * one who knows @token. A space parts challenge and address: neither has one. */
char *
suanli_agent_proof (const char *token,
                    const char *challenge,
                    const char *address)
{
  g_autoptr(GHmac) hmac = g_hmac_new (G_CHECKSUM_SHA256, (const guchar *) token, strlen (token));

  g_hmac_update (hmac, (const guchar *) PROOF_CONTEXT, strlen (PROOF_CONTEXT));
  g_hmac_update (hmac, (const guchar *) challenge, strlen (challenge));
  g_hmac_update (hmac, (const guchar *) " ", 1);
  g_hmac_update (hmac, (const guchar *) address, strlen (address));
  return g_strdup (g_hmac_get_string (hmac));
}

/* Whether @proof answers @challenge at @address for @token, compared in time that does not depend
 * on where the two differ. */
gboolean
suanli_agent_proof_matches (const char *token,
                            const char *challenge,
                            const char *address,
                            const char *proof)
{
  g_autofree char *expected = suanli_agent_proof (token, challenge, address);
  gsize length = strlen (expected);
  guint8 difference = 0;

  if (proof == NULL || strlen (proof) != length)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    difference |= (guint8) (expected[i] ^ proof[i]);
  return difference == 0;
}
