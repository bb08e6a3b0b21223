#!/bin/bash
# Sequential equivalence of rtl/simt_warp.v against GIT-REV's warp at TIMING_REGS 1 and 0 (GIT-REV's
# rtl/simt_warp.v, or for 0 its rtl/simt_warp_area.v where GIT-REV has one: the two warps the session-6 merge
# replaced), at STACK_DEPTH/SB_WORDS 4/16 (the iCE40 configuration) and 32/64 (the default). Unlike scripts/rtl_equiv_lib.sh (a combinational miter
# of identical gates) this handles state: both versions are flattened, their memories mapped to registers, the
# asynchronous resets made synchronous (async2sync, the same in both), the registers matched by name (a register
# g_tr.X of one version renamed X where the other has X at module level) and Yosys equiv_simple + equiv_induct prove by induction that
# every matched signal, outputs and next states included, is equal in both whenever the matched registers are
# (i.e. from the same reset/launch; not from different power-up contents). Registers present in only one version
# cannot be matched: such a change (e.g. a register copy removed) is not provable this way. docs/simt.md section 6.
# usage: scripts/simt_warp_equiv.sh [GIT-REV [TIMING_REGS values]]   (default d4fb7c5, main before the merge; "1 0")
set -euo pipefail
REV=${1:-d4fb7c5}
TRS=${2:-1 0}
SIZES=${SIZES:-4/16 32/64}   # STACK_DEPTH/SB_WORDS pairs
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=${GEN:-$ROOT/build/gen}
[ -f "$GEN/isa_defs.vh" ] || { echo "simt_warp_equiv: $GEN/isa_defs.vh missing (make $GEN/isa_defs.vh)"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
rc=0
git -C "$ROOT" show "$REV:rtl/simt_warp.v" | sed 's/module simt_warp\b/module simt_warp_old/' > "$T/old1.v"
if git -C "$ROOT" cat-file -e "$REV:rtl/simt_warp_area.v" 2>/dev/null; then
  git -C "$ROOT" show "$REV:rtl/simt_warp_area.v" | sed 's/module simt_warp_area\b/module simt_warp_old/' > "$T/old0.v"
  old0=simt_warp_area.v; op0=""
else
  cp "$T/old1.v" "$T/old0.v"; old0="simt_warp.v TIMING_REGS=0"; op0="-set TIMING_REGS 0"
fi
sed 's/module simt_warp\b/module simt_warp_new/' "$ROOT/rtl/simt_warp.v" > "$T/new.v"
cp "$ROOT/rtl/simt_decode.v" "$T/"
for tr in $TRS; do
  for p in $SIZES; do
    set -- ${p/\// }
    log="$T/yosys-$tr-$1-$2.log"
    # stage 1: both versions flattened, memories as registers; the names of their wires
    (cd "$T" && yosys -q -p "read_verilog -I$GEN old$tr.v new.v simt_decode.v;
        chparam -set STACK_DEPTH $1 -set SB_WORDS $2 $([ $tr = 0 ] && echo "$op0") simt_warp_old;
        chparam -set STACK_DEPTH $1 -set SB_WORDS $2 -set TIMING_REGS $tr simt_warp_new;
        hierarchy -check; proc; flatten; opt_clean; memory -nomap; memory_map; opt_clean; async2sync; opt -fast;
        write_rtlil stage1.il; tee -q -o wires.txt select -list w:*" > /dev/null 2>&1)
    # a register g_tr.X of one version is renamed X where the other version has X and no g_tr.X
    ren=$(awk -F/ '{w[$1 SUBSEP $2]=1; m[$1]=1} END {o["simt_warp_old"]="simt_warp_new"; o["simt_warp_new"]="simt_warp_old";
        for (k in m) { printf "cd %s; ", k; for (p in w) { split(p, a, SUBSEP); x=a[2]; y=substr(x, 6);
          if (a[1] == k && x ~ /^g_tr\.[A-Za-z0-9_]*_q$/ && ((o[k] SUBSEP y) in w) && !((o[k] SUBSEP x) in w))
            printf "rename %s %s; ", x, y }; printf "cd ..; " } }' "$T/wires.txt")
    (cd "$T" && yosys -l "$log" -p "read_rtlil stage1.il; $ren
        equiv_make simt_warp_old simt_warp_new equiv; hierarchy -top equiv; equiv_simple; equiv_induct;
        equiv_status -assert" > /dev/null 2>&1) || true
    res=$(grep -E "Of those cells" "$log" | tail -1 | sed 's/^ *//')
    if grep -q "Equivalence successfully proven" "$log"; then
      echo "simt_warp_equiv: TIMING_REGS=$tr STACK_DEPTH=$1 SB_WORDS=$2: equivalent to $REV's $([ $tr = 1 ] && echo simt_warp.v || echo "$old0") ($res)"
    else
      echo "simt_warp_equiv: TIMING_REGS=$tr STACK_DEPTH=$1 SB_WORDS=$2: NOT proven equivalent to $REV ($res)"
      grep -E "Unproven|ERROR" "$log" | head -5; rc=1
    fi
  done
done
exit $rc
