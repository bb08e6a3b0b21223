#!/usr/bin/env python3
"""Print the speed of an evaluation sweep (make bench-eval): wall time against a goal, per-job times and
simulated GPU-cycles per host second.   eval_bench.py OUT GOAL_SECONDS"""
import csv
import json
import os
import sys


def main():
    out, goal = sys.argv[1], float(sys.argv[2])
    st = open(os.path.join(out, "sweep_time.txt")).read().split()
    wall, par, n = float(st[0]), st[1], int(st[2])
    load = f"load average {st[3]} at the start, {st[4]} at the end" if len(st) >= 5 else "load unknown"
    jobs = list(csv.DictReader(open(os.path.join(out, "jobs.tsv")), delimiter="\t"))
    rows = []
    for j in jobs:
        d = json.load(open(os.path.join(out, "runs", j["id"] + ".json")))
        tv = open(os.path.join(out, "runs", j["id"] + ".time")).read().split()
        t, cpu = float(tv[0]), (float(tv[1]) if len(tv) > 1 else None)
        # simulated GPU-cycles: the frame's latency times the GPUs simulated
        rows.append((j["scheme"], int(d["gpus"]), float(d["cycles"]), t, cpu))
    trace = jobs[0]["trace"]
    print(f"bench-eval: {trace}, {len(rows)} runs (schemes {' '.join(sorted({r[0] for r in rows}))}; "
          f"N = {','.join(str(x) for x in sorted({r[1] for r in rows}))})")
    print(f"  {'scheme':<12} {'N':>3} {'cycles':>12} {'wall s':>7} {'CPU s':>6} {'GPU-cycles/CPU-s':>16}")
    for s, g, c, t, cpu in sorted(rows, key=lambda r: (r[0], r[1])):
        rate = f"{c * g / cpu:>16.3g}" if cpu else f"{'':>16}"
        print(f"  {s:<12} {g:>3} {c:>12.0f} {t:>7.2f} {cpu if cpu is not None else float('nan'):>6.2f} {rate}")
    tot_t = sum(r[3] for r in rows)
    cpus = [r[4] for r in rows if r[4] is not None]
    tot_c = sum(r[2] * r[1] for r in rows)
    print(f"bench-eval: sweep wall time {wall:.1f} s with {par} parallel jobs ({load}; goal <= {goal:.0f} s: "
          f"{'met' if wall <= goal else 'NOT met'})")
    if len(cpus) == len(rows):
        cpu = sum(cpus)
        longest = max(cpus)
        est = max(cpu / 2, longest)
        print(f"bench-eval: CPU time (user + sys) of all runs {cpu:.1f} s, longest run {longest:.1f} s: on 2 idle cores "
              f"the sweep needs at least max(CPU/2, longest) = {est:.1f} s; {tot_c / cpu:.3g} simulated GPU-cycles "
              f"per CPU second; sum of wall times {tot_t:.1f} s")


if __name__ == "__main__":
    main()
