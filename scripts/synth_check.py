#!/usr/bin/python3
"""Synthesis regression gate (make synth-check, docs/synthesis.md "Regression gate").

  synth_check.py check  --baseline tests/synth/baseline.tsv [--tol 3] RESULT.json...
  synth_check.py update --baseline tests/synth/baseline.tsv RESULT.json...

check: every given result (scripts/synth_report.py result) must have a row in the baseline table (unit,
parameters) and each of its numbers must lie within --tol percent of the stored one: OSU018 area, OSU018
Fmax, iCE40 LCs, iCE40 median Fmax (and whether it fits). Both directions fail: a loss is a regression, a gain
means the table is stale (update it in the same commit as the change that moved it). A failure prints the
differing row, stored and measured, and the commands that reproduce and that update.
update: rewrite the rows of the given results (others kept), via a temporary file and a rename.
"""
import argparse
import json
import os
import sys

COLS = ["unit", "params", "osu_area_um2", "osu_fmax_mhz", "ice40_lcs", "ice40_fmax_mhz"]
# metric, what a loss is (+1: larger is worse, -1: smaller is worse)
METRICS = [("osu_area_um2", +1), ("osu_fmax_mhz", -1), ("ice40_lcs", +1), ("ice40_fmax_mhz", -1)]


def params_str(r):
    return ":".join(f"{k}={v}" for k, v in r["params"].items()) or "default"


def measured(path):
    r = json.load(open(path))
    i = r["ice40"]
    lcs = i["lc_used"] if isinstance(i["lc_used"], int) else (max(i["lc_used"]) if i["lc_used"] else None)
    o = r.get("osu018")   # a result without an OSU flow (the SIMT core's iCE40 row): "-", compared as text
    return {
        "unit": r["top"], "params": params_str(r),
        "osu_area_um2": o["area_um2"] if o else "-",
        "osu_fmax_mhz": o["sta"]["fmax_mhz"] if o else "-",
        "ice40_lcs": lcs,
        "ice40_fmax_mhz": i["fmax_mhz_median"] if i["fits"] else "does-not-fit",
    }


def read_table(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    for n, line in enumerate(open(path), 1):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != len(COLS):
            sys.exit(f"synth_check: {path}:{n}: {len(f)} fields, want {len(COLS)} ({' '.join(COLS)})")
        rows[(f[0], f[1])] = dict(zip(COLS, f))
    return rows


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def cmd_check(a):
    base = read_table(a.baseline)
    if not a.results:
        sys.exit("synth_check: FAIL: no results to compare (a gate that compares nothing fails)")
    fails, lines = 0, []
    for p in a.results:
        m = measured(p)
        key = (m["unit"], m["params"])
        b = base.get(key)
        if b is None:
            print(f"synth_check: FAIL: {m['unit']} {m['params']}: no row in {a.baseline}")
            print(f"  measured: {' '.join(str(m[c]) for c in COLS)}")
            print(f"  add it:   make synth-baseline  (or {sys.argv[0]} update --baseline {a.baseline} {p})")
            fails += 1
            continue
        bad = []
        for k, worse in METRICS:
            bv, mv = num(b[k]), num(m[k])
            if bv is None or mv is None:
                if str(b[k]) != str(m[k]):
                    bad.append(f"{k}: stored {b[k]}, measured {m[k]}")
                continue
            d = 100.0 * (mv - bv) / bv if bv else (0.0 if mv == bv else float("inf"))
            if abs(d) > a.tol:
                what = "worse" if d * worse > 0 else "better (stale baseline)"
                bad.append(f"{k}: stored {bv:g}, measured {mv:g} ({d:+.2f} %, {what})")
        tag = f"{m['unit']} {m['params']}"
        if bad:
            fails += 1
            print(f"synth_check: FAIL: {tag}: outside +-{a.tol:g} % of {a.baseline}:")
            for x in bad:
                print(f"  {x}")
            print(f"  stored row:   {' '.join(b[c] for c in COLS)}")
            print(f"  measured row: {' '.join(str(m[c]) for c in COLS)}  ({p})")
            print(f"  reproduce: {a.reproduce}   (the flow's exact commands: {p[:-5]}/*.cmd)")
            print(f"  accept (in the commit that changes it): make synth-baseline  (or {sys.argv[0]} update --baseline {a.baseline} {p})")
        else:
            lines.append(f"  {tag}: area {m['osu_area_um2']} um2, Fmax {m['osu_fmax_mhz']} MHz, "
                         f"iCE40 {m['ice40_lcs']} LCs, {m['ice40_fmax_mhz']} MHz: within +-{a.tol:g} %")
    for x in lines:
        print(x)
    if fails:
        print(f"synth_check: FAIL: {fails} of {len(a.results)} unit configurations differ from {a.baseline}")
        sys.exit(1)
    print(f"synth_check: PASS: {len(a.results)} unit configurations within +-{a.tol:g} % of {a.baseline}")


def cmd_update(a):
    rows = read_table(a.baseline)
    for p in a.results:
        m = measured(p)
        rows[(m["unit"], m["params"])] = {c: str(m[c]) for c in COLS}
    tmp = a.baseline + ".tmp"
    with open(tmp, "w") as f:
        f.write("# Synthesis baseline of make synth-check (scripts/synth_check.py; docs/synthesis.md). Measured by the\n")
        f.write("# flows of mk/synth.mk; update with `scripts/synth_check.py update` in the commit that moves a number.\n")
        f.write("# " + "\t".join(COLS) + "\n")
        for k in sorted(rows):
            f.write("\t".join(rows[k][c] for c in COLS) + "\n")
    os.replace(tmp, a.baseline)
    print(f"synth_check: {a.baseline}: {len(a.results)} rows written, {len(rows)} in total")


def main():
    ap = argparse.ArgumentParser(description="synthesis regression gate")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("check", "update"):
        s = sub.add_parser(name)
        s.add_argument("--baseline", required=True)
        s.add_argument("--tol", type=float, default=3.0, help="percent")
        s.add_argument("--reproduce", default="make synth-check")
        s.add_argument("results", nargs="*")
    a = ap.parse_args()
    {"check": cmd_check, "update": cmd_update}[a.cmd](a)


if __name__ == "__main__":
    main()
