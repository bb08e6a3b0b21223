#!/usr/bin/env python3
"""Summarise a Verilator coverage.dat: line (v_line + v_branch points) and toggle coverage per RTL file of a
unit, plus the list of uncovered points. Usage: coverage_report.py [--unit NAME] [--min-line PCT]
[--min-toggle PCT] [--only FILES] [--max-list N] coverage.dat   (exit 1 if a minimum is given and not met).
--only restricts the totals, the per-file table, the uncovered list and the minimums to the RTL files named
(comma-separated; matched by base name), e.g. the SIMT core without its FP/SFU datapaths."""
import argparse
import collections
import re
import sys


def parse(path):
    pts = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            if not line.startswith("C '"):
                continue
            m = re.match(r"C '(.*)' (\d+)\s*$", line)
            if not m:
                continue
            fields = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01")[1:] if "\x02" in kv)
            pts.append((fields, int(m.group(2))))
    return pts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dat")
    ap.add_argument("--unit", default="")
    ap.add_argument("--min-line", type=float, default=None)
    ap.add_argument("--min-toggle", type=float, default=None)
    ap.add_argument("--every-file", default="",
                    help="comma-separated RTL files that must each have coverage points (line points; toggle points "
                         "for a file of continuous assignments only, which has no line points)")
    ap.add_argument("--only", default="", help="comma-separated RTL files (base names) to report on")
    ap.add_argument("--max-list", type=int, default=60, help="uncovered points listed per kind")
    a = ap.parse_args()
    pts = parse(a.dat)
    only = {x.split("/")[-1] for x in a.only.split(",") if x}
    if only:
        pts = [(f, n) for f, n in pts if f.get("f", "?").split("/")[-1] in only]
    if not pts:
        print(f"coverage_report: no coverage points in {a.dat}")
        return 1
    kind_of = lambda f: "toggle" if f.get("page", "").startswith("v_toggle") else "line"
    tot = collections.Counter()
    hit = collections.Counter()
    per_file = collections.defaultdict(collections.Counter)
    missed = collections.defaultdict(list)
    for f, n in pts:
        k = kind_of(f)
        tot[k] += 1
        per_file[(f.get("f", "?"), k)]["tot"] += 1
        if n > 0:
            hit[k] += 1
            per_file[(f.get("f", "?"), k)]["hit"] += 1
        else:
            missed[k].append(f"{f.get('f','?')}:{f.get('l','?')} {f.get('o','')}".strip())
    print(f"coverage {a.unit}: {a.dat}" + (f" (files: {', '.join(sorted(only))})" if only else ""))
    res = {}
    for k in ("line", "toggle"):
        pct = 100.0 * hit[k] / tot[k] if tot[k] else 0.0
        res[k] = pct
        print(f"  {k:6s} {hit[k]:6d}/{tot[k]:<6d} {pct:6.2f}%")
    for (fn, k), c in sorted(per_file.items()):
        print(f"    {fn:40s} {k:6s} {c['hit']:6d}/{c['tot']:<6d} {100.0*c['hit']/c['tot']:6.2f}%")
    for k in ("line", "toggle"):
        if missed[k]:
            print(f"  uncovered {k} points ({len(missed[k])}):")
            for m in missed[k][:a.max_list]:
                print(f"    {m}")
            if len(missed[k]) > a.max_list:
                print(f"    ... {len(missed[k]) - a.max_list} more")
    ok = True
    for fn in [x for x in a.every_file.split(",") if x]:
        base = fn.split("/")[-1]
        n_line = sum(c["tot"] for (f, k), c in per_file.items() if k == "line" and f.endswith(base))
        n_tog = sum(c["tot"] for (f, k), c in per_file.items() if k == "toggle" and f.endswith(base))
        if n_line + n_tog == 0:
            print(f"FAIL: {fn} has no coverage points (every RTL file must have some: was it built and run?)")
            ok = False
        elif n_line == 0:
            print(f"note: {fn} has no line points (continuous assignments only): toggle points {n_tog}")
    if a.min_line is not None and res["line"] < a.min_line:
        print(f"FAIL: line coverage {res['line']:.2f}% below {a.min_line}%")
        ok = False
    if a.min_toggle is not None and res["toggle"] < a.min_toggle:
        print(f"FAIL: toggle coverage {res['toggle']:.2f}% below {a.min_toggle}%")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
