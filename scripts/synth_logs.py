"""Readers of the synthesis tools' logs, shared by scripts/synth_report.py (the P2G/PE rows, make synth and the
make-test sanity check) and scripts/simt_synth_summary.py (the SIMT rows): one parser per log format.

  cell_counts(text)   Yosys `stat`: (total cells, {cell type: count}) of the first "Number of cells" block, or None
  sta_log(text)       scripts/synth_sta.tcl's OpenSTA log: ({key: value} of the SYNTH_STA lines, [report_checks
                      blocks]); "clock" gives kv["clock"] (name) and kv["period"] (ns), every other key a float
  nextpnr_util(text, kind)  the last "ICESTORM_LC: used/ available" (kind = ICESTORM_LC, ICESTORM_RAM, ...) of a
                      nextpnr log, or None (the log has it even when placement fails and no report is written)
"""
import re

CELLS_RE = re.compile(r"Number of cells:\s+(\d+)\n((?:\s+\S+\s+\d+\n)*)")


def read(path):
    with open(path) as f:
        return f.read()


def cell_counts(text):
    m = CELLS_RE.search(text)
    if not m:
        return None
    by_type = {}
    for line in m.group(2).splitlines():
        t, n = line.split()
        by_type[t] = int(n)
    return int(m.group(1)), by_type


def sta_log(text):
    kv = {}
    for line in text.splitlines():
        if line.startswith("SYNTH_STA "):
            f = line.split()
            if f[1] == "clock":
                kv["clock"], kv["period"] = f[2], float(f[4])
            else:
                kv[f[1]] = float(f[2])
    blocks = []
    for b in text.split("Startpoint: ")[1:]:
        sp = b.split("\n", 1)[0].split()[0]
        ep = re.search(r"Endpoint: (\S+)", b).group(1)
        sl = re.search(r"(-?[0-9.]+)\s+slack", b)
        blocks.append({"startpoint": sp, "endpoint": ep, "slack_ns": float(sl.group(1)) if sl else None})
    return kv, blocks


def nextpnr_util(text, kind):
    m = re.findall(re.escape(kind) + r":\s*(\d+)/\s*(\d+)", text)
    return (int(m[-1][0]), int(m[-1][1])) if m else None
