#!/usr/bin/python3
"""Small seed traces for the fuzz targets (issue 12: seeds must fit the fuzzers' -max_len).

From each bundled trace, a valid excerpt: its first frame only, the first K draws of it (and the clears and
surface definitions before the cut), each draw cut to its first T triangles (vertices re-indexed), texel data
dropped (surfaces without data). The excerpt is written as text and built by `gpupd-trace undump`, so it
passes every check of the reader; excerpts larger than --max-bytes are cut further (fewer draws) until they
fit. Usage: make_seeds.py --tool build/bin/gpupd-trace --out DIR [--max-bytes 60000] traces/*.gpt
"""
import argparse
import os
import re
import subprocess
import sys


def commands(text):
    """Split a text dump into (header lines, [command blocks], END)."""
    lines = text.split("\n")
    head, cmds, cur = [], [], None
    for ln in lines:
        if re.match(r"^(SURF|PROG|FRMB|CLER|DRAW|FRME|CHUNK) ", ln):
            cur = [ln]
            cmds.append(cur)
        elif ln.startswith("END"):
            break
        elif cur is None:
            head.append(ln)
        else:
            cur.append(ln)
    return head, cmds


def shrink_surface(block):
    out, skip = [], False
    for ln in block:
        if ln.startswith("SURF"):
            ln = re.sub(r"flags (\d+)", lambda m: "flags %d" % (int(m.group(1)) & ~2), ln)
        if re.match(r"^\s*data \d+", ln):
            out.append("   data 0")
            skip = True
            continue
        if skip and re.match(r"^\s*x ", ln):
            continue
        skip = False
        out.append(ln)
    return out


def shrink_draw(block, tris):
    """Keep the first `tris` primitives (triangles; lines, strip/loop segments or points in format 1.2);
    re-index the vertices they use."""
    text = "\n".join(block)
    m = re.search(r"\n\s*indices (\d+)\n((?:\s*i [^\n]*\n)*)", text + "\n")
    vm = re.search(r"\n\s*verts (\d+)\n((?:\s*v [^\n]*\n)*)", text + "\n")
    if not m or not vm:
        return block
    idx = [int(x) for x in " ".join(l.strip()[2:] for l in m.group(2).strip("\n").split("\n") if l.strip()).split()]
    verts = [l for l in vm.group(2).strip("\n").split("\n") if l.strip()]
    pm = re.search(r"\bprim (\d+)", block[0])
    prim = int(pm.group(1)) if pm else 0
    keep = 3 * tris if prim == 0 else 2 * tris if prim == 1 else tris + 1   # whole primitives (format 1.2)
    idx = idx[:keep]
    used = sorted(set(idx))
    remap = {v: k for k, v in enumerate(used)}
    new_idx = [remap[i] for i in idx]
    new_verts = [verts[v] for v in used]
    vtxt = "\n   verts %d\n" % len(new_verts) + "".join(v + "\n" for v in new_verts)
    itxt = "\n   indices %d\n" % len(new_idx)
    for k in range(0, len(new_idx), 24):
        itxt += "  i " + " ".join(str(x) for x in new_idx[k:k + 24]) + "\n"
    text = text[:vm.start()] + vtxt + text[vm.end():] if vm.start() < m.start() else text
    m = re.search(r"\n\s*indices (\d+)\n((?:\s*i [^\n]*\n)*)", text + "\n")
    text = (text + "\n")[:m.start()] + itxt + (text + "\n")[m.end():]
    text = re.sub(r"ref_pixels -?\d+", "ref_pixels -1", text, count=1)
    return text.rstrip("\n").split("\n")


def excerpt(head, cmds, draws, tris):
    out = list(head)
    out = [re.sub(r"frames \d+", "frames 1", l) if l.startswith("INFO") else l for l in out]
    nd = 0
    in_frame = False
    for c in cmds:
        kind = c[0].split()[0]
        if kind == "FRMB":
            in_frame = True
            out += c
        elif kind == "FRME":
            out += c
            break
        elif kind == "DRAW":
            if nd >= draws:
                continue
            nd += 1
            out += shrink_draw(c, tris)
        elif kind == "SURF":
            if in_frame and nd >= draws:
                continue
            out += shrink_surface(c)
        elif kind == "CLER":
            if nd >= draws:
                continue
            out += c
        else:
            if in_frame and nd >= draws:
                continue
            out += c
    out.append("END")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-bytes", type=int, default=60000)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    made = 0
    for t in a.traces:
        name = os.path.basename(t)[:-4]
        text = subprocess.run([a.tool, "dump", t], stdout=subprocess.PIPE, check=True).stdout.decode()
        head, cmds = commands(text)
        ok = False
        for draws, tris in ((24, 16), (12, 8), (6, 4), (3, 2), (1, 1)):
            txt = excerpt(head, cmds, draws, tris)
            tp = os.path.join(a.out, name + ".txt")
            bp = os.path.join(a.out, name + ".gpt")
            with open(tp, "w") as f:
                f.write(txt)
            r = subprocess.run([a.tool, "undump", tp, bp], stderr=subprocess.PIPE)
            if r.returncode != 0:
                print(f"make_seeds: {name}: excerpt rejected: {r.stderr.decode().strip()}", file=sys.stderr)
                break
            if os.path.getsize(bp) <= a.max_bytes and os.path.getsize(tp) <= a.max_bytes:
                ok = True
                break
        if ok:
            made += 1
            print(f"make_seeds: {name}: {draws} draws x <= {tris} triangles, {os.path.getsize(bp)} bytes binary, "
                  f"{os.path.getsize(tp)} bytes text")
        else:
            for ext in (".txt", ".gpt"):
                p = os.path.join(a.out, name + ext)
                if os.path.exists(p):
                    os.unlink(p)
    print(f"make_seeds: {made} of {len(a.traces)} traces excerpted into {a.out}")
    return 0 if made else 1


if __name__ == "__main__":
    sys.exit(main())
