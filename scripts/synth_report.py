#!/usr/bin/python3
"""Collect the results of the synthesis flows (scripts/synth_flow.sh) into JSON, tables, and test checks.

  synth_report.py result --name N --top T --params P --dir D --lib LIB --sdc SDC --seeds "1 2 3"
                         --device hx8k --package ct256 --freq F --out OUT.json
      One JSON per unit and parameter set, from the logs in D (generic, osu, sta, ice40, pnr-seed*).
  synth_report.py table OUT.json...        Markdown table (docs/synthesis.md) of the given results.
  synth_report.py check --dir D --lib LIB  Sanity checks of the generic + OSU + STA outputs (make test).

Only measured numbers: every value is parsed from a tool's output; what a tool did not produce is null.
"""
import argparse
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys

from synth_logs import cell_counts, nextpnr_util, read, sta_log


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        text = (out.stdout + out.stderr).strip().splitlines()
        return text[0].strip() if text else None
    except (OSError, subprocess.SubprocessError):
        return None


def dpkg_version(pkg):
    v = tool_version(["dpkg-query", "-W", "-f=${Version}", pkg])
    return f"{pkg} {v}" if v else None


def liberty_cell_area(lib, cell):
    m = re.search(r"cell\s*\(\s*" + re.escape(cell) + r"\s*\)\s*\{\s*area\s*:\s*([0-9.]+)", read(lib))
    if not m:
        sys.exit(f"synth_report: no area for cell {cell} in {lib}")
    return float(m.group(1))


def yosys_stat_text(path):
    """Cells by type, total and (with -liberty) chip area from Yosys `stat` text output (flattened design)."""
    text = read(path)
    c = cell_counts(text)
    if not c:
        sys.exit(f"synth_report: no cell statistics in {path}")
    a = re.search(r"Chip area for module .*?:\s*([0-9.]+)", text)
    return c[0], c[1], (float(a.group(1)) if a else None)


def flops(by_type):
    return sum(n for t, n in by_type.items() if "DFF" in t.upper())


def sta_results(path):
    # report_checks blocks: setup (max), hold (min), register-to-register setup (max)
    kv, blocks = sta_log(read(path))
    period = kv["period"]
    wns = kv["worst_slack_max"]
    res = {
        "clock_period_ns": period,
        "worst_setup_slack_ns": round(wns, 4),
        "worst_hold_slack_ns": round(kv["worst_slack_min"], 4),
        "tns_ns": round(kv.get("tns_max", 0.0), 4),
        "critical_path_ns": round(period - wns, 4),
        "fmax_mhz": round(1000.0 / (period - wns), 2),
    }
    if len(blocks) >= 1:
        res["critical_path"] = blocks[0]
    if len(blocks) >= 3:
        r2r = blocks[2]
        res["reg2reg_critical_path"] = r2r
        if r2r["slack_ns"] is not None:
            res["reg2reg_fmax_mhz"] = round(1000.0 / (period - r2r["slack_ns"]), 2)
    return res


def pnr_seed(d, seed):
    st_path = os.path.join(d, f"pnr-seed{seed}.status")
    log_path = os.path.join(d, f"pnr-seed{seed}.log")
    status = read(st_path).strip() if os.path.exists(st_path) else "missing"
    r = {"seed": int(seed), "status": status, "lc_used": None, "lc_available": None, "fmax_mhz": None}
    if os.path.exists(log_path):
        u = nextpnr_util(read(log_path), "ICESTORM_LC")
        if u:
            r["lc_used"], r["lc_available"] = u
    rep = os.path.join(d, f"pnr-seed{seed}.report.json")
    if status == "ok" and os.path.exists(rep):
        j = json.load(open(rep))
        u = j.get("utilization", {}).get("ICESTORM_LC")
        if u:
            r["lc_used"], r["lc_available"] = u["used"], u["available"]
        fm = j.get("fmax", {})
        if len(fm) != 1:
            sys.exit(f"synth_report: expected one clock in {rep}, got {list(fm)}")
        r["fmax_mhz"] = round(list(fm.values())[0]["achieved"], 2)
        cp = j.get("critical_paths") or []
        if cp and cp[0].get("path"):
            r["critical_path"] = {"from": cp[0]["path"][0]["from"]["cell"], "to": cp[0]["path"][-1]["to"]["cell"]}
    return r


def commands(d, names):
    out = []
    for n in names:
        for p in sorted(glob.glob(os.path.join(d, n)), key=lambda s: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]):
            out += [c for c in read(p).splitlines() if c.strip()]
    return out


def cmd_result(a):
    d = a.dir
    res = {
        "unit": a.name, "top": a.top,
        "params": {} if a.params == "default" else dict(kv.split("=", 1) for kv in a.params.split(":")),
        "tools": {
            "yosys": tool_version(["yosys", "-V"]),
            "opensta": dpkg_version("opensta"),
            "nextpnr-ice40": tool_version(["nextpnr-ice40", "--version"]),
            "osu018": dpkg_version("qflow-tech-osu018"),
        },
    }
    n, bt, _ = yosys_stat_text(os.path.join(d, "generic.stat"))
    res["generic"] = {"cells": n, "flops": flops(bt), "cells_by_type": bt,
                      "commands": commands(d, ["generic.cmd"])}
    n, bt, area = yosys_stat_text(os.path.join(d, "osu.stat"))
    nand2 = liberty_cell_area(a.lib, "NAND2X1")
    res["osu018"] = {"liberty": a.lib, "sdc": a.sdc, "cells": n, "flops": flops(bt), "area_um2": area,
                     "nand2x1_area_um2": nand2, "nand2_equivalents": round(area / nand2, 1),
                     "cells_by_type": bt}
    res["osu018"]["sta"] = sta_results(os.path.join(d, "sta.log"))
    res["osu018"]["commands"] = commands(d, ["osu.cmd", "sta.cmd"])
    n, bt, _ = yosys_stat_text(os.path.join(d, "ice40.stat"))
    wrap = read(os.path.join(d, "wrap.v"))
    wi = re.search(r"// (\d+) input bits", wrap)
    wo = re.search(r"; (\d+) output bits", wrap)
    seeds = [pnr_seed(d, s) for s in a.seeds.split()]
    ok = [s["fmax_mhz"] for s in seeds if s["status"] == "ok"]
    fits = all(s["status"] == "ok" for s in seeds)
    lcs = sorted({s["lc_used"] for s in seeds if s["lc_used"] is not None})
    res["ice40"] = {
        "device": a.device, "package": a.package, "target_mhz": float(a.freq),
        "wrapper": {"module": f"{a.top}_synthwrap", "input_shift_bits": int(wi.group(1)) if wi else None,
                    "output_shift_bits": int(wo.group(1)) if wo else None, "included_in_numbers": True},
        "yosys_cells": n, "yosys_cells_by_type": bt,
        "fits": fits,
        "lc_used": lcs[0] if len(lcs) == 1 else (lcs or None),
        "lc_available": next((s["lc_available"] for s in seeds if s["lc_available"]), None),
        "fmax_mhz_median": round(statistics.median(ok), 2) if fits and ok else None,
        "seeds": seeds,
        "commands": commands(d, ["ice40.cmd", "pnr-seed*.cmd"]),
    }
    with open(a.out, "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    print(f"synth_report: wrote {a.out}")


def fmt(x, nd=0):
    if x is None:
        return "n/a"
    return f"{x:,.{nd}f}"


def cmd_table(a):
    rows = [json.load(open(p)) for p in a.results]
    print("| unit | parameters | Yosys generic cells (flops) | OSU018 area µm² | OSU018 cells (flops) | NAND2 eq. "
          "| OSU018 period / worst slack ns | OSU018 Fmax MHz (reg→reg) | iCE40 HX8K LCs (of 7680) "
          "| iCE40 Fmax MHz, median (per seed) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        g, o, i = r["generic"], r["osu018"], r["ice40"]
        s = o["sta"]
        params = ", ".join(f"{k}={v}" for k, v in r["params"].items()) or "defaults"
        seeds = ", ".join(f"{x['seed']}: {fmt(x['fmax_mhz'], 2)}" for x in i["seeds"])
        if i["fits"]:
            ice_f = f"**{fmt(i['fmax_mhz_median'], 2)}** ({seeds})"
            lcs = fmt(i["lc_used"]) if isinstance(i["lc_used"], int) else str(i["lc_used"])
        else:
            ice_f = "does not fit"
            lc = i["lc_used"]
            lc = lc if isinstance(lc, int) else (max(lc) if lc else None)
            lcs = f"{fmt(lc)} needed: does not fit"
        r2r = s.get("reg2reg_fmax_mhz")
        print(f"| {r['top']} | {params} | {fmt(g['cells'])} ({fmt(g['flops'])}) | {fmt(o['area_um2'])} "
              f"| {fmt(o['cells'])} ({fmt(o['flops'])}) | {fmt(o['nand2_equivalents'])} "
              f"| {s['clock_period_ns']:g} / {s['worst_setup_slack_ns']:+.3f} | {fmt(s['fmax_mhz'], 1)} ({fmt(r2r, 1)}) "
              f"| {lcs} | {ice_f} |")


def cmd_check(a):
    """Sanity checks for `make test`: each failure names the file and the number that is wrong."""
    fails = []
    n, bt, _ = yosys_stat_text(os.path.join(a.dir, "generic.stat"))
    if n <= 0 or flops(bt) <= 0:
        fails.append(f"generic.stat: {n} cells, {flops(bt)} flops (want > 0 of each)")
    latches = {t: c for t, c in bt.items() if "LATCH" in t.upper()}
    if latches:
        fails.append(f"generic.stat: latches {latches}")
    if a.generic_only:
        if fails:
            for f in fails:
                print(f"FAIL: {a.dir}/{f}")
            sys.exit(1)
        print(f"synth check: {a.dir}: generic netlist {n} cells, {flops(bt)} flops, no latch: OK")
        return
    n, bt, area = yosys_stat_text(os.path.join(a.dir, "osu.stat"))
    if not area or area <= 0 or n <= 0:
        fails.append(f"osu.stat: area {area}, {n} cells (want > 0)")
    unknown = [t for t in bt if t.startswith("$")]
    if unknown:
        fails.append(f"osu.stat: unmapped generic cells {unknown} (everything must be a liberty cell)")
    lib_cells = set(re.findall(r"^cell\s*\(\s*(\w+)\s*\)", read(a.lib), re.M))
    foreign = [t for t in bt if t not in lib_cells]
    if foreign:
        fails.append(f"osu.stat: cells not in {a.lib}: {foreign}")
    if flops(bt) <= 0:
        fails.append("osu.stat: no flip-flops mapped")
    s = sta_results(os.path.join(a.dir, "sta.log"))
    if not math.isfinite(s["worst_setup_slack_ns"]) or not (0 < s["critical_path_ns"] < 1000):
        fails.append(f"sta.log: implausible critical path {s['critical_path_ns']} ns (slack {s['worst_setup_slack_ns']})")
    if "critical_path" not in s or "reg2reg_critical_path" not in s:
        fails.append("sta.log: report_checks printed no path (is anything constrained?)")
    if fails:
        for f in fails:
            print(f"FAIL: {a.dir}/{f}")
        sys.exit(1)
    print(f"synth check: {a.dir}: area {area:.0f} um2, {n} cells, critical path {s['critical_path_ns']:.3f} ns: OK")


def main():
    ap = argparse.ArgumentParser(description="synthesis results")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("result")
    for k in ("name", "top", "params", "dir", "lib", "sdc", "seeds", "device", "package", "freq", "out"):
        r.add_argument("--" + k, required=True)
    t = sub.add_parser("table")
    t.add_argument("results", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("--dir", required=True)
    c.add_argument("--lib", required=True)
    c.add_argument("--generic-only", action="store_true", help="check generic.stat only (no OSU netlist, no STA)")
    a = ap.parse_args()
    {"result": cmd_result, "table": cmd_table, "check": cmd_check}[a.cmd](a)


if __name__ == "__main__":
    main()
