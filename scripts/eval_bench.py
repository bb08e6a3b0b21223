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
    jobs = list(csv.DictReader(open(os.path.join(out, "jobs.tsv")), delimiter="\t"))
    rows = []
    for j in jobs:
        d = json.load(open(os.path.join(out, "runs", j["id"] + ".json")))
        t = float(open(os.path.join(out, "runs", j["id"] + ".time")).read())
        # simulated GPU-cycles: the frame's latency times the GPUs simulated
        rows.append((j["scheme"], int(d["gpus"]), float(d["cycles"]), t))
    trace = jobs[0]["trace"]
    print(f"bench-eval: {trace}, {len(rows)} runs (schemes {' '.join(sorted({r[0] for r in rows}))}; "
          f"N = {','.join(str(x) for x in sorted({r[1] for r in rows}))})")
    print(f"  {'scheme':<12} {'N':>3} {'cycles':>12} {'host s':>7} {'GPU-cycles/s':>13}")
    for s, g, c, t in sorted(rows, key=lambda r: (r[0], r[1])):
        print(f"  {s:<12} {g:>3} {c:>12.0f} {t:>7.2f} {c * g / t:>13.3g}")
    tot_t = sum(r[3] for r in rows)
    tot_c = sum(r[2] * r[1] for r in rows)
    print(f"bench-eval: sweep wall time {wall:.1f} s with {par} parallel jobs (goal <= {goal:.0f} s: "
          f"{'met' if wall <= goal else 'NOT met'}); sum of job times {tot_t:.1f} s; "
          f"{tot_c / tot_t:.3g} simulated GPU-cycles per host second")


if __name__ == "__main__":
    main()
