#!/usr/bin/env python3
"""Compares suanli-cli plan's figures with published ones.

Each case in tests/published/figures.json is a plan, the figure of the estimate it is compared on
(a JSON path, or a sum of them), the published value, its source, and a tolerance the source
justifies. The CLI runs on each plan as a user would run it; nothing here computes the figure.
Usage: check-published.py SUANLI_CLI FIGURES_JSON
"""
import json
import os
import subprocess
import sys
import tempfile


def figure(estimate, path):
    value = estimate
    for key in path.split('.'):
        value = value[key]
    return value


def main():
    cli, cases_path = sys.argv[1], sys.argv[2]
    cases = json.load(open(cases_path, encoding='utf-8'))['cases']
    failed = 0
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
            print('%s %d - %s: %.6g against %.6g published (%+.1f%%, within ±%.4g%s) — %s' % (
                'ok' if inside else 'not ok', number, case['name'], value, expected,
                100 * (value / expected - 1), allowed, bounds, case['source']))
            failed += not inside
    print('1..%d' % len(cases))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
