#!/usr/bin/env python3
"""Stored result set of the simulator: render every bundled trace under a fixed set of schemes, GPU
counts and topologies and compare, per run, a hash of the frame (the PNG's pixel rows), a hash of the
stats JSON (byte for byte) and the frame's cycle count against tests/results/<set>.txt.

  results_check.py check  --set quick|full [--sim build/bin/gpupd-sim] [--trace-tool build/bin/gpupd-trace]
  results_check.py update --set quick|full ...      (rewrites the stored file)

This is a regression baseline of the simulator's own current behaviour, not an independent truth: it
guards changes meant to change no result (speed work, refactoring). A change that alters results on purpose
regenerates the file (`make update-results`, `make update-results-long`) in the same commit and says why.
Frames are validated independently against llvmpipe (docs/validation.md). See docs/testing.md.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import resource
import subprocess
import sys
import tempfile
import zlib

# quick (make test, < 60 s of CPU): every bundled trace on one GPU, plus a sample of the multi-GPU schemes,
# both topologies and shading paths, on small and large traces. full (make test-long): every trace x
# every multi-GPU scheme (SCHEMES_MULTI) at N = 2, 4, 16 on the line, the exchanging schemes at N = 4, 16 on the
# hub, afr at 2 and 4.
QUICK_EXTRA = [
    ("oa-dm4-f215", None, "gpupd-ra", 4, "line", ""),
    ("oa-dm4-f109", None, "gpupd-batch", 16, "hub", ""),
    ("oa-dm4-f248", None, "dup", 4, "hub", ""),
    ("oa-dm4-f159x4", 2, "afr", 2, "line", ""),
    ("glmark2-ideas", None, "gpupd", 16, "line", ""),
    ("glmark2-shadow", None, "gpupd-ra", 16, "hub", ""),
    ("glmark2-shadow", None, "single", 1, "line", "--shaders isa"),
    ("glmark2-desktop-blur", None, "dup", 2, "line", ""),
    ("glmark2-build-bunny", None, "gpupd", 4, "hub", ""),
    ("glmark2-refract", None, "gpupd-batch", 2, "line", "--shaders builtin"),
    ("mesh-bunnies", None, "chopin", 2, "line", ""),                              # CHOPIN's rules: composes 1 group
    ("mesh-bunnies", None, "chopin", 4, "hub", "--chopin-max-draw-tris 0"),     # no cap: the 12-draw group composes
    ("oa-dm4-f215", None, "gpupd-stream", 16, "line", ""),
    ("glmark2-shadow", None, "gpupd-stream", 4, "hub", ""),
]
SCHEMES_MULTI = ["dup", "gpupd", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"]


def trace_frames(trace_tool, path):
    out = subprocess.run([trace_tool, "info", path], check=True, capture_output=True, text=True).stdout
    m = re.search(r"^\s*frames\s+(\d+)", out, re.M)
    if not m:
        sys.exit(f"results_check: no frame count in `{trace_tool} info {path}`")
    return int(m.group(1))


def cases(which, traces, trace_tool):
    """(trace name, frame, scheme, gpus, topology, extra args) in a fixed order."""
    names = [os.path.basename(t)[:-4] for t in traces]
    last = {n: trace_frames(trace_tool, t) - 1 for n, t in zip(names, traces)}
    out = []
    for n in names:  # multi-frame traces: frame 1 in quick (frame 0 renders untimed before it)
        out.append((n, min(1, last[n]), "single", 1, "line", ""))
    for (n, f, s, g, topo, extra) in QUICK_EXTRA:
        if n in last:
            out.append((n, last[n] if f is None else min(f, last[n]), s, g, topo, extra))
    if which == "full":
        for n in names:
            f = last[n]
            out.append((n, f, "single", 1, "line", ""))
            for s in SCHEMES_MULTI:
                for g in (2, 4, 16):
                    out.append((n, f, s, g, "line", ""))
            for s in ("gpupd-batch", "gpupd-ra", "gpupd-stream"):
                for g in (4, 16):
                    out.append((n, f, s, g, "hub", ""))
            for g in (2, 4):
                out.append((n, f, "afr", g, "line", ""))
    seen, uniq = set(), []
    for c in out:
        if c not in seen:
            seen.add(c)
            uniq.append(c)
    return uniq


def key(c):
    n, f, s, g, topo, extra = c
    return f"{n} frame={f} scheme={s} gpus={g} topology={topo}" + (f" {extra.replace(' ', '=')}" if extra else "")


def command(sim, c, png, js):
    n, f, s, g, topo, extra = c
    return [sim, "render", "--trace", f"traces/{n}.gpt", "--frame", str(f), "--scheme", s, "--gpus", str(g),
            "--topology", topo] + (extra.split() if extra else []) + ["-o", png, "--stats", js, "-q"]


def printed_frame_hash(out):
    """The frame hash that gpupd-sim render prints ("... hash HEX ..."), or None."""
    for line in out.splitlines():
        if " hash " in line:
            return line.split(" hash ")[1].split()[0]
    return None


def png_pixels_hash(path):
    """Hash of the IHDR and the decompressed image data: independent of the zlib version's compression."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, ihdr, idat = 8, b"", []
    while pos < len(data):
        ln = int.from_bytes(data[pos:pos + 4], "big")
        typ = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            ihdr = body
        elif typ == b"IDAT":
            idat.append(body)
        pos += 12 + ln
    return hashlib.sha256(ihdr + zlib.decompress(b"".join(idat))).hexdigest()[:16]


def run_case(sim, c, tmp):
    tmp = tempfile.mkdtemp(dir=tmp)   # one scratch directory per run: runs may go in parallel (--jobs)
    png, js = os.path.join(tmp, "f.png"), os.path.join(tmp, "s.json")
    for p in (png, js):
        if os.path.exists(p):
            os.unlink(p)
    cmd = command(sim, c, png, js)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"exit {r.returncode}: {r.stderr.strip()[-400:]}"
    jtext = open(js, "rb").read()
    m = re.search(rb'"cycles": (null|\d+)', jtext)
    cyc = m.group(1).decode() if m else "none"
    return f"png={png_pixels_hash(png)} stats={hashlib.sha256(jtext).hexdigest()[:16]} cycles={cyc}", None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["check", "update", "list"])
    ap.add_argument("--set", choices=["quick", "full"], default="quick")
    ap.add_argument("--sim", default="build/bin/gpupd-sim")
    ap.add_argument("--trace-tool", default="build/bin/gpupd-trace")
    ap.add_argument("--stored", default=None, help="default tests/results/<set>.txt")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (results and report in the fixed case order)")
    ap.add_argument("--only", default=None, metavar="REGEX",
                    help="run only the cases whose key matches REGEX; update keeps every other stored line as it is")
    a = ap.parse_args()
    stored = a.stored or f"tests/results/{a.set}.txt"
    traces = sorted(os.path.join("traces", t) for t in os.listdir("traces") if t.endswith(".gpt"))
    if not traces:
        sys.exit("results_check: FAIL: no traces/*.gpt")
    cs = cases(a.set, traces, a.trace_tool)
    all_cs = cs
    if a.only is not None:
        cs = [c for c in cs if re.search(a.only, key(c))]
        if not cs:
            sys.exit(f"results_check: FAIL: --only {a.only!r} matches no case of the {a.set} set")
    if a.mode == "list":
        for c in cs:
            print(" ".join(command(a.sim, c, "f.png", "s.json")))
        return 0
    expected = {}
    if a.mode == "check" or a.only is not None:
        if not os.path.exists(stored):
            sys.exit(f"results_check: FAIL: no stored results {stored} "
                     f"(make update-results{'-long' if a.set == 'full' else ''})")
        for line in open(stored):
            if line.startswith("#") or not line.strip():
                continue
            k, _, v = line.rstrip("\n").partition(" | ")
            expected[k] = v
    got, fails, compared = {}, 0, 0
    if a.jobs < 1:
        sys.exit("results_check: --jobs must be >= 1")
    with tempfile.TemporaryDirectory(prefix="gpupd-results-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        runs = [pool.submit(run_case, a.sim, c, tmp) for c in cs]
        for c, fut in zip(cs, runs):
            k = key(c)
            v, err = fut.result()
            repro = " ".join(command(a.sim, c, "frame.png", "stats.json"))
            if err:
                print(f"FAIL: {k}: {err}\n  reproduce: {repro}")
                fails += 1
                continue
            got[k] = v
            if a.mode == "check":
                e = expected.get(k)
                if e is None:
                    print(f"FAIL: {k}: not in {stored} (a new trace or case: make update-results"
                          f"{'-long' if a.set == 'full' else ''})")
                    fails += 1
                elif e != v:
                    ev = dict(x.split("=", 1) for x in e.split())
                    gv = dict(x.split("=", 1) for x in v.split())
                    diff = ", ".join(f"{f} {ev.get(f)} -> {gv.get(f)}" for f in ("png", "stats", "cycles")
                                     if ev.get(f) != gv.get(f))
                    print(f"FAIL: {k}: {diff}\n  reproduce: {repro}")
                    fails += 1
                else:
                    compared += 1
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = cpu.ru_utime + cpu.ru_stime
    if a.mode == "check":
        stale = [k for k in expected if k not in got and not any(k == key(c) for c in all_cs)]
        for k in stale:
            print(f"FAIL: {k}: stored in {stored} but no longer run (a removed trace or case: make update-results"
                  f"{'-long' if a.set == 'full' else ''})")
        fails += len(stale)
        if compared == 0 and fails == 0:
            print("results_check: FAIL: nothing compared")
            return 1
        if fails:
            print(f"results_check {a.set}: {fails} FAILED, {compared} identical ({cpu_s:.1f} s CPU)\n"
                  f"  If the change is meant to alter results: make update-results{'-long' if a.set == 'full' else ''}"
                  f" and commit {stored} with it.")
            return 1
        print(f"results_check {a.set}: {compared} runs identical to {stored} ({cpu_s:.1f} s CPU)")
        return 0
    if fails:
        print(f"results_check: {fails} runs failed; {stored} not written")
        return 1
    kept = {key(c): expected[key(c)] for c in all_cs if key(c) not in got and key(c) in expected}
    missing = [key(c) for c in all_cs if key(c) not in got and key(c) not in kept]
    if missing:
        print(f"results_check: {len(missing)} cases outside --only are not in {stored} (first: {missing[0]}); "
              f"run without --only; {stored} not written")
        return 1
    os.makedirs(os.path.dirname(stored) or ".", exist_ok=True)
    fd, tmpname = tempfile.mkstemp(dir=os.path.dirname(stored) or ".", prefix=".results-")
    with os.fdopen(fd, "w") as f:
        f.write(f"# Stored result set '{a.set}' of gpupd-sim render (scripts/results_check.py; docs/testing.md).\n"
                "# A regression baseline of the simulator's own behaviour, regenerated with make update-results"
                f"{'-long' if a.set == 'full' else ''}.\n"
                "# png = sha256 (16 hex) of the PNG's IHDR + decompressed rows; stats = sha256 of the --stats JSON;"
                " cycles = its \"cycles\".\n")
        for c in all_cs:
            k = key(c)
            f.write(f"{k} | {got[k] if k in got else kept[k]}\n")
    os.replace(tmpname, stored)
    print(f"results_check: wrote {len(all_cs)} runs to {stored}, {len(cs)} of them rerun ({cpu_s:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
