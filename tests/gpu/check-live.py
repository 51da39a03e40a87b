#!/usr/bin/env python3
# check-live.py — the table of tests/gpu/check-live.sh: what the captures hold against what the
# workload and the training loop did and measured.
#
#   check-live.py RESULTS [--json VERDICTS.json]
#
# RESULTS is the folder check-live.sh run fills (see RESULTS_LAYOUT below); a file that is missing
# makes its rows "NOT RUN" with the reason, never a crash. The captures are read twice: converted
# by suanli-cli (`trace convert`, Chrome JSON: names, times, arguments, flows), and raw for what
# only the stream holds (the header's flags, the end record, drop records). Kineto's traces are
# read as torch.profiler wrote them. Prints the table, writes RESULTS/table.txt, and exits 1 when
# a row failed or could not run. Python 3.11 or later, standard library only.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import collections
import json
import os
import re
import statistics
import struct
import sys

RESULTS_LAYOUT = """
  steps.txt                   one line a step: NAME STATUS SECONDS [WHY…] (status ok, failed, timeout, skipped)
  env.txt                     KEY VALUE lines: the machine, its glibc, driver, torch
  plain-N.txt idle-N.txt captured-N.txt   the workload's reports, N = 1…3
  capture-N.suanli-capture, capture-N.json   the launch-mode captures, raw and converted
  attach.txt                  the report of the job captured twice by --attach (3 rounds)
  attach-R.suanli-capture, attach-R.json, attach-states.txt   its captures, R = 1, 2, and its states
  train-plain-N.json train-idle-N.json train-captured.json train-kineto.json   train.py's reports
  train.suanli-capture train.json kineto.json     the recorded loop and torch.profiler's trace
  train-e.* kineto-e.json     torch.profiler started while suanli-cli records (record-e.log)
  train-f.* kineto-f.json     suanli-cli attached while torch.profiler holds CUPTI (record-f.log)
"""

LONG = "suanli_long_kernel(long long, int*)"
SHORT = "suanli_short_kernel(int*)"
PATH = "suanli_path_kernel(int*)"
MANGLED = {"_Z18suanli_long_kernelxPi": LONG, "_Z19suanli_short_kernelPi": SHORT, "_Z18suanli_path_kernelPi": PATH}
PHASES = ["suanli_phase_long", "suanli_phase_burst", "suanli_phase_copies", "suanli_phase_paths"]
# The API a launch path's kernel must come from (CUPTI's name less its _vNNNN).
PATH_APIS = {
    "chevrons": {"__cudaLaunchKernel", "cudaLaunchKernel"},
    "runtime": {"cudaLaunchKernel"},
    "ptsz": {"cudaLaunchKernel_ptsz", "__cudaLaunchKernel_ptsz"},
    "cooperative": {"cudaLaunchCooperativeKernel"},
    "ex": {"cudaLaunchKernelExC"},
    "driver": {"cuLaunchKernel"},
    "driver_ex": {"cuLaunchKernelEx"},
    "graph": {"cudaGraphLaunch"},
}
END_REASONS = {0: "stopped", 1: "job exit", 2: "CUPTI taken by another client", 3: "error"}
FROM_LAUNCH = 1


# ---- reading ------------------------------------------------------------------------------------

class Missing(Exception):
    """What a row needs is not there: the row did not run."""


class Failed(Exception):
    """A step that a row needs failed where its plain run did not: the row failed."""


def need(path, why=None):
    if not os.path.exists(path):
        raise Missing(why or f"{os.path.basename(path)} is missing")
    return path


def read_report(path):
    """The workload's "key value…" lines: key → list of token lists."""
    report = collections.defaultdict(list)
    with open(need(path)) as lines:
        for line in lines:
            words = line.split()
            if words:
                report[words[0]].append(words[1:])
    return report


def one(report, key, cast=int):
    if key not in report:
        raise Missing(f"the report has no {key}")
    return cast(report[key][0][0])


def read_json(path):
    with open(need(path)) as text:
        return json.load(text)


def ns(microseconds):
    return int(round(float(microseconds) * 1000))


def grid_of(value):
    if isinstance(value, list):
        return tuple(int(v) for v in value)
    if isinstance(value, str):
        return tuple(int(v) for v in value.strip("[]").split(","))
    return None


class Trace:
    """A Chrome trace as suanli-cli writes it, or as torch.profiler does: its GPU work, API calls,
    NVTX ranges and flows, with times in integer nanoseconds."""

    def __init__(self, path):
        data = read_json(path)
        events = data["traceEvents"] if isinstance(data, dict) else data
        self.kernels, self.copies, self.memsets, self.apis, self.ranges = [], [], [], [], []
        flow_ends = collections.defaultdict(dict)
        for event in events:
            phase, category = event.get("ph"), event.get("cat")
            if phase == "X":
                start = ns(event["ts"])
                item = {"name": event.get("name", ""), "start": start, "end": start + ns(event.get("dur", 0)),
                        "pid": event.get("pid"), "tid": event.get("tid"), "args": event.get("args", {})}
                if category == "kernel":
                    self.kernels.append(item)
                elif category == "gpu_memcpy":
                    self.copies.append(item)
                elif category == "gpu_memset":
                    self.memsets.append(item)
                elif category in ("cuda_runtime", "cuda_driver"):
                    self.apis.append(item)
                elif category == "user_annotation":
                    self.ranges.append(item)
            elif phase in ("s", "f") and "id" in event:
                flow_ends[(event.get("cat"), event["id"])][phase] = (event.get("pid"), event.get("tid"), ns(event["ts"]))
        self.kernels.sort(key=lambda k: k["start"])
        # A flow binds the slice that starts where its end sits, on that end's thread or stream (of
        # two API calls starting together, the outer one: the longer).
        api_at = {}
        for a in sorted(self.apis, key=lambda a: a["start"] - a["end"]):
            api_at.setdefault((a["pid"], a["tid"], a["start"]), a)
        gpu_at = {(k["pid"], k["tid"], k["start"]): k for k in self.kernels + self.copies + self.memsets}
        self.flows = 0
        for ends in flow_ends.values():
            api, work = api_at.get(ends.get("s")), gpu_at.get(ends.get("f"))
            if api is not None and work is not None:
                work.setdefault("launched_by", []).append(api)
                api.setdefault("launches", []).append(work)
                self.flows += 1

    def named(self, name):
        return [k for k in self.kernels if k["name"] == name or MANGLED.get(k["name"]) == name]

    def between_markers(self, marker="spin_kernel"):
        """The kernels after the first marker kernel and before the last (train.py's markers around
        its measured loop); all of them when there are fewer than two markers."""
        marks = [i for i, k in enumerate(self.kernels) if marker in k["name"]]
        if len(marks) < 2:
            return self.kernels, False
        return self.kernels[marks[0] + 1:marks[-1]], True


def read_capture(path):
    """What only the raw stream says: the header's flags and CUPTI version, the end record (with
    its reason and detail), the drop records, and kernel names as the job sent them."""
    with open(need(path), "rb") as stream:
        data = stream.read()
    if len(data) < 120 or data[:8] != b"SUANLICP":
        raise Missing(f"{os.path.basename(path)} is not a capture ({len(data)} bytes)")
    header_size, = struct.unpack_from("=H", data, 10)
    pid, rank = struct.unpack_from("=Ii", data, 16)
    cupti_version, clock_offset = struct.unpack_from("=Iq", data, 32)
    n_devices, device_size = struct.unpack_from("=HH", data, 116)
    flags = struct.unpack_from("=I", data, 120)[0] if header_size >= 124 else 0
    at = header_size + n_devices * device_size
    strings, kernel_names, dropped_records, end = {}, collections.Counter(), 0, None
    records = 0
    while at + 8 <= len(data):
        kind, _, size = struct.unpack_from("=HHI", data, at)
        if size < 8 or at + size > len(data):
            break
        records += 1
        if kind == 8:      # string
            string_id, length = struct.unpack_from("=II", data, at + 8)
            strings[string_id] = data[at + 16:at + 16 + length].decode("utf-8", "replace")
        elif kind == 1:    # kernel: its name's string id is at byte 40
            kernel_names[struct.unpack_from("=I", data, at + 40)[0]] += 1
        elif kind == 11:   # dropped
            dropped_records += struct.unpack_from("=Q", data, at + 8)[0]
        elif kind == 12:   # end
            sent, lost = struct.unpack_from("=QQ", data, at + 8)
            reason, detail = struct.unpack_from("=II", data, at + 24) if size >= 32 else (None, 0)
            end = {"records": sent, "dropped": lost, "reason": reason, "detail": detail}
        at += size
    if end is not None:
        end["detail"] = strings.get(end["detail"], "") if end["detail"] else ""
    # `record -- sh -c …` writes one stream a process, one after another.
    return {"flags": flags, "cupti_version": cupti_version, "pid": pid, "clock_offset": clock_offset,
            "n_devices": n_devices, "streams": data.count(b"SUANLICP"),
            "end": end, "dropped_records": dropped_records, "records": records,
            "kernel_names": {strings.get(i, f"(name {i})"): n for i, n in kernel_names.items()}}


def read_steps(results):
    steps = {}
    path = os.path.join(results, "steps.txt")
    if os.path.exists(path):
        with open(path) as lines:
            for line in lines:
                words = line.split(None, 3)
                if len(words) >= 2:
                    steps[words[0]] = (words[1], words[3].strip() if len(words) > 3 else "")
    return steps


# ---- the rows -----------------------------------------------------------------------------------

class Table:
    def __init__(self, results):
        self.results = results
        self.steps = read_steps(results)
        self.rows = []
        self.cache = {}

    def path(self, name):
        return os.path.join(self.results, name)

    def step_ran(self, *names):
        """Raises Missing when a step that made a row's input was skipped, or failed as its plain
        run did too (the machine cannot run it at all); Failed when it failed alone."""
        for name in names:
            status, why = self.steps.get(name, ("missing", "the step did not run"))
            if status == "ok":
                continue
            said = f"step {name} {status}" + (f": {why}" if why else "")
            baseline = "train-plain-1" if name.startswith("train") else "plain-1"
            if status in ("skipped", "missing") or self.steps.get(baseline, ("missing",))[0] != "ok":
                raise Missing(said)
            raise Failed(said)

    def trace(self, name):
        if name not in self.cache:
            self.cache[name] = Trace(self.path(name))
        return self.cache[name]

    def capture(self, name):
        key = "raw:" + name
        if key not in self.cache:
            self.cache[key] = read_capture(self.path(name))
        return self.cache[key]

    def row(self, check, function):
        try:
            verdict, measured = function()
        except Missing as missing:
            verdict, measured = "NOT RUN", str(missing)
        except Failed as failed:
            verdict, measured = "FAIL", str(failed)
        except (KeyError, ValueError, IndexError, ZeroDivisionError, json.JSONDecodeError, struct.error) as error:
            verdict, measured = "FAIL", f"unreadable: {type(error).__name__}: {error}"
        self.rows.append((check, measured, verdict))

    def figure(self, check, function):
        try:
            measured = function()
        except (Missing, Failed, KeyError, ValueError, IndexError, ZeroDivisionError, struct.error) as why:
            measured = f"(none: {why})"
        self.rows.append((check, measured, "(figure)"))


def verdict(ok):
    return "ok" if ok else "FAIL"


def percent(a, b):
    return 100.0 * (a - b) / b


def workload_rows(table):
    runs = [1, 2, 3]

    def first_capture():
        """The first launch-mode capture, converted, and the workload's report of that run."""
        table.step_ran("convert-capture-1")
        return table.trace("capture-1.json"), read_report(table.path("captured-1.txt"))

    def counts():
        table.step_ran(*(f"captured-{i}" for i in runs), *(f"convert-capture-{i}" for i in runs))
        seen, good = [], True
        for i in runs:
            trace, report = table.trace(f"capture-{i}.json"), read_report(table.path(f"captured-{i}.txt"))
            want = {LONG: one(report, "long_launches") + one(report, "warm_up_launches"),
                    SHORT: one(report, "short_launches"), PATH: len(report["path"])}
            got = {name: len(trace.named(name)) for name in want}
            good &= got == want
            seen.append("/".join(str(got[n]) for n in want))
        return verdict(good), f"{', '.join(seen)} (want {'/'.join(str(v) for v in want.values())})"

    table.row("kernels per run, long/short/path (launch mode, 3 runs)", counts)

    def names():
        table.step_ran("convert-capture-1")
        found = collections.Counter(k["name"] for k in table.trace("capture-1.json").kernels)
        mangled = [n for n in found if n.startswith("_Z")]
        missing = [n for n in (LONG, SHORT, PATH) if n not in found]
        if mangled or missing:
            return "FAIL", f"mangled: {', '.join(mangled) or 'none'}; not found: {', '.join(missing) or 'none'}"
        return "ok", f"{LONG}, {SHORT}, {PATH}"

    table.row("kernel names demangled as Kineto shows them", names)

    def copies():
        trace, report = first_capture()
        n, size, memset_size = one(report, "copies_each_way"), one(report, "copy_bytes"), one(report, "memset_bytes")
        by = collections.defaultdict(list)
        for copy in trace.copies:
            by[copy["name"]].append(int(copy["args"].get("bytes", -1)))
        htod, dtoh = by.get("Memcpy HtoD", []), by.get("Memcpy DtoH", [])
        sets = [int(m["args"].get("bytes", -1)) for m in trace.memsets]
        good = htod == [size] * n and dtoh == [size] * n and sets == [memset_size]
        other = {k: len(v) for k, v in by.items() if k not in ("Memcpy HtoD", "Memcpy DtoH")}
        return verdict(good), (f"HtoD {len(htod)} × {set(htod) or '-'} B, DtoH {len(dtoh)} × {set(dtoh) or '-'} B, "
                               f"memset {sets} B" + (f", other {other}" if other else ""))

    table.row("copies: directions and bytes (10 × 8 MiB each way, 1 MiB memset)", copies)

    def durations():
        trace, report = first_capture()
        long_ns = one(report, "long_ns")
        events = [float(words[2]) * 1e6 for words in report["long_event_ms"]]
        kernels = [k for k in trace.named(LONG) if k["end"] - k["start"] >= 100000]
        if len(kernels) != len(events):
            return "FAIL", f"{len(kernels)} kernels of 100 µs or more, {len(events)} event timings"
        worst = max(abs(k["end"] - k["start"] - e) / e for k, e in zip(kernels, events))
        spread = [(k["end"] - k["start"]) / 1000 for k in kernels]
        return verdict(worst <= 0.10), (f"worst {100 * worst:.2f}% over {len(kernels)} (kernels {min(spread):.1f}…"
                                        f"{max(spread):.1f} µs, aim {long_ns / 1000:.0f})")

    table.row("durations >= 100 us vs CUDA events (within 10%)", durations)

    def geometry():
        trace, report = first_capture()
        registers = {words[0]: int(words[1]) for words in report["registers"]}
        sms = one(report, "sm_count")
        wrong = []
        for k in trace.named(LONG):
            if k["end"] - k["start"] < 100000:
                continue   # the warm-up, one block
            if grid_of(k["args"].get("grid")) != (sms, 1, 1) or grid_of(k["args"].get("block")) != (32, 1, 1):
                wrong.append(f"long grid {k['args'].get('grid')} block {k['args'].get('block')}")
        for k in trace.named(SHORT):
            if grid_of(k["args"].get("grid")) != (1, 1, 1) or grid_of(k["args"].get("block")) != (32, 1, 1):
                wrong.append(f"short grid {k['args'].get('grid')} block {k['args'].get('block')}")
        grids = sorted(grid_of(k["args"].get("grid"))[0] for k in trace.named(PATH))
        if grids != list(range(1, len(report["path"]) + 1)):
            wrong.append(f"path grids {grids}")
        for name, kernel in (("suanli_long_kernel", LONG), ("suanli_short_kernel", SHORT), ("suanli_path_kernel", PATH)):
            seen = {int(k["args"].get("registers per thread", -1)) for k in trace.named(kernel)}
            if seen != {registers[name]}:
                wrong.append(f"{name} registers {sorted(seen)} (cudaFuncGetAttributes {registers[name]})")
        return verdict(not wrong), "; ".join(wrong[:3]) or (f"grids and blocks as launched; registers "
                                                          f"{registers['suanli_long_kernel']}/"
                                                          f"{registers['suanli_short_kernel']}/"
                                                          f"{registers['suanli_path_kernel']}")

    table.row("grid, block and registers of every kernel", geometry)

    def streams():
        trace, report = first_capture()
        ids = {words[0]: int(words[1]) for words in report["stream_id"]}
        long_streams = {int(k["args"]["stream"]) for k in trace.named(LONG) if k["end"] - k["start"] >= 100000}
        short_streams = {int(k["args"]["stream"]) for k in trace.named(SHORT)}
        copy_streams = {int(c["args"]["stream"]) for c in trace.copies}
        good = len(long_streams) == 1 and len(short_streams) == 1 and long_streams != short_streams \
            and copy_streams == long_streams
        same = long_streams == {ids["first"]} and short_streams == {ids["second"]}
        return verdict(good), (f"long {sorted(long_streams)}, short {sorted(short_streams)}, copies "
                               f"{sorted(copy_streams)}; cudaStreamGetId {ids['first']}/{ids['second']}"
                               f" ({'equal' if same else 'other ids'})")

    table.row("streams: long kernels and copies on one, the burst on another", streams)

    def nvtx():
        table.step_ran("convert-capture-1")
        trace = table.trace("capture-1.json")
        problems = []
        work = {"suanli_phase_long": trace.named(LONG)[1:], "suanli_phase_burst": trace.named(SHORT),
                "suanli_phase_copies": trace.copies + trace.memsets, "suanli_phase_paths": trace.named(PATH)}
        inside = 0
        for phase in PHASES:
            ranges = [r for r in trace.ranges if r["name"] == phase]
            if len(ranges) != 1:
                problems.append(f"{phase}: {len(ranges)} ranges")
                continue
            r = ranges[0]
            outside = [w for w in work[phase] if w["start"] < r["start"] or w["end"] > r["end"]]
            inside += len(work[phase]) - len(outside)
            if outside or not work[phase]:
                problems.append(f"{phase}: {len(outside)} of {len(work[phase])} outside")
        return verdict(not problems), "; ".join(problems) or f"4 ranges, {inside} GPU records inside them"

    table.row("NVTX ranges, with their GPU work inside them", nvtx)

    def clocks():
        trace, report = first_capture()
        stamps = [(int(w[2]), int(w[3])) for w in report["long_realtime_ns"]]
        kernels = [k for k in trace.named(LONG) if k["end"] - k["start"] >= 100000]
        if len(kernels) != len(stamps):
            raise Missing(f"{len(kernels)} long kernels for {len(stamps)} stamps")
        # The workload's CLOCK_REALTIME before the launch and after the sync bracket each kernel.
        wall = min(min(k["start"] - before, after - k["end"]) for k, (before, after) in zip(kernels, stamps))
        # Every kernel starts after the API call that launched it began, on CUPTI's clocks.
        launched = [(k["start"] - k["launched_by"][0]["start"]) for k in trace.kernels if k.get("launched_by")]
        order = min(launched) if launched else None
        good = wall >= -10000 and order is not None and order >= -10000
        return verdict(good), (f"wall-clock margin {wall / 1000:+.1f} µs, launch-to-kernel margin "
                               f"{'-' if order is None else f'{order / 1000:+.1f}'} µs (tolerance 10 µs)")

    table.row("CPU and GPU clocks agree (kernels between their CPU stamps)", clocks)

    def flows():
        table.step_ran("convert-capture-1")
        trace = table.trace("capture-1.json")
        capturing = [r for r in trace.ranges if r["name"] == "suanli_graph_capture"]

        def in_capture(api):
            return any(r["start"] <= api["start"] <= r["end"] and r["tid"] == api["tid"] for r in capturing)

        unlinked = [k for k in trace.kernels if not k.get("launched_by")]
        launches = [a for a in trace.apis if "Launch" in a["name"] and not in_capture(a)]
        # A launch counts as linked when it, or the API call around it on its thread, has a flow.
        linked_outer = [a for a in launches if a.get("launches")]

        def covered(api):
            return api.get("launches") or any(o["tid"] == api["tid"] and o["start"] <= api["start"] and
                                              api["end"] <= o["end"] for o in linked_outer)

        orphans = [a for a in launches if not covered(a)]
        names = collections.Counter(a["name"] for a in orphans)
        return verdict(not unlinked and not orphans and trace.kernels), (
            f"{len(trace.kernels) - len(unlinked)} of {len(trace.kernels)} kernels have a flow; "
            f"{len(launches) - len(orphans)} of {len(launches)} launches"
            + (f" (without: {dict(names.most_common(3))})" if orphans else ""))

    table.row("a flow from every launch to its kernel", flows)

    def paths():
        trace, report = first_capture()
        wrong = []
        for number, name in ((int(w[0]), w[1]) for w in report["path"]):
            kernels = [k for k in trace.named(PATH) if grid_of(k["args"].get("grid"))[0] == number]
            if len(kernels) != 1:
                wrong.append(f"{name}: {len(kernels)} kernels")
                continue
            apis = [re.sub(r"_v[0-9]+$", "", a["name"]) for a in kernels[0].get("launched_by", [])]
            stack = str(kernels[0]["args"].get("Call stack", ""))
            if not any(a in PATH_APIS[name] for a in apis):
                wrong.append(f"{name}: launched by {apis or 'nothing'}")
            if f"suanli_launch_{name}" not in stack:
                wrong.append(f"{name}: stack {'empty' if not stack else 'without suanli_launch_' + name}")
            if name == "graph" and "graph id" not in kernels[0]["args"]:
                wrong.append("graph: no graph id")
        return verdict(not wrong), "; ".join(wrong) or f"{len(report['path'])} paths: flow, API and stack each"

    table.row("every launch path: its API, flow and launch stack", paths)

    def stacks():
        table.step_ran("convert-capture-1")
        trace = table.trace("capture-1.json")
        with_stack = [k for k in trace.kernels if k["args"].get("Call stack")]
        long_named = [k for k in trace.named(LONG) if "run_round" in str(k["args"].get("Call stack", ""))]
        good = len(with_stack) == len(trace.kernels) and len(long_named) == len(trace.named(LONG)) - 1
        return verdict(good and trace.kernels), (f"{len(with_stack)} of {len(trace.kernels)} kernels have a stack; "
                                                 f"{len(long_named)} long ones name run_round")

    table.row("a launch stack on every kernel", stacks)

    def from_launch():
        table.step_ran("captured-1")
        raw = table.capture("capture-1.suanli-capture")
        report = read_report(table.path("captured-1.txt"))
        warm_up = one(report, "warm_up_launches")
        first = raw["flags"] & FROM_LAUNCH
        trace = table.trace("capture-1.json")
        capture_range = any(r["name"] == "suanli_graph_capture" for r in trace.ranges)
        good = bool(first) and len(trace.named(LONG)) == one(report, "long_launches") + warm_up and capture_range
        return verdict(good), (f"from-launch flag {'set' if first else 'not set'}; warm-up "
                               f"{'in' if len(trace.named(LONG)) > one(report, 'long_launches') else 'missing'}; "
                               f"set-up NVTX range {'in' if capture_range else 'missing'}")

    table.row("launch mode holds the job from its first CUDA call", from_launch)

    def overhead(kind, key, limit):
        def check():
            table.step_ran(*(f"plain-{i}" for i in runs), *(f"{kind}-{i}" for i in runs))
            plain = statistics.median(float(read_report(table.path(f"plain-{i}.txt"))[key][0][1]) for i in runs)
            other = statistics.median(float(read_report(table.path(f"{kind}-{i}.txt"))[key][0][1]) for i in runs)
            return verdict(other <= plain * (1 + limit / 100)), (f"{percent(other, plain):+.2f}% ({other:.2f} against "
                                                                 f"{plain:.2f} ms, medians of 3)")
        return check

    table.row("overhead idle (injected, no capture): long loop, aim <= 1%", overhead("idle", "long_wall_ms", 1))
    table.row("overhead capturing: long loop, aim <= 10%", overhead("captured", "long_wall_ms", 10))
    for kind in ("idle", "captured"):
        table.figure(f"burst of 20,000 launches, {kind} against plain",
                     lambda kind=kind: overhead(kind, "burst_wall_ms", 1e9)()[1])

    def nostacks(key):
        def figure():
            table.step_ran(*(f"plain-{i}" for i in runs), "captured-nostacks")
            plain = statistics.median(float(read_report(table.path(f"plain-{i}.txt"))[key][0][1]) for i in runs)
            other = float(read_report(table.path("captured-nostacks.txt"))[key][0][1])
            return f"{percent(other, plain):+.2f}% ({other:.2f} against {plain:.2f} ms)"
        return figure

    table.figure("long loop captured with --stack-depth 0, against plain", nostacks("long_wall_ms"))
    table.figure("burst of 20,000 launches captured with --stack-depth 0, against plain", nostacks("burst_wall_ms"))

    def devices():
        table.step_ran("captured-1")
        raw = table.capture("capture-1.suanli-capture")
        return verdict(raw["n_devices"] >= 1), f"{raw['n_devices']} in the header (the job's libcuda, loaded RTLD_LOCAL)"

    table.row("the capture lists the job's GPUs", devices)

    def processes():
        table.step_ran("multi")
        raw = table.capture("multi.suanli-capture")
        report = read_report(table.path("multi-a.txt"))
        long_each = one(report, "long_launches") + one(report, "warm_up_launches")
        long_all = sum(n for name, n in raw["kernel_names"].items() if name == LONG or MANGLED.get(name) == LONG)
        return verdict(raw["streams"] == 2 and raw["flags"] & FROM_LAUNCH), (
            f"{raw['streams']} processes in one file (the first: {long_all} of its {long_each} long kernels)")

    table.row("record -- sh -c with two workloads: one file, both from their launch", processes)


def attach_rows(table):
    def twice():
        table.step_ran("attach-1", "attach-2", "convert-attach-1", "convert-attach-2")
        report = read_report(table.path("attach.txt"))
        want = (one(report, "long_launches"), one(report, "short_launches"), len(report["path"]),
                2 * one(report, "copies_each_way"), len(PHASES))
        problems, seen = [], []
        for r in (1, 2):
            trace, raw = table.trace(f"attach-{r}.json"), table.capture(f"attach-{r}.suanli-capture")
            got = (len(trace.named(LONG)), len(trace.named(SHORT)), len(trace.named(PATH)), len(trace.copies),
                   len([x for x in trace.ranges if x["name"] in PHASES]))
            seen.append("/".join(map(str, got)))
            if got != want:
                problems.append(f"capture {r} holds {got}")
            if raw["flags"] & FROM_LAUNCH:
                problems.append(f"capture {r} says from launch")
            if raw["end"] is None or raw["end"]["reason"] != 0:
                problems.append(f"capture {r} ends {describe_end(raw)}")
        states = open(need(table.path("attach-states.txt"))).read().split()
        if states != ["idle", "capturing", "idle", "capturing", "idle"]:
            problems.append(f"job states {states}")
        return verdict(not problems), ("; ".join(problems) or
                                       f"{seen[0]} and {seen[1]} (long/short/path/copies/ranges, want "
                                       f"{'/'.join(map(str, want))}); ended by STOP; job idle after each")

    table.row("a second START/STOP in the same process (attach twice)", twice)

    def after():
        table.step_ran("attach-3")
        report = read_report(table.path("attach.txt"))
        walls = {int(w[0]): float(w[1]) for w in report["long_wall_ms"]}
        plain = statistics.median(float(read_report(table.path(f"plain-{i}.txt"))["long_wall_ms"][0][1])
                                  for i in (1, 2, 3))
        return f"{percent(walls[3], plain):+.2f}% ({walls[3]:.2f} against plain {plain:.2f} ms)"

    table.figure("long loop after two STOPs, against plain", after)


def describe_end(raw):
    end = raw["end"]
    if end is None:
        return "without an end record"
    reason = END_REASONS.get(end["reason"], f"reason {end['reason']}")
    return reason + (f" ({end['detail']})" if end["detail"] else "")


def drop_rows(table):
    def drops():
        names = [n for n in ["capture-1", "capture-2", "capture-3", "attach-1", "attach-2", "train"]
                 if os.path.exists(table.path(n + ".suanli-capture"))]
        if not names:
            raise Missing("no capture was made")
        problems, total = [], 0
        for name in names:
            raw = table.capture(name + ".suanli-capture")
            lost = max(raw["dropped_records"], raw["end"]["dropped"] if raw["end"] else 0)
            total += raw["records"]
            if lost or raw["end"] is None:
                problems.append(f"{name}: {lost} dropped" + ("" if raw["end"] else ", no end record"))
        return verdict(not problems), "; ".join(problems) or f"none of {total} records in {len(names)} captures"

    table.row("no record dropped, every capture ended", drops)


def train_rows(table):
    def kineto_and_ours():
        table.step_ran("train-captured", "convert-train", "train-kineto")
        ours, ours_marked = table.trace("train.json").between_markers()
        theirs, theirs_marked = table.trace("kineto.json").between_markers()
        return ours, theirs, ours_marked and theirs_marked

    def counts():
        ours, theirs, marked = kineto_and_ours()
        a = collections.Counter(k["name"] for k in ours)
        b = collections.Counter(k["name"] for k in theirs)
        worst, worst_name = 0.0, ""
        for name in set(a) | set(b):
            off = abs(a[name] - b[name]) / max(b[name], 1)
            if off > worst:
                worst, worst_name = off, name
        note = f"{len(ours)} against {len(theirs)} kernels, {len(set(a) | set(b))} names"
        if not marked:
            note += " (no markers: whole traces)"
        if worst_name:
            note += f"; worst {100 * worst:.2f}%: {worst_name[:60]} {a[worst_name]}/{b[worst_name]}"
        return verdict(worst <= 0.01 and ours), note

    table.row("train: kernel counts per name, ours vs Kineto (within 1%)", counts)

    def gpu_time():
        ours, theirs, _ = kineto_and_ours()
        a = sum(k["end"] - k["start"] for k in ours)
        b = sum(k["end"] - k["start"] for k in theirs)
        return verdict(b > 0 and abs(a - b) <= 0.05 * b), f"{percent(a, b):+.2f}% ({a / 1e6:.2f} against {b / 1e6:.2f} ms)"

    table.row("train: total kernel time, ours vs Kineto (within 5%)", gpu_time)

    def step(name):
        return read_json(table.path(name))["median_step_ms"]

    def steps(kind, limit):
        def check():
            plain_names = [n for n in ("train-plain-1", "train-plain-2") if table.steps.get(n, ("",))[0] == "ok"]
            if not plain_names:
                table.step_ran("train-plain-1")
            names = [f"train-{kind}-1", f"train-{kind}-2"] if kind == "idle" else [f"train-{kind}"]
            names = [n for n in names if table.steps.get(n, ("",))[0] == "ok"]
            if not names:
                table.step_ran(f"train-{kind}" if kind != "idle" else "train-idle-1")
            plain = min(step(n + ".json") for n in plain_names)
            other = min(step(n + ".json") for n in names)
            return verdict(other <= plain * (1 + limit / 100)), (f"{percent(other, plain):+.2f}% ({other:.3f} against "
                                                                 f"{plain:.3f} ms a step)")
        return check

    table.row("train: step time idle (injected) vs plain, aim <= 1%", steps("idle", 1))
    table.row("train: step time capturing vs plain, aim <= 10%", steps("captured", 10))
    table.figure("train: step time under torch.profiler vs plain", lambda: steps("kineto", 1e9)()[1])

    def names():
        table.step_ran("convert-train")
        mangled = [k["name"] for k in table.trace("train.json").kernels if k["name"].startswith("_Z")]
        return verdict(not mangled), (f"{len(mangled)} mangled, e.g. {mangled[0][:60]}" if mangled
                                      else f"{len(table.trace('train.json').kernels)} kernels, none mangled")

    table.row("train: kernel names demangled", names)

    def kineto_complete(name):
        """torch.profiler's own trace of the loop still holds the loop's kernels."""
        reference = collections.Counter(k["name"] for k in table.trace("kineto.json").between_markers()[0])
        other = collections.Counter(k["name"] for k in table.trace(name).between_markers()[0])
        worst = max((abs(other[n] - reference[n]) / max(reference[n], 1) for n in set(reference) | set(other)),
                    default=1.0)
        return worst <= 0.01 and sum(other.values()) > 0, f"Kineto {sum(other.values())} kernels"

    def kineto_second():
        """torch.profiler inside `record --`. PyTorch 2.11's Kineto is refused CUPTI: the capture keeps
        every kernel of the loop, Kineto's trace has none, and the summary says so. A Kineto that
        collects without subscribing takes CUPTI over: the capture ends saying so, Kineto has all."""
        table.step_ran("train-kineto", "train-e")
        complete, note = kineto_complete("kineto-e.json")
        raw = table.capture("train-e.suanli-capture")
        if raw["end"] is not None and raw["end"]["reason"] == 2:
            return verdict(complete), f"Kineto took CUPTI over: capture ends {describe_end(raw)}; {note}"
        reference = collections.Counter(k["name"] for k in table.trace("kineto.json").between_markers()[0])
        ours = sum(n for name, n in raw["kernel_names"].items() if name != "spin_kernel")
        summary = open(need(table.path("train-e.summary.txt")), errors="replace").read()
        said = "torch.profiler" in summary and "CPU only" in summary
        kineto_gpu = sum(1 for k in table.trace("kineto-e.json").kernels)
        return verdict(raw["end"] is not None and ours >= sum(reference.values()) and kineto_gpu == 0 and said), (
            f"capture {ours} kernels (Kineto alone: {sum(reference.values())} in its loop), ends "
            f"{describe_end(raw)}; Kineto's own trace {kineto_gpu} GPU kernels; summary "
            f"{'says' if said else 'does not say'} why")

    table.row("torch.profiler inside record --: the capture has the GPU work, and says why Kineto has none",
              kineto_second)

    def kineto_first():
        table.step_ran("train-kineto", "train-f")
        complete, note = kineto_complete("kineto-f.json")
        log = open(need(table.path("record-f.log")), errors="replace").read().strip().splitlines()
        refused = next((line for line in log if "ERROR" in line or "CUPTI" in line), "")
        if os.path.exists(table.path("train-f.suanli-capture")):
            raw = table.capture("train-f.suanli-capture")
            said = f"capture ends {describe_end(raw)}"
            ended = raw["end"] is not None and raw["end"]["reason"] in (2, 3)
        else:
            said, ended = f"refused: {refused[:80] or 'no reason given'}", bool(refused)
        return verdict(complete and ended), f"{said}; {note}"

    table.row("suanli-cli attaching while torch.profiler holds CUPTI", kineto_first)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__ or "usage: check-live.py RESULTS [--json VERDICTS.json]" + RESULTS_LAYOUT, file=sys.stderr)
        return 2
    results = argv[1]
    table = Table(results)
    workload_rows(table)
    attach_rows(table)
    drop_rows(table)
    train_rows(table)

    lines = []
    env = os.path.join(results, "env.txt")
    if os.path.exists(env):
        lines += ["  " + line.rstrip() for line in open(env) if line.strip()]
    width = max(len(r[0]) for r in table.rows)
    lines.append(f"{'check':<{width}}  {'verdict':<8} measured")
    for check, measured, result in table.rows:
        lines.append(f"{check:<{width}}  {result:<8} {measured}")
    not_run = [r for r in table.rows if r[2] == "NOT RUN"]
    failed = [r for r in table.rows if r[2] == "FAIL"]
    passed = [r for r in table.rows if r[2] == "ok"]
    lines.append(f"{len(passed)} ok, {len(failed)} failed, {len(not_run)} could not run"
                 + (": " + "; ".join(r[0] for r in not_run) if not_run else ""))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(results, "table.txt"), "w") as out:
        out.write(text)
    if len(argv) >= 4 and argv[2] == "--json":
        with open(argv[3], "w") as out:
            json.dump({check: result for check, _, result in table.rows}, out, indent=1)
    return 1 if failed or not_run else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
