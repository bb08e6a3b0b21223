#!/usr/bin/python3
"""Hostile-user tests of the command-line tools (issue 12; docs/cli.md). Run by `make test-tools-cli` twice:
with the -O2 tools (build/bin) and with the ASan/UBSan builds of the same tools (build/san/bin), where any
sanitizer report fails the run, LeakSanitizer's included (every error exit frees what it allocated).

Sections (each failure prints the command to reproduce it):
  args     every numeric option of every tool with malformed, negative, overflowing and out-of-range
           values (generated from the range table below, which mirrors docs/cli.md) plus the explicit rows
           of tests/tools/bad_args.tsv: exit status 2, and the message names the option and the value;
  outputs  no data loss: a failing run leaves an existing output untouched and no temporary file behind,
           /dev/null (and, as root, a device node) as output works and is never removed, unwritable
           outputs are an error before the run;
  rects    inverted or empty rectangles (viewport, enabled scissor; gpupd-p2g --scissor) are rejected;
  traces   corrupt traces: every corruption that `gpupd-trace validate` rejects is rejected by
           `gpupd-sim render --frame 0`, `gpupd-p2g-trace --frame 0` and `gpupd-trace dump` too (they read
           the whole trace), including chunks moved across a frame end;
  ub       inputs that used to reach undefined behaviour (scissor/viewport near INT32_MAX in clears and
           draws, empty program to gpupd-dis) run clean under the sanitizers;
  limits   resource limits give their documented error;
  faults   --inject-fault: never fired -> exit 2, scheme without exchange -> exit 2, clear-mask without
           --check-masks -> exit 1 (wrong frame), with --check-masks -> exit 1 (mask check);
  validate validate against an unrelated reference image fails (exit 1).
"""
import argparse
import os
import random
import re
import shlex
import stat
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FAILS = []
COUNT = [0]


def run(cmd, stdin=None, timeout=120):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def fail(what, cmd, detail=""):
    FAILS.append(f"FAIL {what}\n  reproduce: {' '.join(shlex.quote(c) for c in cmd)}\n  {detail}")


def sanitizer_report(err):
    return "runtime error:" in err or "AddressSanitizer" in err or "LeakSanitizer" in err


def expect(what, cmd, want_rc, frags=(), stdin=None):
    COUNT[0] += 1
    rc, out, err = run(cmd, stdin)
    if sanitizer_report(err):
        fail(what + " (sanitizer report)", cmd, err[-1500:])
        return rc, out, err
    ok = rc == want_rc if isinstance(want_rc, int) else want_rc(rc)
    if not ok:
        fail(what, cmd, f"exit {rc}, want {want_rc}; stderr: {err[-600:]!r}")
    for f in frags:
        if f not in err:
            fail(what, cmd, f"stderr lacks {f!r}: {err[-600:]!r}")
            break
    return rc, out, err


# ------------------------------------------------------------------------------------------------ args
# (tool, base arguments, option, lo, hi, kind) -- kind: u (unsigned int), list (comma list), f (float),
# wxh. Mirrors docs/cli.md.
def range_table(B, W, trace):
    sim_r = [B + "/gpupd-sim", "render", "--scene", "tris", "--size", "16x16"]
    sim_v = [B + "/gpupd-sim", "verify", "--scene", "tris", "--size", "16x16"]
    sim_val = [B + "/gpupd-sim", "validate", "--trace", trace, "--ref", W + "/ref.png"]
    p2g = [B + "/gpupd-p2g", "--gpus", "4", "--width", "64", "--height", "64"]
    p2gt = [B + "/gpupd-p2g-trace", "--trace", trace, "--gpus", "4"]
    gen = [B + "/gpupd-isa-gen", "1"]
    cds = [B + "/gpupd-cdsys", "--trace", trace, "--gpus", "3"]
    rows = [
        (sim_r, "--gpus", 1, 64, "u"), (sim_v, "--gpus", 1, 64, "list"), (sim_r, "--frame", 0, 1000000, "u"),
        (sim_r, "--batch", 1, 1 << 24, "u"), (sim_r, "--latency", 1, 64, "u"), (sim_r, "--send-rate", 1, 64, "u"),
        (sim_r, "--hub-rate", 1, 64, "u"), (sim_r, "--tile-log2", 1, 14, "u"), (sim_r, "--prims", 1, 4000000, "u"),
        (sim_r, "--repeat", 1, 1000, "u"), (sim_r, "--seed", 0, (1 << 64) - 1, "u"),
        (sim_r, "--mem-limit-mb", 1, 1 << 20, "u"), (sim_r, "--size", 8, 8192, "wxh"),
        (sim_r, "--sx-k", 1, 8, "u"), (sim_r, "--sx-depth", 2, 16384, "u"), (sim_r, "--sx-live", 1, 16384, "u"),
        (sim_r, "--sx-ramp", 1, 1 << 30, "u"),
        (sim_r + ["--scheme", "chopin", "--gpus", "2"], "--chopin-min-tris", 1, (1 << 32) - 1, "u"),
        (sim_val, "--min-image-close", 0, 100, "f"), (sim_val, "--min-draws-1pct", 0, 100, "f"),
        (p2g, "--gpus", 1, 64, "u"), (p2g, "--width", 1, 16384, "u"), (p2g, "--height", 1, 16384, "u"),
        (p2g, "--tile-log2", 0, 14, "u"),
        (p2gt, "--gpus", 2, 64, "u"), (p2gt, "--frame", 0, 1000000, "u"), (p2gt, "--tile-log2", 1, 14, "u"),
        (p2gt, "--rows", 1, 64, "u"),
        (gen, "--depth", 0, 6, "u"), (gen, "--len", 64, 4088, "u"),
        ([B + "/gpupd-isa-bench", "sfu"], "--step", 1, 1 << 24, "u"),
        ([B + "/gpupd-isa-bench", "interp"], "--warps", 1, 100000000, "u"),
        (cds, "--gpus", 1, 64, "u"), (cds, "--frame", 0, 1000000, "u"), (cds, "--batch", 1, 1 << 30, "u"),
        (cds, "--latency", 1, 100000, "u"), (cds, "--hub-rate", 1, 64, "u"), (cds, "--cp-cost", 0, 100000, "u"),
        (cds, "--stall", 0, 900, "u"), (cds, "--jitter", 0, 1000, "u"), (cds, "--seed", 0, (1 << 64) - 1, "u"),
        ([B + "/gpupd-trace", "pack", trace, W + "/pack.gpt"], "--level", 0, 19, "u"),
        ([B + "/gpupd-trace", "pack", trace, W + "/pack.gpt", "--codec", "zlib"], "--level", 0, 9, "u"),
        ([B + "/gpupd-trace", "pack", trace, W + "/pack.gpt", "--codec", "zlib"], "--minor", 0, 5, "u"),
    ]
    return rows


def bad_values(lo, hi, kind):
    v = ["", "abc", "-1", " 5", "5 ", "5x", "+5", "0x", "1e3", "18446744073709551616", "99999999999999999999999"]
    if kind in ("u", "list"):
        if lo > 0:
            v.append(str(lo - 1))
        if hi < (1 << 64) - 1:
            v.append(str(hi + 1))
        v += [str(hi + (1 << 32)) if hi < (1 << 32) else "18446744073709551617", "4294967296", "4294967298"]
    if kind == "list":
        v += ["4,0", "4,", ",4", "4,,5", "4,65", "2;3", "4,-1"]
    if kind == "f":
        v = ["", "abc", "nan", "inf", "-inf", "1e999", "-0.001", "100.001", "5x", "0x"]
    if kind == "wxh":
        v = ["", "x", "16", "16x", "x16", "16x16x16", "7x16", "16x7", "8193x16", "-16x16", "16x4294967312", "ax16"]
    # values that are actually valid for this option are not "bad"
    out = []
    for s in v:
        try:
            if kind in ("u",) and s.strip() == s and s.isdigit() and lo <= int(s) <= hi:
                continue
        except ValueError:
            pass
        out.append(s)
    return out


def section_args(B, W, trace):
    n0 = COUNT[0]
    for base, opt, lo, hi, kind in range_table(B, W, trace):
        for val in bad_values(lo, hi, kind):
            cmd = base + [opt, val]
            COUNT[0] += 1
            rc, out, err = run(cmd)
            if sanitizer_report(err):
                fail("args (sanitizer report)", cmd, err[-1000:])
            elif rc != 2:
                fail(f"args: {opt} {val!r} accepted or wrong status", cmd, f"exit {rc}, want 2; stderr {err[-300:]!r}")
            elif opt not in err or (val and val not in err):
                fail(f"args: error for {opt} {val!r} does not name the option and the value", cmd, f"stderr {err[-300:]!r}")
        # a missing value
        cmd = base + [opt]
        expect(f"args: {opt} without a value", cmd, 2, [opt])
    # explicit table
    with open(os.path.join(HERE, "bad_args.tsv")) as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            want, frag, cmdline = line.split("\t")
            cmd = [c.replace("{B}", B).replace("{W}", W).replace("{TRACE}", trace) for c in shlex.split(cmdline)]
            expect(f"bad_args.tsv line {ln}", cmd, int(want), [frag] if frag else [])
    return COUNT[0] - n0


# ------------------------------------------------------------------------------------------------ outputs
def leftovers(d):
    return [f for f in os.listdir(d) if f.startswith(".")]


def section_outputs(B, W, trace):
    d = os.path.join(W, "out")
    os.makedirs(d, exist_ok=True)
    precious = b"precious contents\n"

    def keep_case(what, mk_cmd, name):
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(precious)
        cmd = mk_cmd(p)
        COUNT[0] += 1
        rc, out, err = run(cmd)
        if sanitizer_report(err):
            fail(what + " (sanitizer report)", cmd, err[-1000:])
        if rc == 0:
            fail(what + ": the failing command succeeded", cmd, err[-300:])
        if not os.path.exists(p) or open(p, "rb").read() != precious:
            fail(what + ": an existing output was removed or changed by a failing run", cmd, err[-300:])
        if leftovers(d):
            fail(what + ": temporary files left behind: %s" % leftovers(d), cmd)
        for f in leftovers(d):
            os.unlink(os.path.join(d, f))

    bad_txt = os.path.join(W, "bad.txt")
    with open(bad_txt, "w") as f:
        f.write("GPUPD-TRACE-TEXT version 1 0 zlevel 6\nINFO w 64 h 48 frames 1 typo\n")
    half_txt = os.path.join(W, "half.txt")      # valid beginning, error late (after the writer opened)
    run([B + "/gpupd-trace", "dump", trace, half_txt])
    txt = open(half_txt).read()
    with open(half_txt, "w") as f:
        f.write(txt.replace("END\n", "DRAW z 1 index 99\nEND\n"))
    keep_case("undump with a typo before the output opens", lambda p: [B + "/gpupd-trace", "undump", bad_txt, p], "a.gpt")
    keep_case("undump failing late", lambda p: [B + "/gpupd-trace", "undump", half_txt, p], "b.gpt")
    keep_case("undump of a missing input", lambda p: [B + "/gpupd-trace", "undump", W + "/missing.txt", p], "c.gpt")
    trunc = os.path.join(W, "trunc.gpt")
    with open(trunc, "wb") as f:
        f.write(open(trace, "rb").read()[:-7])
    keep_case("dump of a truncated trace", lambda p: [B + "/gpupd-trace", "dump", trunc, p], "d.txt")
    bad_s = os.path.join(W, "bad.s")
    with open(bad_s, "w") as f:
        f.write("nop\n  fadd r1, r2, r99\n")
    with open(os.path.join(W, "ok.s"), "w") as f:
        f.write("nop\nexit\n")
    keep_case("gpupd-as with an error", lambda p: [B + "/gpupd-as", bad_s, "-o", p], "e.bin")
    keep_case("gpupd-as on a directory", lambda p: [B + "/gpupd-as", W, "-o", p], "f.bin")
    keep_case("gpupd-sim -o on a render error", lambda p: [B + "/gpupd-sim", "render", "--trace", trunc, "-o", p], "g.png")
    keep_case("gpupd-sim --stats on a failed check", lambda p: [B + "/gpupd-sim", "render", "--scene", "tris", "--scheme",
                                                               "gpupd", "--gpus", "3", "--inject-fault", "dup:2", "--stats", p], "h.json")
    keep_case("gpupd-sim validate --json with a bad reference", lambda p: [B + "/gpupd-sim", "validate", "--trace", trace,
                                                                          "--ref", bad_s, "--json", p], "i.json")
    keep_case("gpupd-p2g-trace -o of a corrupt trace", lambda p: [B + "/gpupd-p2g-trace", "--trace", trunc, "--gpus", "4",
                                                                 "-o", p], "j.txt")
    # success replaces, and the result is complete
    p = os.path.join(d, "ok.gpt")
    with open(p, "wb") as f:
        f.write(precious)
    expect("synth over an existing file", [B + "/gpupd-trace", "synth", p], 0)
    expect("synth output validates", [B + "/gpupd-trace", "validate", p], 0)
    if leftovers(d):
        fail("temporary files left after success: %s" % leftovers(d), ["ls", "-a", d])
    # non-regular outputs: written in place, never removed
    expect("render to /dev/null", [B + "/gpupd-sim", "render", "--scene", "tris", "--size", "32x32", "-o", "/dev/null",
                                   "--stats", "/dev/null"], 0)
    expect("dump to /dev/null", [B + "/gpupd-trace", "dump", trace, "/dev/null"], 0)
    expect("timeline to /dev/null", [B + "/gpupd-sim", "render", "--scene", "tris", "--size", "32x32", "--timing", "on",
                                     "--no-check-masks", "--timeline", "/dev/null", "-q"], 0)
    expect("undump failing into /dev/null", [B + "/gpupd-trace", "undump", bad_txt, "/dev/null"], 1)
    if os.path.exists("/dev/full"):
        # a full disk: a clear message (the old dump printed an uninitialised error text), nonzero exit
        expect("dump to a full disk", [B + "/gpupd-trace", "dump", trace, "/dev/full"], 1, ["write error"])
        expect("render -o to a full disk", [B + "/gpupd-sim", "render", "--scene", "tris", "--size", "32x32", "-q",
                                            "-o", "/dev/full"], lambda rc: rc != 0, ["cannot write /dev/full"])
        expect("as to a full disk", [B + "/gpupd-as", bad_s.replace("bad.s", "ok.s"), "-o", "/dev/full"], 1,
               ["No space left"])
        # error exits after the program / the stream were built: nothing leaks (LeakSanitizer in the san pass)
        expect("isa-gen to a full disk", [B + "/gpupd-isa-gen", "1", "-o", "/dev/full"], 1, ["No space left"])
        expect("p2g-trace to a full disk", [B + "/gpupd-p2g-trace", "--trace", trace, "--gpus", "2", "-o", "/dev/full"], 1,
               ["cannot write /dev/full"])
    if not os.path.exists("/dev/null") or not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        fail("/dev/null was removed or replaced", ["ls", "-l", "/dev/null"])
    if os.geteuid() == 0:
        node = os.path.join(d, "nullnode")
        if os.path.exists(node):
            os.unlink(node)
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        expect("undump failing into a device node (root)", [B + "/gpupd-trace", "undump", bad_txt, node], 1)
        expect("undump into a device node (root)", [B + "/gpupd-trace", "undump", half_txt.replace("half", "half"), node], 1)
        expect("as into a device node (root)", [B + "/gpupd-as", bad_s, "-o", node], 1)
        if not os.path.exists(node) or not stat.S_ISCHR(os.lstat(node).st_mode):
            fail("a device node given as output was removed or replaced", ["ls", "-l", node])
        os.unlink(node)
    # unwritable outputs: error before the run, exit 2, naming the path
    for opt in ("-o", "--stats", "--timeline"):
        expect(f"render {opt} into a missing directory", [B + "/gpupd-sim", "render", "--scene", "tris", opt,
                                                          W + "/no/such/dir/x"], 2, [W + "/no/such/dir/x"])
        expect(f"render {opt} naming a directory", [B + "/gpupd-sim", "render", "--scene", "tris", opt, W], 2, ["directory"])
    for opt in ("--json", "--diff", "-o"):
        expect(f"validate {opt} into a missing directory", [B + "/gpupd-sim", "validate", "--trace", trace, "--ref",
                                                            W + "/ref.png", opt, W + "/no/dir/x"], 2, [W + "/no/dir/x"])
    expect("verify --diff-dir missing", [B + "/gpupd-sim", "verify", "--scene", "tris", "--diff-dir", W + "/nodir"], 2, ["--diff-dir"])
    expect("dump into a missing directory", [B + "/gpupd-trace", "dump", trace, W + "/no/x.txt"], 2, [W + "/no/x.txt"])
    expect("undump into a missing directory", [B + "/gpupd-trace", "undump", half_txt, W + "/no/x.gpt"], 2, [W + "/no/x.gpt"])
    expect("as into a missing directory", [B + "/gpupd-as", bad_s, "-o", W + "/no/x.bin"], 2, [W + "/no/x.bin"])
    expect("p2g-trace into a missing directory", [B + "/gpupd-p2g-trace", "--trace", trace, "--gpus", "2", "-o", W + "/no/x"], 2,
           [W + "/no/x"])
    expect("isa-gen into a missing directory", [B + "/gpupd-isa-gen", "1", "-o", W + "/no/x.bin"], 2, [W + "/no/x.bin"])


# ------------------------------------------------------------------------------------------------ traces
def chunks(b):
    """(offset, tag, total length) of every chunk of a binary trace."""
    out, pos = [], 32
    while pos + 20 <= len(b):
        tag = b[pos:pos + 4]
        stored = struct.unpack_from("<I", b, pos + 8)[0]
        out.append((pos, tag, 20 + stored))
        pos += 20 + stored
    return out


def corruptions(b, rng, n_random):
    cs = chunks(b)
    res = []
    # structural: chunks moved across frame ends, swapped, dropped (CRC-valid files)
    for i, (o, t, l) in enumerate(cs):
        if t in (b"FRME", b"DRAW", b"CLER", b"FRMB", b"TEND"):
            body = b[:o] + b[o + l:]
            res.append((f"drop {t.decode()} #{i}", body))
        if i + 1 < len(cs) and t != b"INFO":
            o2, t2, l2 = cs[i + 1]
            res.append((f"swap {t.decode()}/{t2.decode()} #{i}", b[:o] + b[o2:o2 + l2] + b[o:o + l] + b[o2 + l2:]))
        if t == b"FRME":
            for j in range(max(1, i - 3), i):   # frame end moved earlier
                oj = cs[j][0]
                res.append((f"FRME #{i} moved before #{j}", b[:oj] + b[o:o + l] + b[oj:o] + b[o + l:]))
    # byte flips in every chunk (CRC must catch them), truncations, garbage appended
    for k in range(n_random):
        o, t, l = cs[rng.randrange(len(cs))]
        p = o + rng.randrange(l)
        res.append((f"flip byte {p} ({t.decode()})", b[:p] + bytes([b[p] ^ (1 << rng.randrange(8))]) + b[p + 1:]))
    for cut in (1, 7, 20, 21, len(b) // 2):
        res.append((f"truncate {cut}", b[:-cut]))
    res.append(("garbage after TEND", b + b"\0" * 5))
    return res


def section_traces(B, W, trace_files, n_random):
    rng = random.Random(12)
    d = os.path.join(W, "corrupt")
    os.makedirs(d, exist_ok=True)
    total = rejected = 0
    for tf in trace_files:
        b = open(tf, "rb").read()
        for name, body in corruptions(b, rng, n_random):
            p = os.path.join(d, "c.gpt")
            with open(p, "wb") as f:
                f.write(body)
            total += 1
            vrc, _, _ = run([B + "/gpupd-trace", "validate", p])
            cmds = [[B + "/gpupd-sim", "render", "--trace", p, "--frame", "0", "-q"],
                    [B + "/gpupd-p2g-trace", "--trace", p, "--gpus", "2", "--frame", "0"],
                    [B + "/gpupd-trace", "dump", p, "/dev/null"],
                    [B + "/gpupd-trace", "info", p]]
            if vrc != 0:
                rejected += 1
            for cmd in cmds:
                COUNT[0] += 1
                rc, out, err = run(cmd)
                if sanitizer_report(err):
                    fail(f"corrupt trace {os.path.basename(tf)} [{name}] (sanitizer report)", cmd, err[-1000:])
                elif (rc == 0) != (vrc == 0):
                    fail(f"corrupt trace {os.path.basename(tf)} [{name}]: validate exit {vrc} but this exit {rc}", cmd,
                         err[-300:])
    return total, rejected


# ------------------------------------------------------------------------------------------------ rects
def patch_chunk_u32s(b, old, new):
    """Replace the byte string old by new (same length) inside an uncompressed chunk of a binary trace and
    recompute that chunk's CRC, so that only the field check can reject the result."""
    at = b.find(old)
    if at < 0:
        return None
    for o, t, l in chunks(b):
        if o + 20 <= at < o + l:
            flags = struct.unpack_from("<I", b, o + 4)[0]
            if flags:
                return None
            body = bytearray(b)
            body[at:at + len(new)] = new
            stored = bytes(body[o + 20:o + l])
            struct.pack_into("<I", body, o + 16, zlib.crc32(stored))
            return bytes(body)
    return None


def section_rects(B, W):
    """Inverted or empty rectangles are rejected with a clear error everywhere a rectangle enters: the trace
    reader (viewport, enabled scissor of a draw or a clear; the writer and undump decode with the same code),
    and gpupd-p2g --scissor. Disabled scissors keep any w/h (the synthetic trace's clears have w 0 h 0)."""
    raw = os.path.join(W, "rect0.gpt")
    rc, _, err = run([B + "/gpupd-trace", "synth", raw, "0"])
    if rc:
        fail("rects: synth with zlevel 0", [B + "/gpupd-trace", "synth", raw, "0"], err)
        return
    txt = os.path.join(W, "rect.txt")
    run([B + "/gpupd-trace", "dump", raw, txt])
    t = open(txt).read()
    cases = [("draw scissor w 0", "scissor en 1 x 4 y 4 w 56 h 40", "scissor en 1 x 4 y 4 w 0 h 40", "scissor rectangle is empty"),
             ("draw scissor h 0", "scissor en 1 x 4 y 4 w 56 h 40", "scissor en 1 x 4 y 4 w 56 h 0", "scissor rectangle is empty"),
             ("draw viewport w 0", "viewport x 0 y 0 w 64 h 48", "viewport x 0 y 0 w 0 h 48", "viewport rectangle is empty"),
             ("draw viewport h 0", "viewport x 0 y 0 w 64 h 48", "viewport x 0 y 0 w 64 h 0", "viewport rectangle is empty"),
             ("clear scissor w 0", "scissor 0 x 0 y 0 w 0 h 0", "scissor 1 x 0 y 0 w 0 h 9", "scissor rectangle is empty")]
    for name, old, new, frag in cases:
        if old not in t:
            fail(f"rects: {name}: the synthetic trace lacks {old!r} (test input broken)", ["cat", txt])
            continue
        bad = os.path.join(W, "rect-bad.txt")
        with open(bad, "w") as f:
            f.write(t.replace(old, new, 1))
        expect(f"rects: undump rejects a {name}", [B + "/gpupd-trace", "undump", bad, os.path.join(W, "rect-bad.gpt")], 1,
               [frag])
    # the same in a binary file (CRC recomputed): validate and every reading tool reject it, with the offset
    b = open(raw, "rb").read()
    for name, old, new in (("scissor w 0", struct.pack("<IiiII", 1, 4, 4, 56, 40), struct.pack("<IiiII", 1, 4, 4, 0, 40)),
                           ("viewport h 0", struct.pack("<iiII", 0, 0, 64, 48), struct.pack("<iiII", 0, 0, 64, 0))):
        body = patch_chunk_u32s(b, old, new)
        if body is None:
            fail(f"rects: binary {name}: field not found in an uncompressed chunk (test input broken)", ["ls", raw])
            continue
        p = os.path.join(W, "rect-bad.gpt")
        with open(p, "wb") as f:
            f.write(body)
        frag = name.split()[0] + " rectangle is empty"
        for cmd in ([B + "/gpupd-trace", "validate", p], [B + "/gpupd-trace", "info", p],
                    [B + "/gpupd-trace", "dump", p, "/dev/null"]):
            expect(f"rects: binary {name}: {os.path.basename(cmd[0])} {cmd[1]}", cmd, 1, [frag, "offset"])
        for cmd in ([B + "/gpupd-sim", "render", "--trace", p, "-q"], [B + "/gpupd-p2g-trace", "--trace", p, "--gpus", "2"],
                    [B + "/gpupd-cdsys", "--trace", p, "--gpus", "2"]):
            expect(f"rects: binary {name}: {os.path.basename(cmd[0])}", cmd, 2, [frag])
    # the unchanged file is accepted (the patch is what is rejected)
    expect("rects: the unpatched zlevel-0 trace validates", [B + "/gpupd-trace", "validate", raw], 0)
    P = [B + "/gpupd-p2g", "--gpus", "4", "--width", "64", "--height", "64", "--scissor"]
    expect("rects: gpupd-p2g --scissor with X1 < X0", P + ["10,0,9,63"], 2, ["inverted rectangle: X1 < X0", "10,0,9,63"],
           stdin=b"1 0 0 2560 0 0 2560 0\n")
    expect("rects: gpupd-p2g --scissor with Y1 < Y0", P + ["0,10,63,9"], 2, ["inverted rectangle: Y1 < Y0"],
           stdin=b"1 0 0 2560 0 0 2560 0\n")
    expect("rects: gpupd-p2g --scissor of one pixel is fine", P + ["5,5,5,5"], 0, stdin=b"1 0 0 2560 0 0 2560 0\n")


# ------------------------------------------------------------------------------------------------ ub
def section_ub(B, W, trace):
    txt = os.path.join(W, "ub.txt")
    run([B + "/gpupd-trace", "dump", trace, txt])
    s = open(txt).read()
    big = 2147483600
    # (a) clears with a scissor near INT32_MAX (both signs): must render (nothing cleared) without UB
    s1 = s.replace("scissor 0 x 0 y 0 w 0 h 0", f"scissor 1 x {big} y -{big} w 16384 h 16384", 1)
    s1 = s1.replace("scissor 0 x 0 y 0 w 0 h 0", f"scissor 1 x -{big} y {big} w 16384 h 16384", 1)
    # (b) a draw with viewport and scissor near INT32_MAX: a clear error or a render, never UB
    s2 = re.sub(r"viewport x 0 y 0 w (\d+) h (\d+)", lambda m: f"viewport x {big} y {big} w 16384 h 16384", s1, count=1)
    s2 = re.sub(r"scissor en 0 x 0 y 0 w (\d+) h (\d+)", f"scissor en 1 x -{big} y {big} w 16384 h 16384", s2, count=1)
    # (c) a draw with a scissor near INT32_MAX (normal viewport): renders, nothing drawn, no UB
    s3 = re.sub(r"scissor en 0 x 0 y 0 w (\d+) h (\d+)", f"scissor en 1 x {big} y {big} w 16384 h 16384", s, count=2)
    for name, body, render_rc in (("ub-clear", s1, 0), ("ub-draw", s2, lambda rc: rc in (0, 1)), ("ub-scissor", s3, 0)):
        with open(txt, "w") as f:
            f.write(body)
        p = os.path.join(W, name + ".gpt")
        rc, _, err = run([B + "/gpupd-trace", "undump", txt, p])
        if rc != 0:
            fail(f"ub: {name}: the INT32-edge trace was not accepted by undump (test input broken)",
                 [B + "/gpupd-trace", "undump", txt, p], err)
            continue
        expect(f"ub: {name}: validate accepts it", [B + "/gpupd-trace", "validate", p], 0)
        expect(f"ub: {name}: coverage", [B + "/gpupd-trace", "coverage", p], 0)
        expect(f"ub: {name}: coverage-draws", [B + "/gpupd-trace", "coverage-draws", p], 0)
        expect(f"ub: {name}: render", [B + "/gpupd-sim", "render", "--trace", p, "-q", "--frame", "1"], render_rc)
        expect(f"ub: {name}: verify", [B + "/gpupd-sim", "verify", "--trace", p, "--gpus", "3", "--schemes", "gpupd,dup", "-q"],
               render_rc)
    big = os.path.join(W, "bigreg.s")   # found by fuzz_asm: a register number that overflowed an int
    with open(big, "w") as f:
        f.write("  ld.a r2666666666666666666666, [2]\nexit\n")
    expect("ub: gpupd-as on a huge register number", [B + "/gpupd-as", big, "-o", os.path.join(W, "bigreg.bin")], 1,
           ["expected a register"])
    empty = os.path.join(W, "empty.bin")
    open(empty, "wb").close()
    expect("ub: gpupd-dis on an empty program", [B + "/gpupd-dis", empty], 0)
    expect("ub: gpupd-dis on standard input", [B + "/gpupd-dis", "-"], 0, stdin=b"")
    expect("ub: gpupd-dis on a directory", [B + "/gpupd-dis", W], 1, ["directory"])
    # a FIFO where a trace or a reference PNG is read: refused at once (opening it must not wait for a writer)
    fifo = os.path.join(W, "fifo.gpt")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    for what, cmd, want in (("ub: gpupd-trace info on a FIFO", [B + "/gpupd-trace", "info", fifo], 1),
                            ("ub: render --trace naming a FIFO", [B + "/gpupd-sim", "render", "--trace", fifo, "-o",
                                                                   os.path.join(W, "fifo.png")], 2),
                            ("ub: validate --ref naming a FIFO", [B + "/gpupd-sim", "validate", "--trace", trace, "--ref",
                                                                   fifo], 2)):
        try:
            COUNT[0] += 1
            rc, _, err = run(cmd, timeout=20)
        except subprocess.TimeoutExpired:
            fail(what, cmd, "still waiting after 20 s (blocked opening the FIFO)")
            continue
        if rc != want or "not a regular file" not in err:
            fail(what, cmd, f"exit {rc}, want {want} and 'not a regular file'; stderr: {err[-600:]!r}")


# ------------------------------------------------------------------------------------------------ limits
def section_limits(B, W, trace):
    txt = os.path.join(W, "big.txt")
    run([B + "/gpupd-trace", "dump", trace, txt])
    s = open(txt).read()
    s = s.replace("INFO w 64 h 48", "INFO w 16384 h 16384", 1)
    s = re.sub(r"(SURF z 0 id [01] kind \d format \d) w 64 h 48", r"\1 w 16384 h 16384", s)
    with open(txt, "w") as f:
        f.write(s)
    p = os.path.join(W, "big.gpt")
    rc, _, err = run([B + "/gpupd-trace", "undump", txt, p])
    if rc:
        fail("limits: 16384x16384 trace not built (test input broken)", [B + "/gpupd-trace", "undump", txt, p], err)
        return
    expect("limits: 16384^2 framebuffer x 4 GPUs needs more than the default surface limit",
           [B + "/gpupd-sim", "render", "--trace", p, "--scheme", "gpupd", "--gpus", "4", "-q"], 1, ["--mem-limit-mb"])
    expect("limits: a small --mem-limit-mb stops a small run with the same error",
           [B + "/gpupd-sim", "render", "--scene", "tris", "--size", "1024x1024", "--scheme", "dup", "--gpus", "8",
            "--mem-limit-mb", "16", "-q"], 1, ["above the limit of 16 MiB"])


def write_surface_trace(path, n_surf, dim):
    """A valid trace with n_surf texture definitions of dim x dim RGBA (zero texels, zlib-compressed) and one
    empty frame: a small file whose surfaces would need n_surf * dim^2 * 4 bytes if a reader kept them."""
    def chunk(tag, payload, z):
        stored = zlib.compress(payload, 6) if z else payload
        return tag + struct.pack("<IIII", 1 if z else 0, len(stored), len(payload), zlib.crc32(stored)) + stored

    def s(txt):
        b = txt.encode()
        return struct.pack("<I", len(b)) + b
    head = b"GPUPDTRC" + struct.pack("<HHIII", 1, 0, 32, 0, 6)
    head += struct.pack("<I", zlib.crc32(head)) + struct.pack("<I", 0)
    out = head + chunk(b"INFO", struct.pack("<III", 64, 64, 1) + s("surfaces") + s("test_tools.py") + s(""), 0)
    zeros = bytes(dim * dim * 4)
    for i in range(n_surf):
        pl = struct.pack("<IIIIIII", 2 + i, 0, 1, dim, dim, 2, dim * dim * 4) + zeros + s("tex %d" % i)
        out += chunk(b"SURF", pl, 1)
    out += chunk(b"FRMB", struct.pack("<II", 0, 0), 0) + chunk(b"FRME", struct.pack("<II", 0, 0), 0)
    out += chunk(b"TEND", struct.pack("<III", 1, 0, 0), 0)
    with open(path, "wb") as f:
        f.write(out)


def section_reader_memory(B, W, san):
    """Item 5: the reader keeps surface metadata only. 12 textures of 2048x2048 (192 MiB of texels in a 200 kB
    file): validate and info must stay far below that (peak RSS measured with /usr/bin/time; 34 MiB measured
    with 40 such textures, where keeping them would take 640 MiB)."""
    p = os.path.join(W, "surfaces.gpt")
    write_surface_trace(p, 12, 2048)
    expect("reader memory: the 40-surface trace validates", [B + "/gpupd-trace", "validate", p], 0)
    if san or not os.path.exists("/usr/bin/time"):
        return
    for sub_cmd in (["validate", p], ["info", p]):
        cmd = ["/usr/bin/time", "-f", "maxrss_kb=%M", B + "/gpupd-trace"] + sub_cmd
        COUNT[0] += 1
        rc, out, err = run(cmd)
        m = re.search(r"maxrss_kb=(\d+)", err)
        if rc != 0 or not m:
            fail("reader memory: run failed", cmd, err[-300:])
        elif int(m.group(1)) > 100 * 1024:
            fail(f"reader memory: peak RSS {int(m.group(1)) // 1024} MiB for 192 MiB of texels (the reader must not keep "
                 f"every surface; limit 100 MiB)", cmd)


def section_dis(B, W):
    """A word with a defined opcode whose fields the assembly syntax cannot express (found by fuzz_dis):
    gpupd-dis must refuse it instead of printing text that re-assembles to something else."""
    good = os.path.join(W, "good.bin")
    src = os.path.join(W, "one.s")
    with open(src, "w") as f:
        f.write("f2i.rp r11, r3\nexit\n")
    rc, _, err = run([B + "/gpupd-as", src, "-o", good])
    if rc:
        fail("dis: cannot assemble the test program", [B + "/gpupd-as", src, "-o", good], err)
        return
    b = bytearray(open(good, "rb").read())
    rc, txt, _ = run([B + "/gpupd-dis", good])
    # flip each unused-looking bit of the first word until the disassembly stops round-tripping
    for bit in range(64):
        c = bytearray(b)
        c[bit // 8] ^= 1 << (bit % 8)
        p = os.path.join(W, "flip.bin")
        with open(p, "wb") as f:
            f.write(c)
        rc, out, err = run([B + "/gpupd-dis", p])
        if sanitizer_report(err):
            fail("dis (sanitizer report)", [B + "/gpupd-dis", p], err[-800:])
            return
        if rc == 0:
            q = os.path.join(W, "flip.s")
            with open(q, "w") as f:
                f.write(out)
            r2 = os.path.join(W, "flip2.bin")
            rc2, _, err2 = run([B + "/gpupd-as", q, "-o", r2])
            COUNT[0] += 1
            if rc2 != 0 or open(r2, "rb").read() != bytes(c):
                fail(f"dis: bit {bit}: gpupd-dis printed text that does not re-assemble to the same binary",
                     [B + "/gpupd-dis", p], err2[-300:])
        elif rc == 1:
            COUNT[0] += 1
            if "would not re-assemble" not in err and "undefined opcode" not in err:
                fail(f"dis: bit {bit}: rejected without a reason", [B + "/gpupd-dis", p], err[-300:])


# ------------------------------------------------------------------------------------------------ faults
def section_faults(B, W):
    S = [B + "/gpupd-sim", "render", "--scene", "tris", "--size", "96x64"]
    expect("fault past the run never fires", S + ["--scheme", "gpupd", "--gpus", "4", "--inject-fault", "drop:100000"], 2,
           ["never fired"])
    expect("fault under single", S + ["--scheme", "single", "--inject-fault", "drop:1"], 2, ["no primitive exchange"])
    expect("fault under dup", S + ["--scheme", "dup", "--gpus", "4", "--inject-fault", "clear-mask:1"], 2, ["no primitive exchange"])
    expect("fault under afr", S + ["--scheme", "afr", "--gpus", "4", "--inject-fault", "dup:1"], 2, ["no primitive exchange"])
    expect("packet fault with 1 GPU", S + ["--scheme", "gpupd", "--gpus", "1", "--inject-fault", "dup:1"], 2, ["1 GPU"])
    expect("fault in bench", [B + "/gpupd-sim", "bench", "--scene", "tris", "--scheme", "gpupd", "--gpus", "2",
                              "--inject-fault", "dup:1"], 2, ["--inject-fault"])
    expect("clear-mask without --check-masks: wrong frame is exit 1",
           [B + "/gpupd-sim", "render", "--scene", "tris", "--scheme", "gpupd", "--gpus", "4", "--no-check-masks",
            "--inject-fault", "clear-mask:5"], 1, ["WRONG"])
    expect("clear-mask (mask check on by default)",
           [B + "/gpupd-sim", "render", "--scene", "tris", "--scheme", "gpupd", "--gpus", "4", "--inject-fault", "clear-mask:5"],
           1, ["P2G mask check failed"])
    for f, frag in (("drop:2", "packet accounting"), ("dup:3", "invariant"), ("wrong-tag:2", ""), ("no-turns", "")):
        expect(f"fault {f} caught", [B + "/gpupd-sim", "render", "--scene", "tris", "--scheme", "gpupd-ra", "--gpus", "4",
                                     "--batch", "50", "--inject-fault", f], 1, [frag] if frag else [])


def section_validate(B, W, traces_dir):
    a, ref = os.path.join(traces_dir, "mesh-bunnies.gpt"), os.path.join(traces_dir, "glmark2-build-bunny.png")
    if os.path.exists(a) and os.path.exists(ref):
        expect("validate against an unrelated reference fails", [B + "/gpupd-sim", "validate", "--trace", a, "--ref", ref, "-q"],
               1, ["below --min-image-close"])
        expect("validate against its own reference passes",
               [B + "/gpupd-sim", "validate", "--trace", a, "--ref", os.path.join(traces_dir, "mesh-bunnies.png"), "-q"], 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--traces", default="traces")
    ap.add_argument("--random-flips", type=int, default=40)
    ap.add_argument("--real-traces", default="", help="comma-separated bundled traces to corrupt too (slow)")
    ap.add_argument("--sections", default="args,outputs,traces,rects,ub,limits,dis,faults,validate")
    a = ap.parse_args()
    # Leak detection is always on (issue 25): an error exit of a sanitized tool that leaks fails its row. The
    # -O2 tools ignore the variable.
    opts = [o for o in os.environ.get("ASAN_OPTIONS", "").split(":") if o and not o.startswith("detect_leaks=")]
    os.environ["ASAN_OPTIONS"] = ":".join(opts + ["detect_leaks=1"])
    B, W = os.path.abspath(a.bin), os.path.abspath(a.work)
    os.makedirs(W, exist_ok=True)
    trace = os.path.join(W, "synthetic.gpt")
    rc, _, err = run([B + "/gpupd-trace", "synth", trace, "6"])
    if rc:
        print("test_tools: cannot make the synthetic trace:", err)
        return 1
    # a small valid reference image for validate's argument rows
    run([B + "/gpupd-sim", "render", "--trace", trace, "--frame", "1", "-o", W + "/ref.png", "-q"])
    secs = a.sections.split(",")
    notes = []
    if "args" in secs:
        notes.append(f"args {section_args(B, W, trace)} bad command lines")
    if "outputs" in secs:
        section_outputs(B, W, trace)
        notes.append("outputs")
    if "traces" in secs:
        # the synthetic trace as written (zlib) and re-packed as format 1.5 (zstd chunks and the zstd stream)
        ztrace = os.path.join(W, "synthetic-zstd.gpt")
        rc, _, err = run([B + "/gpupd-trace", "pack", trace, ztrace])
        if rc:
            fail("gpupd-trace pack of the synthetic trace", [B + "/gpupd-trace", "pack", trace, ztrace], err)
        # and a small format-1.2 trace with every line and point topology, widths and sizes
        # (tests/fuzz/seeds/trace/lines-points.gpt, from test-shader-diff)
        lp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "seeds", "trace", "lines-points.gpt")
        tfs = [trace, ztrace, os.path.normpath(lp)] + [t for t in a.real_traces.split(",") if t]
        t, r = section_traces(B, W, tfs, a.random_flips)
        notes.append(f"traces {t} corrupted copies ({r} rejected by validate, the same by render/p2g-trace/dump/info)")
    if "rects" in secs:
        section_rects(B, W)
        notes.append("rects")
    if "ub" in secs:
        section_ub(B, W, trace)
        notes.append("ub")
    if "limits" in secs:
        section_limits(B, W, trace)
        notes.append("limits")
    if "limits" in secs:
        section_reader_memory(B, W, "/san/" in B + "/")
        notes.append("reader memory")
    if "dis" in secs:
        section_dis(B, W)
        notes.append("dis")
    if "faults" in secs:
        section_faults(B, W)
        notes.append("faults")
    if "validate" in secs:
        section_validate(B, W, a.traces)
        notes.append("validate")
    for f in FAILS:
        print(f)
    print(f"test_tools ({B}): {COUNT[0]} checks, {len(FAILS)} failed; " + "; ".join(notes))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
