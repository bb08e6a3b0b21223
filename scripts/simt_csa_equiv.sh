#!/bin/bash
# Gate-level equivalence of rtl/simt_fp_mul_csa.v against an earlier version of the same file, for every
# parameter set the SIMT lane datapaths use (simt_fp_mul, simt_sfu_reduce, simt_sfu_quad). Both versions are
# elaborated by Yosys, mapped to single-bit gates (techmap) and merged (opt -full) in one miter; SAT then proves
# the miter's assertion. When the two versions build the same gates, opt_merge collapses the miter to a
# constant (the log says "Number of cells: 1"): synthesis sees the same netlist.
# usage: scripts/simt_csa_equiv.sh [GIT-REV]   (default e59b141: the level-by-level loop version)
set -euo pipefail
REV=${1:-e59b141}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
git -C "$ROOT" show "$REV:rtl/simt_fp_mul_csa.v" | sed 's/module simt_fp_mul_csa/module csa_old/' > "$T/old.v"
sed 's/module simt_fp_mul_csa/module csa_new/' "$ROOT/rtl/simt_fp_mul_csa.v" > "$T/new.v"
rc=0
for p in "24 24 48 0" "64 24 88 0" "23 23 46 0" "34 23 57 1" "28 23 51 1"; do
  set -- $p
  cat > "$T/wrap.v" <<EOF
module gold(input wire [$1-1:0] x, input wire [$2-1:0] y, output wire [$3-1:0] s, output wire [$3-1:0] c);
  csa_old #(.WA($1), .WB($2), .W($3), .XS($4)) u (.x_i(x), .y_i(y), .sum_o(s), .carry_o(c));
endmodule
module gate(input wire [$1-1:0] x, input wire [$2-1:0] y, output wire [$3-1:0] s, output wire [$3-1:0] c);
  csa_new #(.WA($1), .WB($2), .W($3), .XS($4)) u (.x_i(x), .y_i(y), .sum_o(s), .carry_o(c));
endmodule
EOF
  (cd "$T" && yosys -p "read_verilog old.v new.v wrap.v; hierarchy -check; proc; flatten; opt_clean; techmap; opt -full;
      miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter; opt -full; stat;
      sat -verify -prove-asserts miter" > "yosys-$1-$2-$3.log" 2>&1) || true
  cells=$(grep -E "Number of cells" "$T/yosys-$1-$2-$3.log" | tail -1 | awk '{print $4}')
  if grep -q "SUCCESS" "$T/yosys-$1-$2-$3.log"; then
    echo "simt_csa_equiv: WA=$1 WB=$2 W=$3 XS=$4: equivalent to $REV (miter cells after merging: $cells$([ "$cells" = 1 ] && echo ', identical gates'))"
  else
    echo "simt_csa_equiv: WA=$1 WB=$2 W=$3 XS=$4: NOT proven equivalent to $REV"; tail -20 "$T/yosys-$1-$2-$3.log"; rc=1
  fi
done
exit $rc
