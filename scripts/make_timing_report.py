#!/usr/bin/env python3
"""Per-target wall and CPU time from a scripts/make_timing_shell.sh log (docs/testing.md).

Usage: make_timing_report.py LOG [--top N] [--markdown]
Wall: the sum of the target's recipe lines' wall times (lines of one target run one after the other);
CPU: user + sys of those lines' process trees. Targets of sub-makes (Verilator's model makefiles) are listed
under their own names and are also inside the CPU of the top-level target that ran the sub-make, so the CPU
column does not add up to the run's CPU; the first line reports the span of the run and the CPU of the
top-level targets only (names that a sub-make did not log: see --sub)."""
import argparse
import collections
import re


def sec(s):
    m = re.match(r'(\d+)m([\d.]+)s$', s)
    return int(m.group(1)) * 60 + float(m.group(2)) if m else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('--markdown', action='store_true')
    ap.add_argument('--sub', default=r'^(?![^/]*/)(?!test-|lint-|sim-|cosim-|fuzz-|san-)[^ ]*\.(o|a|mk)$|^V[A-Za-z0-9_]+$',
                    help='regex of sub-make target names (excluded from the top-level CPU sum)')
    a = ap.parse_args()
    wall = collections.defaultdict(float)
    cpu = collections.defaultdict(float)
    lines = collections.Counter()
    first, last = None, 0.0
    for raw in open(a.log):
        p = raw.split()
        if len(p) < 6:
            continue
        t, s, e = p[0], float(p[1]), float(p[2])
        first = s if first is None else min(first, s)
        last = max(last, e)
        wall[t] += e - s
        cpu[t] += sec(p[4]) + sec(p[5])
        lines[t] += 1
    sub = re.compile(a.sub)
    top_cpu = sum(c for t, c in cpu.items() if not sub.search(t))
    print(f'span {last - first:.0f} s wall, {top_cpu:.0f} s CPU in top-level targets')
    rows = sorted(cpu, key=lambda k: -cpu[k])[:a.top]
    if a.markdown:
        print('| target | wall s | CPU s |\n|---|---:|---:|')
        for k in rows:
            print(f'| {k} | {wall[k]:.0f} | {cpu[k]:.1f} |')
    else:
        for k in rows:
            print(f'{wall[k]:8.1f} {cpu[k]:8.1f} {lines[k]:4d} {k}')


if __name__ == '__main__':
    main()
