#!/bin/bash
# Gate-level equivalence of the simulation-speed rewrite of rtl/simt_fp_kadd.v (the prefix adder with g and p kept
# in 64-bit chunks when W + 1 > 64: the SFU's 88-bit adder; docs/simt.md section 6, "Lockstep speed") against an
# earlier version of the file, at W = 88 (the width in use), 64 and 130 (one and two chunk boundaries).
# Both versions are elaborated by Yosys, mapped to single-bit gates (techmap) and merged (opt -full) in one miter;
# SAT then proves the miter's assertion. When the two versions build the same gates, opt_merge collapses the miter
# to a constant (the log says "Number of cells: 1"): synthesis sees the same netlist.
# usage: scripts/simt_speed_equiv.sh [GIT-REV]   (default 1ec6346: before the rewrite)
set -euo pipefail
REV=${1:-1ec6346}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
rc=0
check() {   # $1 name, $2 log
  local cells
  cells=$(grep -E "Number of cells" "$2" | tail -1 | awk '{print $4}')
  if grep -q "SUCCESS" "$2"; then
    echo "simt_speed_equiv: $1: equivalent to $REV (miter cells after merging: $cells$([ "$cells" = 1 ] && echo ', identical gates'))"
  else
    echo "simt_speed_equiv: $1: NOT proven equivalent to $REV"; tail -20 "$2"; rc=1
  fi
}
git -C "$ROOT" show "$REV:rtl/simt_fp_kadd.v" | sed 's/module simt_fp_kadd/module kadd_old/' > "$T/kold.v"
sed 's/module simt_fp_kadd/module kadd_new/' "$ROOT/rtl/simt_fp_kadd.v" > "$T/knew.v"
for W in 88 64 130; do
  cat > "$T/kwrap.v" <<EOT
module gold(input wire [$W-1:0] a, input wire [$W-1:0] b, input wire c, output wire [$W-1:0] s, output wire co);
  kadd_old #(.W($W)) u (.a_i(a), .b_i(b), .ci_i(c), .s_o(s), .co_o(co));
endmodule
module gate(input wire [$W-1:0] a, input wire [$W-1:0] b, input wire c, output wire [$W-1:0] s, output wire co);
  kadd_new #(.W($W)) u (.a_i(a), .b_i(b), .ci_i(c), .s_o(s), .co_o(co));
endmodule
EOT
  (cd "$T" && yosys -p "read_verilog kold.v knew.v kwrap.v; hierarchy -check; proc; flatten; opt_clean; techmap; opt -full;
      miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter; opt -full; stat;
      sat -verify -prove-asserts miter" > "kadd-$W.log" 2>&1) || true
  check "simt_fp_kadd W=$W" "$T/kadd-$W.log"
done
exit $rc
