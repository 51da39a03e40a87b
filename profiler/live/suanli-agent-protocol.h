/* suanli-agent-protocol.h — what a workbench and suanli-agent say to each other
 *
 * HTTP, with `Authorization: Bearer TOKEN` on every request (loopback too):
 *   GET /v1/health              {"status": "ok", "version": …, "host": …}
 *   GET /v1/jobs                the node's profilable jobs, as `suanli-cli jobs --json` prints them
 *   WebSocket /v1/jobs/PID/capture
 * On the WebSocket, the workbench sends JSON text messages (at most SUANLI_AGENT_MAX_CONTROL bytes):
 *   {"type": "clock", "t0": NS}           → {"type": "clock", "t0": NS, "t1": NS, "t2": NS}
 *   {"type": "start", "credit": BYTES}    → {"type": "started"} or {"type": "error", "message": …}
 *   {"type": "credit", "bytes": BYTES}    BYTES more of the stream taken (acknowledged)
 *   {"type": "stop"}                      the job ends its capture; what it holds still comes
 * Each at most SUANLI_AGENT_MAX_CONTROL bytes, however framed. The agent sends the capture stream's
 * bytes in binary messages, never more than the start's credit (the window) past what has been
 * acknowledged; acknowledging bytes never sent ends the connection. Whole records that do not fit
 * wait in a bounded queue; past it they are dropped and counted, and a dropped-records record
 * tells the workbench. When the job's stream closes: {"type": "ended", "records": N, "dropped": N},
 * then a normal close.
 * Times are CLOCK_REALTIME nanoseconds: t0 the workbench's when it sent the probe, t1 and t2 the
 * agent's when the probe came and when it answered (NTP's four timestamps, less the fourth).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#define SUANLI_AGENT_DEFAULT_PORT        7811
#define SUANLI_AGENT_MAX_CONTROL         4096u
#define SUANLI_AGENT_MAX_DATA_MESSAGE    (1u << 20)
#define SUANLI_AGENT_MAX_CREDIT          (64u << 20)
