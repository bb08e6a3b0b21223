#!/usr/bin/env python3
"""Consistency checks of an evaluation output directory (tests/eval/test_eval.sh): every number in the
tables is recomputed here from the jobs' JSON, every figure exists, the index references only existing
files. Prints each failure with what differed; exit 1 if any."""
import csv
import json
import os
import re
import sys

out = sys.argv[1]
errors = []


def err(msg):
    errors.append(msg)


def rd(name):
    p = os.path.join(out, name)
    if not os.path.exists(p):
        err(f"{name} missing")
        return []
    rows = list(csv.DictReader(open(p)))
    if not rows:
        err(f"{name} has no rows")
    return rows


def close(a, b, rel=1e-6):
    return abs(float(a) - float(b)) <= rel * max(1.0, abs(float(b)))


jobs = list(csv.DictReader(open(os.path.join(out, "jobs.tsv")), delimiter="\t"))
J = {j["id"]: json.load(open(os.path.join(out, "runs", j["id"] + ".json"))) for j in jobs}
def fe(j):
    return int(j.get("fe") or 1)


# single's cycles per trace at the default front end (fe_rate 1), and per (trace, fe_rate) for Fig. 22
single = {j["trace"]: J[j["id"]]["cycles"] for j in jobs if j["scheme"] == "single" and fe(j) == 1}
single_fe = {(j["trace"], fe(j)): J[j["id"]]["cycles"] for j in jobs if j["scheme"] == "single"}
for j in jobs:
    p = J[j["id"]]["timing"]["params"]["fe_rate"] if J[j["id"]].get("timing") else None
    if p is not None and int(p) != fe(j):
        err(f"{j['id']}: JSON timing fe_rate {p} != the job's {fe(j)}")
hashes = {}
for j in jobs:
    hashes.setdefault(j["trace"], set()).add(J[j["id"]]["frame_hash"])
for t, h in hashes.items():
    if len(h) != 1:
        err(f"{t}: {len(h)} different frame hashes over its runs")

res = rd("results.csv")
if len(res) != len(jobs):
    err(f"results.csv has {len(res)} rows, the job list {len(jobs)}")
for r in res:
    d = J.get(r["id"])
    if d is None:
        err(f"results.csv row {r['id']} is not a job")
        continue
    if not close(r["cycles"], d["cycles"]):
        err(f"{r['id']}: results.csv cycles {r['cycles']} != JSON {d['cycles']}")
    want = single_fe[(r["trace"], int(r.get("fe") or 1))] / d["cycles"]
    if not close(r["speedup"], want):
        err(f"{r['id']}: speedup {r['speedup']} != single/cycles = {want}")
    if r["scheme"] == "single" and float(r["speedup"]) != 1.0:
        err(f"{r['id']}: speedup of single is {r['speedup']}, not 1")
    if r["scheme"] == "dup" and r["gpus"] == "1" and float(r["speedup"]) != 1.0:
        err(f"{r['id']}: dup at N = 1 has speedup {r['speedup']}, must equal single (1)")
    tb = sum(l["prim_packets"] * 8 + l["last_packets"] * 8 + l["sync_bytes"] + l.get("composition_bytes", 0) for l in d["links"])
    if int(float(r["traffic_bytes"])) != tb:
        err(f"{r['id']}: traffic_bytes {r['traffic_bytes']} != sum over links {tb}")

f13 = rd("fig13_speedup.csv")
schemes = {j["scheme"] for j in jobs if fe(j) == 1} - {"single", "afr"}
ns = sorted({int(j["gpus"]) for j in jobs if j["scheme"] == "dup" and fe(j) == 1})
for s in schemes:
    for n in ns:
        if s == "chopin" and n == 1:        # composition needs 2+ GPUs: no chopin job at N = 1
            continue
        if not [x for x in f13 if x["scheme"] == s and int(x["gpus"]) == n and x["trace"] != "GEOMEAN"]:
            err(f"fig13_speedup.csv: no row for {s} N={n}")
        if not [x for x in f13 if x["scheme"] == s and int(x["gpus"]) == n and x["trace"] == "GEOMEAN"]:
            err(f"fig13_speedup.csv: no geomean for {s} N={n}")

for x in rd("fig14_sources.csv"):
    n = int(x["gpus"])
    tot = sum(int(x[f"from_gpu{k}"]) for k in range(n))
    if tot != int(x["to_render"]):
        err(f"fig14 {x['trace']} GPU {x['gpu']}: sources sum {tot} != to_render {x['to_render']}")
    d = [J[j["id"]] for j in jobs if j["trace"] == x["trace"] and j["scheme"] == x["scheme"] and int(j["gpus"]) == n
         and j["topology"] == "line" and j["lat_ns"] == "400" and j["batch"] == "4096"][0]
    e = d["per_gpu"][int(x["gpu"])]
    if [int(x[f"from_gpu{k}"]) for k in range(n) if k != int(x["gpu"])] != \
            [v for k, v in enumerate(e["prims_received_from"]) if k != int(x["gpu"])]:
        err(f"fig14 {x['trace']} GPU {x['gpu']}: sources differ from the JSON's prims_received_from")

for x in rd("fig15_cycle_stack.csv"):
    cands = [j for j in jobs if j["trace"] == x["trace"] and j["scheme"] == x["scheme"] and
             (x["scheme"] == "single" or int(j["gpus"]) == int(x["gpus"])) and j["topology"] == "line" and
             j["lat_ns"] == "400" and j["batch"] in ("none", "4096")]
    e = J[cands[0]["id"]]["per_gpu"][int(x["gpu"])]["cycle_stack"]
    for k in ("no_primitive", "stall", "sync"):
        if not close(x[k], e[k]):
            err(f"fig15 {x['trace']} {x['scheme']} N={x['gpus']} GPU {x['gpu']}: {k} {x[k]} != JSON {e[k]}")

f16 = rd("fig16_traffic.csv")
if f16 and not any(int(x["prim_id_bytes"]) > 0 for x in f16 if x["scheme"].startswith("gpupd")):
    err("fig16: no primitive-ID traffic in any gpupd run")
# chopin: its composition traffic is a kind of its own in Fig. 16, and a chopin run that composed no group ran
# every draw as dup does, so it has dup's cycles exactly (same trace, N, topology, latency)
for x in f16:
    d = [J[j["id"]] for j in jobs if j["trace"] == x["trace"] and j["scheme"] == x["scheme"] and int(j["gpus"]) == int(x["gpus"])
         and j["topology"] == "line" and j["lat_ns"] == "400"]
    if d and int(x["composition_bytes"]) != d[0].get("traffic", {}).get("composition", 0):
        err(f"fig16 {x['trace']} {x['scheme']} N={x['gpus']}: composition_bytes {x['composition_bytes']} != JSON traffic.composition")
nchop = 0
for j in jobs:
    if j["scheme"] != "chopin" or J[j["id"]]["chopin"]["groups_composed"]:
        continue
    dj = [k for k in jobs if k["scheme"] == "dup" and k["trace"] == j["trace"] and k["gpus"] == j["gpus"]
          and k["topology"] == j["topology"] and k["lat_ns"] == j["lat_ns"]]
    if dj:
        nchop += 1
        if J[j["id"]]["cycles"] != J[dj[0]["id"]]["cycles"]:
            err(f"{j['id']}: chopin composed no group but has {J[j['id']]['cycles']} cycles, dup {J[dj[0]['id']]['cycles']}")
if any(j["scheme"] == "chopin" for j in jobs) and not nchop:
    err("no chopin run to compare with dup (every chopin run composed, or no dup run beside it)")
f17 = rd("fig17_latency.csv")
if f17 and {int(x["lat_ns"]) for x in f17} != {int(j["lat_ns"]) for j in jobs if j["scheme"] == "gpupd-ra"}:
    err(f"fig17: latencies {sorted({x['lat_ns'] for x in f17})} are not the swept ones")
f18 = rd("fig18_batch.csv")
if f18 and not {"none", "4096"} <= {x["threshold"] for x in f18}:
    err(f"fig18: thresholds {sorted({x['threshold'] for x in f18})} lack none/4096")
f19 = rd("fig19_topology.csv")
for x in f19:
    if not close(float(x["hub_speedup"]), single[x["trace"]] / float(x["hub_cycles"])):
        err(f"fig19 {x['trace']} {x['scheme']} N={x['gpus']}: hub speedup inconsistent")

figs = ["fig13_speedup", "fig14_sources", "fig15_cycle_stack", "fig16_traffic", "fig17_latency", "fig18_batch",
        "fig19_topology"]
# Fig. 22: every run at fe_rate != 1 is in the table with its speedups and stack, beside its fe_rate 1 twin
fe_jobs = [j for j in jobs if fe(j) != 1 and j["scheme"] != "single"]
if fe_jobs:
    figs.append("fig22_fe_rate")
    f22 = {(x["trace"], x["scheme"], int(x["gpus"]), int(x["fe"])): x for x in rd("fig22_fe_rate.csv")}
    for j in fe_jobs:
        for f in (fe(j), 1):
            x = f22.get((j["trace"], j["scheme"], int(j["gpus"]), f))
            if x is None:
                err(f"fig22_fe_rate.csv: no row for {j['trace']} {j['scheme']} N={j['gpus']} fe_rate {f}")
                continue
            tw = [k for k in jobs if k["trace"] == j["trace"] and k["scheme"] == j["scheme"] and k["gpus"] == j["gpus"]
                  and fe(k) == f and k["topology"] == j["topology"] and k["lat_ns"] == j["lat_ns"] and k["batch"] == j["batch"]]
            d = J[tw[0]["id"]]
            if not close(x["cycles"], d["cycles"]) or not close(x["speedup_fe1"], single[j["trace"]] / d["cycles"]) \
                    or not close(x["speedup_same_fe"], single_fe[(j["trace"], f)] / d["cycles"]):
                err(f"fig22 {j['trace']} {j['scheme']} N={j['gpus']} fe_rate {f}: cycles/speedups differ from the JSON")
            if not close(x["exchange_overhead_share"], (d["exchange_overhead_cycles"] or 0) / d["cycles"]):
                err(f"fig22 {j['trace']} {j['scheme']} N={j['gpus']} fe_rate {f}: exchange overhead differs from the JSON")
for f in figs:
    p = os.path.join(out, f + ".png")
    if not os.path.exists(p) or open(p, "rb").read(8) != b"\x89PNG\r\n\x1a\n" or os.path.getsize(p) < 10000:
        err(f"{f}.png missing, not a PNG or under 10 kB")
    s = os.path.join(out, f + ".svg")
    if not os.path.exists(s) or "<svg" not in open(s).read(4000):
        err(f"{f}.svg missing or not SVG")

for page, pat in (("index.md", r"\]\(([^)\s]+)\)"), ("index.html", r"(?:src|href)='([^']+)'")):
    p = os.path.join(out, page)
    if not os.path.exists(p):
        err(f"{page} missing")
        continue
    text = open(p).read()
    refs = re.findall(pat, text)
    if not refs:
        err(f"{page} references nothing")
    for r in refs:
        if not os.path.exists(os.path.join(out, r)):
            err(f"{page} references {r}, which does not exist")
    for f in figs:
        if f + ".png" not in refs:
            err(f"{page} does not show {f}.png")
    if not [r for r in refs if r.startswith("runs/") and r.endswith(".png")]:
        err(f"{page} shows no rendered frame")
    for j in jobs:
        if j.get("timeline") == "1":
            name = f"timeline_{j['trace']}_{j['scheme']}_n{j['gpus']}.png"
            if name not in refs:
                err(f"{page} does not show the bottleneck timeline {name} of {j['id']}")

if errors:
    for e in errors[:40]:
        print(f"check_eval: {e}")
    print(f"check_eval: {len(errors)} problem(s) in {out}")
    sys.exit(1)
print(f"check_eval: {out}: {len(jobs)} jobs, results/figures/index consistent with the JSON")
