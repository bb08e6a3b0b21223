#!/usr/bin/env python3
"""Tables, plots and the index page of the evaluation sweep (the paper's Fig. 13-19; docs/evaluation.md).

    eval_report.py OUT [--traces-dir traces] [--commit SHA]

Reads OUT/jobs.tsv (scripts/eval_jobs.py) and every job's OUT/runs/<id>.json (gpupd-sim render --stats) and
writes into OUT, each file through a temporary name:
  results.csv / results.json      one row per job (latency, speedup over single, stacks, traffic, wall time)
  fig13_speedup.csv  fig14_sources.csv  fig15_cycle_stack.csv  fig16_traffic.csv  fig17_latency.csv
  fig18_batch.csv  fig19_topology.csv  afr.csv                                   the figure tables
  fig13_speedup.{png,svg} ... fig19_topology.{png,svg}                        matplotlib plots
  summary.md                      the headline numbers (geomeans), quoted by docs/evaluation.md
  index.md, index.html            one page with every figure, table and the rendered frames
It fails (exit 1, naming the job and the problem) if a job of the list has no JSON, a JSON lacks a key the
evaluation reads (scripts/eval_keys.py), a JSON's parameters differ from its job's, or two runs of one trace
rendered different frames (every scheme must give the pixels of `single`).
"""
import argparse
import csv
import datetime
import html
import json
import math
import os
import shutil
import subprocess
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_keys import check  # noqa: E402

SCHEMES = ["single", "dup", "gpupd", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin", "afr"]
LABEL = {"single": "single GPU", "dup": "dup (current SFR)", "gpupd": "gpupd (no batching)",
         "gpupd-batch": "gpupd-batch (GPUpd)", "gpupd-ra": "gpupd-ra (GPUpd +Runahead)",
         "gpupd-stream": "gpupd-stream (ordered streaming exchange)", "chopin": "chopin (CHOPIN, HPCA'21)", "afr": "afr (latency)"}
COLOR = {"single": "k", "dup": "tab:red", "gpupd": "tab:olive", "gpupd-batch": "tab:blue", "gpupd-ra": "tab:green", "gpupd-stream": "tab:cyan",
         "chopin": "tab:brown", "afr": "tab:purple"}
MARK = {"single": "x", "dup": "s", "gpupd": "v", "gpupd-batch": "o", "gpupd-ra": "D", "gpupd-stream": "*", "chopin": "P", "afr": "^"}
DEF_LAT, DEF_BATCH = 400, "4096"
STACK = ("no_primitive", "stall", "sync")
STACK_COLOR = {"no_primitive": "tab:gray", "stall": "tab:orange", "sync": "tab:purple"}


def die(msg):
    print(f"eval_report: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def geomean(xs):
    xs = [x for x in xs if x is not None]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def tmpname(path):
    root, ext = os.path.splitext(path)
    return f"{root}.tmp{os.getpid()}{ext}"


def write_text(path, text):
    t = tmpname(path)
    with open(t, "w") as f:
        f.write(text)
    os.replace(t, path)


def write_csv(path, cols, rows):
    t = tmpname(path)
    with open(t, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([fmt(r.get(c)) for c in cols])
    os.replace(t, path)


def fmt(v):
    if isinstance(v, float):
        return f"{v:.10g}"
    return "" if v is None else v


def savefig(fig, out, name):
    for ext in ("png", "svg"):
        p = os.path.join(out, f"{name}.{ext}")
        t = tmpname(p)
        fig.savefig(t, dpi=100, format=ext)
        os.replace(t, p)
    plt.close(fig)


def plain_y(ax):
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def fig_legend(fig, axes, ncol=6):
    """One legend for the whole figure, with every label any panel uses (a scheme may be in one panel only)."""
    seen = {}
    for ax in axes:
        for h, l in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(l, h)
    if seen:
        fig.legend(list(seen.values()), list(seen.keys()), loc="lower center", ncol=min(ncol, len(seen)), fontsize=7,
                   frameon=False)


def finish(fig, axes, title, out, name, bottom=0.04, ncol=6):
    """The end of every figure: title, layout above the legend band, one legend, PNG + SVG."""
    fig.suptitle(title)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig_legend(fig, axes, ncol=ncol)
    savefig(fig, out, name)


def scheme_panel(ax, xs, sub, title, ylabel):
    """A per-trace panel whose bars are (scheme, GPU count) pairs: x labels, title, y label, grid."""
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{x['scheme'].replace('gpupd-', '')}{x['gpus']}" for x in sub], rotation=90, fontsize=6)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=7)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3, axis="y")


def log2_axis(ax, ns):
    ax.set_xscale("log", base=2)
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns])


def grid(n, ncols=4, w=3.6, h=2.8):
    ncols = min(ncols, n)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows + 0.6), squeeze=False)
    flat = [a for row in axes for a in row]
    for a in flat[n:]:
        a.axis("off")
    return fig, flat[:n]


# ------------------------------------------------------------------------------------------------ loading
def load(out):
    man = os.path.join(out, "jobs.tsv")
    if not os.path.exists(man):
        die(f"{man} missing (run scripts/eval_jobs.py first)")
    jobs = list(csv.DictReader(open(man), delimiter="\t"))
    if not jobs:
        die(f"{man} lists no jobs")
    missing = [j["id"] for j in jobs if not os.path.exists(os.path.join(out, "runs", j["id"] + ".json"))]
    if missing:
        die(f"{len(missing)} of {len(jobs)} jobs have no result, e.g. {', '.join(missing[:5])} "
            f"(run them: make -f {out}/jobs.mk, or the lines of {out}/jobs.txt)")
    rows = []
    for j in jobs:
        p = os.path.join(out, "runs", j["id"] + ".json")
        try:
            d = json.load(open(p))
        except ValueError as e:
            die(f"{p}: not JSON: {e}")
        msg = check(d)
        if msg:
            die(f"{p}: {msg}")
        want_n = 1 if j["scheme"] == "single" else int(j["gpus"])
        if d["scheme"] != j["scheme"] or int(d["gpus"]) != want_n or d["topology"] != j["topology"] \
                or int(d["frame"]) != int(j["frame"]):
            die(f"{p}: parameters (scheme {d['scheme']}, gpus {d['gpus']}, topology {d['topology']}, frame "
                f"{d['frame']}) differ from the job's ({j['scheme']}, {want_n}, {j['topology']}, {j['frame']})")
        if j["batch"] != "none" and int(d.get("batch", -1)) != int(j["batch"]):
            die(f"{p}: batching threshold {d.get('batch')} differs from the job's ({j['batch']})")
        tp = os.path.join(out, "runs", j["id"] + ".time")
        tv = open(tp).read().split() if os.path.exists(tp) else []
        wall = float(tv[0]) if tv else None
        cpu = float(tv[1]) if len(tv) > 1 else None
        rows.append(make_row(j, d, wall))
        rows[-1]["cpu_s"] = cpu
    # one frame per trace, whatever the scheme, N, topology, latency or batching (SPEC 2)
    by_trace = {}
    for r in rows:
        h = by_trace.setdefault(r["trace"], {})
        h.setdefault(r["frame_hash"], []).append(r["id"])
    for t, h in by_trace.items():
        if len(h) > 1:
            die(f"{t}: runs rendered different frames: " +
                "; ".join(f"hash {k}: {len(v)} runs, e.g. {v[0]}" for k, v in h.items()))
    # speedups over single of the same trace and frame
    # (at the same front-end rate: Fig. 22 runs at fe_rate 4 have their own single)
    base = {(r["trace"], r["frame"], r["fe"]): r["cycles"] for r in rows if r["scheme"] == "single"}
    for r in rows:
        b = base.get((r["trace"], r["frame"], r["fe"]))
        if b is None:
            die(f"{r['id']}: no `single` run of {r['trace']} frame {r['frame']} at fe_rate {r['fe']} in the job list")
        r["speedup"] = b / r["cycles"]
        r["single_cycles"] = b
    return rows


def make_row(j, d, wall):
    pg = d["per_gpu"]
    n = len(pg)
    st = {k: [g["cycle_stack"][k] for g in pg] for k in STACK}
    links = d["links"]
    prim_b = sum(l["prim_packets"] for l in links) * 8
    last_b = sum(l["last_packets"] for l in links) * 8
    sync_b = sum(l["sync_bytes"] for l in links)
    comp_b = sum(l.get("composition_bytes", 0) for l in links)
    r = dict(id=j["id"], trace=j["trace"], frame=int(j["frame"]), scheme=j["scheme"], gpus=n,
             topology=j["topology"], lat_ns=int(j["lat_ns"]), batch=j["batch"], png=j["png"] == "1",
             timeline=j.get("timeline") == "1", fe=int(j.get("fe") or 1),
             cycles=float(d["cycles"]), frame_hash=d["frame_hash"], prims_app=d["prims_app"], syncs=d["syncs"],
             projected_mean=sum(g["prims_projected"] for g in pg) / n,
             projected_max=max(g["prims_projected"] for g in pg),
             to_render_mean=sum(g["prims_to_render"] for g in pg) / n,
             to_render_max=max(g["prims_to_render"] for g in pg),
             rasterized_mean=sum(g["prims_rasterized"] for g in pg) / n,
             traffic_prim_bytes=prim_b, traffic_last_bytes=last_b, traffic_sync_bytes=sync_b,
             traffic_comp_bytes=comp_b, traffic_bytes=prim_b + last_b + sync_b + comp_b, wall_s=wall, json=d,
             exchange_overhead=float(d.get("exchange_overhead_cycles") or 0),
             reorder_ids=[g["reorder_max_ids"] for g in pg if g.get("reorder_max_ids") is not None])
    for k in STACK:
        r[f"{k}_mean"] = sum(st[k]) / n
        r[f"{k}_max"] = max(st[k])
    return r


# ------------------------------------------------------------------------------------------------ selection
def sel(rows, **kw):
    out = []
    for r in rows:
        ok = True
        for k, v in kw.items():
            if isinstance(v, (list, tuple, set)):
                ok = r[k] in v
            else:
                ok = r[k] == v
            if not ok:
                break
        if ok:
            out.append(r)
    return out


def fig13_row(rows, t, s, n):
    """The Fig. 13 run of (trace, scheme, N): line, 400 ns, threshold 4096 for the batching schemes."""
    if s == "single":
        c = sel(rows, trace=t, scheme="single")
    else:
        c = sel(rows, trace=t, scheme=s, gpus=n, topology="line", lat_ns=DEF_LAT)
        if s in ("gpupd-batch", "gpupd-ra", "gpupd-stream"):
            c = [r for r in c if r["batch"] == DEF_BATCH]
    return c[0] if c else None


def traces_of(rows):
    return sorted({r["trace"] for r in rows})


# ------------------------------------------------------------------------------------------------ figures
def fig13(rows, out):
    traces = traces_of(rows)
    ns = sorted({r["gpus"] for r in rows if r["scheme"] not in ("single",)} | {1})
    ns = [n for n in ns if any(fig13_row(rows, t, "gpupd-ra", n) or fig13_row(rows, t, "dup", n) for t in traces)]
    schemes = [s for s in SCHEMES if s != "single" and any(fig13_row(rows, t, s, n) for t in traces for n in ns)]
    table = []
    for t in traces:
        for s in schemes:
            for n in ns:
                r = fig13_row(rows, t, s, n)
                if r:
                    table.append(dict(trace=t, scheme=s, gpus=n, cycles=r["cycles"], single_cycles=r["single_cycles"],
                                      speedup=r["speedup"]))
    geo = []
    for s in schemes:
        for n in ns:
            v = [x["speedup"] for x in table if x["scheme"] == s and x["gpus"] == n]
            if v and s != "afr":
                geo.append(dict(trace="GEOMEAN", scheme=s, gpus=n, speedup=geomean(v), n_traces=len(v)))
    write_csv(os.path.join(out, "fig13_speedup.csv"), ["trace", "scheme", "gpus", "cycles", "single_cycles", "speedup"],
              table + geo)
    if not table:
        return table, geo, ns, schemes
    fig, axes = grid(len(traces) + 1)
    for ax, t in zip(axes, traces + ["GEOMEAN"]):
        src = geo if t == "GEOMEAN" else [x for x in table if x["trace"] == t]
        for s in schemes:
            pts = sorted((x["gpus"], x["speedup"]) for x in src if x["scheme"] == s)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], color=COLOR[s], marker=MARK[s], ms=4, label=LABEL[s])
        ax.plot(ns, ns, ":", color="0.6", lw=0.8, label="ideal (N)")
        log2_axis(ax, ns)
        ax.set_yscale("log", base=2)
        plain_y(ax)
        ax.set_title(t if t != "GEOMEAN" else "geomean over traces", fontsize=9)
        ax.grid(alpha=0.3)
        ax.set_xlabel("GPUs", fontsize=8)
        ax.set_ylabel("speedup over single", fontsize=8)
        ax.tick_params(labelsize=7)
    finish(fig, axes, "Fig. 13: speedup in single-frame latency over one GPU (line, 400 ns, 40 GB/s, threshold 4096)",
           out, "fig13_speedup", bottom=0.05)
    return table, geo, ns, schemes


def fig14(rows, out, n_want=4):
    """Where each GPU's primitives come from (paper: 4-GPU C-PD)."""
    traces = traces_of(rows)
    table = []
    for t in traces:
        r = fig13_row(rows, t, "gpupd-batch", n_want)
        d = fig13_row(rows, t, "dup", n_want)
        if not r:
            continue
        for e in r["json"]["per_gpu"]:
            g = e["gpu"]
            row = dict(trace=t, scheme="gpupd-batch", gpus=n_want, gpu=g, prims_app=r["prims_app"],
                       projected=e["prims_projected"], kept=e["prims_kept"], received=e["prims_received"],
                       to_render=e["prims_to_render"], rasterized=e["prims_rasterized"],
                       dup_projected=d["json"]["per_gpu"][g]["prims_projected"] if d else None)
            for j in range(n_want):
                row[f"from_gpu{j}"] = e["prims_kept"] if j == g else e["prims_received_from"][j]
            # primitives through geometry processing: CP projection + the pipeline on what it renders,
            # against dup's projection of every primitive
            row["geometry_prims"] = e["prims_projected"] + e["prims_to_render"]
            row["reduction_vs_dup"] = (1 - row["geometry_prims"] / row["dup_projected"]) if d and row["dup_projected"] else None
            table.append(row)
    cols = ["trace", "scheme", "gpus", "gpu", "prims_app", "projected", "kept", "received"] + \
           [f"from_gpu{j}" for j in range(n_want)] + ["to_render", "rasterized", "geometry_prims", "dup_projected",
                                                      "reduction_vs_dup"]
    write_csv(os.path.join(out, "fig14_sources.csv"), cols, table)
    if not table:
        return table
    tr = sorted({x["trace"] for x in table})
    fig, axes = grid(len(tr), ncols=4, w=3.3, h=2.7)
    cmap = plt.get_cmap("tab10")
    for ax, t in zip(axes, tr):
        sub = [x for x in table if x["trace"] == t]
        bottom = [0.0] * len(sub)
        tot = sub[0]["prims_app"] or 1
        for j in range(n_want):
            v = [x[f"from_gpu{j}"] / tot for x in sub]
            ax.bar([x["gpu"] for x in sub], v, bottom=bottom, color=cmap(j), label=f"from GPU {j}")
            bottom = [b + y for b, y in zip(bottom, v)]
        ax.plot([x["gpu"] for x in sub], [x["projected"] / tot for x in sub], "k_", ms=18, mew=2, label="projected in CP")
        ax.set_xticks(range(n_want))
        ax.set_xticklabels([f"GPU{g}" for g in range(n_want)], fontsize=7)
        ax.set_title(t, fontsize=9)
        ax.set_ylabel("fraction of the frame's primitives", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3, axis="y")
    finish(fig, axes, f"Fig. 14: sources of the primitives each GPU renders ({n_want}-GPU gpupd-batch; own = kept)",
           out, "fig14_sources", bottom=0.05)
    return table


def fig15(rows, out, ns, schemes):
    traces = traces_of(rows)
    table = []
    for t in traces:
        for s in ["single"] + [s for s in schemes if s in ("dup", "gpupd", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin")]:
            for n in ([1] if s == "single" else ns):
                r = fig13_row(rows, t, s, n)
                if not r:
                    continue
                for e in r["json"]["per_gpu"]:
                    x = dict(trace=t, scheme=s, gpus=r["gpus"], gpu=e["gpu"], cycles=r["cycles"])
                    for k in STACK:
                        x[k] = e["cycle_stack"][k]
                    x["stack_total"] = sum(x[k] for k in STACK)
                    table.append(x)
    write_csv(os.path.join(out, "fig15_cycle_stack.csv"),
              ["trace", "scheme", "gpus", "gpu", "no_primitive", "stall", "sync", "stack_total", "cycles"], table)
    if not table:
        return table
    fig, axes = grid(len(traces), ncols=3, w=5.0, h=3.0)
    for ax, t in zip(axes, traces):
        sub = [x for x in table if x["trace"] == t]
        base = [x for x in sub if x["scheme"] == "single"]
        norm = base[0]["cycles"] if base else 1.0
        groups = []
        for s in ["single", "dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"]:     # plain gpupd: in the CSV only
            for n in ([1] if s == "single" else ns):
                g = [x for x in sub if x["scheme"] == s and x["gpus"] == n]
                if g and not (s != "single" and n == 1):
                    groups.append((s, n, g))
        xs = list(range(len(groups)))
        bottom = [0.0] * len(groups)
        for k in STACK:
            v = [sum(x[k] for x in g) / len(g) / norm for (_, _, g) in groups]
            ax.bar(xs, v, bottom=bottom, color=STACK_COLOR[k], label=k, width=0.8)
            bottom = [b + y for b, y in zip(bottom, v)]
        ax.set_xticks(xs)
        ax.set_xticklabels([("1" if s == "single" else f"{s.replace('gpupd-', '')[:5].replace('chopi', 'chop')}{n}") for s, n, _ in groups],
                           rotation=90, fontsize=6)
        ax.set_title(t, fontsize=9)
        ax.set_ylabel("cycles / single latency", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3, axis="y")
    finish(fig, axes, "Fig. 15: cycle stacks at the geometry/raster boundary (mean over GPUs, normalised to single's latency)",
           out, "fig15_cycle_stack")
    return table


def fig16(rows, out, ns):
    traces = traces_of(rows)
    table = []
    for t in traces:
        for n in [n for n in ns if n > 1]:
            d = fig13_row(rows, t, "dup", n)
            for s in ("dup", "gpupd", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"):
                r = fig13_row(rows, t, s, n)
                if not r:
                    continue
                x = dict(trace=t, scheme=s, gpus=n, prim_id_bytes=r["traffic_prim_bytes"],
                         last_marker_bytes=r["traffic_last_bytes"], fb_sync_bytes=r["traffic_sync_bytes"],
                         composition_bytes=r["traffic_comp_bytes"], total_bytes=r["traffic_bytes"])
                db = d["traffic_bytes"] if d else None
                x["additional_over_dup_pct"] = (100.0 * (r["traffic_bytes"] - db) / db) if db else None
                table.append(x)
    write_csv(os.path.join(out, "fig16_traffic.csv"),
              ["trace", "scheme", "gpus", "prim_id_bytes", "last_marker_bytes", "fb_sync_bytes", "composition_bytes",
               "total_bytes", "additional_over_dup_pct"], table)
    if not table:
        return table
    fig, axes = grid(len(traces), ncols=3, w=5.0, h=3.0)
    kinds = [("fb_sync_bytes", "FB sync", "tab:purple"), ("prim_id_bytes", "primitive IDs", "tab:blue"),
             ("last_marker_bytes", "LAST markers", "tab:cyan"), ("composition_bytes", "composition (chopin)", "tab:brown")]
    for ax, t in zip(axes, traces):
        sub = [x for x in table if x["trace"] == t and x["scheme"] in ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin")]
        xs = list(range(len(sub)))
        bottom = [0.0] * len(sub)
        for k, lab, c in kinds:
            v = [x[k] / 1e6 for x in sub]
            ax.bar(xs, v, bottom=bottom, color=c, label=lab)
            bottom = [b + y for b, y in zip(bottom, v)]
        scheme_panel(ax, xs, sub, t, "MB over all links")
    finish(fig, axes, "Fig. 16: inter-GPU traffic by kind (bytes carried by every link: a packet counts once per link it crosses)",
           out, "fig16_traffic")
    return table


def sens_plot(table, out, name, title, xkey, xlabel, xticks=None, xlabels=None, logx=False):
    traces = sorted({x["trace"] for x in table})
    if not traces:
        return
    fig, axes = grid(len(traces) + (1 if len(traces) > 1 else 0), ncols=4, w=3.6, h=2.8)
    ns = sorted({x["gpus"] for x in table})
    styles = ["--", "-", "-.", ":"]
    panels = traces + (["GEOMEAN"] if len(traces) > 1 else [])
    for ax, t in zip(axes, panels):
        for s in ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "gpupd", "chopin"):
            for i, n in enumerate(ns):
                if t == "GEOMEAN":
                    xs = sorted({x[xkey] for x in table if x["scheme"] == s and x["gpus"] == n}, key=str)
                    pts = []
                    for xv in xs:
                        v = [x["speedup"] for x in table if x["scheme"] == s and x["gpus"] == n and x[xkey] == xv]
                        if len(v) == len(traces):
                            pts.append((xv, geomean(v)))
                else:
                    pts = [(x[xkey], x["speedup"]) for x in table if x["trace"] == t and x["scheme"] == s and x["gpus"] == n]
                if not pts:
                    continue
                pts.sort(key=lambda p: p[0])
                ax.plot([p[0] for p in pts], [p[1] for p in pts], styles[i % len(styles)], color=COLOR[s],
                        marker=MARK[s], ms=3.5, label=f"{LABEL[s]}, N={n}")
        if logx:
            ax.set_xscale("log", base=2)
        if xticks is not None:
            ax.set_xticks(xticks)
            ax.set_xticklabels(xlabels or [str(v) for v in xticks], fontsize=6, rotation=45)
        ax.set_title(t if t != "GEOMEAN" else "geomean over traces", fontsize=9)
        ax.set_xlabel(xlabel, fontsize=7)
        ax.set_ylabel("speedup over single", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    finish(fig, axes, title, out, name, bottom=0.06, ncol=4)


def fig17(rows, out):
    table = []
    for r in rows:
        if r["topology"] != "line" or r["scheme"] not in ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"):
            continue
        if r["scheme"] not in ("dup", "chopin") and r["batch"] != DEF_BATCH:
            continue
        table.append(dict(trace=r["trace"], scheme=r["scheme"], gpus=r["gpus"], lat_ns=r["lat_ns"], cycles=r["cycles"],
                          speedup=r["speedup"]))
    # keep only (trace, scheme, N) with more than one latency: the sweep, not Fig. 13's single point
    key = lambda x: (x["trace"], x["scheme"], x["gpus"])  # noqa: E731
    cnt = {}
    for x in table:
        cnt[key(x)] = cnt.get(key(x), 0) + 1
    table = sorted([x for x in table if cnt[key(x)] > 1], key=lambda x: (x["trace"], x["scheme"], x["gpus"], x["lat_ns"]))
    write_csv(os.path.join(out, "fig17_latency.csv"), ["trace", "scheme", "gpus", "lat_ns", "cycles", "speedup"], table)
    lats = sorted({x["lat_ns"] for x in table})
    sens_plot(table, out, "fig17_latency", "Fig. 17: sensitivity to the inter-GPU link latency (line, threshold 4096)",
              "lat_ns", "link latency [ns]", xticks=lats)
    return table


def batch_x(b):
    return 0 if b == "none" else int(b)


def fig18(rows, out):
    table = []
    for r in rows:
        if r["topology"] != "line" or r["lat_ns"] != DEF_LAT:
            continue
        if r["scheme"] in ("gpupd-batch", "gpupd-ra", "gpupd-stream"):
            line, b = r["scheme"], r["batch"]
        elif r["scheme"] == "gpupd":
            line, b = "gpupd-batch", "none"          # GPUpd without batching = the "None" point
        else:
            continue
        table.append(dict(trace=r["trace"], scheme=line, run_scheme=r["scheme"], gpus=r["gpus"], threshold=b,
                          x=batch_x(b), cycles=r["cycles"], speedup=r["speedup"]))
    key = lambda x: (x["trace"], x["scheme"], x["gpus"])  # noqa: E731
    cnt = {}
    for x in table:
        cnt[key(x)] = cnt.get(key(x), 0) + 1
    table = sorted([x for x in table if cnt[key(x)] > 2], key=lambda x: (x["trace"], x["scheme"], x["gpus"], x["x"]))
    write_csv(os.path.join(out, "fig18_batch.csv"),
              ["trace", "scheme", "run_scheme", "gpus", "threshold", "cycles", "speedup"], table)
    xs = sorted({x["x"] for x in table})
    # "none" drawn one octave left of the smallest threshold
    lo = min([v for v in xs if v > 0], default=256)
    for x in table:
        x["xp"] = x["x"] if x["x"] > 0 else lo / 2
    xt = [v if v > 0 else lo / 2 for v in xs]
    sens_plot(table, out, "fig18_batch", "Fig. 18: sensitivity to the batching threshold (line, 400 ns)", "xp",
              "batching threshold [primitives]", xticks=xt, xlabels=["none" if v == 0 else str(v) for v in xs], logx=True)
    return table


def fig19(rows, out):
    table = []
    for r in rows:
        if r["lat_ns"] != DEF_LAT or r["scheme"] not in ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"):
            continue
        if r["scheme"] not in ("dup", "chopin") and r["batch"] != DEF_BATCH:
            continue
        table.append(r)
    pairs = []
    for r in table:
        if r["topology"] != "hub":
            continue
        l = [x for x in table if x["topology"] == "line" and x["trace"] == r["trace"] and x["scheme"] == r["scheme"]
             and x["gpus"] == r["gpus"]]
        if l:
            pairs.append(dict(trace=r["trace"], scheme=r["scheme"], gpus=r["gpus"], line_cycles=l[0]["cycles"],
                              hub_cycles=r["cycles"], line_speedup=l[0]["speedup"], hub_speedup=r["speedup"],
                              line_over_hub_pct=100.0 * (l[0]["speedup"] / r["speedup"] - 1)))
    pairs.sort(key=lambda x: (x["trace"], x["scheme"], x["gpus"]))
    write_csv(os.path.join(out, "fig19_topology.csv"),
              ["trace", "scheme", "gpus", "line_cycles", "hub_cycles", "line_speedup", "hub_speedup", "line_over_hub_pct"],
              pairs)
    if not pairs:
        return pairs
    traces = sorted({x["trace"] for x in pairs})
    fig, axes = grid(len(traces), ncols=4, w=3.6, h=2.8)
    for ax, t in zip(axes, traces):
        sub = [x for x in pairs if x["trace"] == t]
        xs = list(range(len(sub)))
        ax.bar([i - 0.2 for i in xs], [x["line_speedup"] for x in sub], 0.4, label="line", color="tab:blue")
        ax.bar([i + 0.2 for i in xs], [x["hub_speedup"] for x in sub], 0.4, label="hub", color="tab:orange")
        scheme_panel(ax, xs, sub, t, "speedup over single")
    finish(fig, axes, "Fig. 19: line (GPU-GPU links) vs hub (GPU-switch links, switch 80 GB/s), 400 ns per link",
           out, "fig19_topology")
    return pairs


XO_SCHEMES = ("gpupd-batch", "gpupd-ra", "gpupd-stream")
FE_SCHEMES = ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream")


def crit_stack(r):
    """Cycle stack of the GPU that finishes last (the one exchange_overhead_cycles is measured on), as shares of
    the run's frame: no_primitive, stall, sync, issue, and the exchange wait inside no_primitive."""
    pg = r["json"]["per_gpu"]
    g = max(range(len(pg)), key=lambda i: (pg[i]["cycles_done"], -i))
    c = r["cycles"]
    st = {k: pg[g]["cycle_stack"][k] / c for k in ("no_primitive", "stall", "sync", "issue")}
    st["exchange_wait"] = (pg[g].get("exchange_wait_cycles") or 0) / c
    return st


def fig_fe(rows, out):
    """Fig. 22 (issue 20 item 3): the schemes at front-end rate 1 and 4 (--tcfg fe_rate: CP/VF/CLIP/SETUP at that
    many triangles per cycle, as many P2G units per GPU merged in order), line, 400 ns, threshold 4096: speedup over
    single at fe_rate 1 (absolute) and at the same rate (scaling), exchange overhead, the critical GPU's stack."""
    fes = sorted({r["fe"] for r in rows})
    if len(fes) < 2:
        return []
    table = []
    for r in rows:
        if r["scheme"] not in FE_SCHEMES or r["topology"] != "line" or r["lat_ns"] != DEF_LAT:
            continue
        if r["scheme"] in XO_SCHEMES and r["batch"] != DEF_BATCH:
            continue
        if not [x for x in rows if x["trace"] == r["trace"] and x["scheme"] == r["scheme"] and x["gpus"] == r["gpus"]
                and x["fe"] != r["fe"] and x["topology"] == "line" and x["lat_ns"] == DEF_LAT and x["batch"] == r["batch"]]:
            continue        # only (trace, scheme, N) run at every rate
        s1 = [x for x in rows if x["trace"] == r["trace"] and x["scheme"] == "single" and x["fe"] == fes[0]]
        if not s1:
            continue
        st = crit_stack(r)
        table.append(dict(trace=r["trace"], scheme=r["scheme"], gpus=r["gpus"], fe=r["fe"], cycles=r["cycles"],
                          speedup_fe1=s1[0]["cycles"] / r["cycles"], speedup_same_fe=r["speedup"],
                          exchange_overhead_share=r["exchange_overhead"] / r["cycles"],
                          crit_no_primitive=st["no_primitive"], crit_stall=st["stall"], crit_sync=st["sync"],
                          crit_issue=st["issue"]))
    table.sort(key=lambda x: (x["trace"], x["gpus"], FE_SCHEMES.index(x["scheme"]), x["fe"]))
    write_csv(os.path.join(out, "fig22_fe_rate.csv"),
              ["trace", "scheme", "gpus", "fe", "cycles", "speedup_fe1", "speedup_same_fe", "exchange_overhead_share",
               "crit_no_primitive", "crit_stall", "crit_sync", "crit_issue"], table)
    if not table:
        return table
    traces = sorted({x["trace"] for x in table})
    fig, axes = grid(len(traces), ncols=3, w=4.6, h=3.0)
    w = 0.8 / len(fes)
    for ax, t in zip(axes, traces):
        keys = sorted({(x["gpus"], x["scheme"]) for x in table if x["trace"] == t}, key=lambda k: (k[0], FE_SCHEMES.index(k[1])))
        for i, fe in enumerate(fes):
            ys = []
            for k in keys:
                v = [x["speedup_fe1"] for x in table if x["trace"] == t and (x["gpus"], x["scheme"]) == k and x["fe"] == fe]
                ys.append(v[0] if v else 0)
            ax.bar([q + (i - (len(fes) - 1) / 2) * w for q in range(len(keys))], ys, w, label=f"fe_rate {fe}",
                   color=("tab:blue", "tab:orange", "tab:green", "tab:red")[i % 4],
                   edgecolor=[COLOR[k[1]] for k in keys], linewidth=1.2)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels([f"{k[1]}\nN={k[0]}" for k in keys], fontsize=6, rotation=60)
        ax.set_title(t, fontsize=9)
        ax.set_ylabel("speedup over single at fe_rate 1", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3, axis="y")
    finish(fig, axes, "Fig. 22: front-end rate (triangles/cycle)", out,
           "fig22_fe_rate", bottom=0.12, ncol=4)
    return table


def fe_section(tfe):
    """Summary table of Fig. 22."""
    if not tfe:
        return ""
    s = ["### Front-end rate (Fig. 22): 1 vs 4 triangles per cycle\n",
         "Speedup over `single` at fe_rate 1 (and over `single` at the same rate), exchange overhead and the stack of the "
         "GPU that finishes last (NoPrimitive / Stall / Sync / Issue, % of the frame); line, 400 ns, threshold 4096.\n"]
    rows = []
    for x in tfe:
        rows.append([x["trace"], str(x["gpus"]), x["scheme"], str(x["fe"]), f"{x['cycles']:.0f}", f2(x["speedup_fe1"]),
                     f2(x["speedup_same_fe"]), f"{100 * x['exchange_overhead_share']:.0f} %",
                     " / ".join(f"{100 * x[k]:.0f}" for k in ("crit_no_primitive", "crit_stall", "crit_sync", "crit_issue"))])
    s.append(md_table(["trace", "N", "scheme", "fe_rate", "cycles", "speedup (single fe 1)", "speedup (single same fe)",
                       "exch. overhead", "critical GPU NoP / Stall / Sync / Issue %"], rows))
    return "\n".join(s)


def fig_xo(rows, out, ns):
    """Exchange overhead (exchange_overhead_cycles, docs/timing.md section 3) as a share of the frame, per trace,
    scheme and N, for the Fig. 13 runs (line, 400 ns, threshold 4096) and, for gpupd-stream, also on the hub
    and with 100 ns links (issue 20's target configurations)."""
    table = []
    for r in rows:
        if r["scheme"] not in XO_SCHEMES or r["gpus"] < 2 or r["batch"] not in (DEF_BATCH,):
            continue
        cfg = f"{r['topology']} {r['lat_ns']} ns"
        if (r["topology"], r["lat_ns"]) != ("line", DEF_LAT) and r["scheme"] != "gpupd-stream":
            continue
        table.append(dict(trace=r["trace"], scheme=r["scheme"], gpus=r["gpus"], config=cfg, cycles=r["cycles"],
                          exchange_overhead=r["exchange_overhead"], share=r["exchange_overhead"] / r["cycles"],
                          speedup=r["speedup"]))
    table.sort(key=lambda x: (x["trace"], x["scheme"], x["config"], x["gpus"]))
    write_csv(os.path.join(out, "fig20_exchange_overhead.csv"),
              ["trace", "scheme", "gpus", "config", "cycles", "exchange_overhead", "share", "speedup"], table)
    traces = sorted({x["trace"] for x in table})
    if not traces:
        return table
    fig, axes = grid(len(traces))
    styles = {"line 400 ns": "-", "hub 400 ns": "--", "line 100 ns": "-.", "hub 100 ns": ":"}
    for ax, t in zip(axes, traces):
        for sc in XO_SCHEMES:
            for cfg in sorted({x["config"] for x in table if x["scheme"] == sc}):
                pts = sorted((x["gpus"], 100 * x["share"]) for x in table if x["trace"] == t and x["scheme"] == sc and x["config"] == cfg)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], styles.get(cfg, "-"), color=COLOR[sc], marker=MARK[sc],
                            ms=3.5, label=f"{LABEL[sc]}, {cfg}")
        log2_axis(ax, [n for n in ns if n > 1])
        ax.set_ylim(0, 100)
        ax.axhline(5, color="0.5", lw=0.6, ls=":")
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("GPUs", fontsize=8)
        ax.set_ylabel("exchange overhead, % of frame", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    finish(fig, axes, "Fig. 20: exchange overhead (cycles the critical GPU's raster side waits on the exchange) "
           "as a share of the frame", out, "fig20_exchange_overhead", bottom=0.08, ncol=3)
    return table


def fig_reorder(rows, out):
    """What gpupd-stream's reorder FIFOs must hold: per trace and N, the distribution over the GPUs of the most
    primitive ids each held at once (reorder_max_ids), line 400 ns, threshold 4096."""
    table = []
    for r in rows:
        if r["scheme"] != "gpupd-stream" or r["batch"] != DEF_BATCH or r["topology"] != "line" or r["lat_ns"] != DEF_LAT:
            continue
        v = sorted(r["reorder_ids"])
        if not v:
            continue
        table.append(dict(trace=r["trace"], gpus=r["gpus"], min=v[0], median=v[len(v) // 2], max=v[-1],
                          kib_max=v[-1] * 4 / 1024.0, ids=v))
    table.sort(key=lambda x: (x["trace"], x["gpus"]))
    write_csv(os.path.join(out, "fig21_reorder.csv"), ["trace", "gpus", "min", "median", "max", "kib_max"], table)
    traces = sorted({x["trace"] for x in table})
    if not traces:
        return table
    fig, axes = grid(len(traces))
    for ax, t in zip(axes, traces):
        sub = [x for x in table if x["trace"] == t]
        ax.boxplot([x["ids"] for x in sub], labels=[str(x["gpus"]) for x in sub], whis=(0, 100))
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("GPUs", fontsize=8)
        ax.set_ylabel("max ids held per GPU", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    finish(fig, axes, "Fig. 21: gpupd-stream reorder FIFO occupancy: the most primitive ids each GPU held at once "
           "(box: over the GPUs; line, 400 ns)", out, "fig21_reorder", bottom=0.04)
    return table


def stream_section(t13, geo, ns, txo, tre, allrows):
    """Which scheme wins where, and why (computed from the Fig. 13, 20 and 21 tables and the runs' cycle stacks)."""
    s = ["### gpupd-stream beside the prior schemes: who wins where\n"]
    cand = ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin")
    rows = []
    stk = {}        # (trace, N, scheme) -> the critical GPU's stack (crit_stack)

    def stack_of(t, n, sc):
        if (t, n, sc) not in stk:
            r = fig13_row(allrows, t, sc, n)
            stk[(t, n, sc)] = crit_stack(r) if r else None
        return stk[(t, n, sc)]

    def st_txt(st):
        return "" if not st else " / ".join(f"{100 * st[k]:.0f}" for k in ("no_primitive", "stall", "sync", "issue")) + \
            f" ({100 * st['exchange_wait']:.0f})"

    for t in sorted({x["trace"] for x in t13}):
        for n in [n for n in ns if n > 1]:
            sp = {x["scheme"]: x["speedup"] for x in t13 if x["trace"] == t and x["gpus"] == n and x["scheme"] in cand}
            if not sp:
                continue
            best = max(sp, key=sp.get)
            xo = {x["scheme"]: x["share"] for x in txo if x["trace"] == t and x["gpus"] == n and x["config"] == "line 400 ns"}
            rows.append([t, str(n), best, f2(sp[best]), f2(sp.get("gpupd-stream")), f2(sp.get("dup")), f2(sp.get("gpupd-ra")),
                         f2(sp.get("chopin")), f2(100 * xo["gpupd-stream"], 0) + " %" if "gpupd-stream" in xo else "",
                         f2(100 * xo["gpupd-ra"], 0) + " %" if "gpupd-ra" in xo else "",
                         st_txt(stack_of(t, n, best)), st_txt(stack_of(t, n, "gpupd-stream")), st_txt(stack_of(t, n, "dup"))])
    if not rows:
        return ""
    s.append("Speedups over `single` (line, 400 ns, threshold 4096). Stacks: the GPU that finishes last, NoPrimitive / "
             "Stall / Sync / Issue in % of the frame (docs/timing.md section 3), in brackets its exchange wait (the part of "
             "its starvation the exchange caused; `exchange_overhead_cycles`).\n")
    s.append(md_table(["trace", "N", "fastest", "its speedup", "gpupd-stream", "dup", "gpupd-ra", "chopin",
                       "stream exch. overhead", "gpupd-ra exch. overhead", "fastest's stack", "gpupd-stream's stack",
                       "dup's stack"], rows))
    wins = {}
    for r in rows:
        wins.setdefault(r[2], []).append(f"{r[0]} N={r[1]}")
    s.append("\nFastest scheme per (trace, N), line, 400 ns: " + "; ".join(f"**{k}** {len(v)}x" for k, v in sorted(wins.items())) + ".\n")
    g = {(x["scheme"], x["gpus"]): x["speedup"] for x in geo}
    gl = [f"N={n}: " + ", ".join(f"{sc} {g[(sc, n)]:.2f}" for sc in cand if (sc, n) in g) for n in ns if n > 1]
    if gl:
        s.append("Geomean speedups: " + "; ".join(gl) + ".\n")
    # why, from the stacks: where gpupd-stream loses, what its critical GPU does
    lose, win = [], []
    for r in rows:
        st, sd = stack_of(r[0], int(r[1]), "gpupd-stream"), stack_of(r[0], int(r[1]), "dup")
        if st and sd:
            (win if r[2] == "gpupd-stream" else lose).append((r, st, sd))

    def mean(v):
        return sum(v) / len(v) if v else 0.0
    for lab, grp in (("wins", win), ("loses", lose)):
        if grp:
            s.append(f"Where gpupd-stream {lab} ({len(grp)} of {len(rows)} trace/N points), its critical GPU spends on average "
                     f"{100 * mean([g[1]['no_primitive'] for g in grp]):.0f} % of the frame in NoPrimitive, of which "
                     f"{100 * mean([g[1]['exchange_wait'] for g in grp]):.0f} % waiting on the exchange, and "
                     f"{100 * mean([g[1]['stall'] + g[1]['sync'] for g in grp]):.0f} % in Stall + Sync; dup's critical GPU "
                     f"{100 * mean([g[2]['no_primitive'] for g in grp]):.0f} % NoPrimitive (its repeated geometry) and "
                     f"{100 * mean([g[2]['stall'] + g[2]['sync'] for g in grp]):.0f} % Stall + Sync.\n")
    s.append("Why, by construction of the model (docs/timing.md sections 2, 3 and 8): gpupd-batch and gpupd-ra pass turns "
             "GPU 0 -> N-1 in every batch, so a batch costs at least about 2(N-1) link latencies plus its walk; gpupd-stream "
             "has no turns: a batch is released at a GPU once every source's LAST has arrived, about one path latency "
             "after the slowest source has sent its chunk; each GPU projects on projection slots of its own, beside its "
             "rendering, so what gpupd-stream's critical GPU still waits for (its exchange wait, in brackets above) is "
             "the sources' stream PEs sending one flit per destination and cycle (the first batch, and the whole frame "
             "where the geometry is large) and, on the line at 400 ns, the path latency. dup repeats all "
             "geometry on every GPU and exchanges nothing: its NoPrimitive is that repeated geometry, so it wins where "
             "geometry is cheap against the exchange's latency and loses where the frame is geometry-bound; chopin "
             "composes sub-images and pays the composition instead.\n")
    for t in sorted({x["trace"] for x in txo}):
        base = [x for x in txo if x["trace"] == t and x["scheme"] == "gpupd-stream"]
        for n in sorted({x["gpus"] for x in base}):
            by = {x["config"]: x["share"] for x in base if x["gpus"] == n}
            if len(by) > 1:
                s.append(f"- {t}, N={n}: gpupd-stream exchange overhead " +
                         ", ".join(f"{100 * v:.0f} % ({k})" for k, v in sorted(by.items())) + ".\n")
    if tre:
        m = max(tre, key=lambda x: x["max"])
        s.append(f"Reorder FIFOs (Fig. 21): at most {m['max']} primitive ids ({m['kib_max']:.0f} KiB at 4 B per id) held by one "
                 f"GPU ({m['trace']}, N={m['gpus']}); the median GPU holds less (fig21_reorder.csv).\n")
    return "\n".join(s)


def afr_table(rows, out):
    table = []
    for r in sel(rows, scheme="afr"):
        j = r["json"]
        x = dict(trace=r["trace"], frame=r["frame"], gpus=r["gpus"], cycles=r["cycles"], latency_speedup=r["speedup"])
        # Frame rate, DERIVED (not simulated): in steady state AFR has N frames in flight, one per GPU, so a
        # frame completes every latency/N cycles; SFR completes one per latency. (docs/evaluation.md)
        x["frame_rate_speedup_derived"] = r["gpus"] * r["speedup"]
        sfr = fig13_row(rows, r["trace"], "gpupd-ra", r["gpus"])
        x["gpupd_ra_latency_speedup"] = sfr["speedup"] if sfr else None
        if "frames_rendered" in j["per_gpu"][0]:
            x["frames_rendered_max_gpu"] = max(g["frames_rendered"] for g in j["per_gpu"])
        table.append(x)
    table.sort(key=lambda x: (x["trace"], x["gpus"]))
    cols = ["trace", "frame", "gpus", "cycles", "latency_speedup", "frame_rate_speedup_derived",
            "gpupd_ra_latency_speedup"]
    extra = sorted({k for x in table for k in x} - set(cols))
    write_csv(os.path.join(out, "afr.csv"), cols + extra, table)
    return table


# ------------------------------------------------------------------------------------------------ pages
def md_table(cols, rows):
    s = "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
    for r in rows:
        s += "| " + " | ".join(str(v) for v in r) + " |\n"
    return s


def f2(v, nd=2):
    return "" if v is None else f"{v:.{nd}f}"


def summary_md(rows, t13, geo, ns, schemes, t14, t15, t16, t17, t18, t19, tafr, meta):
    s = []
    s.append(f"Commit `{meta['commit']}`, {meta['date']}, {meta['n_jobs']} jobs on {len(traces_of(rows))} traces"
             + (f"; **what-if: every run with `{meta['sim_args']}`**" if meta.get("sim_args") else "")
             + (f"; sweep wall time {meta['sweep_s']:.0f} s on {meta['sweep_j']} parallel jobs" if meta.get("sweep_s") else "")
             + (f"; sum of job wall times {meta['job_s']:.0f} s" if meta.get("job_s") else "")
             + (f", of their CPU times (user + sys) {meta['cpu_s']:.0f} s" if meta.get("cpu_s") else "") + ".\n")
    s.append("### Fig. 13: speedup in single-frame latency over `single` (line, 400 ns, threshold 4096)\n")
    cols = ["trace"] + [f"{sc} N={n}" for sc in schemes if sc != "afr" for n in ns if n > 1]
    trs = []
    for t in traces_of(rows):
        rr = [t]
        for sc in schemes:
            if sc == "afr":
                continue
            for n in ns:
                if n == 1:
                    continue
                x = [y for y in t13 if y["trace"] == t and y["scheme"] == sc and y["gpus"] == n]
                rr.append(f2(x[0]["speedup"]) if x else "")
        trs.append(rr)
    rr = ["**geomean**"]
    for sc in schemes:
        if sc == "afr":
            continue
        for n in ns:
            if n == 1:
                continue
            x = [y for y in geo if y["scheme"] == sc and y["gpus"] == n]
            rr.append(f"**{f2(x[0]['speedup'])}**" if x else "")
    trs.append(rr)
    s.append(md_table(cols, trs))
    n1 = [y for y in t13 if y["gpus"] == 1 and y["scheme"] != "afr"]
    if n1:
        s.append("\nAt N = 1: " + ", ".join(
            f"{sc} {f2(geomean([y['speedup'] for y in n1 if y['scheme'] == sc]), 3)}"
            for sc in schemes if any(y["scheme"] == sc for y in n1)) + " (geomean speedup; `dup` must be 1).\n")
    if t14:
        s.append("\n### Fig. 14: primitives per GPU at N = 4 (gpupd-batch), geometry work vs dup\n")
        trs = []
        for t in sorted({x["trace"] for x in t14}):
            sub = [x for x in t14 if x["trace"] == t]
            red = [x["reduction_vs_dup"] for x in sub if x["reduction_vs_dup"] is not None]
            trs.append([t, sub[0]["prims_app"], f2(sum(x["projected"] for x in sub) / len(sub) / max(1, sub[0]["prims_app"]), 3),
                        f2(sum(x["kept"] for x in sub) / max(1, sum(x["to_render"] for x in sub)), 3),
                        f2(100 * max(red), 1) if red else "", f2(100 * min(red), 1) if red else ""])
        s.append(md_table(["trace", "primitives", "projected per GPU / frame", "own share of rendered",
                           "max reduction vs dup %", "min reduction vs dup %"], trs))
    if t15:
        s.append("\n### Fig. 15: cycle stacks (mean over GPUs, in % of single's latency)\n")
        trs = []
        for t in traces_of(rows):
            base = [x for x in t15 if x["trace"] == t and x["scheme"] == "single"]
            if not base:
                continue
            norm = base[0]["cycles"]
            for sc in ("single", "dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"):
                for n in ([1] if sc == "single" else [n for n in ns if n in (4, 16)]):
                    g = [x for x in t15 if x["trace"] == t and x["scheme"] == sc and x["gpus"] == n]
                    if g:
                        trs.append([t, sc, n] + [f2(100 * sum(x[k] for x in g) / len(g) / norm, 1) for k in STACK]
                                   + [f2(100 * g[0]["cycles"] / norm, 1)])
        s.append(md_table(["trace", "scheme", "N", "NoPrimitive %", "Stall %", "Sync %", "latency %"], trs))
    if t16:
        s.append("\n### Fig. 16: traffic (MB over all links) and GPUpd's extra over dup\n")
        trs = []
        for x in t16:
            if x["gpus"] in (4, 16) and x["scheme"] in ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"):
                trs.append([x["trace"], x["scheme"], x["gpus"], f2(x["fb_sync_bytes"] / 1e6, 3),
                            f2(x["prim_id_bytes"] / 1e6, 3), f2(x["last_marker_bytes"] / 1e6, 4),
                            f2(x["composition_bytes"] / 1e6, 3),
                            f2(x["additional_over_dup_pct"], 1) if x["additional_over_dup_pct"] is not None else "n/a (dup: 0)"])
        s.append(md_table(["trace", "scheme", "N", "FB sync MB", "prim IDs MB", "LAST MB", "composition MB",
                           "extra over dup %"], trs))
    for tab, title, xk in ((t17, "Fig. 17: speedup vs link latency (ns)", "lat_ns"),
                           (t18, "Fig. 18: speedup vs batching threshold", "threshold")):
        if not tab:
            continue
        s.append(f"\n### {title} (geomean over the traces swept)\n")
        xs = sorted({x[xk] for x in tab}, key=lambda v: batch_x(v) if xk == "threshold" else v)
        trs = []
        for sc in ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin"):
            for n in sorted({x["gpus"] for x in tab}):
                rr = [sc, n]
                for xv in xs:
                    v = [x["speedup"] for x in tab if x["scheme"] == sc and x["gpus"] == n and x[xk] == xv]
                    rr.append(f2(geomean(v)) if v else "")
                if any(rr[2:]):
                    trs.append(rr)
        s.append(md_table(["scheme", "N"] + [str(x) for x in xs], trs))
    if t19:
        s.append("\n### Fig. 19: line vs hub (speedup; line over hub in %)\n")
        trs = [[x["trace"], x["scheme"], x["gpus"], f2(x["line_speedup"]), f2(x["hub_speedup"]), f2(x["line_over_hub_pct"], 2)]
               for x in t19]
        s.append(md_table(["trace", "scheme", "N", "line", "hub", "line over hub %"], trs))
        v = [abs(x["line_over_hub_pct"]) for x in t19 if x["scheme"] not in ("dup", "chopin")]
        if v:
            s.append(f"\nLargest |line - hub| difference of the GPUpd schemes: {max(v):.2f} % (paper: < 1.82 %).\n")
    s.extend(chopin_section(rows, t13, geo, ns))
    if tafr:
        s.append("\n### AFR vs SFR (multi-frame trace): latency and frame rate over `single`\n")
        s.append(md_table(["trace", "frame", "N", "afr latency speedup", "afr frame-rate speedup (derived: N x latency speedup)",
                           "gpupd-ra latency = frame-rate speedup"],
                          [[x["trace"], x["frame"], x["gpus"], f2(x["latency_speedup"]), f2(x["frame_rate_speedup_derived"]),
                            f2(x["gpupd_ra_latency_speedup"])] for x in tafr]))
    return "\n".join(s)


def chopin_section(rows, t13, geo, ns):
    """CHOPIN beside the prior schemes (Fig. 13 runs): geomean speedups, chopin over the best of dup / gpupd-batch /
    gpupd-ra per trace, and how much of chopin's work was composed (docs/evaluation.md, "CHOPIN")."""
    if not any(x["scheme"] == "chopin" for x in t13):
        return []
    s = ["\n### CHOPIN beside the prior schemes (Fig. 13 runs; the CHOPIN paper: 1.25x geomean, up to 1.56x, over the "
         "best prior SFR scheme at 8 GPUs)\n"]
    prior = ("dup", "gpupd-batch", "gpupd-ra")
    trs = []
    for n in [n for n in ns if n > 1]:
        rat = []
        for t in traces_of(rows):
            c = [x["speedup"] for x in t13 if x["trace"] == t and x["scheme"] == "chopin" and x["gpus"] == n]
            p = [x["speedup"] for x in t13 if x["trace"] == t and x["scheme"] in prior and x["gpus"] == n]
            if c and p:
                rat.append((c[0] / max(p), t))
        g = {sc: [y["speedup"] for y in geo if y["scheme"] == sc and y["gpus"] == n] for sc in prior + ("chopin",)}
        comp = [r["json"]["chopin"]["groups_composed"] for r in rows if r["scheme"] == "chopin" and r["gpus"] == n
                and r["topology"] == "line" and r["lat_ns"] == DEF_LAT and "chopin" in r["json"]]
        if rat:
            trs.append([n] + [f2(g[sc][0]) if g[sc] else "" for sc in prior + ("chopin",)] +
                       [f2(geomean([r for r, _ in rat])), f"{f2(max(rat)[0])} ({max(rat)[1]})", f"{f2(min(rat)[0])} ({min(rat)[1]})",
                        f"{sum(1 for c in comp if c)}/{len(comp)}"])
    s.append(md_table(["N", "dup", "gpupd-batch", "gpupd-ra", "chopin", "chopin / best prior, geomean", "max", "min",
                       "traces with a composed group"], trs))
    return s


def paper_section(t13, t14, t16, t17, t18, t19):
    """Our numbers beside the ones the paper's text states (section 5; the figures' bars are not in the text).
    Geomeans over all traces and over the OpenArena frames (our games; the paper's eight traces are games)."""
    def g13(scheme, n, pred=lambda t: True):
        v = [x["speedup"] for x in t13 if x["scheme"] == scheme and x["gpus"] == n and pred(x["trace"])]
        return geomean(v), v

    oa = lambda t: t.startswith("oa-")  # noqa: E731
    nex = lambda t: t.startswith("nexuiz-")  # noqa: E731  (the paper-sized 1920x1080 frames)
    rows = []

    def both(label, paper, scheme, n, how):
        a, va = g13(scheme, n)
        o, vo = g13(scheme, n, oa)
        x, vx = g13(scheme, n, nex)
        if va:
            rows.append([label, paper, f2(a), f2(o) if vo else "n/a", f2(x) if vx else "n/a", how])

    both("2-GPU `dup` speedup (validation: \"reduces single-frame latency by 60.4 %\")", "1.604 (read as speedup)",
         "dup", 2, "geomean cycles(single)/cycles(dup, N=2)")
    both("16-GPU current SFR (`dup`), geomean", "3.07", "dup", 16, "geomean speedup")
    both("16-GPU GPUpd (`gpupd-batch`), geomean", "4.45", "gpupd-batch", 16, "geomean speedup")
    both("16-GPU GPUpd +Runahead (`gpupd-ra`), geomean", "4.98", "gpupd-ra", 16, "geomean speedup")
    for s, paper in (("gpupd-batch", "6.86"), ("gpupd-ra", "7.65")):
        v = [(x["speedup"], x["trace"]) for x in t13 if x["scheme"] == s and x["gpus"] == 16]
        if v:
            m = max(v)
            rows.append([f"16-GPU `{s}`, maximum", paper, f"{m[0]:.2f} ({m[1]})", "", "max over traces"])
    v = [(x["speedup"], x["trace"]) for x in t13 if x["scheme"] == "gpupd-ra" and x["gpus"] == 16]
    if v:
        m = min(v)
        rows.append(["16-GPU `gpupd-ra`, minimum", "3.82 (cry)", f"{m[0]:.2f} ({m[1]})", "", "min over traces"])
    ra = {x["trace"]: x["speedup"] for x in t13 if x["scheme"] == "gpupd-ra" and x["gpus"] == 16}
    bt = {x["trace"]: x["speedup"] for x in t13 if x["scheme"] == "gpupd-batch" and x["gpus"] == 16}
    gain = sorted((ra[t] - bt[t], t) for t in ra if t in bt)
    if gain:
        rows.append(["16-GPU runahead gain (`gpupd-ra` - `gpupd-batch`), min / max", "min 0.31 (nfs)",
                     f"{gain[0][0]:+.2f} ({gain[0][1]}) / {gain[-1][0]:+.2f} ({gain[-1][1]})", "", "speedup difference"])
    if t14:
        pf = [x["projected"] / x["prims_app"] for x in t14 if x["prims_app"]]
        red = [(x["reduction_vs_dup"], x["trace"]) for x in t14 if x["reduction_vs_dup"] is not None]
        rows.append(["4-GPU C-PD: primitives each GPU projects / frame", "1/4", f"{min(pf):.3f}..{max(pf):.3f}", "",
                     "prims_projected / prims_app per GPU"])
        if red:
            m = max(red)
            rows.append(["4-GPU: fewer primitives through geometry per GPU than `dup`, best", "up to 62 %",
                         f"{100 * m[0]:.1f} % ({m[1]})", "", "1 - (projected + to_render) / dup projected"])
    if t16:
        v = [(x["additional_over_dup_pct"], x["trace"]) for x in t16 if x["gpus"] == 16 and
             x["scheme"] in ("gpupd-batch", "gpupd-ra") and x["additional_over_dup_pct"] is not None]
        z = sorted({x["trace"] for x in t16 if x["gpus"] == 16 and x["additional_over_dup_pct"] is None})
        if v:
            m = max(v)
            rows.append(["16-GPU extra traffic of GPUpd over `dup`'s FB sync, max", "< 7.03 %",
                         f"{m[0]:.1f} % ({m[1]})", "", "traces with sync traffic only" +
                         (f"; no FB sync at all (extra undefined): {', '.join(z)}" if z else "")])
    if t17:
        for n in (4, 16):
            for s in ("gpupd-batch", "gpupd-ra"):
                a = [x["speedup"] for x in t17 if x["scheme"] == s and x["gpus"] == n and x["lat_ns"] == 100]
                b = [x["speedup"] for x in t17 if x["scheme"] == s and x["gpus"] == n and x["lat_ns"] == 800]
                if a and b and len(a) == len(b):
                    rows.append([f"{n}-GPU `{s}`: speedup at 800 ns / at 100 ns", "\"sustains\" (no number)",
                                 f"{geomean(b) / geomean(a):.3f}", "", "geomean over the traces swept"])
    if t18:
        for n in (4, 16):
            a = [x["speedup"] for x in t18 if x["scheme"] == "gpupd-batch" and x["gpus"] == n and x["threshold"] == "none"]
            if a:
                rows.append([f"{n}-GPU GPUpd without batching (`gpupd`)", "< 1 at 16 GPUs" if n == 16 else "(no number)",
                             f"{geomean(a):.2f}", "", "geomean speedup over the traces swept"])
            best = {}
            for x in t18:
                if x["scheme"] == "gpupd-ra" and x["gpus"] == n:
                    best.setdefault(x["threshold"], []).append(x["speedup"])
            if best:
                k = max(best, key=lambda t: geomean(best[t]))
                rows.append([f"{n}-GPU `gpupd-ra`: best threshold", "2048 (4 GPUs)" if n == 4 else "(no number)",
                             f"{k} ({geomean(best[k]):.2f})", "", "by geomean speedup"])
    if t19:
        v = [(abs(x["line_over_hub_pct"]), x["trace"], x["scheme"], x["gpus"]) for x in t19 if x["scheme"] != "dup"]
        if v:
            m = max(v)
            rows.append(["line vs hub speedup difference, max", "< 1.82 % (line higher)",
                         f"{m[0]:.2f} % ({m[1]}, {m[2]} N={m[3]})", "", "abs(line/hub - 1) of gpupd-batch/ra"])
    if not rows:
        return ""
    rows = [r if len(r) == 6 else r[:4] + [""] + r[4:] for r in rows]
    return ("\n### Beside the paper (numbers its section 5 states)\n\n" +
            md_table(["quantity", "paper", "ours: all traces", "ours: OpenArena", "ours: Nexuiz 1920x1080", "how"], rows))


def frames_section(rows, out, traces_dir):
    """Per trace: the reference image, the single-GPU frame and the gpupd-ra frame at the largest N kept."""
    items = []
    os.makedirs(os.path.join(out, "frames"), exist_ok=True)
    for t in traces_of(rows):
        r = sel(rows, trace=t)
        frame = r[0]["frame"]
        refs = [os.path.join(traces_dir, f"{t}.png"), os.path.join(traces_dir, f"{t}.f{frame}.png")]
        ref = next((p for p in refs if os.path.exists(p)), None)
        if ref:
            dst = os.path.join(out, "frames", f"{t}.ref.png")
            shutil.copyfile(ref, dst + ".tmp")
            os.replace(dst + ".tmp", dst)
            ref = os.path.relpath(dst, out)
        pngs = [x for x in r if x["png"] and os.path.exists(os.path.join(out, "runs", x["id"] + ".png"))]
        pngs.sort(key=lambda x: (x["scheme"] != "single", x["gpus"]))
        items.append(dict(trace=t, frame=frame, ref=ref, hash=r[0]["frame_hash"], n_runs=len(r),
                          pngs=[(f"{x['scheme']} N={x['gpus']}", f"runs/{x['id']}.png") for x in pngs]))
    return items


def timelines(rows, out):
    """The per-unit bottleneck timeline (Qsilver style) of the runs that wrote one, drawn by
    scripts/plot_timeline.py (the timing model's plot): [(name, title)]."""
    made = []
    for r in rows:
        if not r["timeline"]:
            continue
        src = os.path.join(out, "runs", r["id"] + ".timeline.csv")
        if not os.path.exists(src):
            die(f"{r['id']}: the job should have written {src}")
        name = f"timeline_{r['trace']}_{r['scheme']}_n{r['gpus']}"
        gpus = "0" if r["gpus"] == 1 else f"0,{r['gpus'] - 1}"
        title = f"{r['trace']} {r['scheme']} N={r['gpus']}: busy fraction of each unit per window, GPUs {gpus}"
        p = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot_timeline.py"),
                            src, os.path.join(out, name), "--gpus", gpus, "--title", title], capture_output=True, text=True)
        if p.returncode != 0:
            die(f"plot_timeline.py failed on {src}: {p.stderr.strip()[-500:]}")
        made.append((name, f"Bottleneck timeline: {r['trace']} {r['scheme']} N = {r['gpus']}"))
    return made


FIGS = [("fig13_speedup", "Fig. 13: speedup in single-frame latency"),
        ("fig14_sources", "Fig. 14: where each GPU's primitives come from (N = 4)"),
        ("fig15_cycle_stack", "Fig. 15: cycle stacks NoPrimitive / Stall / Sync"),
        ("fig16_traffic", "Fig. 16: inter-GPU traffic breakdown"),
        ("fig17_latency", "Fig. 17: sensitivity to link latency (N = 4, 16)"),
        ("fig18_batch", "Fig. 18: sensitivity to the batching threshold (N = 4, 16)"),
        ("fig19_topology", "Fig. 19: line vs hub"),
        ("fig20_exchange_overhead", "Fig. 20: exchange overhead as a share of the frame (gpupd-batch, gpupd-ra, gpupd-stream)"),
        ("fig21_reorder", "Fig. 21: gpupd-stream reorder FIFO occupancy per trace and N"),
        ("fig22_fe_rate", "Fig. 22: front-end rate 1 vs 4 triangles per cycle")]


def pages(out, summary, items, meta, extra=()):
    figs = [(n, t) for n, t in list(FIGS) + list(extra) if os.path.exists(os.path.join(out, n + ".png"))]
    tables = sorted(f for f in os.listdir(out) if f.endswith(".csv"))
    md = [f"# GPUpd evaluation (the paper's Fig. 13-19 on the bundled traces)\n",
          "How to read each figure and how our numbers compare with the paper's: `docs/evaluation.md`.\n",
          "Tables: " + ", ".join(f"[{f}]({f})" for f in tables + ["results.json", "summary.md", "jobs.txt"]) + "\n"]
    for n, t in figs:
        csvl = f"{n}.csv" if os.path.exists(os.path.join(out, n + ".csv")) else None
        md.append(f"## {t}\n\n![{t}]({n}.png)\n\n[SVG]({n}.svg)" + (f" · [CSV]({csvl})" if csvl else "") + "\n")
    md.append("## Numbers\n\n" + summary + "\n")
    md.append("## Rendered frames\n\nEvery run of a trace rendered the same frame (checked: one FNV-1a hash per trace "
              "over all its runs). Reference = Mesa llvmpipe (`glretrace -s`).\n")
    for it in items:
        md.append(f"### {it['trace']} (frame {it['frame']}, hash `{it['hash']}`, {it['n_runs']} runs)\n")
        cells = ([("llvmpipe reference", it["ref"])] if it["ref"] else []) + it["pngs"]
        md.append(" ".join(f"![{c}]({p})" for c, p in cells) + "\n\n" + " · ".join(c for c, _ in cells) + "\n")
    write_text(os.path.join(out, "index.md"), "\n".join(md))
    # HTML: the same content, the summary tables rendered as preformatted Markdown
    h = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>GPUpd evaluation</title><style>"
         "body{font-family:sans-serif;max-width:1500px;margin:auto;padding:1em} img{max-width:100%}"
         ".frames img{width:320px;margin:2px} pre{background:#f4f4f4;padding:.5em;overflow-x:auto;font-size:12px}"
         "</style></head><body>",
         "<h1>GPUpd evaluation (the paper's Fig. 13-19 on the bundled traces)</h1>",
         f"<p>{html.escape(meta['line'])}. How to read each figure and how the numbers compare with the paper's: "
         "<code>docs/evaluation.md</code>.</p><p>Tables: " +
         " ".join(f"<a href='{f}'>{f}</a>" for f in tables + ["results.json", "summary.md", "jobs.txt"]) + "</p>"]
    for n, t in figs:
        csvl = f" · <a href='{n}.csv'>CSV</a>" if os.path.exists(os.path.join(out, n + ".csv")) else ""
        h.append(f"<h2>{html.escape(t)}</h2><a href='{n}.svg'><img src='{n}.png' alt='{html.escape(t)}'></a>"
                 f"<p><a href='{n}.svg'>SVG</a>{csvl}</p>")
    h.append(f"<h2>Numbers</h2><pre>{html.escape(summary)}</pre>")
    h.append("<h2>Rendered frames</h2><p>Every run of a trace rendered the same frame (one hash per trace over all "
             "its runs). Reference = Mesa llvmpipe.</p>")
    for it in items:
        cells = ([("llvmpipe reference", it["ref"])] if it["ref"] else []) + it["pngs"]
        h.append(f"<h3>{html.escape(it['trace'])} (frame {it['frame']}, hash {it['hash']}, {it['n_runs']} runs)</h3>"
                 "<div class='frames'>" + "".join(
                     f"<figure style='display:inline-block'><img src='{p}' alt='{html.escape(c)}'>"
                     f"<figcaption>{html.escape(c)}</figcaption></figure>" for c, p in cells) + "</div>")
    h.append("</body></html>")
    write_text(os.path.join(out, "index.html"), "\n".join(h))


def git_commit():
    try:
        c = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
        return c + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--traces-dir", default="traces")
    ap.add_argument("--commit", default=None)
    a = ap.parse_args()
    out = a.out
    rows = load(out)
    meta = dict(commit=a.commit or git_commit(), date=datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
                n_jobs=len(rows))
    walls = [r["wall_s"] for r in rows if r["wall_s"] is not None]
    meta["job_s"] = sum(walls) if walls else None
    cpus = [r["cpu_s"] for r in rows if r["cpu_s"] is not None]
    meta["cpu_s"] = sum(cpus) if len(cpus) == len(rows) else None
    sp = os.path.join(out, "sweep_time.txt")
    if os.path.exists(sp):
        v = open(sp).read().split()
        if len(v) >= 2:
            meta["sweep_s"], meta["sweep_j"] = float(v[0]), v[1]
    mp = os.path.join(out, "jobs.meta.json")
    meta["sim_args"] = json.load(open(mp)).get("sim_args", "") if os.path.exists(mp) else ""
    meta["line"] = (f"Commit {meta['commit']}, {meta['date']}, {meta['n_jobs']} jobs"
                    + (f", EXTRA SIMULATOR ARGUMENTS (what-if): {meta['sim_args']}" if meta["sim_args"] else "")
                    + (f", sweep {meta['sweep_s']:.0f} s wall" if meta.get("sweep_s") else ""))

    cols = ["id", "trace", "frame", "scheme", "gpus", "topology", "lat_ns", "batch", "cycles", "single_cycles",
            "speedup", "frame_hash", "prims_app", "syncs", "projected_mean", "projected_max", "to_render_mean",
            "to_render_max", "rasterized_mean"] + [f"{k}_{m}" for k in STACK for m in ("mean", "max")] + \
           ["traffic_prim_bytes", "traffic_last_bytes", "traffic_sync_bytes", "traffic_comp_bytes", "traffic_bytes", "wall_s", "cpu_s"]
    cols.append("fe")
    write_csv(os.path.join(out, "results.csv"), cols, rows)
    write_text(os.path.join(out, "results.json"),
               json.dumps(dict(meta={k: v for k, v in meta.items()}, runs=[{c: r[c] for c in cols} for r in rows]), indent=1))
    tfe = fig_fe(rows, out)
    rows = [r for r in rows if r["fe"] == 1]       # every other figure: the default front end
    t13, geo, ns, schemes = fig13(rows, out)
    t14 = fig14(rows, out)
    t15 = fig15(rows, out, ns, schemes)
    t16 = fig16(rows, out, ns)
    t17 = fig17(rows, out)
    t18 = fig18(rows, out)
    t19 = fig19(rows, out)
    tafr = afr_table(rows, out)
    txo = fig_xo(rows, out, ns)
    tre = fig_reorder(rows, out)
    summary = summary_md(rows, t13, geo, ns, schemes, t14, t15, t16, t17, t18, t19, tafr, meta)
    summary += "\n" + stream_section(t13, geo, ns, txo, tre, rows)
    summary += "\n" + fe_section(tfe)
    summary += "\n" + paper_section(t13, t14, t16, t17, t18, t19)
    write_text(os.path.join(out, "summary.md"), summary + "\n")
    items = frames_section(rows, out, a.traces_dir)
    pages(out, summary, items, meta, timelines(rows, out))
    print(f"eval_report: {len(rows)} runs -> {out}/index.html, {out}/index.md, summary.md, results.csv, "
          f"{len([f for f in os.listdir(out) if f.startswith('fig') and f.endswith('.png')])} figures")


if __name__ == "__main__":
    main()
