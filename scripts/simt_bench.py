#!/usr/bin/env python3
"""Lockstep speed of the SIMT core (make bench-simt, make bench-simt-mt; docs/simt.md section 6).

    simt_bench.py [--runs N] [--label NAME] [--wall] -- BIN ARGS...

Runs the lockstep binary N times (default 3) back to back on the same workload and prints, labelled, the
workload (jobs, simulated cycles, warp instructions: every run must report the same counts and PASS), each
run's CPU time, wall time and load average, and the median rate of the N runs:
  * default: the rate from the process's CPU time (CLOCK_PROCESS_CPUTIME_ID, printed by the binary itself):
    the lockstep rate of issue 10's goal (>= 200 k cycles/s). CPU time, not wall: on this shared 2-core
    machine other jobs stretch the wall clock, not the CPU time; the median, not the best run: runs of one
    binary differ by up to 45 % here, and the median of 3 is what one slow or one fast run cannot move.
  * --wall: the rate from the wall clock (the multithreaded build, Verilator --threads 2, whose CPU time adds
    up both threads): a separate number, never the lockstep rate of the goal.
The binary's own summary line ("cosim-simt: ... cycles/s ... (CPU time ...)") is printed for every run too.
Exit status: 0 if every run passed with the same counts, 1 otherwise.
"""
import os
import re
import statistics
import subprocess
import sys
import time

GOAL = 200e3   # lockstep cycles/s, CPU time (issue 10)

LINE = re.compile(r"cosim-simt: (\d+) jobs, (\d+) cycles, (\d+) warp instructions .*?, ([0-9.]+) s: .*"
                  r"\(CPU time ([0-9.]+) s:")


def load():
    return "%.1f" % os.getloadavg()[0]


def main():
    sys.stdout.reconfigure(line_buffering=True)   # each run's lines as it ends (make pipes stdout)
    argv = sys.argv[1:]
    runs, label, wall = 3, "bench-simt", False
    while argv and argv[0] != "--":
        a = argv.pop(0)
        if a == "--runs":
            runs = int(argv.pop(0))
        elif a == "--label":
            label = argv.pop(0)
        elif a == "--wall":
            wall = True
        else:
            sys.exit(f"{label}: unknown option {a}")
    if not argv or argv[0] != "--" or len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1:]
    res = []
    for k in range(runs):
        l0 = load()
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        t1 = time.monotonic()
        l1 = load()
        m = None
        for line in p.stdout.splitlines():
            if LINE.match(line):
                m = LINE.match(line)
                print(f"{label}: run {k + 1}/{runs}: {line}")
        passed = p.returncode == 0 and any(s == "PASS" for s in p.stdout.splitlines())
        if not m or not passed:
            print(p.stdout[-3000:])
            print(f"{label}: FAIL: run {k + 1} (exit {p.returncode}) did not pass or printed no summary line")
            return 1
        jobs, cyc, ins = int(m.group(1)), int(m.group(2)), int(m.group(3))
        sec, cpu = float(m.group(4)), float(m.group(5))
        res.append((jobs, cyc, ins, sec, cpu))
        print(f"{label}: run {k + 1}/{runs}: CPU {cpu:.2f} s = {cyc / cpu / 1e3:.0f} k cycles/s; wall {sec:.2f} s = "
              f"{cyc / sec / 1e3:.0f} k cycles/s (process {t1 - t0:.2f} s); load average {l0} -> {l1}")
    if len({r[:3] for r in res}) != 1:
        print(f"{label}: FAIL: the runs simulated different workloads: {sorted({r[:3] for r in res})}")
        return 1
    jobs, cyc, ins = res[0][:3]
    print(f"{label}: workload `{' '.join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd))}`: "
          f"{jobs} jobs, {cyc} cycles, {ins} warp instructions (every run the same, every run PASS)")
    t = [r[3] if wall else r[4] for r in res]
    med = statistics.median(t)
    what = "wall clock" if wall else "CPU time"
    print(f"{label}: rate from {what}, median of {runs} runs: {cyc / med / 1e3:.0f} k cycles/s, "
          f"{ins / med / 1e3:.1f} k warp instructions/s ({what} {med:.2f} s; runs {min(t):.2f} .. {max(t):.2f} s = "
          f"{cyc / max(t) / 1e3:.0f} .. {cyc / min(t) / 1e3:.0f} k cycles/s)")
    if wall:
        cmed = statistics.median(r[4] for r in res)
        print(f"{label}: (CPU time of all threads, median {cmed:.2f} s = {cyc / cmed / 1e3:.0f} k cycles/s; a wall-clock "
              f"number of the multithreaded build, not the lockstep rate of the goal, which is bench-simt's CPU-time median)")
    else:
        print(f"{label}: goal >= {GOAL / 1e3:.0f} k cycles/s (CPU time, median): "
              f"{'met' if cyc / med >= GOAL else 'NOT met'} in this measurement; "
              f"{sum(cyc / x >= GOAL for x in t)} of {runs} runs >= {GOAL / 1e3:.0f} k")
    return 0


if __name__ == "__main__":
    sys.exit(main())
