/* suanli-test-samples.h — small traces written by hand, read by the importers' and the flame
 * graph's tests, which work out their figures in their comments
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* A small Kineto-form trace: a CPU op launching two kernels on two streams (one an NCCL
 * collective), a host-to-device copy and a memset; one launch joined by an ac2g flow, the other
 * only by its correlation id. */
static const char suanli_test_kineto_trace[] =
  "{\"schemaVersion\":1,\"distributedInfo\":{\"rank\":3},\"traceEvents\":[\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":0,\"dur\":50},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":5,\"dur\":4,"
  "\"args\":{\"correlation\":11}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":20,\"dur\":4,"
  "\"args\":{\"correlation\":12}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":30,"
  "\"args\":{\"device\":0,\"stream\":7,\"correlation\":11}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce_RING_LL_Sum_float\",\"pid\":0,\"tid\":13,"
  "\"ts\":25,\"dur\":30,\"args\":{\"device\":0,\"stream\":13,\"correlation\":12}},\n"
  "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"pid\":0,\"tid\":7,"
  "\"ts\":60,\"dur\":10},\n"
  "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\",\"pid\":0,\"tid\":7,\"ts\":100,\"dur\":2},\n"
  "{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":11,\"pid\":100,\"tid\":100,\"ts\":5,\"bp\":\"e\"},\n"
  "{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":11,\"pid\":0,\"tid\":7,\"ts\":10,\"bp\":\"e\"}\n"
  "]}\n";

/* Collapsed stacks (one stack and its count a line) with a blank line, a comment, a zero count
 * and CRLF line ends. */
static const char suanli_test_folded_sample[] =
  "main;parse;lex 120\r\n"
  "main;parse;tokens 30\r\n"
  "\r\n"
  "# a comment is not a stack\r\n"
  "main;eval 50\r\n"
  "main;eval;add 0\r\n"
  "other_[k] 7";
