#!/usr/bin/env bash
# Sequential equivalence of two versions of the stream PE (rtl/sx_pe.v): every register and every output of the
# new RTL equals the old one's in every cycle, from any state in which the two agree (Yosys equiv_make +
# equiv_simple + equiv_induct, the FIFO array mapped to registers). Used for the behaviour-preserving rewrites
# of the RTL (docs/sx.md section 6: the timing work). Registers are matched by name, so a rewrite keeps the
# names of its registers; internal wires are compared only through the registers and outputs they feed (their
# names are hidden before the match).
#
#   tests/formal/sx_equiv.sh OUTDIR [OLD [NEW]]
#     OLD  the reference: a file, or a git revision (its rtl/sx_pe.v); default: the last commit (HEAD)
#     NEW  the RTL under test; default: rtl/sx_pe.v of the work tree
# Environment: SX_EQ_CONFIGS (MAX_GPUS:K:DEPTH list, default "3:1:2 4:2:3 5:3:4"), SX_EQ_SEQ (induction length,
# default 4), YOSYS. Prints one line per configuration; exit 1 on the first one that is not proved, with the
# unproved signals (OUTDIR/<cfg>.log) and the command to reproduce it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
YOSYS=${YOSYS:-yosys}
out=${1:?usage: sx_equiv.sh OUTDIR [OLD [NEW]]}
old=${2:-HEAD}
new=${3:-$ROOT/rtl/sx_pe.v}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -f "$old" ]; then cp "$old" "$out/old_sx_pe.v"; else git -C "$ROOT" show "$old:rtl/sx_pe.v" >"$out/old_sx_pe.v"; fi
cp "$new" "$out/new_sx_pe.v"
inc=$ROOT/build/gen
[ -f "$inc/gpupd_flit.vh" ] || { echo "sx_equiv: $inc/gpupd_flit.vh missing (make rtl-headers)"; exit 1; }

# one design: elaborated at the configuration, flattened, the array as registers, asynchronous resets as
# synchronous ones (equiv_induct steps a clock), every wire that is neither a port nor a register output hidden
prep() {   # FILE NAME MG K DEPTH
  echo "read_verilog -I$inc $1 $ROOT/rtl/sx_fifo_ram.v; \
hierarchy -check -top sx_pe -chparam MAX_GPUS $3 -chparam K $4 -chparam DEPTH $5; proc; flatten; \
memory -nomap; memory_map; opt_clean; \
select -set keepw x:* t:\$dff t:\$adff %u %co:+[Q] %u; rename -hide w:* @keepw %d; opt_clean; async2sync; \
rename sx_pe $2; design -stash $2;"
}

for cfg in ${SX_EQ_CONFIGS:-3:1:2 4:2:3 5:3:4}; do
  IFS=: read -r mg k dp <<<"$cfg"
  tag="$mg-$k-$dp"
  log=$out/$tag.log
  script="$(prep "$out/old_sx_pe.v" gold "$mg" "$k" "$dp") $(prep "$out/new_sx_pe.v" gate "$mg" "$k" "$dp") \
design -copy-from gold -as gold gold; design -copy-from gate -as gate gate; \
equiv_make gold gate equiv; hierarchy -top equiv; \
equiv_simple -seq ${SX_EQ_SEQ:-4}; equiv_induct -seq ${SX_EQ_SEQ:-4}; equiv_status -assert"
  t0=$(date +%s)
  if "$YOSYS" -q -l "$log" -p "$script" >/dev/null 2>&1; then
    n=$(grep -o 'Found [0-9]* \$equiv cells' "$log" | tail -1 | grep -o '[0-9]*' || true)
    echo "sx_equiv: $cfg (MAX_GPUS:K:DEPTH) equivalent: ${n:-?} \$equiv cells proved ($(( $(date +%s) - t0 )) s)"
  else
    echo "sx_equiv: FAIL at $cfg: not proved equivalent ($log):"
    grep -E 'Unproven|unproven|ERROR' "$log" | head -20 || tail -20 "$log"
    echo "reproduce: SX_EQ_CONFIGS=$cfg tests/formal/sx_equiv.sh $out $old $new"
    exit 1
  fi
done
