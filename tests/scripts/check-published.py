#!/usr/bin/env python3
"""Compares suanli-cli plan's figures with published ones.

Each case in tests/published/figures.json is a plan, the figure of the estimate it is compared on
(a JSON path, or a sum of them), the published value, its source, and a tolerance the source
justifies. The CLI runs on each plan as a user would run it; nothing here computes the figure.
A case may name the estimate's low and high bounds ("bounds"): the published value must lie between
them. The cases marked "range" are the runs the efficiency model is fitted to; their range must be
no wider than they need: some run lies within RANGE_SLACK of the low bound and some within it of the
high bound, so that neither bound could be drawn in by more than that without leaving a run out.
Usage: check-published.py SUANLI_CLI FIGURES_JSON
"""
import json
import os
import subprocess
import sys
import tempfile

RANGE_SLACK = 0.03


def figure(estimate, path):
    value = estimate
    for key in path.split('.'):
        value = value[key]
    return value


def main():
    cli, cases_path = sys.argv[1], sys.argv[2]
    cases = json.load(open(cases_path, encoding='utf-8'))['cases']
    failed = 0
    nearest_low, nearest_high = [], []
    with tempfile.TemporaryDirectory() as folder:
        for number, case in enumerate(cases, 1):
            plan_path = os.path.join(folder, 'case-%d.suanli-plan' % number)
            with open(plan_path, 'w', encoding='utf-8') as plan:
                json.dump(case['plan'], plan)
            run = subprocess.run([cli, 'plan', plan_path, '--json'], capture_output=True, text=True,
                                 env=dict(os.environ, LC_ALL='C.UTF-8'))
            estimate = json.loads(run.stdout)
            if not estimate.get('valid'):
                print('not ok %d - %s: the plan is invalid: %s' % (number, case['name'], estimate.get('errors')))
                failed += 1
                continue
            value = sum(figure(estimate, path) for path in case['figure'].split('+')) * case.get('scale', 1)
            expected = case['published']
            allowed = max(case['tolerance'] * abs(expected), case.get('absolute_tolerance', 0))
            inside = abs(value - expected) <= allowed
            bounds = ''
            if 'bounds' in case:
                low, high = (figure(estimate, path) * case.get('scale', 1) for path in case['bounds'])
                inside = inside and min(low, high) <= expected <= max(low, high)
                bounds = ', bounds %.4g–%.4g' % (min(low, high), max(low, high))
                if case.get('range'):
                    nearest_low.append((expected / min(low, high) - 1, case['name']))
                    nearest_high.append((1 - expected / max(low, high), case['name']))
            print('%s %d - %s: %.6g against %.6g published (%+.1f%%, within ±%.4g%s) — %s' % (
                'ok' if inside else 'not ok', number, case['name'], value, expected,
                100 * (value / expected - 1), allowed, bounds, case['source']))
            failed += not inside
    if nearest_low:
        low_gap, low_name = min(nearest_low)
        high_gap, high_name = min(nearest_high)
        tight = low_gap <= RANGE_SLACK and high_gap <= RANGE_SLACK
        print('%s %d - the range is no wider than the runs need: nearest the low bound %+.1f%% (%s), nearest the '
              'high bound %+.1f%% (%s), each within %.0f%%' % ('ok' if tight else 'not ok', len(cases) + 1,
              100 * low_gap, low_name, 100 * high_gap, high_name, 100 * RANGE_SLACK))
        failed += not tight
        cases = cases + [None]
    print('1..%d' % len(cases))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
