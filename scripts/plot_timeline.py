#!/usr/bin/python3
"""Per-unit bottleneck timeline of one timed run (Qsilver style, docs/timing.md).

Input: the CSV of `gpupd-sim render ... --timeline FILE.csv [--timeline-window W]` with columns
gpu,cycle,window,unit,busy (busy = fraction of the unit's peak used in that window). Output: one PNG (and SVG)
with, per GPU shown, the busy fraction of every unit over the frame and a strip marking the busiest unit of
each window (the bottleneck), like Qsilver's Fig. 6.

usage: plot_timeline.py TIMELINE.csv OUT_PREFIX [--gpus 0,1] [--title TEXT]
"""
import argparse
import csv
import os
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("out_prefix")
    ap.add_argument("--gpus", default="0", help="comma-separated GPU ids to draw (default 0)")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    data = defaultdict(lambda: defaultdict(dict))   # gpu -> unit -> cycle -> busy
    units = []
    window = 1
    with open(a.csv, newline="") as f:
        for row in csv.DictReader(f):
            g, u = int(row["gpu"]), row["unit"]
            data[g][u][int(row["cycle"])] = float(row["busy"])
            window = int(row["window"])
            if u not in units:
                units.append(u)
    gpus = [int(x) for x in a.gpus.split(",") if x != ""]
    gpus = [g for g in gpus if g in data]
    if not gpus:
        sys.exit("plot_timeline: no data for the requested GPUs in %s" % a.csv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cmap = plt.get_cmap("tab20")
    colour = {u: cmap(i % 20) for i, u in enumerate(units)}
    fig, axes = plt.subplots(len(gpus), 1, figsize=(11, 3.2 * len(gpus)), squeeze=False)
    for ax, g in zip(axes[:, 0], gpus):
        cycles = sorted(set(c for u in units for c in data[g][u]))
        for u in units:
            ys = [data[g][u].get(c, 0.0) for c in cycles]
            if max(ys, default=0) <= 0.001:
                continue
            ax.plot(cycles, ys, label=u, color=colour[u], linewidth=1.1)
        # bottleneck strip: the busiest unit of each window (memory and shader pool included)
        for c in cycles:
            best = max(units, key=lambda u: data[g][u].get(c, 0.0))
            if data[g][best].get(c, 0.0) > 0.001:
                ax.axvspan(c, c + window, ymin=0.94, ymax=1.0, color=colour[best], linewidth=0)
        ax.set_ylim(0, 1.1)
        ax.set_ylabel("GPU %d busy / peak" % g)
        ax.grid(alpha=0.3)
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    axes[-1, 0].set_xlabel("cycle (1 GHz); window %d cycles; top strip: busiest unit" % window)
    if a.title:
        axes[0, 0].set_title(a.title)
    fig.tight_layout()
    for ext in ("png", "svg"):
        tmp = "%s.tmp.%s" % (a.out_prefix, ext)
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, "%s.%s" % (a.out_prefix, ext))
    print("plot_timeline: wrote %s.png and %s.svg" % (a.out_prefix, a.out_prefix))


if __name__ == "__main__":
    main()
