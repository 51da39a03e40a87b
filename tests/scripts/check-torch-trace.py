#!/usr/bin/python3
"""Real PyTorch profiler traces, written now by Debian's python3-torch (the legacy Chrome form:
a bare array, pid "CPU functions"), read back by `suanli-cli trace summary --json` and checked
against figures this script computes itself from the same JSON. Also: the gzip form, a copy cut
short (kept, with a warning and exit 0) and a file that is not a trace (exit 2, with a position).

Run by meson with SUANLI_CLI set; exits 77 (skipped, saying why) only when torch is missing."""

import decimal
import gzip
import json
import os
import subprocess
import sys
import tempfile

try:
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function
except ImportError as error:
    print(f"SKIP: Debian's python3-torch is not installed ({error}); build-aux/setup.sh test installs it")
    sys.exit(77)

cli = os.environ["SUANLI_CLI"]


def write_trace(path, hidden=128, steps=False):
    """Three training steps of a small model; with @steps, the profiler marks each (ProfilerStep#N)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    inputs = torch.randn(32, 64)
    if steps:
        # torch 1.13 marks ProfilerStep#N only under a schedule: one warm-up step, then three.
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                     schedule=torch.profiler.schedule(wait=0, warmup=1, active=3, repeat=1),
                     on_trace_ready=lambda done: done.export_chrome_trace(path)) as profiler:
            for _ in range(4):
                with record_function("train_step"):
                    optimizer.zero_grad()
                    model(inputs).square().mean().backward()
                    optimizer.step()
                profiler.step()
        return
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as profiler:
        for _ in range(3):
            with record_function("train_step"):
                optimizer.zero_grad()
                model(inputs).square().mean().backward()
                optimizer.step()
    profiler.export_chrome_trace(path)


def operators(events):
    """Per cpu_op name: count, outermost total and self time (less the slices directly under it),
    from the nesting of complete events on each thread."""
    def ns(value):
        return int(decimal.Decimal(str(value)) * 1000)

    by_thread = {}
    for e in events:
        if e.get("ph") == "X":
            by_thread.setdefault((str(e.get("pid")), str(e.get("tid"))), []).append(e)
    result = {}
    for slices in by_thread.values():
        slices.sort(key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
        stack = []
        for e in slices:
            start, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            while stack and stack[-1][1] <= start:
                stack.pop()
            duration = end - start
            # A child that outlasts its parent by a rounding step (1 µs) is cut to end with it.
            if stack and end > stack[-1][1] and end - stack[-1][1] <= 1000:
                end = stack[-1][1]
                duration = end - start
            elif stack and end > stack[-1][1]:
                end = stack[-1][1]
            # torch 1.13's CPU traces have no categories: every slice is an operator there.
            if stack and stack[-1][0].get("cat", "cpu_op") == "cpu_op":
                result[stack[-1][0]["name"]]["self"] -= duration
            if e.get("cat", "cpu_op") == "cpu_op":
                entry = result.setdefault(e["name"], {"count": 0, "total": 0, "self": 0})
                entry["count"] += 1
                entry["self"] += duration
                if all(s[0]["name"] != e["name"] for s in stack):
                    entry["total"] += duration
            stack.append((e, end))
    return result


def summary(path):
    result = subprocess.run([cli, "trace", "summary", path, "--json"], capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def expected_figures(events):
    """What the summary must say, computed here: times are decimal microseconds → integer ns."""
    def ns(value):
        return int(decimal.Decimal(str(value)) * 1000)

    complete = [e for e in events if e.get("ph") == "X"]
    starts = [ns(e["ts"]) for e in events if "ts" in e and e.get("ph") != "M"]
    ends = [ns(e["ts"]) + ns(e.get("dur", 0)) for e in events if "ts" in e and e.get("ph") != "M"]
    categories = {}
    for e in complete:
        categories[e.get("cat", "")] = categories.get(e.get("cat", ""), 0) + 1
    return {
        "events": len(events),
        "slices": len(complete),
        "by_category": categories,
        "time_range_ns": [min(starts), max(ends)],
    }


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        sys.exit(1)


with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "torch.json")
    write_trace(path)
    with open(path, "rb") as file:
        raw = file.read()
    events = json.loads(raw, parse_float=decimal.Decimal)
    check(isinstance(events, list) and len(events) > 100, "torch wrote a legacy trace of events")
    expected = expected_figures(events)

    status, out, err = summary(path)
    check(status == 0, f"summary exits 0, not {status}: {err}")
    got = json.loads(out)
    check(got["schema"] == "suanli-trace-summary/1", "the schema is named")
    for key, value in expected.items():
        check(got[key] == value, f"{key}: expected {value}, got {got[key]}")
    check(got["gpus"] == [] and got["top_kernels"] == [], "a CPU-only trace has no GPU figures")
    check(got["warnings"] == [], f"no warnings: {got['warnings']}")
    print(f"ok: {expected['events']} events, {expected['slices']} slices, {len(raw)} bytes")

    gz_path = path + ".gz"
    with gzip.open(gz_path, "wb") as file:
        file.write(raw)
    status, out, err = summary(gz_path)
    check(status == 0 and json.loads(out)["events"] == expected["events"], "the gzip form reads the same")
    print("ok: gzip")

    with open(gz_path, "rb") as file:
        piped = subprocess.run([cli, "trace", "summary", "-", "--json"], stdin=file, capture_output=True, text=True)
    check(piped.returncode == 0 and json.loads(piped.stdout)["slices"] == expected["slices"],
          f"gzip through standard input reads the same: {piped.stderr}")
    print("ok: gzip through standard input")

    # A gzip file cut short: the events before the cut are kept, and the warning says so.
    with open(gz_path, "rb") as file:
        compressed = file.read()
    cut_gz = os.path.join(directory, "cut.json.gz")
    with open(cut_gz, "wb") as file:
        file.write(compressed[: len(compressed) // 2])
    status, out, err = summary(cut_gz)
    check(status == 0, f"a cut gzip exits 0, not {status}: {err}")
    got = json.loads(out)
    check(0 < got["slices"] < expected["slices"], f"a cut gzip keeps some slices: {got['slices']}")
    check(any("where reading failed" in w or "ends in the middle" in w for w in got["warnings"]),
          f"a cut gzip warns: {got['warnings']}")
    print(f"ok: cut gzip kept {got['slices']} slices: {got['warnings'][0]}")

    # Folded CPU stacks: every nanosecond of the top-level slices once, split by call path.
    folded_path = os.path.join(directory, "torch.folded")
    converted = subprocess.run([cli, "trace", "convert", path, folded_path], capture_output=True, text=True)
    check(converted.returncode == 0, f"convert exits 0: {converted.stderr}")
    with open(folded_path, encoding="utf-8") as file:
        folded = [line.rsplit(" ", 1) for line in file.read().splitlines()]
    def micro_ns(value):
        return int(decimal.Decimal(str(value)) * 1000)

    slices = sorted((((str(e.get("pid")), str(e.get("tid"))), micro_ns(e["ts"]), micro_ns(e["dur"]))
                     for e in events if e.get("ph") == "X"), key=lambda s: (s[0], s[1], -s[2]))
    top_level, ends = 0, {}
    for thread, start, duration in slices:
        if thread not in ends or start >= ends[thread]:
            top_level += duration
            ends[thread] = start + duration
    check(sum(int(count) for _, count in folded) == top_level,
          f"folded counts add up to the top-level time {top_level}: {sum(int(c) for _, c in folded)}")
    check(any(stack.endswith("aten::addmm") or ";aten::addmm;" in stack for stack, _ in folded), "the stacks name aten::addmm")
    print(f"ok: {len(folded)} folded stacks, {top_level} ns")

    # Cut inside an event, two thirds in: what came before is kept and the warning says where.
    cut_path = os.path.join(directory, "cut.json")
    cut = len(raw) * 2 // 3
    cut = raw.index(b'"dur"', cut)
    with open(cut_path, "wb") as file:
        file.write(raw[:cut])
    kept = raw[:cut].count(b'"ph": "X"') - 1
    status, out, err = summary(cut_path)
    check(status == 0, f"a cut trace exits 0, not {status}: {err}")
    got = json.loads(out)
    check(got["slices"] == kept, f"a cut trace keeps {kept} slices, got {got['slices']}")
    check(len(got["warnings"]) == 1 and "the file ends in the middle of the JSON" in got["warnings"][0],
          f"a cut trace warns: {got['warnings']}")
    check("warning:" in err and cut_path in err, f"the warning names the file on stderr: {err}")
    print(f"ok: cut at byte {cut}, kept {kept} slices")

    bad_path = os.path.join(directory, "bad.json")
    with open(bad_path, "wb") as file:
        file.write(b'[\n  {"ph": "X", ts: 1}\n]\n')
    status, out, err = summary(bad_path)
    check(status == 2, f"not a trace exits 2, not {status}")
    check("line 2" in err and "at byte" in err, f"the error says where: {err}")
    print("ok: not a trace:", err.strip())

    # Two runs compared: per-operator counts, totals and self times as this script works them out.
    a_path, b_path = os.path.join(directory, "a.json"), os.path.join(directory, "b.json")
    write_trace(a_path, hidden=128, steps=True)
    write_trace(b_path, hidden=512, steps=True)
    diffed = subprocess.run([cli, "trace", "diff", a_path, b_path, "--json", "--folded", os.path.join(directory, "d.folded")],
                            capture_output=True, text=True)
    check(diffed.returncode == 0, f"diff exits 0: {diffed.stderr}")
    got = json.loads(diffed.stdout)
    check(got["schema"] == "suanli-trace-diff/1", "the diff schema is named")
    sides = []
    for side_path in (a_path, b_path):
        with open(side_path, "rb") as file:
            sides.append(operators(json.loads(file.read(), parse_float=decimal.Decimal)))
    rows = {row["name"]: row for row in got["operators"]}
    check(len(rows) > 20 and set(rows) == set(sides[0]) | set(sides[1]), f"every operator of either run is compared: {len(rows)}")
    check(rows["aten::addmm"]["a_count"] > 0, "aten::addmm ran in A")
    for name, row in rows.items():
        for side, key in ((sides[0], "a"), (sides[1], "b")):
            want = side.get(name, {"count": 0, "total": 0, "self": 0})
            check((row[key + "_count"], row[key + "_total_ns"], row[key + "_self_ns"]) == (want["count"], want["total"], want["self"]),
                  f"{name} in {key}: expected {want}, got {row}")
        check(row["delta_ns"] == row["b_self_ns"] - row["a_self_ns"], f"{name}: the change is B's self time less A's")
    check(got["a"]["steps"] == 3 and got["b"]["steps"] == 3, f"three ProfilerStep#N each: {got['a']}, {got['b']}")
    with open(os.path.join(directory, "d.folded"), encoding="utf-8") as file:
        columns = [line.rsplit(" ", 2) for line in file.read().splitlines()]
    check(all(len(c) == 3 for c in columns), "the differential folded file has two count columns")
    print(f"ok: diff of two runs, {len(rows)} operators, steps {got['a']['step_median_ns']} → {got['b']['step_median_ns']} ns")

    # The steps of a run: each ProfilerStep#N with its period (docs/trace-analysis.md, "The step"):
    # to the next step's start, the last to the end of the steps (a CPU trace has no GPU work).
    status, out, err = summary(a_path)
    with open(a_path, "rb") as file:
        a_events = json.loads(file.read(), parse_float=decimal.Decimal)
    marked = sorted((int(decimal.Decimal(str(e["ts"])) * 1000), int(decimal.Decimal(str(e["dur"])) * 1000),
                     int(e["name"].split("#")[1]))
                    for e in a_events if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#"))
    steps_end = max((start + duration for start, duration, _ in marked), default=0)
    want_steps = sorted((number, (marked[i + 1][0] if i + 1 < len(marked) else steps_end) - start)
                        for i, (start, _, number) in enumerate(marked))
    got_steps = sorted((s["step"], s["duration_ns"]) for s in json.loads(out)["steps"])
    check(len(want_steps) == 3 and got_steps == want_steps, f"steps: expected {want_steps}, got {got_steps}")
    print(f"ok: steps {got_steps}")
