#!/bin/bash
# The timing model's command-line interface (issue 9, docs/timing.md): the stable stats JSON keys, bad timing
# options exit 2 with a message, untimed runs say so, the timeline CSV (and its plot), and docs/timing.md's
# parameter table equals `gpupd-sim timing-config` (one source of truth).
# usage: tests/timing/test_timing_cli.sh build/bin/gpupd-sim OUTDIR
set -euo pipefail
SIM=$1
D=$2
mkdir -p "$D"
PY=/usr/bin/python3
n=0
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  local want=$1; shift
  set +e; "$@" >"$D/out.txt" 2>&1; local got=$?; set -e
  if [ "$got" -ne "$want" ]; then echo "FAIL: exit $got (want $want): $*"; cat "$D/out.txt"; exit 1; fi
  n=$((n + 1))
}

# 1. the stable interface: "cycles" at the top level, "cycle_stack" {no_primitive, stall, sync} in every per_gpu
for sc in single dup gpupd gpupd-batch gpupd-ra afr; do
  expect 0 "$SIM" render --scene tris --size 160x120 --prims 600 --scheme "$sc" --gpus 3 --topology hub \
    --link-latency-ns 200 --link-gbps 20 --hub-gbps 40 --stats "$D/$sc.json" -q
  $PY - "$D/$sc.json" "$sc" <<'EOF' || fail "stats JSON of $2 (see $1)"
import json, sys
d = json.load(open(sys.argv[1])); sc = sys.argv[2]
assert d["timed"] is True, "timed"
assert isinstance(d["cycles"], int) and d["cycles"] > 0, "cycles"
assert d["timing"]["link_latency_ns"] == 200 and d["timing"]["link_gbps"] == 20 and d["timing"]["hub_gbps"] == 40
n = 1 if sc == "single" else 3
assert len(d["per_gpu"]) == n
for g in d["per_gpu"]:
    cs = g["cycle_stack"]
    for k in ("no_primitive", "stall", "sync", "issue"):
        assert isinstance(cs[k], int) and cs[k] >= 0, k
    assert sum(cs.values()) == d["cycles"], "stack sums to the frame"
    assert 0 <= g["cycles_done"] <= d["cycles"]
    for u, v in g["utilisation"].items():
        assert 0.0 <= v <= 1.0, (u, v)
for l in d["links"]:
    assert l["prim_bytes"] + l["last_bytes"] == l["packet_bytes"]
    assert 0.0 <= l["utilisation"] <= 1.0 + 1e-9, l
# exchange overhead (docs/timing.md section 3): the critical GPU's wait on the exchange; 0 without one
xo = d["exchange_overhead_cycles"]
assert isinstance(xo, int) and 0 <= xo <= d["cycles"], ("exchange_overhead_cycles", xo)
waits = [g["exchange_wait_cycles"] for g in d["per_gpu"]]
last = max(range(n), key=lambda i: (d["per_gpu"][i]["cycles_done"], -i))
assert xo == waits[last], ("overhead is the last GPU's wait", xo, waits, last)
# the wait is raster-side starvation (NoPrimitive; the P2G's issue cycles are counted as Issue), never Stall or Sync
for i, g in enumerate(d["per_gpu"]):
    cs = g["cycle_stack"]
    assert g["exchange_wait_cycles"] <= cs["no_primitive"] + cs["issue"], ("wait beyond the GPU's starvation", i, g["exchange_wait_cycles"], cs)
if sc in ("single", "dup", "afr"):
    assert xo == 0 and all(w == 0 for w in waits), ("no exchange, no overhead", waits)
else:
    assert xo > 0, "an exchanging scheme waits on its exchange"
if n > 1:
    h = d["hub"]
    assert h["flits"] >= 0 and 0 <= h["busy_cycles"] <= d["cycles"] and 0.0 <= h["utilisation"] <= 1.0 + 1e-9, h
EOF
done
# the raster side the bottleneck (rasterizer at 0.2 quads/cycle, 10 batches): the exchange finishes long before the
# raster side needs the next list, so the exchange overhead (raster-side starvation caused by the exchange,
# docs/timing.md section 3) is a small share of the frame although the front end idles most of it
for sc in gpupd-ra gpupd-stream; do
  expect 0 "$SIM" render --scene tris --size 160x120 --prims 600 --scheme "$sc" --gpus 3 --topology hub \
    --link-latency-ns 200 --link-gbps 20 --hub-gbps 40 --batch 64 --tcfg rast_rate=0.2 --stats "$D/rb-$sc.json" -q
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); x=d['exchange_overhead_cycles']; c=d['cycles']; \
sys.exit(0 if 0 < x < 0.1 * c else 'raster-bound $sc: exchange overhead %d of %d cycles (want > 0 and < 10 %%)' % (x, c))" "$D/rb-$sc.json" \
    || fail "raster-bound exchange overhead (see $D/rb-$sc.json)"
done

# the same run twice: the same cycles
expect 0 "$SIM" render --scene tris --size 160x120 --prims 600 --scheme gpupd-ra --gpus 3 --topology hub \
  --link-latency-ns 200 --link-gbps 20 --hub-gbps 40 --stats "$D/again.json" -q
$PY -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a['cycles'] != b['cycles'])" \
  "$D/gpupd-ra.json" "$D/again.json" || fail "two identical runs gave different cycles"

# 2. untimed runs say so (the keys exist, with null); the --check-masks probes cost no simulated time
expect 0 "$SIM" render --scene tris --size 160x120 --prims 600 --scheme dup --gpus 2 --timing off --stats "$D/off.json" -q
$PY -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['timed'] is False and d['cycles'] is None and d['exchange_overhead_cycles'] is None; assert all(g['cycle_stack']['stall'] is None for g in d['per_gpu'])" \
  "$D/off.json" || fail "an untimed run must write cycles: null"
for sc in dup gpupd-ra; do
  expect 0 "$SIM" render --scene tris --size 160x120 --prims 600 --scheme $sc --gpus 3 --check-masks --stats "$D/cm.json" -q
  expect 0 "$SIM" render --scene tris --size 160x120 --prims 600 --scheme $sc --gpus 3 --no-check-masks --stats "$D/nocm.json" -q
  $PY -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a['mask_checks'] > 0 and a['cycles'] == b['cycles'], (a['cycles'], b['cycles'])" \
    "$D/cm.json" "$D/nocm.json" || fail "$sc: --check-masks changed the cycles"
done

# front-end width (--tcfg fe_rate=P: P P2G units merged in order): frames unchanged, skipping idle cycles gives the
# same cycles as stepping every one, P2G utilisation per unit stays <= 1, a wider front end never slows single
for fe in 1 4; do
  expect 0 "$SIM" render --scene big --size 192x128 --prims 3000 --scheme gpupd-ra --gpus 3 --topology hub --tcfg fe_rate=$fe \
    --stats "$D/fe$fe.json" -q
  expect 0 "$SIM" render --scene big --size 192x128 --prims 3000 --scheme gpupd-ra --gpus 3 --topology hub --tcfg fe_rate=$fe \
    --no-skip --stats "$D/fe${fe}ns.json" -q
  expect 0 "$SIM" render --scene big --size 192x128 --prims 3000 --scheme single --tcfg fe_rate=$fe --stats "$D/fe${fe}s.json" -q
done
$PY - "$D" <<'EOF2' || fail "fe_rate: see $D/fe*.json"
import json, sys
D = sys.argv[1]
j = lambda n: json.load(open(f"{D}/{n}.json"))
for fe in (1, 4):
    a, b = j(f"fe{fe}"), j(f"fe{fe}ns")
    assert a["cycles"] == b["cycles"] and a["frame_hash"] == b["frame_hash"], ("skip vs no-skip", fe, a["cycles"], b["cycles"])
    assert a["timing"]["params"]["fe_rate"] == fe
    assert all(0.0 <= g["utilisation"]["p2g"] <= 1.0 for g in a["per_gpu"]), [g["utilisation"]["p2g"] for g in a["per_gpu"]]
assert j("fe1")["frame_hash"] == j("fe4")["frame_hash"], "fe_rate changed the frame"
assert j("fe4s")["cycles"] <= j("fe1s")["cycles"], ("a 4-wide front end slowed single", j("fe4s")["cycles"], j("fe1s")["cycles"])
EOF2
n=$((n + 1))

# 3. bad timing options: exit 2 with a message naming the option
expect 2 "$SIM" render --scene tris --link-latency-ns 0
expect 2 "$SIM" render --scene tris --link-latency-ns abc
expect 2 "$SIM" render --scene tris --link-gbps -1
expect 2 "$SIM" render --scene tris --hub-gbps 0
expect 2 "$SIM" render --scene tris --timing maybe
expect 2 "$SIM" render --scene tris --tcfg nope=1
expect 2 "$SIM" render --scene tris --tcfg rop_rate=0
expect 2 "$SIM" render --scene tris --tcfg cores
expect 2 "$SIM" render --scene tris --tcfg fe_rate=9
expect 2 "$SIM" render --scene tris --tcfg fe_rate=0=1.5
expect 2 "$SIM" render --scene tris --tcfg cores
expect 2 "$SIM" render --scene tris --timeline-window 3
grep -q -- "--timeline-window" "$D/out.txt" || fail "error message does not name the option"

# 4. timeline CSV and its plot
expect 0 "$SIM" render --scene big --size 192x128 --prims 3000 --scheme gpupd-ra --gpus 2 --timeline "$D/tl.csv" --timeline-window 256 -q
head -1 "$D/tl.csv" | grep -qx "gpu,cycle,window,unit,busy" || fail "timeline header"
[ "$(wc -l < "$D/tl.csv")" -gt 24 ] || fail "timeline has no rows"
# --timeline without --timeline-window: the default window (1024 cycles), never an empty CSV
expect 0 "$SIM" render --scene big --size 192x128 --prims 3000 --scheme gpupd-ra --gpus 2 --timeline "$D/tl0.csv" -q
[ "$(wc -l < "$D/tl0.csv")" -gt 1 ] || fail "--timeline without --timeline-window wrote no rows"
awk -F, 'NR > 1 && $3 != 1024 { bad = 1 } END { exit bad }' "$D/tl0.csv" || fail "default timeline window is not 1024 cycles"
if $PY -c "import matplotlib" 2>/dev/null; then
  $PY scripts/plot_timeline.py "$D/tl.csv" "$D/tl" --gpus 0,1 >/dev/null
  [ -s "$D/tl.png" ] || fail "plot_timeline wrote no PNG"
  n=$((n + 1))
fi

# 5. docs/timing.md carries exactly the generated parameter table
"$SIM" timing-config > "$D/table.md"
awk '/<!-- timing-config begin -->/{f=1;next} /<!-- timing-config end -->/{f=0} f' docs/timing.md > "$D/doc_table.md"
diff -u "$D/table.md" "$D/doc_table.md" > "$D/table.diff" || {
  cat "$D/table.diff"; fail "docs/timing.md parameter table differs from 'gpupd-sim timing-config' (regenerate it)"; }
n=$((n + 1))
echo "test-timing-cli: $n passed, 0 failed"
