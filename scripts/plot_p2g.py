#!/usr/bin/env python3
"""Plots and a summary table from gpupd-p2g-trace statistics (out/p2g/p2g_stats.csv, made by make run-p2g).
Writes p2g_redundancy.png/.svg (GPUs per primitive vs N, per trace and mode), p2g_balance.png/.svg and
p2g_summary.md."""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MARKERS = "osD^v<>phX*"


def style(i):
    """Distinct colour and marker per trace (more traces than the default 10-colour cycle)."""
    return {"color": plt.get_cmap("tab20")(i % 20), "marker": MARKERS[i % len(MARKERS)]}


def main():
    src, out = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(src)))
    traces = sorted({r["trace"].replace(".gpt", "") for r in rows})
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, mode in zip(axes, ("diag", "linear")):
        for i, t in enumerate(traces):
            pts = sorted((int(r["gpus"]), float(r["avg_gpus_per_prim"])) for r in rows
                         if r["trace"].replace(".gpt", "") == t and r["own"] == mode)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=t, **style(i))
        ax.set_xscale("log", base=2)
        ax.set_xticks([2, 4, 8, 16])
        ax.set_xticklabels(["2", "4", "8", "16"])
        ax.set_xlabel("GPUs")
        ax.set_title(f"ownership {mode}, 32x32 tiles")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("GPUs per primitive (P2G mask popcount)")
    axes[1].legend(fontsize=7, loc="upper left")
    fig.suptitle("Primitive-ID redundancy of the C-PD exchange on the bundled traces (bounding-box P2G)")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"p2g_redundancy.{ext}"), dpi=110)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, t in enumerate(traces):
        pts = sorted((int(r["gpus"]), float(r["max_share"]) * int(r["gpus"])) for r in rows
                     if r["trace"].replace(".gpt", "") == t and r["own"] == "diag")
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=t, **style(i))
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks([2, 4, 8, 16])
    ax.set_xticklabels(["2", "4", "8", "16"])
    ax.set_xlabel("GPUs")
    ax.set_ylabel("busiest GPU's primitives / mean (diag)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"p2g_balance.{ext}"), dpi=110)

    with open(os.path.join(out, "p2g_summary.md"), "w") as f:
        f.write("| trace | N | own | primitives | culled | empty | GPUs/prim | multi-GPU | busiest/mean | P2G prims/cycle |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            n = int(r["gpus"])
            f.write(f"| {r['trace'].replace('.gpt','')} | {n} | {r['own']} | {r['prims']} | {r['culled']} | {r['empty']} | "
                    f"{float(r['avg_gpus_per_prim']):.3f} | {100*float(r['multi_gpu_frac']):.1f}% | "
                    f"{float(r['max_share'])*n:.2f} | {float(r['prims_per_cycle']):.3f} |\n")
    print(f"plot_p2g: {out}/p2g_redundancy.png, p2g_balance.png, p2g_summary.md ({len(rows)} runs)")


if __name__ == "__main__":
    main()
