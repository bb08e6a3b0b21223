#!/usr/bin/env python3
"""Replayed runs equal executed runs (issue 23; docs/timing.md, "Functional work once per frame").

For every case of the stored result set 'quick' (scripts/results_check.py: every bundled trace on one GPU and
a sample of the multi-GPU schemes, both topologies, both shading paths, multi-frame traces), plus afr and
gpupd-batch on the hub: run `gpupd-sim render` once executing the model and once with --replay-cache (the
first run of each trace records its frame records into an empty cache), and require the --stats JSON byte
for byte and the printed frame hash to be equal, and the second run to have replayed (chopin cases: to have
executed). Then: a chopin run
and a run that writes its frame still execute (and the -o run's frame equals the executed one's), and a
corrupt record is rejected and recorded again.

  tests/timing/test_replay.py --sim build/bin/gpupd-sim --trace-tool build/bin/gpupd-trace [--set quick|full]
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import results_check  # noqa: E402

EXTRA = [
    ("oa-dm4-f159x4", 3, "afr", 4, "line", ""),
    ("oa-dm4-hd", 1, "gpupd-batch", 16, "hub", ""),
    ("glmark2-terrain", 0, "dup", 16, "line", ""),
    ("mesh-bunnies", 0, "gpupd", 8, "line", ""),
]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def render_cmd(sim, c, js, extra=()):
    n, f, s, g, topo, ex = c
    return [sim, "render", "--trace", f"traces/{n}.gpt", "--frame", str(f), "--scheme", s, "--gpus", str(g),
            "--topology", topo, "--no-check-masks", "--stats", js] + (ex.split() if ex else []) + list(extra)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default="build/bin/gpupd-sim")
    ap.add_argument("--trace-tool", default="build/bin/gpupd-trace")
    ap.add_argument("--set", choices=["quick", "full"], default="quick")
    ap.add_argument("--traces", default=None, help="space-separated traces/NAME.gpt to take (default: every one)")
    a = ap.parse_args()
    traces = sorted(os.path.join("traces", t) for t in os.listdir("traces") if t.endswith(".gpt"))
    if a.traces is not None:   # a sample (make test: TRACES_TEST, the 1920x1080 frames sampled)
        keep = {os.path.normpath(t) for t in a.traces.split()}
        traces = [t for t in traces if os.path.normpath(t) in keep]
    names = {os.path.basename(t)[:-4] for t in traces}
    # chopin never replays (checked below with a probe): its cases of the result set are not compared here
    cases = [c for c in results_check.cases(a.set, traces, a.trace_tool) if c[2] != "chopin"] + \
        [c for c in EXTRA if c[0] in names]
    fails, compared = 0, 0
    with tempfile.TemporaryDirectory(prefix="gpupd-replay-") as tmp:
        cache = os.path.join(tmp, "cache")
        os.mkdir(cache)
        ej, rj = os.path.join(tmp, "e.json"), os.path.join(tmp, "r.json")
        for c in cases:
            ecmd = render_cmd(a.sim, c, ej)
            rcmd = render_cmd(a.sim, c, rj, ["--replay-cache", cache])
            repro = " ".join(rcmd).replace(rj, "replay.json").replace(cache, "CACHE_DIR")
            e, r = run(ecmd), run(rcmd)
            if e[0] != 0 or r[0] != 0:
                print(f"FAIL: {results_check.key(c)}: exit executed {e[0]}, replayed {r[0]}: {(e[2] + r[2]).strip()[-300:]}\n"
                      f"  reproduce: {repro}")
                fails += 1
                continue
            must_replay = c[2] != "chopin"      # chopin composes sub-images: it executes (and must say so)
            if ("frame record replayed" in r[1]) != must_replay:
                print(f"FAIL: {results_check.key(c)}: the run with --replay-cache "
                      f"{'did not replay' if must_replay else 'replayed (chopin must execute)'}\n"
                      f"  stderr: {r[2].strip()[-300:]}\n  reproduce: {repro}")
                fails += 1
                continue
            eb, rb = open(ej, "rb").read(), open(rj, "rb").read()
            eh, rh = results_check.printed_frame_hash(e[1]), results_check.printed_frame_hash(r[1])
            if eh is None:
                print(f"FAIL: {results_check.key(c)}: the executed run printed no frame hash to compare\n"
                      f"  reproduce: {' '.join(ecmd).replace(ej, 'exec.json')}")
                fails += 1
                continue
            if eb != rb or eh != rh:
                el, rl = eb.decode().splitlines(), rb.decode().splitlines()
                diff = [f"    executed: {x.strip()}\n    replayed: {y.strip()}" for x, y in zip(el, rl) if x != y][:4]
                print(f"FAIL: {results_check.key(c)}: replayed stats differ from the executed run's "
                      f"(hash {eh} vs {rh}, JSON {len(eb)} vs {len(rb)} bytes)\n" + "\n".join(diff) +
                      f"\n  reproduce: {' '.join(ecmd).replace(ej, 'exec.json')}\n             {repro}")
                fails += 1
                continue
            compared += 1
        # what must not replay: chopin (composition needs the sub-images), a run that writes its frame
        probe = ("oa-dm4-f215", 0, "chopin", 4, "line", "")
        if "oa-dm4-f215" in names:
            r = run(render_cmd(a.sim, probe, rj, ["--replay-cache", cache]))
            if r[0] != 0 or "frame record replayed" in r[1]:
                print(f"FAIL: chopin with --replay-cache must execute the model (exit {r[0]}): {r[1].strip()}")
                fails += 1
            png_e, png_r = os.path.join(tmp, "e.png"), os.path.join(tmp, "r.png")
            c1 = ("oa-dm4-f215", 0, "gpupd-ra", 4, "line", "")
            e = run(render_cmd(a.sim, c1, ej, ["-o", png_e]))
            r = run(render_cmd(a.sim, c1, rj, ["-o", png_r, "--replay-cache", cache]))
            if e[0] or r[0] or "frame record replayed" in r[1] or \
                    results_check.png_pixels_hash(png_e) != results_check.png_pixels_hash(png_r):
                print(f"FAIL: a run with -o and --replay-cache must render its frame (exit {e[0]}/{r[0]}): {r[1].strip()}")
                fails += 1
            # a corrupt record: rejected, recorded again, the result still equal
            recs = [f for f in os.listdir(cache) if f.startswith("oa-dm4-f215.f0.")]
            if len(recs) != 1:
                print(f"FAIL: expected one record of oa-dm4-f215 frame 0 in the cache, found {recs}")
                fails += 1
            else:
                p = os.path.join(cache, recs[0])
                data = bytearray(open(p, "rb").read())
                data[len(data) // 2] ^= 0xFF
                open(p, "wb").write(bytes(data))
                c2 = ("oa-dm4-f215", 0, "dup", 4, "line", "")
                e = run(render_cmd(a.sim, c2, ej))
                r = run(render_cmd(a.sim, c2, rj, ["--replay-cache", cache]))
                if r[0] or "recording again" not in r[2] or "frame record replayed" not in r[1] or \
                        open(ej, "rb").read() != open(rj, "rb").read():
                    print(f"FAIL: a corrupt record must be rejected and recorded again (exit {r[0]}): {r[2].strip()[-300:]}")
                    fails += 1
                else:
                    compared += 1
    if compared == 0:
        print("test_replay: FAIL: nothing compared")
        return 1
    if fails:
        print(f"test_replay: {fails} FAILED, {compared} replayed runs identical to the executed ones")
        return 1
    print(f"test_replay: {compared} replayed runs identical to the executed ones (stats JSON byte for byte, frame hash); "
          "chopin and -o runs execute; a corrupt record is recorded again")
    return 0


if __name__ == "__main__":
    sys.exit(main())
