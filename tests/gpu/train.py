#!/usr/bin/env python3
# train.py — a small transformer's training loop, for the live-capture GPU check (check-live.sh)
#
#   train.py --device cuda|cpu --report REPORT.json [--steps N] [--warm-up N] [--profile TRACE.json]
#            [--hold PREFIX] [model sizes]
#
# A decoder-style language model (embedding, pre-norm encoder layers with a causal mask, a head)
# learns next tokens of fixed random batches with AdamW; every step ends in loss.item(), as a loop
# that logs its loss does. After the warm-up steps, the measured steps run between two marker
# kernels (torch.cuda._sleep's spin_kernel, on the CUDA device), so that a capture of the whole job
# and torch.profiler's trace of the loop can be compared over the same kernels; each step is an
# NVTX range ("suanli_step"), and the loop one ("suanli_train").
#   --profile   torch.profiler traces the measured loop (CPU and CUDA) and exports its Chrome trace
#   --hold      with --profile: once the profiler runs, writes PREFIX-ready (the pid) and waits, at
#               most 120 s, for PREFIX-go, so that a collector can try to attach meanwhile
# REPORT gets the step times (ms), their median, the first and last loss, and versions.
# Runs with Debian's torch 1.13 (CPU) and PyTorch 2.x alike.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import json
import os
import statistics
import sys
import time

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, vocabulary, d_model, heads, layers, sequence):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, d_model)
        self.position = nn.Parameter(torch.zeros(sequence, d_model))
        layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=4 * d_model, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocabulary)
        self.register_buffer("mask", torch.triu(torch.full((sequence, sequence), float("-inf")), diagonal=1))

    def forward(self, tokens):
        x = self.embedding(tokens) + self.position[: tokens.shape[1]]
        x = self.layers(x, mask=self.mask[: tokens.shape[1], : tokens.shape[1]])
        return self.head(self.norm(x))


def arguments(argv):
    parser = argparse.ArgumentParser(description="A small transformer's training loop, timed")
    parser.add_argument("--device", required=True, choices=["cuda", "cpu"])
    parser.add_argument("--report", required=True)
    parser.add_argument("--steps", type=int, default=100, help="measured steps")
    parser.add_argument("--warm-up", type=int, default=10, help="steps before the measured ones")
    parser.add_argument("--profile", help="torch.profiler's Chrome trace of the measured steps")
    parser.add_argument("--hold", help="with --profile: PREFIX-ready, then wait for PREFIX-go")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--d-model", type=int, default=256)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--sequence", type=int, default=128)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--vocabulary", type=int, default=2048)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    if options.hold and not options.profile:
        parser.error("--hold needs --profile")
    if options.device == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda: this torch sees no CUDA device")
    return options


def hold(prefix):
    with open(prefix + "-ready.tmp", "w") as ready:
        ready.write(f"{os.getpid()}\n")
    os.rename(prefix + "-ready.tmp", prefix + "-ready")
    deadline = time.monotonic() + 120
    while not os.path.exists(prefix + "-go"):
        if time.monotonic() > deadline:
            sys.exit(f"train.py: no {prefix}-go within 120 s")
        time.sleep(0.01)


def main(argv):
    options = arguments(argv)
    torch.manual_seed(options.seed)
    device = torch.device(options.device)
    cuda = device.type == "cuda"
    model = Model(options.vocabulary, options.d_model, options.heads, options.layers, options.sequence).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss_function = nn.CrossEntropyLoss()
    batches = torch.randint(0, options.vocabulary, (8, options.batch, options.sequence + 1), device=device)

    def one_step(i):
        tokens = batches[i % batches.shape[0]]
        optimizer.zero_grad(set_to_none=True)
        logits = model(tokens[:, :-1])
        loss = loss_function(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))
        loss.backward()
        optimizer.step()
        return loss.item()

    def nvtx_push(name):
        if cuda:
            torch.cuda.nvtx.range_push(name)

    def nvtx_pop():
        if cuda:
            torch.cuda.nvtx.range_pop()

    for i in range(options.warm_up):
        one_step(i)

    profiler = None
    if options.profile:
        activities = [torch.profiler.ProfilerActivity.CPU]
        if cuda:
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        profiler = torch.profiler.profile(activities=activities)
        profiler.__enter__()
        if options.hold:
            hold(options.hold)

    if cuda:
        torch.cuda.synchronize()
        torch.cuda._sleep(1000)   # the marker before the measured loop
    nvtx_push("suanli_train")
    times, losses = [], []
    for i in range(options.steps):
        nvtx_push("suanli_step")
        start = time.perf_counter()
        losses.append(one_step(options.warm_up + i))
        times.append(1000 * (time.perf_counter() - start))
        nvtx_pop()
    nvtx_pop()
    if cuda:
        torch.cuda._sleep(1000)   # the marker after it
        torch.cuda.synchronize()

    if profiler is not None:
        profiler.__exit__(None, None, None)
        profiler.export_chrome_trace(options.profile)

    report = {
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "steps": options.steps,
        "warm_up": options.warm_up,
        "step_ms": times,
        "median_step_ms": statistics.median(times),
        "loss_first": losses[0],
        "loss_last": losses[-1],
        "parameters": sum(p.numel() for p in model.parameters()),
        "profiled": bool(options.profile),
    }
    with open(options.report, "w") as out:
        json.dump(report, out, indent=1)
    print(f"train.py: {options.steps} steps on {report['device']}, median {report['median_step_ms']:.3f} ms a step, "
          f"loss {losses[0]:.3f} to {losses[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
