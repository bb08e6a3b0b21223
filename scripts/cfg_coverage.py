#!/usr/bin/python3
"""Configuration coverage of the tests (make cfg-coverage; docs/configurations.md "Coverage").

  cfg_coverage.py [--cfg build/gen/cfg.json] [--uses cosim,tb,...] [--long-uses cosim-cfg,...] [--out out/cfg-coverage.md]

From the unit configuration tables (defs/cfg_<unit>.tbl, as build/gen/cfg.json), the configurations that
make test builds (those with one of USES) and those that only make test-long builds (one of LONG_USES), and
per unit and parameter the values they exercise (a value built only by make test-long is marked so). Required
per parameter: both extremes of its legal range, at least one legal value other than the RTL default, every
value of a legal list of at most 4 values, a depth that is not a power of two (parameters named *_DEPTH whose
range holds one), and for MAX_GPUS the values 1, 2, 3, 16, 63 and 64. A required value that no tested
configuration (of either set) builds fails the report: it prints the unit, the parameter and the values, and
the table to add a configuration to. The table (parameter x values exercised) goes to OUT and to stdout.
"""
import argparse
import json
import sys

MAX_GPUS_REQ = [1, 2, 3, 16, 63, 64]


def legal_values(p):
    if p["values"]:
        return sorted(p["values"])
    return None


def is_legal(p, v):
    lv = legal_values(p)
    return v in lv if lv is not None else p["min"] <= v <= p["max"]


def required(p):
    lv = legal_values(p)
    lo = lv[0] if lv else p["min"]
    hi = lv[-1] if lv else p["max"]
    req = {lo: "min", hi: "max"}
    if lv is not None and len(lv) <= 4:
        for v in lv:
            req.setdefault(v, "listed")
    if p["name"].endswith("_DEPTH"):
        cand = [v for v in (lv or range(p["min"], p["max"] + 1)) if v > 2 and v & (v - 1)]
        if cand:
            req.setdefault(cand[0], "non-power-of-two")   # placeholder: any non-power-of-two value satisfies it
    if p["name"] == "MAX_GPUS":
        for v in MAX_GPUS_REQ:
            if is_legal(p, v):
                req.setdefault(v, "MAX_GPUS set")
    return req


def main():
    ap = argparse.ArgumentParser(description="configuration coverage of the tests")
    ap.add_argument("--cfg", default="build/gen/cfg.json")
    ap.add_argument("--uses", default="cosim,tb,tb-cfg,cosim-ice40")
    ap.add_argument("--long-uses", default="cosim-long,cosim-cfg,tb-long")
    ap.add_argument("--out", default="out/cfg-coverage.md")
    a = ap.parse_args()
    units = json.load(open(a.cfg))
    uses = set(a.uses.split(","))
    long_uses = set(a.long_uses.split(",")) - uses if a.long_uses else set()
    lines = [f"# Configuration coverage of make test (configurations with uses {', '.join(sorted(uses))}) and "
             f"make test-long (also {', '.join(sorted(long_uses)) or 'nothing'})", "",
             "Built values marked `(long)` are built only by make test-long. A required value that neither builds "
             "fails the report.", "",
             "| unit | parameter | legal | default | built values | required, missing |", "|---|---|---|---|---|---|"]
    missing = []
    n_req = n_long = 0
    for u in units:
        built = [c for c in u["configs"] if uses & set(c["uses"])]
        built_long = [c for c in u["configs"] if long_uses & set(c["uses"]) and not uses & set(c["uses"])]
        for p in u["params"]:
            short = {c["values"][p["name"]] for c in built}
            vals = sorted(short | {c["values"][p["name"]] for c in built_long})
            req = required(p)
            miss = []
            for v, why in sorted(req.items()):
                if why == "non-power-of-two":
                    got = [x for x in vals if x > 2 and x & (x - 1)]
                    if not got:
                        miss.append(f"a non-power-of-two depth (e.g. {v})")
                    else:
                        n_req += 1
                        n_long += not any(x in short for x in got)
                elif v not in vals:
                    miss.append(f"{v} ({why})")
                else:
                    n_req += 1
                    n_long += v not in short
            if not any(v != p["default"] for v in vals):
                miss.append("a non-default value")
            legal = ",".join(map(str, p["values"])) if p["values"] else f"{p['min']}..{p['max']}"
            lines.append(f"| {u['unit']} | {p['name']} | {legal} | {p['default']} | "
                         f"{', '.join(str(v) + ('' if v in short else ' (long)') for v in vals) or 'none'} | {'; '.join(miss) or 'all built'} |")
            for m in miss:
                missing.append(f"{u['unit']} {p['name']}: {m} never built (add a configuration to {u['table']})")
    lines += ["", "Runtime configuration (N = cfg_n_gpus_i, topology, runahead) is drawn per scenario by the "
              "lockstep environments, not per build: docs/pe.md, docs/p2g.md."]
    text = "\n".join(lines) + "\n"
    try:
        import os
        os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
        tmp = a.out + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, a.out)
    except OSError as e:
        sys.exit(f"cfg_coverage: cannot write {a.out}: {e}")
    print(text, end="")
    if not units or not any(u["configs"] for u in units):
        sys.exit("cfg_coverage: FAIL: no configuration to compare (a report that compares nothing fails)")
    if missing:
        for m in missing:
            print(f"cfg_coverage: FAIL: {m}")
        print(f"cfg_coverage: FAIL: {len(missing)} required values never built; reproduce: "
              f"{sys.argv[0]} --cfg {a.cfg} --uses {a.uses} --long-uses {a.long_uses}")
        sys.exit(1)
    print(f"cfg_coverage: PASS: all {n_req} required values of every parameter are built, {n_req - n_long} by make test, "
          f"{n_long} only by make test-long ({a.out})")


if __name__ == "__main__":
    main()
