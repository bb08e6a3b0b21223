#!/usr/bin/env python3
"""The GPUs on threads give the results of one thread (issue 23; docs/timing.md, "How the hot paths are kept
fast", item 6).

Every threaded path of the system run (dup's per-draw tasks with the --check-masks probes, the CD system's
rendering tasks under gpupd-ra and gpupd-stream, the golden PE's under --pe golden, a replayed run) on small
bundled traces, with --threads 1, 2 and 4: the --stats JSON must be identical byte for byte and the printed
frame hash equal. A difference prints the first differing line and the commands that reproduce it.

  tests/timing/test_threads.py --sim build/bin/gpupd-sim
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import results_check  # noqa: E402

# (trace, scheme, GPUs, extra arguments); "@frec" is replaced by a fresh replay cache
CASES = [
    ("glmark2-shadow", "dup", 4, ["--check-masks"]),
    ("glmark2-shadow", "gpupd-ra", 4, []),
    ("glmark2-shadow", "gpupd-batch", 3, ["--pe", "golden", "--topology", "hub"]),
    ("glmark2-ideas", "gpupd-stream", 4, []),
    ("glmark2-desktop-blur", "gpupd", 4, ["--tile-log2", "4"]),
    ("glmark2-shadow", "gpupd-ra", 4, ["--replay-cache", "@frec"]),
]
THREADS = [1, 2, 4]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default="build/bin/gpupd-sim")
    a = ap.parse_args()
    fails, compared = 0, 0
    with tempfile.TemporaryDirectory(prefix="gpupd-threads-") as tmp:
        frec = os.path.join(tmp, "frec")
        os.mkdir(frec)
        for trace, scheme, n, extra in CASES:
            path = f"traces/{trace}.gpt"
            if not os.path.exists(path):
                print(f"test-threads: FAIL: {path} is missing")
                fails += 1
                continue
            extra = [frec if x == "@frec" else x for x in extra]
            ref = None
            for t in THREADS:
                js = os.path.join(tmp, f"s{t}.json")
                cmd = [a.sim, "render", "--trace", path, "--scheme", scheme, "--gpus", str(n), "--stats", js,
                       "--threads", str(t)] + extra
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"test-threads: FAIL: exit {r.returncode}: {' '.join(cmd)}\n{r.stderr.strip()}")
                    fails += 1
                    break
                body = open(js).read()
                h = results_check.printed_frame_hash(r.stdout)
                if h is None or '"cycles": ' not in body or '"cycles": 0,' in body:
                    print(f"test-threads: FAIL: no frame hash or no timed cycles to compare: {' '.join(cmd)}")
                    fails += 1
                    break
                if ref is None:
                    ref = (t, cmd, body, h)
                    continue
                compared += 1
                if body != ref[2] or h != ref[3]:
                    fails += 1
                    diff = next(((i + 1, x, y) for i, (x, y) in enumerate(zip(ref[2].splitlines(), body.splitlines()))
                                 if x != y), None)
                    what = f"frame hash {ref[3]} vs {h}" if h != ref[3] else \
                        (f"stats JSON line {diff[0]}: {diff[1].strip()} vs {diff[2].strip()}" if diff else "stats JSON length")
                    print(f"test-threads: FAIL: {trace} {scheme} {n} GPUs: --threads {ref[0]} vs {t}: {what}\n"
                          f"  reproduce: {' '.join(ref[1])}\n         and: {' '.join(cmd)}")
    if compared == 0 and fails == 0:
        print("test-threads: FAIL: nothing compared")
        return 1
    if fails:
        return 1
    print(f"test-threads: OK: {compared} comparisons ({len(CASES)} runs x threads {THREADS[1:]} vs 1): stats JSON and "
          "frame hash identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
