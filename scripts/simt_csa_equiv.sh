#!/bin/bash
# Gate-level equivalence of the reference carry-save tree tests/formal/ref/simt_fp_mul_csa.v (rtl/ before it
# became a reference model of scripts/simt_fn_equiv.sh) against an earlier version of the same file, for every
# parameter set the SIMT lane datapaths use (simt_fp_mul, simt_sfu_reduce, simt_sfu_quad); the method is
# scripts/rtl_equiv_lib.sh's (Yosys miter + SAT; "identical gates" when the miter collapses to one cell).
# usage: scripts/simt_csa_equiv.sh [GIT-REV]   (default e59b141: the level-by-level loop version)
set -euo pipefail
REV=${1:-e59b141}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
rc=0
. "$ROOT/scripts/rtl_equiv_lib.sh"
equiv_fetch simt_fp_mul_csa rtl/simt_fp_mul_csa.v tests/formal/ref/simt_fp_mul_csa.v
for p in "24 24 48 0" "64 24 88 0" "23 23 46 0" "34 23 57 1" "28 23 51 1"; do
  set -- $p
  equiv_prove simt_csa_equiv "WA=$1 WB=$2 W=$3 XS=$4" simt_fp_mul_csa \
    "input wire [$1-1:0] x, input wire [$2-1:0] y, output wire [$3-1:0] s, output wire [$3-1:0] c" \
    "#(.WA($1), .WB($2), .W($3), .XS($4)) u (.x_i(x), .y_i(y), .sum_o(s), .carry_o(c));"
done
exit $rc
