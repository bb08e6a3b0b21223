#!/bin/bash
# Gate-level equivalence of the datapath functions of rtl/simt_fp_fn.vh, at every width the SIMT lane datapaths
# call them with, against
#   - the reference modules (the same gates written as generate trees): `SIMT_FN_CSA / `SIMT_FN_CSA2 against
#     tests/formal/ref/simt_fp_mul_csa.v, `SIMT_FN_LZC against tests/formal/ref/simt_fp_lzc.v (reference models
#     only: no build uses them), `SIMT_FN_KADD / `SIMT_FN_KADD2 against rtl/simt_fp_kadd.v;
#   - with a git revision as argument, also the same function of rtl/simt_fp_fn.vh at that revision.
# The method is scripts/rtl_equiv_lib.sh's: Yosys elaborates both sides, maps them to single-bit gates and merges
# them in one miter; SAT proves the miter's assertion ("identical gates" when the miter collapses to one cell).
# usage: scripts/simt_fn_equiv.sh [GIT-REV]
set -euo pipefail
REV=${1:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REF=$ROOT/tests/formal/ref
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
rc=0
cp "$ROOT/rtl/simt_fp_fn.vh" "$T/new.vh"
if [ -n "$REV" ]; then
  REV=$(git -C "$ROOT" rev-parse --short "$REV")
  # the old macros renamed SIMT_OLD_FN_*, so that both versions can be expanded in one file
  git -C "$ROOT" show "$REV:rtl/simt_fp_fn.vh" | sed 's/SIMT_FN_/SIMT_OLD_FN_/g; s/SIMT_FP_FN_VH/SIMT_OLD_FP_FN_VH/g; s/SIMT_STAGE/SIMT_OLD_STAGE/g' > "$T/old.vh"
fi

# prove LABEL PORTS GOLD_BODY GATE_BODY [FILES...]: gold/gate modules with port list PORTS; prints the verdict
prove() {
  local label=$1 ports=$2 gold=$3 gate=$4 log cells; shift 4
  log="$T/yosys-${label//[^A-Za-z0-9]/_}.log"
  { printf '`include "new.vh"\n'; if [ -f "$T/old.vh" ]; then printf '`include "old.vh"\n'; fi
    printf 'module gold(%s);\n%s\nendmodule\nmodule gate(%s);\n%s\nendmodule\n' "$ports" "$gold" "$ports" "$gate"; } > "$T/wrap.v"
  (cd "$T" && yosys -p "read_verilog -I. $* wrap.v; hierarchy -check; proc; flatten; opt_clean; techmap; opt -full;
      miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter; opt -full; stat;
      sat -verify -prove-asserts miter" > "$log" 2>&1) || true
  cells=$(grep -E "Number of cells" "$log" | tail -1 | awk '{print $4}')
  if grep -q "SUCCESS" "$log"; then
    echo "simt_fn_equiv: $label: equivalent (miter cells after merging: $cells$([ "$cells" = 1 ] && echo ', identical gates'))"
  else
    echo "simt_fn_equiv: $label: NOT proven equivalent"; tail -20 "$log"; rc=1
  fi
}

# the function F of macro M (new, or OLD_ for the revision) as a module body: out = F(args)
fnbody() { printf '  `%s(f, %s)\n  assign %s = f(%s);\n' "$1" "$2" "$3" "$4"; }

# carry-save multiplier halves: WA WB W XS (simt_fp_mul; simt_sfu_reduce, CSA2; simt_sfu_quad x3; simt_lane imul)
for p in "24 24 48 0" "64 24 88 0" "23 23 46 0" "34 23 57 1" "28 23 51 1" "32 16 33 0" "16 16 17 0"; do
  set -- $p
  m=SIMT_FN_CSA; [ "$3" -gt 64 ] && m=SIMT_FN_CSA2
  ports="input wire [$1-1:0] x, input wire [$2-1:0] y, output wire [$3-1:0] s, output wire [$3-1:0] c"
  gate=$(fnbody $m "$1, $2, $3, $4" "{c, s}" "x, y")
  prove "$m($1, $2, $3, $4) vs simt_fp_mul_csa" "$ports" \
    "  simt_fp_mul_csa #(.WA($1), .WB($2), .W($3), .XS($4)) u (.x_i(x), .y_i(y), .sum_o(s), .carry_o(c));" "$gate" "$REF/simt_fp_mul_csa.v"
  if [ -n "$REV" ]; then prove "$m($1, $2, $3, $4) vs $REV" "$ports" "$(fnbody ${m/SIMT_/SIMT_OLD_} "$1, $2, $3, $4" "{c, s}" "x, y")" "$gate"; fi
done
# prefix adders: W (simt_fp_add/cvt/mul/sfu/sfu_pack/sfu_quad; simt_sfu_reduce, KADD2)
for W in 24 28 32 36 40 46 48 51 57 88; do
  m=SIMT_FN_KADD; [ "$W" -ge 64 ] && m=SIMT_FN_KADD2
  ports="input wire [$W-1:0] a, input wire [$W-1:0] b, input wire ci, output wire [$W-1:0] s, output wire co"
  gate=$(fnbody $m "$W" "{co, s}" "a, b, ci")
  prove "$m($W) vs simt_fp_kadd" "$ports" "  simt_fp_kadd #(.W($W)) u (.a_i(a), .b_i(b), .ci_i(ci), .s_o(s), .co_o(co));" "$gate" "$ROOT/rtl/simt_fp_kadd.v"
  if [ -n "$REV" ]; then prove "$m($W) vs $REV" "$ports" "$(fnbody ${m/SIMT_/SIMT_OLD_} "$W" "{co, s}" "a, b, ci")" "$gate"; fi
done
# leading-zero counts: W CW (simt_fp_add, simt_fp_cvt, simt_sfu_pack)
for p in "28 5" "32 6" "40 6"; do
  set -- $p
  ports="input wire [$1-1:0] x, output wire [$2-1:0] n"
  gate=$(fnbody SIMT_FN_LZC "$1, $2" n x)
  prove "SIMT_FN_LZC($1, $2) vs simt_fp_lzc" "$ports" "  simt_fp_lzc #(.W($1), .CW($2)) u (.x_i(x), .n_o(n));" "$gate" "$REF/simt_fp_lzc.v"
  if [ -n "$REV" ]; then prove "SIMT_FN_LZC($1, $2) vs $REV" "$ports" "$(fnbody SIMT_OLD_FN_LZC "$1, $2" n x)" "$gate"; fi
done
[ $rc = 0 ] && echo "simt_fn_equiv: every function equivalent to its reference$([ -n "$REV" ] && echo " and to its version at $REV")"
exit $rc
