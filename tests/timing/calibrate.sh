#!/bin/bash
# The paper's validation point (section 5): "our two-GPU SFR model reduces single-frame latency by 60.4 % on
# geomean", read as a 2-GPU speedup of 1.604x (docs/timing.md explains the reading). Prints, per bundled trace
# (frame 0), single and 2-GPU dup cycles, the speedup and the geomean, as a Markdown table.
# usage: tests/timing/calibrate.sh build/bin/gpupd-sim OUTDIR [TRACES...]
set -euo pipefail
SIM=$1
D=$2
shift 2
mkdir -p "$D"
TR=("$@")
[ ${#TR[@]} -gt 0 ] || TR=(traces/*.gpt)
PY=/usr/bin/python3
for t in "${TR[@]}"; do
  b=$(basename "$t" .gpt)
  # frame 0 of every trace (the paper evaluates single frames)
  "$SIM" render --trace "$t" --scheme single --stats "$D/$b-single.json" -q > /dev/null
  "$SIM" render --trace "$t" --scheme dup --gpus 2 --stats "$D/$b-dup.json" -q > /dev/null
done
$PY - "$D" "${TR[@]}" <<'EOF'
import json, math, os, sys
d = sys.argv[1]
rows = []
print("| trace | single cycles | dup 2 GPUs cycles | speedup | latency reduction |")
print("|---|---|---|---|---|")
for t in sys.argv[2:]:
    b = os.path.basename(t)[:-4]
    s = json.load(open(os.path.join(d, b + "-single.json")))["cycles"]
    u = json.load(open(os.path.join(d, b + "-dup.json")))["cycles"]
    rows.append(s / u)
    print("| %s | %d | %d | %.3fx | %.1f %% |" % (b, s, u, s / u, 100 * (1 - u / s)))
g = math.exp(sum(math.log(x) for x in rows) / len(rows))
print("| **geomean** | | | **%.3fx** | %.1f %% |" % (g, 100 * (1 - 1 / g)))
print("\npaper (section 5): 2-GPU SFR, 60.4 % on geomean, read as a speedup of 1.604x (latency -37.7 %)")
EOF
