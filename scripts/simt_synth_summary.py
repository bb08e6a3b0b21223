#!/usr/bin/env python3
"""Summary of the SIMT synthesis runs (mk/simt.mk synth-simt; docs/simt.md, synthesis).

For every OSU directory (scripts/simt_synth.sh: osu.stat, sta.log): standard-cell area and cells of the whole
hierarchy, flip-flops, the area per module (instances x area of one), the SRAM/ROM macro inventory, the worst
setup slack and Fmax = 1 / (period - WNS) from OpenSTA on the whole netlist, the critical path's ends, and the
slack left for the macros' access times. For every iCE40 directory (scripts/synth_flow.sh ice40/pnr): the
nextpnr utilisation (logic cells, block RAMs) and Fmax of seed 1.

Usage: simt_synth_summary.py [--json OUT.json] [--result R.json] DIR...   (prints a Markdown table)

--result: the first iCE40 directory (and the first OSU directory, if one is given) in the shape of
scripts/synth_report.py result (top, params, iCE40 LCs and Fmax, osu018 area and Fmax), the input of the
synthesis regression gate (make synth-simt-check, tests/synth/baseline.tsv row simt_core). Its params name the
rows by their directory, e.g. ICE40=reduced for simt_core-ice40-reduced (OSU=logic for simt_core-logic).
"""
import json
import os
import re
import sys

from synth_logs import cell_counts, nextpnr_util, read, sta_log


def osu_stat(path):
    text = read(path)
    # per-module blocks: "=== name ===" ... "Chip area for module 'NAME': A"
    mod_area = {}
    for m in re.finditer(r"=== (\S+) ===(.*?)(?==== |\Z)", text, re.S):
        a = re.search(r"Chip area for module '(.*?)':\s*([0-9.]+)", m.group(2))
        if a:
            mod_area[m.group(1).lstrip("\\")] = float(a.group(2))
    h = text.split("=== design hierarchy ===", 1)
    if len(h) != 2:
        # one module (e.g. the simt_sfu-rommacro row: its only instance is the ROM macro, a library cell):
        # Yosys prints no hierarchy section, the module's own block is the whole design
        if len(mod_area) != 1:
            sys.exit(f"simt_synth_summary: no design hierarchy in {path}")
        (name, area), = mod_area.items()
        n, by_type = cell_counts(text)
        return n, by_type, area, mod_area, {}
    tail = h[1]
    # hierarchy lines: indentation gives nesting; counts are per parent instance
    inst = {}
    stack = []   # (indent, multiplicity)
    for line in tail.split("\n"):
        if not line.strip():
            if inst:
                break
            continue
        m = re.match(r"^(\s+)(\S+)\s+(\d+)$", line)
        if not m:
            break
        ind, name, n = len(m.group(1)), m.group(2).lstrip("\\"), int(m.group(3))
        while stack and stack[-1][0] >= ind:
            stack.pop()
        mult = (stack[-1][1] if stack else 1) * n
        inst[name] = inst.get(name, 0) + mult
        stack.append((ind, mult))
    n, by_type = cell_counts(tail)
    area = float(re.search(r"Chip area for top module '.*?':\s*([0-9.]+)", tail).group(1))
    return n, by_type, area, mod_area, inst


def short(name):
    """$paramod$hash\\simt_lane -> simt_lane; $paramod\\simt_fpu\\LAT=.. -> simt_fpu"""
    n = name.split("\\")
    for part in reversed(n):
        if part.startswith("simt_") or part.startswith("SIMT_"):
            return part
    return n[-1]


def sta(path):
    text = read(path)
    kv, blocks = sta_log(text)
    r = {"period": kv["period"], "wns": kv["worst_slack_max"], "whs": kv["worst_slack_min"],
         "tns": kv.get("tns_max", 0.0), "fmax": 1000.0 / (kv["period"] - kv["worst_slack_max"])}
    if blocks:
        r["critical"] = (blocks[0]["startpoint"], blocks[0]["endpoint"], blocks[0]["slack_ns"])
    # macro blocks follow the three standard ones (scripts/synth_sta.tcl, STA_MACRO_PATHS)
    m = re.search(r"SYNTH_STA macro_clock_pins (\d+) macro_input_pins (\d+) rom_output_pins (\d+)", text)
    if m:
        rest = text.split(m.group(0), 1)[1]
        mb = [b["slack_ns"] for b in sta_log(rest)[1]]
        names = [k for k, n in (("from_macro", int(m.group(1))), ("to_macro", int(m.group(2))),
                                ("through_rom", int(m.group(3)))) if n > 0]
        r["macro"] = dict(zip(names, mb))
    return r


def macros(by_type):
    out = []
    bits = 0
    for t, n in sorted(by_type.items()):
        m = re.match(r"SIMT_SRAM_D(\d+)_A(\d+)$", t)
        if m:
            dw, aw = int(m.group(1)), int(m.group(2))
            out.append(f"{n} x {2**aw} x {dw}")
            bits += n * dw * 2 ** aw
        elif t == "SIMT_SFU_ROM":
            out.append(f"{n} x ROM 896 x 96")
            bits += n * 896 * 96
    return out, bits


def ice40(d):
    r = {"status": "not run"}
    st = os.path.join(d, "pnr-seed1.status")
    if os.path.exists(st):
        r["status"] = read(st).strip()
    log = os.path.join(d, "pnr-seed1.log")
    if os.path.exists(log):   # utilisation is also in the log when placement fails (no report then)
        for k in ("ICESTORM_LC", "ICESTORM_RAM"):
            u = nextpnr_util(read(log), k)
            if u:
                r[k] = u
    st = os.path.join(d, "ice40.stat")
    if os.path.exists(st):
        t = read(st)
        for k in ("SB_LUT4", "SB_RAM40_4K", "SB_CARRY"):
            m = re.search(k + r"\s+(\d+)", t)
            if m:
                r[k] = int(m.group(1))
        r["SB_DFF"] = sum(int(x) for x in re.findall(r"SB_DFF\w*\s+(\d+)", t))
    rep = os.path.join(d, "pnr-seed1.report.json")
    if os.path.exists(rep):
        j = json.load(open(rep))
        u = j.get("utilization", {})
        for k in ("ICESTORM_LC", "ICESTORM_RAM"):
            if k in u:
                r[k] = (u[k]["used"], u[k]["available"])
        fm = j.get("fmax", {})
        if fm:
            r["fmax"] = min(v["achieved"] for v in fm.values())
    return r


def row_tag(name):
    """simt_core-logic -> logic, simt_core-ice40-reduced -> reduced"""
    for p in ("simt_core-", "ice40-"):
        if name.startswith(p):
            name = name[len(p):]
    return name


def main():
    args = sys.argv[1:]
    jout = rout = None
    while args[:1] in (["--json"], ["--result"]):
        if args[0] == "--json":
            jout = args[1]
        else:
            rout = args[1]
        args = args[2:]
    rows, res = [], {}
    for d in args:
        name = os.path.basename(os.path.normpath(d))
        if os.path.exists(os.path.join(d, "sta.log")):
            ncell, by_type, area, mod_area, inst = osu_stat(os.path.join(d, "osu.stat"))
            s = sta(os.path.join(d, "sta.log"))
            mac, bits = macros(by_type)
            ff = sum(n for t, n in by_type.items() if t.startswith("DFF"))
            per_mod = {}
            for mname, n in inst.items():
                if mname in mod_area:
                    k = short(mname)
                    a, c = per_mod.get(k, (0.0, 0))
                    per_mod[k] = (a + n * mod_area[mname], c + n)
            top = [k for k in mod_area if k not in inst]
            if top:
                per_mod[short(top[0]) + " (own logic)"] = (mod_area[top[0]], 1)
            big = sorted(per_mod.items(), key=lambda kv: -kv[1][0])
            parts = ", ".join(f"{k} {c}x {a/1e6:.2f}" for k, (a, c) in big if a >= 0.02 * area)
            groups = {}
            gl = os.path.join(d, "sta_groups.log")
            if os.path.exists(gl):
                for line in read(gl).splitlines():
                    f = line.split()
                    if f[:1] == ["SIMT_GROUP"]:
                        groups[f[1]] = float(f[3])
            gtxt = ", ".join(f"{k} {1000.0 / (s['period'] - v):.0f}" for k, v in groups.items())
            mp = s.get("macro", {})
            mtxt = "; ".join(f"{k.replace('_', ' ')} {v:+.2f} ns" for k, v in mp.items() if v is not None)
            crit = s.get("critical", ("?", "?", None))
            rows.append(f"| {name} | OSU 0.18 um | {area/1e6:.2f} mm2 std cells ({ncell} cells, {ff} flip-flops; "
                        f"{parts} mm2) + macros {', '.join(mac) or 'none'} = {bits/1024:.0f} kbit | "
                        f"**{s['fmax']:.0f} MHz** (WNS {s['wns']:+.3f} ns at {s['period']:g} ns; critical "
                        f"{crit[0]} -> {crit[1]}){'; per part (MHz): ' + gtxt if gtxt else ''}; slack left for macro timing: "
                        f"{mtxt or 'n/a'} |")
            res[name] = {"flow": "osu", "area_um2": area, "cells": ncell, "flops": ff, "macros": mac,
                         "macro_bits": bits, "per_module_um2": {k: a for k, (a, c) in per_mod.items()},
                         "fmax_mhz": round(s["fmax"], 2), "wns_ns": s["wns"], "tns_ns": s["tns"],
                         "period_ns": s["period"], "critical": crit, "macro_slack_ns": mp,
                         "part_slack_ns": groups}
        if os.path.exists(os.path.join(d, "ice40.stat")):
            r = ice40(d)
            lc = r.get("ICESTORM_LC")
            ram = r.get("ICESTORM_RAM")
            rows.append(f"| {name} | iCE40 {os.environ.get('ICE40_DEVICE', 'hx8k').upper()} | "
                        f"{'%d / %d LCs' % lc if lc else '?'}, {'%d / %d RAM4K' % ram if ram else '?'} "
                        f"(Yosys: {r.get('SB_LUT4', '?')} LUT4, {r.get('SB_DFF', '?')} DFF, {r.get('SB_CARRY', '?')} CARRY) | "
                        f"nextpnr seed 1: {r['status']}"
                        f"{', **%.1f MHz**' % r['fmax'] if 'fmax' in r else ''} |")
            res[name] = {"flow": "ice40", **r}
    print("| run | flow | area / resources | timing |")
    print("|---|---|---|---|")
    print("\n".join(rows))
    if jout:
        with open(jout + ".tmp", "w") as f:
            json.dump(res, f, indent=1)
        os.replace(jout + ".tmp", jout)
    if rout:
        osu = [k for k, v in res.items() if v["flow"] == "osu"]
        ice = [k for k, v in res.items() if v["flow"] == "ice40"]
        if not ice:
            sys.exit("simt_synth_summary: --result needs an iCE40 directory")
        i = res[ice[0]]
        lc = i.get("ICESTORM_LC")
        r = {"top": "simt_core", "params": {"ICE40": row_tag(ice[0])},
             "ice40": {"lc_used": lc[0] if lc else None, "fits": i["status"] == "ok" and "fmax" in i,
                       "fmax_mhz_median": round(i["fmax"], 2) if "fmax" in i else None}}
        if osu:   # without an OSU directory the row's OSU columns are "-" (not gated)
            o = res[osu[0]]
            r["params"] = {"OSU": row_tag(osu[0]), **r["params"]}
            r["osu018"] = {"area_um2": o["area_um2"], "sta": {"fmax_mhz": o["fmax_mhz"]}}
        with open(rout + ".tmp", "w") as f:
            json.dump(r, f, indent=1)
        os.replace(rout + ".tmp", rout)


if __name__ == "__main__":
    main()
