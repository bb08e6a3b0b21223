#!/usr/bin/env bash
# OSU 0.18 um synthesis + OpenSTA of the stream PE (rtl/sx_pe.v) with its receive-FIFO storage as a macro
# (docs/sx.md section 6). Called by mk/sx.mk (make synth-sx); usable by hand from the repository root.
#
#   sx_synth.sh osu OUTDIR MAX_GPUS K DEPTH FILE...   Yosys: sx_pe flattened, rtl/sx_fifo_ram.v replaced by the
#                                                     macro stand-in of scripts/sx_ram_lib.py, OSU cells
#   sx_synth.sh sta OUTDIR                            OpenSTA on OUTDIR/osu.v (+ the paths through the macro)
#
# The flow is scripts/synth_flow.sh osu/sta (same abc delay target = SDC period, same checks), with one black-box
# Liberty cell for the FIFO array: the standard-cell area and Fmax are the logic's; the macro is listed by size
# (OUTDIR/macro.txt) and its read/setup time is 0 in the model (SX_RAM_TREAD, SX_RAM_TSETUP ns), so the slack of
# the paths through it is what a real macro may take. Env: YOSYS, STA, PYTHON, NICE, LIB, CONSTR, SDC.
set -euo pipefail

YOSYS=${YOSYS:-yosys}
STA=${STA:-sta}
PYTHON=${PYTHON:-/usr/bin/python3}
NICE=${NICE:-nice}
HERE=$(dirname "$0")

die() { echo "sx_synth: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: see the header of $0"
step=$1 out=$2
mkdir -p "$out"
cmdlog=$out/$step.cmd
: >"$cmdlog"
SYNTH_TAG=sx_synth
. "$HERE/synth_lib.sh"

case $step in
osu)
  mg=$3 k=$4 depth=$5; shift 5
  : "${SDC:?} ${CONSTR:?} ${LIB:?}"
  per=$(sed -n 's/.*create_clock.*-period[[:space:]]*\([0-9.][0-9.]*\).*/\1/p' "$SDC" | head -1)
  [ -n "$per" ] || die "no 'create_clock ... -period P' in $SDC"
  dps=$(awk -v p="$per" 'BEGIN { printf "%d", p * 1000 }')
  run "$out/ramlib.log" "$PYTHON" "$HERE/sx_ram_lib.py" "$out" "$mg" "$k" "$depth" \
    --tread "${SX_RAM_TREAD:-0}" --tsetup "${SX_RAM_TSETUP:-0}"
  srcs="" incs=""
  for f in "$@"; do
    case $f in
      *.vh) incs+=" -I$(dirname "$f")";;
      rtl/sx_fifo_ram.v|*/rtl/sx_fifo_ram.v) ;;   # replaced by the macro stand-in
      *) srcs+=" $f";;
    esac
  done
  NO_LATCH='select -assert-none t:*DLATCH* t:*dlatch* t:*_SR_* t:*LATCH*;'
  run "$out/osu.log" "$YOSYS" -p "read_liberty -lib $LIB; read_liberty -lib $out/sx_ram.lib; read_verilog -defer$incs$srcs $out/sx_fifo_ram_macro.v; chparam -set MAX_GPUS $mg -set K $k -set DEPTH $depth sx_pe; hierarchy -check -top sx_pe; synth -flatten -top sx_pe; dfflibmap -liberty $LIB; abc -liberty $LIB -constr $CONSTR -D $dps; opt_clean -purge; setundef -zero; splitnets; opt_clean -purge; autoname; check -assert; $NO_LATCH tee -o $out/osu.stat stat -liberty $LIB; write_verilog -noattr -noexpr $out/osu.v"
  split_osu_assigns "$out/osu.v"
  # what split_osu_assigns leaves (lists of different lengths, e.g. { f[63], f[53:52] } = { 1'h0, f[54], f[54] }
  # for the constant and duplicated flit bits): expand every item to bits, then one assign per bit
  "$PYTHON" - "$out/osu.v" <<'PY'
import re, sys
p = sys.argv[1]
def bits(item):
    m = re.match(r"^(\\?\S+?)\s*\[(\d+):(\d+)\]$", item)
    if m:
        hi, lo = int(m.group(2)), int(m.group(3))
        return [f"{m.group(1)}[{i}]" for i in range(hi, lo - 1, -1)]
    m = re.match(r"^(\d+)'h([0-9a-fA-F]+)$", item)
    if m:
        n, v = int(m.group(1)), int(m.group(2), 16)
        return [f"1'h{(v >> i) & 1}" for i in range(n - 1, -1, -1)]
    return [item]
out = []
for line in open(p).read().split("\n"):
    m = re.match(r"^(\s*)assign \{ (.*) \} = \{ (.*) \};$", line)
    if m:
        lhs = [b for x in m.group(2).split(",") for b in bits(x.strip())]
        rhs = [b for x in m.group(3).split(",") for b in bits(x.strip())]
        if len(lhs) != len(rhs):
            sys.exit(f"sx_synth: cannot split {line.strip()}")
        out += [f"{m.group(1)}assign {l} = {r};" for l, r in zip(lhs, rhs)]
        continue
    out.append(line)
open(p, "w").write("\n".join(out))
PY
  ;;
sta)
  : "${SDC:?} ${LIB:?}"
  [ -s "$out/osu.v" ] || die "$out/osu.v missing (run the osu step first)"
  run "$out/sta.log" env STA_LIB="$LIB" STA_EXTRA_LIB="$out/sx_ram.lib" STA_NETLIST="$out/osu.v" STA_TOP=sx_pe \
    STA_SDC="$SDC" STA_MACRO_PATHS=1 "$STA" -no_splash -exit "$HERE/synth_sta.tcl"
  grep -q '^SYNTH_STA worst_slack_max ' "$out/sta.log" || { tail -20 "$out/sta.log" >&2; die "sta gave no worst slack"; }
  if grep -q '^Error' "$out/sta.log"; then grep '^Error' "$out/sta.log" >&2; die "sta reported errors"; fi
  ;;
*) die "unknown step '$step'";;
esac
