#!/usr/bin/env python3
"""Summary of the SIMT core synthesis runs (mk/simt.mk synth-simt): per OSU parameter set the standard-cell area,
flip-flops, worst setup slack and Fmax (OpenSTA), the SRAM macros (black boxes: count and bits); per iCE40 run
the LCs/BRAMs Yosys mapped and the nextpnr status. Usage: simt_synth_summary.py DIR..."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import synth_report as sr  # noqa: E402


def macros(osu_v):
    """SRAM macro instances in the mapped netlist: simt_ram with its parameters (from the yosys name)."""
    bits, n = 0, 0
    if not os.path.exists(osu_v):
        return 0, 0
    text = open(osu_v).read()
    for m in re.finditer(r"\$paramod\\simt_ram\\DW=32'(?:s|)([01]+)\\DEPTH=32'(?:s|)([01]+)", text):
        dw, depth = int(m.group(1), 2), int(m.group(2), 2)
        bits += dw * depth
        n += 1
    return n, bits


rows = []
for d in sys.argv[1:]:
    name = os.path.basename(d)
    if os.path.exists(os.path.join(d, "sta.log")):
        cells, by_type, area = sr.yosys_stat_text(os.path.join(d, "osu.stat"))
        sta = sr.sta_results(os.path.join(d, "sta.log"))
        n, bits = macros(os.path.join(d, "osu.v"))
        rows.append(f"| {name} | OSU 0.18 um | {cells} cells, {sr.flops(by_type)} flip-flops, {area/1e6:.3f} mm2 standard cells "
                    f"+ {n} SRAM macros ({bits/1024:.0f} kbit) | {sta['fmax_mhz']} MHz (WNS {sta['worst_setup_slack_ns']} ns "
                    f"at {sta['clock_period_ns']} ns) |")
    if os.path.exists(os.path.join(d, "ice40.stat")):
        txt = open(os.path.join(d, "ice40.stat")).read()
        lc = re.search(r"SB_LUT4\s+(\d+)", txt)
        ram = re.search(r"SB_RAM40_4K\s+(\d+)", txt)
        ff = sum(int(x) for x in re.findall(r"SB_DFF\w*\s+(\d+)", txt))
        st = open(os.path.join(d, "pnr-seed1.status")).read().strip() if os.path.exists(os.path.join(d, "pnr-seed1.status")) else "not run"
        rows.append(f"| {name} | iCE40 HX8K | {lc.group(1) if lc else '?'} LUT4, {ff} DFF, {ram.group(1) if ram else 0} SB_RAM40_4K "
                    f"(the device has 7,680 LCs and 32 RAMs) | nextpnr: {st} |")
print("| run | flow | area / resources | timing |")
print("|---|---|---|---|")
print("\n".join(rows))
