#!/usr/bin/env python3
"""Source-level mutation testing of one RTL unit (issue 25; `make mutate UNIT=p2g|pe|simt`).

    mutate.py --unit pe --build build --rtl "rtl/pe_fifo.v ..." --mutate "rtl/pe_exchanger.v" [--max N] -o out/mutate

Operators, applied one at a time to a scratch copy of one file (never to rtl/): relational (== != < <= > >=
swapped with their neighbour), logical (&& <-> ||), a `!` dropped, bitwise (& <-> |), arithmetic (+ <-> - in
expressions with a constant), constants (1'b0 <-> 1'b1). Comments, declarations and `include lines are left
alone. Every mutant is compiled with Icarus; one that does not compile is counted apart. Then the unit's
fast-bench tests run in order (the Icarus testbenches on the vectors that `make` built from the C cycle
model); the first that fails kills the mutant. The report `OUT/UNIT.md` lists every mutant: file, line,
operator, the changed line, and the killing test or "SURVIVED". A survivor is either a missing test or an
equivalent mutant; the report says which lines to argue. The Verilator lockstep and the proofs are not run
per mutant (a Verilator build per mutant does not fit); they would only add kills.
Exit status 0 (the report is the result), 2 on a setup error (a test fails on the unmutated RTL).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

OPS = [
    ("==", "!="), ("!=", "=="), ("<=", "<"), (">=", ">"), ("&&", "||"), ("||", "&&"),
    ("1'b1", "1'b0"), ("1'b0", "1'b1"),
]
# single-character operators need care (not part of <=, &&, etc.)
SINGLE = [(r"(?<![<>=!&|])<(?![<=])", "<=", "<"), (r"(?<![<>=!&|-])>(?![>=])", ">=", ">"),
          (r"(?<![&|])&(?![&])", "|", "&"), (r"(?<![&|])\|(?![|])", "&", "|"),
          (r"!(?!=)", "", "!"), (r"(?<=[\w)\]]) \+ (?=\d|\w+'d)", " - ", "+"), (r"(?<=[\w)\]]) - (?=\d|\w+'d)", " + ", "-")]
SKIP = re.compile(r"^\s*(//|`|input|output|inout|parameter|localparam|module|endmodule|\)|\(|genvar|integer|function|endfunction|wire\s*\[[^\]]*\]\s*\w+\s*;|reg\s)")


def code_part(line):
    i = line.find("//")
    return line if i < 0 else line[:i]


def mutants(path):
    """(line index, operator name, new line) for every applicable mutation, in file order."""
    out = []
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        if SKIP.match(line):
            continue
        code = code_part(line)
        if "<=" in code and re.match(r"^\s*\w+(\[[^\]]*\])?\s*<=", code):
            # a nonblocking assignment: mutate only the right-hand side
            lhs_end = code.index("<=") + 2
        else:
            lhs_end = 0
        for a, b in OPS:
            for m in re.finditer(re.escape(a), code):
                if m.start() < lhs_end:
                    continue
                new = line[:m.start()] + b + line[m.end():]
                out.append((i, f"{a} -> {b}", new))
        for pat, rep, name in SINGLE:
            for m in re.finditer(pat, code):
                if m.start() < lhs_end:
                    continue
                new = line[:m.start()] + rep + line[m.end():]
                out.append((i, f"{name} -> {rep.strip() or 'removed'}", new))
    return lines, out


def run(cmd, timeout):
    t = time.time()
    try:
        p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), time.time() - t
    except subprocess.TimeoutExpired:
        return 124, "timeout", time.time() - t


def unit_setup(unit, b, rtl):
    """compile command templates ({rtl} = the file list with the mutant in place, {o} = output) and tests
    (name, vvp key, plusargs): every test is `vvp -n VVP PLUSARGS` and passes iff its output has '^PASS'."""
    if unit == "pe":
        comp = {k: f"iverilog -g2012 -Wno-timescale -I{b}/gen -o {{o}}_{k}.vvp -s tb_pe -P tb_pe.MAX_GPUS={mg} "
                   f"-P tb_pe.LQ_DEPTH={lq} -P tb_pe.RQ_DEPTH={rq} tb/pe/tb_pe.v {{rtl}}"
                for k, (mg, lq, rq) in {"16_2_2": (16, 2, 2), "64_8_8": (64, 8, 8)}.items()}
        tests = [("tb_pe 16/2/2 random", "16_2_2", f"{b}/tb/pe_16_2_2.hex"),
                 ("tb_pe 64/8/8 random", "64_8_8", f"{b}/tb/pe_64_8_8.hex")]
        for k in ("in-stale", "in-future", "rx0-type", "rx0-stale", "rx0-future", "rx0-dst", "rx1-type", "rx1-stale",
                  "rx1-future", "rx1-dst"):
            tests.append((f"test-pe-err {k}", "16_2_2", f"{b}/tb/pe-err/{k}.hex"))
        tests = [(n, k, f"+vectors={v} +nrec={sum(1 for _ in open(v))}") for n, k, v in tests]
    elif unit == "p2g":
        comp = {k: f"iverilog -g2012 -Wno-timescale -o {{o}}_{k}.vvp -s tb_p2g_mapper -P tb_p2g_mapper.MAX_GPUS={mg} "
                   f"-P tb_p2g_mapper.ROWS={rows} tb/p2g/tb_p2g_mapper.v {{rtl}}"
                for k, (mg, rows) in {"16_2": (16, 2), "64_4": (64, 4)}.items()}
        tests = [("tb_p2g 16 random", "16_2", f"{b}/tb/p2g_16.hex", "+seed=3"),
                 ("tb_p2g 64 random", "64_4", f"{b}/tb/p2g_64.hex", "+seed=4 +gap=50 +stall=60"),
                 ("tb_p2g 64 sweep-n", "64_4", f"{b}/tb/p2g_64_sweep.hex", "+seed=5")]
        tests = [(n, k, f"+vectors={v} +nrec={sum(1 for _ in open(v))} {x}") for n, k, v, x in tests]
    elif unit == "simt":
        comp = {f"w{w}": f"iverilog -g2012 -Wno-timescale -I{b}/gen -Irtl -o {{o}}_w{w}.vvp -s tb_simt_core "
                         f"-P tb_simt_core.WARPS={w} tb/simt/tb_simt_core.v {{rtl}}" for w in (1, 2, 4)}
        tests = [("sim-simt random11", "w4", f"{b}/tb/simt/random11.hex"),
                 ("sim-simt vs_project", "w4", f"{b}/tb/simt/vs_project.hex")]
        hz = f"{b}/simt-hazard"
        for f in open(os.path.join(hz, "hazard.list")).read().split():
            for w in (1, 2):
                tests.append((f"test-simt-hazard-sim {f[:-4]} {w}w", f"w{w}", f"{hz}/{f[:-4]}.w{w}.hex"))
        tests = [(n, k, f"+vectors={v}") for n, k, v in tests]
    else:
        raise SystemExit(f"mutate: unknown unit {unit}")
    return comp, tests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", required=True)
    ap.add_argument("--build", default="build")
    ap.add_argument("--rtl", required=True, help="the unit's RTL files, in compile order")
    ap.add_argument("--mutate", required=True, help="the files to mutate (a subset of --rtl)")
    ap.add_argument("--max", type=int, default=0, help="at most N mutants, spread evenly over the list (0: all)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("-o", default="out/mutate")
    a = ap.parse_args()
    rtl = a.rtl.split()
    comp, tests = unit_setup(a.unit, a.build, rtl)
    work = os.path.join(a.o, a.unit + "-work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # the unmutated RTL must pass every test (otherwise the runner, not the RTL, is wrong)
    base = os.path.join(work, "base")
    for k, c in comp.items():
        rc, out, _ = run(c.format(o=base, rtl=" ".join(rtl)), a.timeout)
        if rc:
            print(f"mutate: the unmutated RTL does not compile ({k}):\n{out[-1500:]}")
            return 2
    for name, k, args in tests:
        rc, out, _ = run(f"vvp -n {base}_{k}.vvp {args}", a.timeout)
        if not re.search(r"^PASS", out, re.M):
            print(f"mutate: test '{name}' fails on the unmutated RTL (build its vectors first):\n{out[-800:]}")
            return 2
    todo = []
    for f in a.mutate.split():
        lines, ms = mutants(f)
        todo += [(f, lines, m) for m in ms]
    total = len(todo)
    if a.max and len(todo) > a.max:
        step = len(todo) / a.max
        todo = [todo[int(i * step)] for i in range(a.max)]
    rows, killed, survived, invalid = [], 0, 0, 0
    t0 = time.time()
    for n, (f, lines, (li, op, new)) in enumerate(todo):
        mf = os.path.join(work, os.path.basename(f))
        with open(mf, "w") as fh:
            fh.write("\n".join(lines[:li] + [new] + lines[li + 1:]))
        files = " ".join(mf if r == f else r for r in rtl)
        mb = os.path.join(work, "m")
        ok = True
        for k, c in comp.items():
            rc, out, _ = run(c.format(o=mb, rtl=files), a.timeout)
            if rc:
                ok = False
                break
        if not ok:
            invalid += 1
            rows.append((f, li + 1, op, new.strip(), "does not compile"))
            continue
        by = None
        for name, k, args in tests:
            rc, out, _ = run(f"vvp -n {mb}_{k}.vvp {args}", a.timeout)
            if not re.search(r"^PASS", out, re.M):
                by = name
                break
        if by:
            killed += 1
        else:
            survived += 1
        rows.append((f, li + 1, op, new.strip(), by or "SURVIVED"))
        print(f"mutate {a.unit}: {n + 1}/{len(todo)} {f}:{li + 1} {op}: {by or 'SURVIVED'}", flush=True)
    valid = killed + survived
    rep = os.path.join(a.o, a.unit + ".md")
    with open(rep + ".tmp", "w") as fh:
        fh.write(f"# Mutation testing: {a.unit}\n\n")
        fh.write(f"Generated by `make mutate UNIT={a.unit}` (scripts/mutate.py): {len(todo)} of {total} source-level "
                 f"mutants of {a.mutate}, each against the fast-bench tests ({len(tests)} Icarus runs on the C cycle "
                 f"model's vectors; the first failure kills). {time.time() - t0:.0f} s.\n\n")
        fh.write(f"**{killed} killed, {survived} survived, {invalid} do not compile** "
                 f"({100.0 * killed / valid if valid else 0:.1f} % of the {valid} that compile killed).\n\n")
        fh.write("Survivors are either a missing test or an equivalent mutant (no behaviour change); each needs an "
                 "argument or a new test.\n\n| file | line | operator | mutated line | killed by |\n|---|---:|---|---|---|\n")
        for f, ln, op, new, by in rows:
            fh.write(f"| {f} | {ln} | `{op}` | `{new.replace('|', '&#124;')[:110]}` | {by} |\n")
    os.replace(rep + ".tmp", rep)
    print(f"mutate {a.unit}: {killed} killed, {survived} survived, {invalid} do not compile; report {rep}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
