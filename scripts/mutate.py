#!/usr/bin/env python3
"""Source-level mutation testing of one RTL unit (issue 25; `make mutate UNIT=p2g|pe|simt`, docs/testing.md).

    mutate.py --unit pe --build build --rtl "rtl/pe_fifo.v ..." --mutate "rtl/pe_exchanger.v ..."
              [--mutants N] [--seed S] [--lockstep] [--only ID] [--list] [--selftest] -o out/mutate

Mutants. One operator at a time, on one line of one file of --mutate: relational (== != swapped, < <= and
> >= swapped), logical (&& ||), bitwise (& |), a `!` dropped, + - swapped where the right operand is a
constant or a name, constants 1'b0 <-> 1'b1. Comments, declarations, `include/`define lines and the left-hand
side of a nonblocking assignment are left alone. Each mutant has an id FILE:LINE:COL:OP (OP: eq-ne, ne-eq,
le-lt, lt-le, ge-gt, gt-ge, and-or, or-and, band-bor, bor-band, not-drop, add-sub, sub-add, one-zero,
zero-one), stable while the file is unchanged, and the line it becomes. Loop headers (`for (...)`: elaboration
structure, whose mutants hang or do not elaborate) are not mutated.

Selection. Every mutant of the files, in file order; --mutants N keeps the first N of a permutation drawn with
random.Random(S) (S = --seed, default 1), so the sample is the same on every machine for the same RTL, and a
smaller N is a subset of a larger one (a campaign cut short at N reuses its results at a smaller N).

Tests, cheapest first; the first failure kills the mutant and is named in the report:
  1. the unit's Icarus benches on the vectors that the C cycle model wrote (`make` builds them first): every
     output port compared every cycle. Each mutant is compiled with Icarus in a scratch directory
     (OUT/UNIT-work/m/); a mutant that does not compile is counted apart, not as killed. SIMT first runs the
     checks of lint-simt that the benches' configuration does not make (one compile each): Icarus elaboration at
     the stack depths and verilator -Wall at the iCE40 configuration (SIMT_ICE40_PARAMS); a failure kills.
  2. with --lockstep, for the mutants that survive 1: the unit's Verilator lockstep against the C cycle model,
     built by make with BUILD=OUT/UNIT-work/build and the unit's file list pointing at the scratch copy (the
     tree's build/ and rtl/ are never written).
The unmutated RTL must pass every test first (exit 2 otherwise: the runner, not the RTL, is wrong).

Resume. Each result is appended to OUT/UNIT-work/results.jsonl under a key that hashes the mutated file, the
other RTL files, the testbenches, the vectors and the tier; a rerun skips the mutants whose key is there, and
keeps a kill whose killing test (its bench, command and vectors) is unchanged even when other tests changed; with
--lockstep, a survivor of the unchanged Icarus tier goes straight to the lockstep. --fresh forgets them.

Equivalent mutants. tests/mutate/UNIT.equiv lists survivors argued to be equivalent (no behaviour change at
the configurations the RTL allows), one per line `FILE|OP|mutated line` then ` # argument`; the report
counts them apart. A listed mutant that is killed, or that the generator no longer produces, is reported.

Reproduce one mutant: `make mutate UNIT=U ONLY=ID` (scratch copy OUT/UNIT-only/, the diff, every test in turn
with its command and the failure output). --selftest: the mutator itself on P2G (a known mutant is generated,
applied and killed; the unmutated RTL passes; the same seed gives the same sample).
Report: OUT/UNIT.md. Exit 0 when the campaign ran (the report is the result), 1 if --strict and a
non-equivalent mutant survived, 2 on a setup error.
"""
import argparse
import fcntl
import glob
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

# (regex on the code part of a line, replacement, op name); applied one match at a time
OPS = [
    (r"==", "!=", "eq-ne"), (r"!=", "==", "ne-eq"),
    (r"(?<![<>=!])<=", "<", "le-lt"), (r">=", ">", "ge-gt"),
    (r"(?<![<>=!&|])<(?![<=])", "<=", "lt-le"), (r"(?<![<>=!&|-])>(?![>=])", ">=", "gt-ge"),
    (r"&&", "||", "and-or"), (r"\|\|", "&&", "or-and"),
    (r"(?<![&|~])&(?![&])", "|", "band-bor"), (r"(?<![&|~])\|(?![|])", "&", "bor-band"),
    (r"!(?!=)", "", "not-drop"),
    (r"(?<=[\w)\]]) \+ (?=[\w(])", " - ", "add-sub"), (r"(?<=[\w)\]]) - (?=[\w(])", " + ", "sub-add"),
    (r"1'b1", "1'b0", "one-zero"), (r"1'b0", "1'b1", "zero-one"),
]
SKIP = re.compile(r"^\s*(//|/\*|\*|`|input\b|output\b|inout\b|parameter\b|localparam\b|module\b|endmodule\b|\)|\(|"
                  r"genvar\b|integer\b|function\b|endfunction\b|wire\s*(\[[^\]]*\])?\s*\w+\s*(\[[^\]]*\])?\s*;|"
                  r"reg\s|initial\b|\$)")
LOOP = re.compile(r"\bfor\s*\(")
LHS = re.compile(r"^\s*(assign\s+|wire\s+|logic\s+)?(\[[^\]]*\]\s*)?\w+(\[[^\]]*\])*\s*(?=(<=|=)(?!=))")
NBA = re.compile(r"^\s*(if\s*\(.*\)\s*)?(else\s+)?(begin\s+)?\w+(\[[^\]]*\])*\s*<=")


def code_part(line):
    i = line.find("//")
    return line if i < 0 else line[:i]


def mutants(path):
    """lines of the file, and [(line index, col, op, new line)] for every applicable mutation in file order"""
    lines = open(path).read().split("\n")
    out, in_comment = [], False
    for i, line in enumerate(lines):
        if in_comment:
            if "*/" in line:
                in_comment = False
            continue
        if "/*" in line and "*/" not in line:
            in_comment = True
            continue
        if SKIP.match(line):
            continue
        code = code_part(line)
        if LOOP.search(code):
            continue
        # a nonblocking assignment `x <= ...` (possibly after `if (...)`): the <= itself is not an operator
        nba = [m.end() - 2 for m in re.finditer(r"(?<![<>=!])<=", code) if NBA.match(code[:m.end()])]
        # the target of an assignment (`x[i+1] <=`, `assign x[a-1:0] =`, `wire [W-1:0] x =`) is not mutated
        lhs = [(m.start(), m.end()) for m in LHS.finditer(code)]
        for pat, rep, name in OPS:
            for m in re.finditer(pat, code):
                if name == "le-lt" and m.start() in nba:
                    continue
                if any(s <= m.start() < e for s, e in lhs):
                    continue
                new = line[:m.start()] + rep + line[m.end():]
                out.append((i, m.start() + 1, name, new))
    return lines, out


def mutant_id(f, li, col, op):
    return f"{os.path.basename(f)}:{li + 1}:{col}:{op}"


def run(cmd, timeout, cwd=None):
    t = time.time()
    try:
        p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout.decode(errors="replace"), time.time() - t
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b"").decode(errors="replace") + "\n(timeout)", time.time() - t


def nlines(path):
    with open(path) as fh:
        return sum(1 for _ in fh)


def unit_setup(unit, b):
    """Icarus tier: compile templates per key ({rtl}: the file list with the mutant in place, {o}: output prefix),
    tests [(name, key, plusargs)], every test `vvp -n {o}_KEY.vvp PLUSARGS` passing iff a line starts with PASS;
    files whose content keys the results; lockstep tier: (make variable holding the unit's file list, make
    targets to build, [(name, command with {b} = the scratch build dir and {o} = a failure dir)])."""
    if unit == "pe":
        comp = {k: f"iverilog -g2012 -Wno-timescale -I{b}/gen -o {{o}}_{k}.vvp -s tb_pe -P tb_pe.MAX_GPUS={mg} "
                   f"-P tb_pe.LQ_DEPTH={lq} -P tb_pe.RQ_DEPTH={rq} tb/pe/tb_pe.v {{rtl}}"
                for k, (mg, lq, rq) in {"16_2_2": (16, 2, 2), "64_8_8": (64, 8, 8)}.items()}
        vec = [("tb_pe 16/2/2 random (sim-pe)", "16_2_2", f"{b}/tb/pe_16_2_2.hex"),
               ("tb_pe 64/8/8 random (sim-pe)", "64_8_8", f"{b}/tb/pe_64_8_8.hex")]
        for k in ("in-stale", "in-future", "rx0-type", "rx0-stale", "rx0-future", "rx0-dst", "rx0-next", "rx1-type",
                  "rx1-stale", "rx1-future", "rx1-dst", "rx1-next"):
            vec.append((f"tb_pe err injection {k} (test-pe-err)", "16_2_2", f"{b}/tb/pe-err/{k}.hex"))
        tests = [(n, k, f"+vectors={v} +nrec={nlines(v)}") for n, k, v in vec]
        keyed = ["tb/pe/tb_pe.v", f"{b}/gen/gpupd_flit.vh"] + [v for _, _, v in vec]
        lock = ("PE_RTL",
                [("cosim-pe 16/2/2 lockstep (test-pe-cosim)", "cosim/pe_16_2_2/cosim-pe",
                  "{b}/cosim/pe_16_2_2/cosim-pe --seed 0x5eed --scenarios 40 --flits 600000 --gpus 1,2,3,16 --quiet --out-dir {o}"),
                 ("cosim-pe 64/8/8 lockstep (test-pe-cosim)", "cosim/pe_64_8_8/cosim-pe",
                  "{b}/cosim/pe_64_8_8/cosim-pe --seed 0x5eed --scenarios 60 --flits 1000000 --gpus 1,2,3,16,64 --quiet --out-dir {o}")])
    elif unit == "p2g":
        comp = {k: f"iverilog -g2012 -Wno-timescale -o {{o}}_{k}.vvp -s tb_p2g_mapper -P tb_p2g_mapper.MAX_GPUS={mg} "
                   f"-P tb_p2g_mapper.ROWS={rows} tb/p2g/tb_p2g_mapper.v {{rtl}}"
                for k, (mg, rows) in {"16_2": (16, 2), "64_4": (64, 4)}.items()}
        vec = [("tb_p2g 16 random (sim-p2g)", "16_2", f"{b}/tb/p2g_16.hex", "+seed=3"),
               ("tb_p2g 64 random (sim-p2g)", "64_4", f"{b}/tb/p2g_64.hex", "+seed=4 +gap=50 +stall=60"),
               ("tb_p2g 64 sweep-n (sim-p2g)", "64_4", f"{b}/tb/p2g_64_sweep.hex", "+seed=5")]
        tests = [(n, k, f"+vectors={v} +nrec={nlines(v)} {x}") for n, k, v, x in vec]
        keyed = ["tb/p2g/tb_p2g_mapper.v"] + [v for _, _, v, _ in vec]
        lock = ("P2G_RTL",
                [("cosim-p2g 16 lockstep (test-p2g-cosim)", "cosim/p2g_16_2/cosim-p2g",
                  "{b}/cosim/p2g_16_2/cosim-p2g --seed 0x5eed --prims 300000 --configs 60 --gpus 1,3,16 --quiet --out-dir {o}"),
                 ("cosim-p2g 64 lockstep (test-p2g-cosim)", "cosim/p2g_64_4/cosim-p2g",
                  "{b}/cosim/p2g_64_4/cosim-p2g --seed 0x5eed --prims 300000 --configs 60 --gpus 1,5,33,64 --quiet --out-dir {o}"),
                 ("cosim-p2g 64 sweep-n (test-p2g-cosim)", "cosim/p2g_64_4/cosim-p2g",
                  "{b}/cosim/p2g_64_4/cosim-p2g --seed 0x5eed --prims 128000 --sweep-n --quiet --out-dir {o}")])
    elif unit == "simt":
        comp = {f"w{w}": f"iverilog -g2012 -Wno-timescale -I{b}/gen -Irtl -o {{o}}_w{w}.vvp -s tb_simt_core "
                         f"-P tb_simt_core.WARPS={w} tb/simt/tb_simt_core.v {{rtl}}" for w in (4, 1, 2)}
        vec = [("tb_simt_core random11 (sim-simt)", "w4", f"{b}/tb/simt/random11.hex"),
               ("tb_simt_core vs_project (sim-simt)", "w4", f"{b}/tb/simt/vs_project.hex")]
        hz = f"{b}/simt-hazard"
        for f in open(os.path.join(hz, "hazard.list")).read().split():
            for w in (1, 2):
                vec.append((f"tb_simt_core hazard {f[:-4]} {w}w (test-simt-hazard-sim)", f"w{w}", f"{hz}/{f[:-4]}.w{w}.hex"))
        # first the checks that are one compile each (about 1 s of CPU; a failure kills): elaboration at the legal
        # stack depths the benches do not build, and (below) the lint of the iCE40 configuration (lint-simt)
        tests = []
        for d in (4, 8, 16):
            comp[f"d{d}"] = (f"iverilog -g2012 -Wno-timescale -I{b}/gen -Irtl -o {{o}}_d{d}.vvp -s simt_core "
                             f"-Psimt_core.STACK_DEPTH={d} {{rtl}}")
            tests.append((f"iverilog elaboration STACK_DEPTH={d} (lint-simt)", f"d{d}", None))
        # verilator -Wall at the iCE40 configuration (lint-simt): the generate branches that only it elaborates
        # (SR_MERGE, the RF_WORDS-entry scoreboard, the area options), e.g. a port of the wrong width
        ice = os.environ.get("SIMT_ICE40_PARAMS", "")
        if not ice:
            raise SystemExit("mutate: SIMT_ICE40_PARAMS (mk/simt.mk, NAME=value:...) is not set")
        comp["lint_ice40"] = (f"verilator --lint-only -Wall -Wno-DECLFILENAME -I{b}/gen -Irtl rtl/lint.vlt {{rtl}} "
                              f"--top-module simt_core " + " ".join("-G" + kv for kv in ice.split(":")))
        tests.append(("verilator -Wall at the iCE40 configuration (lint-simt)", "lint_ice40", None))
        tests += [(n, k, f"+vectors={v}") for n, k, v in vec]
        keyed = ["tb/simt/tb_simt_core.v", f"{b}/gen/isa_defs.vh", "rtl/simt_fp_fn.vh"] + [v for _, _, v in vec]
        hzl = " ".join(open(os.path.join(hz, "hazard.list")).read().split())
        # the iCE40 build first: the smaller model to build, and the one that elaborates the generate branches the
        # default benches do not (SR_MERGE, the small scoreboard), where the bench tier's survivors mostly are
        lock = ("SIMT_CORE_RTL",
                [("cosim-simt iCE40 configuration, SR_MERGE and the area options (test-simt-cosim-ice40)",
                  "cosim/simt_1_1_4_1_2_ice40/cosim-simt",
                  "{b}/cosim/simt_1_1_4_1_2_ice40/cosim-simt --seed 0x5eed --programs 300 --abort-every 10 --shaders "
                  "--quiet --out-dir {o}"),
                 ("cosim-simt random + shaders (test-simt-cosim)", "cosim/simt_8_4_8_8_4/cosim-simt",
                  "{b}/cosim/simt_8_4_8_8_4/cosim-simt --seed 0x5eed --programs 300 --fuzz-words 100 --abort-every 10 "
                  "--shaders --quiet --out-dir {o}"),
                 ("cosim-simt hazard programs (test-simt-hazard)", "cosim/simt_8_4_8_8_4/cosim-simt",
                  f"set -e; for f in {hzl}; do for w in 1 2; do {{b}}/cosim/simt_8_4_8_8_4/cosim-simt "
                  f"--program {hz}/$f --expect done --warps $w --seed 0x5eed --programs 0 --quiet --out-dir {{o}}; done; done")])
    else:
        raise SystemExit(f"mutate: unknown unit {unit}")
    return comp, tests, keyed, lock


def sha(*parts):
    h = hashlib.sha1()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def file_sha(path):
    with open(path, "rb") as fh:
        return sha(fh.read())


def load_equiv(path):
    """{'FILE|OP|mutated line': argument}"""
    eq = {}
    if os.path.exists(path):
        for ln in open(path):
            ln = ln.rstrip("\n")
            if not ln.strip() or ln.lstrip().startswith("#"):
                continue
            key, _, arg = ln.partition(" # ")
            eq[key.strip()] = arg.strip()
    return eq


def equiv_key(f, op, new):
    return f"{os.path.basename(f)}|{op}|{new.strip()}"


class Runner:
    def __init__(self, a):
        self.a = a
        self.rtl = a.rtl.split()
        self.comp, self.tests, keyed, self.lock = unit_setup(a.unit, a.build)
        self.work = os.path.join(a.o, a.unit + "-work")
        os.makedirs(self.work, exist_ok=True)
        # one campaign per work directory at a time (two would overwrite each other's scratch copy)
        self.lockf = open(os.path.join(self.work, "lock"), "w")
        try:
            fcntl.flock(self.lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"mutate: another campaign of {a.unit} runs in {self.work} (its lock is held)")
        # (the compile-only checks last in the signature whatever order they run in, so that a reordering of the
        # tier keeps the stored results)
        self.tb_sig = sha(*[file_sha(p) for p in keyed], *self.comp.values(),
                          *[t[2] for t in sorted(self.tests, key=lambda t: t[2] is None)])
        # each test's own signature (bench sources, compile command, arguments, its vectors): a kill by a test whose
        # signature is unchanged stays valid when other tests are added or changed
        vecs = {m.group(1) for t in self.tests for m in [re.search(r"\+vectors=(\S+)", t[2] or "")] if m}
        common = sha(*[file_sha(p) for p in keyed if p not in vecs])
        self.test_sig = {}
        for name, k, args in self.tests:
            m = re.search(r"\+vectors=(\S+)", args or "")
            self.test_sig[name] = sha(common, self.comp[k], args, file_sha(m.group(1)) if m else "")
        for name, target, c in self.lock[1]:
            self.test_sig[name] = sha(target, c)
        self.rtl_sha = {r: file_sha(r) for r in self.rtl}
        self.timeouts = {}

    def compile(self, key, prefix, files):
        rc, out, _ = run(self.comp[key].format(o=prefix, rtl=files), 600)
        return rc == 0, out

    def icarus(self, prefix, files, stop_first=True, verbose=False, base=False):
        """run the Icarus tier; returns (killer test name or None, compile error or None, [(name, cmd, output)])"""
        built, fails = {}, []
        for name, k, args in self.tests:
            if args is None:   # an elaboration check: the compile is the test
                cmd = self.comp[k].format(o=prefix, rtl=files)
                ok, out = self.compile(k, prefix, files)
                if verbose:
                    print(f"  {'PASS' if ok else 'FAIL'} {name}: {cmd}")
                if not ok:
                    fails.append((name, cmd, out))
                    if stop_first:
                        return name, None, fails
                continue
            if k not in built:
                ok, out = self.compile(k, prefix, files)
                if not ok:
                    return None, out, fails
                built[k] = True
            cmd = f"vvp -n {prefix}_{k}.vvp {args}"
            rc, out, dt = run(cmd, self.timeouts.get(name, 900))
            if base:
                self.timeouts[name] = int(max(120, 20 * dt))
            passed = re.search(r"^PASS", out, re.M) is not None
            if verbose:
                print(f"  {'PASS' if passed else 'FAIL'} {name} ({dt:.1f} s): {cmd}")
            if not passed:
                fails.append((name, cmd, out))
                if stop_first:
                    return name, None, fails
        return (fails[0][0] if fails else None), None, fails

    def lockstep_build(self, files, target, log):
        """build one lockstep binary in the scratch build dir with the mutated file list"""
        sb = os.path.join(self.work, "build")
        if not os.path.isdir(sb):
            os.makedirs(sb + ".tmp", exist_ok=True)
            for d in ("lib", "gen", "vlrt"):   # reuse what the tree built (mtimes kept, so make sees it current)
                if os.path.isdir(os.path.join(self.a.build, d)):
                    shutil.copytree(os.path.join(self.a.build, d), os.path.join(sb + ".tmp", d), symlinks=True)
            os.replace(sb + ".tmp", sb)
        # the model is verilated again every time: a file list that points back at older files (the unmutated RTL
        # after a mutant) would otherwise look up to date to make
        for v in glob.glob(os.path.join(sb, os.path.dirname(target), "V*.mk")):
            os.remove(v)
        cmd = (f"{os.environ.get('MAKE', 'make')} --no-print-directory -j1 BUILD={sb} {self.lock[0]}='{files}' "
               f"{os.path.join(sb, target)}")
        rc, out, _ = run(cmd, 7200)
        with open(log, "w") as fh:
            fh.write(cmd + "\n" + out)
        return rc == 0, cmd

    def lockstep(self, files, stop_first=True, verbose=False):
        """the lockstep tier: each binary built (lazily) from the mutated file list, then its runs"""
        sb = os.path.join(self.work, "build")
        fails, built = [], set()
        for name, target, c in self.lock[1]:
            if target not in built:
                log = os.path.join(self.work, "lockstep-build.log")
                ok, bcmd = self.lockstep_build(files, target, log)
                if not ok:
                    return None, f"lockstep build failed: {bcmd} (log {log})", fails
                built.add(target)
            cmd = c.format(b=sb, o=os.path.join(self.work, "cosim-fail"))
            rc, out, dt = run(cmd, 3600)
            if verbose:
                print(f"  {'PASS' if rc == 0 else 'FAIL'} {name} ({dt:.1f} s): {cmd}")
            if rc != 0:
                fails.append((name, cmd, out))
                if stop_first:
                    break
        return (fails[0][0] if fails else None), None, fails

    def files_with(self, f, mf):
        return " ".join(mf if r == f else r for r in self.rtl)


def generate(a):
    todo = []
    for f in a.mutate.split():
        lines, ms = mutants(f)
        todo += [(f, lines, li, col, op, new) for li, col, op, new in ms]
    return todo


def select(todo, n, seed):
    """the first n of a permutation drawn with the seed: a smaller n is a subset of a larger one, so
    a campaign cut short is still a seeded sample, and its results serve the larger one"""
    if n and len(todo) > n:
        idx = random.Random(seed).sample(range(len(todo)), len(todo))[:n]
        return [todo[i] for i in idx]   # in the order drawn: a campaign stopped after k mutants ran the sample of k
    return list(todo)


def write_mutant(f, lines, li, new, d):
    os.makedirs(d, exist_ok=True)
    mf = os.path.join(d, os.path.basename(f))
    with open(mf + ".tmp", "w") as fh:
        fh.write("\n".join(lines[:li] + [new] + lines[li + 1:]))
    os.replace(mf + ".tmp", mf)
    return mf


def only(a, r):
    todo = generate(a)
    m = [t for t in todo if mutant_id(t[0], t[2], t[3], t[4]) == a.only]
    if not m:
        print(f"mutate: no mutant {a.only} in {a.mutate} (ids: `make mutate UNIT={a.unit} LIST=1`)")
        return 2
    f, lines, li, col, op, new = m[0]
    d = os.path.join(a.o, a.unit + "-only")
    shutil.rmtree(d, ignore_errors=True)
    mf = write_mutant(f, lines, li, new, d)
    print(f"mutant {a.only}: {f} line {li + 1}\n  - {lines[li].strip()}\n  + {new.strip()}\nscratch copy: {mf}")
    files = r.files_with(f, mf)
    by, cerr, fails = r.icarus(os.path.join(d, "m"), files, stop_first=True, verbose=True)
    if cerr:
        print(f"does not compile:\n{cerr[-1500:]}")
        return 0
    if not by and a.lockstep:
        r.work = d
        by, cerr, fails = r.lockstep(files, verbose=True)
        if cerr:
            print(cerr)
    if by:
        name, cmd, out = fails[0]
        print(f"KILLED by {name}\n  reproduce: {cmd}\n--- its output (last lines) ---\n" + "\n".join(out.strip().split("\n")[-25:]))
    else:
        print("SURVIVED every test run" + ("" if a.lockstep else " (Icarus tier; LOCKSTEP=1 adds the Verilator lockstep)"))
    return 0


def selftest(a, r):
    """the mutator on a known P2G mutant: generated, applied, killed; the unmutated RTL passes; sampling is seeded"""
    known = ("p2g_range_mask.v", "and-or", "wire direct  = (I >= {1'b0, s_i}) || (I < s_end);")
    todo = generate(a)
    hit = [t for t in todo if (os.path.basename(t[0]), t[4], t[5].strip()) == known]
    if len(hit) != 1:
        print(f"mutate selftest: FAIL: the generator did not produce the known mutant {known} exactly once ({len(hit)})")
        return 1
    if [mutant_id(t[0], t[2], t[3], t[4]) for t in select(todo, 20, 7)] != \
       [mutant_id(t[0], t[2], t[3], t[4]) for t in select(generate(a), 20, 7)]:
        print("mutate selftest: FAIL: the same seed gave two different samples")
        return 1
    r.tests = r.tests[:1]
    d = os.path.join(a.o, "selftest")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    by, cerr, fails = r.icarus(os.path.join(d, "base"), " ".join(r.rtl), base=True)
    if by or cerr:
        print(f"mutate selftest: FAIL: the unmutated RTL fails {by or 'to compile'}:\n{(cerr or fails[0][2])[-800:]}")
        return 1
    f, lines, li, col, op, new = hit[0]
    mf = write_mutant(f, lines, li, new, os.path.join(d, "m"))
    by, cerr, fails = r.icarus(os.path.join(d, "m", "m"), r.files_with(f, mf))
    if not by:
        print(f"mutate selftest: FAIL: mutant {mutant_id(f, li, col, op)} ({new.strip()}) "
              f"{'does not compile' if cerr else 'survived ' + r.tests[0][0]}; reproduce: make mutate UNIT=p2g ONLY={mutant_id(f, li, col, op)}")
        return 1
    print(f"mutate selftest: {len(todo)} P2G mutants generated, the same seed gives the same sample; the unmutated RTL "
          f"passes {r.tests[0][0]}; the known mutant {mutant_id(f, li, col, op)} (`{new.strip()}`) is killed by it")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", required=True)
    ap.add_argument("--build", default="build")
    ap.add_argument("--rtl", required=True, help="the unit's RTL files, in compile order")
    ap.add_argument("--mutate", required=True, help="the files to mutate (a subset of --rtl)")
    ap.add_argument("--mutants", type=int, default=0, help="a sample of N mutants (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lockstep", action="store_true", help="survivors of the Icarus tier go to the Verilator lockstep")
    ap.add_argument("--only", help="one mutant id: run it verbosely in OUT/UNIT-only/")
    ap.add_argument("--list", action="store_true", help="print every mutant id and the line it makes")
    ap.add_argument("--fresh", action="store_true", help="forget the stored results")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--equiv", default=None, help="equivalent-mutant list (default tests/mutate/UNIT.equiv)")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a non-equivalent mutant survives")
    ap.add_argument("-o", default="out/mutate")
    a = ap.parse_args()
    if a.list:
        for f, lines, li, col, op, new in generate(a):
            print(f"{mutant_id(f, li, col, op)}\t{new.strip()}")
        return 0
    r = Runner(a)
    if a.selftest:
        return selftest(a, r)
    if a.only:
        return only(a, r)
    base = os.path.join(r.work, "base")
    marker = os.path.join(r.work, "base-icarus." + sha(*r.rtl_sha.values(), r.tb_sig))
    if not os.path.exists(marker):   # the unmutated RTL passes every bench (once per RTL, benches and vectors)
        by, cerr, fails = r.icarus(base, " ".join(r.rtl), stop_first=False, base=True)
        if cerr or by:
            print(f"mutate: the unmutated RTL {'does not compile' if cerr else 'fails ' + by}:\n{(cerr or fails[0][2])[-1500:]}")
            return 2
        with open(marker, "w") as fh:
            json.dump(r.timeouts, fh)
    else:
        r.timeouts = json.load(open(marker))
    if a.lockstep:
        marker = os.path.join(r.work, "base-lockstep." + sha(*r.rtl_sha.values(), r.tb_sig, *[t[2] for t in r.lock[1]]))
        if not os.path.exists(marker):
            by, cerr, fails = r.lockstep(" ".join(r.rtl))
            if cerr or by:
                print(f"mutate: the unmutated RTL {cerr or 'fails ' + by}:\n{fails[0][2][-1500:] if fails else ''}")
                return 2
            open(marker, "w").close()
    all_m = generate(a)
    todo = select(all_m, a.mutants, a.seed)
    eq = load_equiv(a.equiv or os.path.join("tests", "mutate", a.unit + ".equiv"))
    resf = os.path.join(r.work, "results.jsonl")
    if a.fresh and os.path.exists(resf):
        os.remove(resf)
    done, kills = {}, {}
    if os.path.exists(resf):
        for ln in open(resf):
            try:
                d = json.loads(ln)
                done[d["key"]] = d
                if "mkey" in d and d.get("by_sig"):
                    kills[(d["mkey"], d["result"], d["by_sig"])] = d
            except ValueError:
                pass
    rows = []
    t0 = time.time()
    for n, (f, lines, li, col, op, new) in enumerate(todo):
        mid = mutant_id(f, li, col, op)
        others = [r.rtl_sha[x] for x in r.rtl if x != f]
        mkey = sha(mid, new, "\n".join(lines), *others)
        key = sha(mkey, r.tb_sig, "lockstep" if a.lockstep else "icarus")
        d = done.get(key)
        if d is None:   # killed before by a test that is unchanged
            d = next((v for (mk, res, bs), v in kills.items() if mk == mkey and r.test_sig.get(res) == bs), None)
        d0 = None
        if d is None and a.lockstep:   # an Icarus-tier kill stays a kill; an Icarus-tier survivor goes on to the lockstep
            d0 = done.get(sha(mkey, r.tb_sig, "icarus"))
            if d0 and d0["result"] != "SURVIVED":
                d = d0
        if d is None:
            t1 = time.time()
            mf = write_mutant(f, lines, li, new, os.path.join(r.work, "m"))
            files = r.files_with(f, mf)
            if d0:   # survived these benches before (same mutant, RTL, benches and vectors): not run again
                by, cerr = None, None
            else:
                by, cerr, _ = r.icarus(os.path.join(r.work, "m", "m"), files)
            if cerr:
                result = "does not compile"
            elif by:
                result = by
            elif a.lockstep:
                by, cerr, _ = r.lockstep(files)
                result = "lockstep build failed" if cerr else (by or "SURVIVED")
            else:
                result = "SURVIVED"
            d = {"key": key, "mkey": mkey, "id": mid, "result": result, "by_sig": r.test_sig.get(result),
                 "seconds": round(time.time() - t1, 1)}
            with open(resf, "a") as fh:
                fh.write(json.dumps(d) + "\n")
            done[key] = d
            print(f"mutate {a.unit}: {n + 1}/{len(todo)} {mid}: {result} ({d['seconds']} s)", flush=True)
        rows.append((f, li, col, op, lines[li], new, d["result"], d["seconds"]))
    pos = {(t[0], t[2], t[3], t[4]): i for i, t in enumerate(all_m)}
    rows.sort(key=lambda x: pos[(x[0], x[1], x[2], x[3])])   # the report in file order
    write_report(a, r, rows, all_m, todo, eq, time.time() - t0)
    surv = [x for x in rows if x[6] == "SURVIVED" and equiv_key(x[0], x[3], x[5]) not in eq]
    return 1 if (a.strict and surv) else 0


def write_report(a, r, rows, all_m, todo, eq, secs):
    killed = [x for x in rows if x[6] not in ("SURVIVED", "does not compile", "lockstep build failed")]
    invalid = [x for x in rows if x[6] in ("does not compile", "lockstep build failed")]
    surv = [x for x in rows if x[6] == "SURVIVED"]
    s_eq = [x for x in surv if equiv_key(x[0], x[3], x[5]) in eq]
    s_open = [x for x in surv if equiv_key(x[0], x[3], x[5]) not in eq]
    eq_killed = [x for x in killed if equiv_key(x[0], x[3], x[5]) in eq]
    produced = {equiv_key(f, op, new) for f, _, _, _, op, new in all_m}
    stale = [k for k in eq if k.split("|")[0] in {os.path.basename(f) for f in a.mutate.split()} and k not in produced]
    behav = len(killed) + len(s_open)
    samp = (f"a sample of {len(todo)} of the {len(all_m)} mutants drawn with seed {a.seed} (`MUTANTS={a.mutants} "
            f"MUTATE_SEED={a.seed}`)" if len(todo) < len(all_m) else f"all {len(all_m)} mutants")
    tiers = "the Icarus benches, then the Verilator lockstep for the survivors" if a.lockstep else "the Icarus benches"
    rep = os.path.join(a.o, a.unit + ".md")
    counts = {}
    for x in killed:
        counts[x[6]] = counts.get(x[6], 0) + 1
    with open(rep + ".tmp", "w") as fh:
        w = fh.write
        w(f"# Mutation testing: {a.unit}\n\n")
        w(f"Generated by `make mutate UNIT={a.unit}{' MUTANTS=' + str(a.mutants) if a.mutants else ''}"
          f"{' MUTATE_SEED=' + str(a.seed) if a.seed != 1 else ''}{' LOCKSTEP=1' if a.lockstep else ''}` "
          f"(scripts/mutate.py, docs/testing.md): {samp} of `{a.mutate}`, each in a scratch copy against {tiers} "
          f"({len(r.tests)} Icarus runs{', ' + str(len(r.lock[1])) + ' lockstep runs' if a.lockstep else ''}; the "
          f"first failure kills). {secs:.0f} s this run (results of earlier runs reused).\n\n")
        w(f"**{len(killed)} killed, {len(s_open)} survived, {len(s_eq)} survived and argued equivalent "
          f"(tests/mutate/{a.unit}.equiv), {len(invalid)} do not build.** Behaviour-changing mutants killed: "
          f"{len(killed)} of {behav} ({100.0 * len(killed) / behav if behav else 0:.1f} %).\n\n")
        if eq_killed:
            w(f"Listed as equivalent but killed (the list is wrong): {', '.join(mutant_id(x[0], x[1], x[2], x[3]) for x in eq_killed)}\n\n")
        if stale:
            w("Listed as equivalent but no longer generated (RTL changed; remove from the list): "
              + "; ".join(f"`{k}`" for k in stale) + "\n\n")
        w("Reproduce one mutant: `make mutate UNIT=" + a.unit + " ONLY=<id>` (add `LOCKSTEP=1` for the lockstep tier).\n\n")
        w("## Killed by\n\n| test | mutants |\n|---|---:|\n")
        for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
            w(f"| {k} | {v} |\n")
        w("\n## Survivors\n\n")
        if not surv:
            w("None.\n")
        else:
            w("| id | original | mutated | verdict |\n|---|---|---|---|\n")
            for f, li, col, op, old, new, res, _ in surv:
                arg = eq.get(equiv_key(f, op, new))
                w(f"| `{mutant_id(f, li, col, op)}` | `{esc(old)}` | `{esc(new)}` | "
                  f"{'equivalent: ' + arg if arg else '**not killed, not argued**'} |\n")
        w("\n## Every mutant\n\n| id | mutated line | result | s |\n|---|---|---|---:|\n")
        for f, li, col, op, old, new, res, s in rows:
            w(f"| `{mutant_id(f, li, col, op)}` | `{esc(new)}` | {res} | {s} |\n")
    os.replace(rep + ".tmp", rep)
    print(f"mutate {a.unit}: {len(killed)} killed, {len(s_open)} survived (+{len(s_eq)} argued equivalent), "
          f"{len(invalid)} do not build; behaviour-changing killed {len(killed)}/{behav}; report {rep}")


def esc(s):
    return s.strip().replace("|", "&#124;")[:120]


if __name__ == "__main__":
    sys.exit(main())
