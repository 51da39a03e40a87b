/* suanli-agent-proof.h — an agent proving that it knows the token, without either side sending it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A challenge is 32 random bytes, written as 64 lowercase hexadecimal digits. */
#define SUANLI_AGENT_CHALLENGE_LENGTH 64

char     *suanli_agent_challenge_new  (void);
gboolean  suanli_agent_challenge_check (const char *challenge);
gboolean  suanli_agent_has_ipv6_loopback (void);
char     *suanli_agent_address_text   (GInetSocketAddress *address);
char     *suanli_agent_proof          (const char *token,
                                       const char *challenge,
                                       const char *address);
gboolean  suanli_agent_proof_matches  (const char *token,
                                       const char *challenge,
                                       const char *address,
                                       const char *proof);

G_END_DECLS
