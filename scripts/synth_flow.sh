#!/usr/bin/env bash
# One step of the synthesis flows of docs/synthesis.md, for one unit and one parameter set.
# Called by mk/synth.mk; usable by hand (from the repository root).
#
#   synth_flow.sh generic OUTDIR TOP PARAMS FILE...   Yosys generic synth + check -assert + no-latch assertion
#   synth_flow.sh osu     OUTDIR TOP PARAMS FILE...   Yosys -> OSU 0.18 um cells (needs SDC= CONSTR= LIB=)
#   synth_flow.sh sta     OUTDIR TOP                  OpenSTA on OUTDIR/osu.v (needs SDC= LIB=)
#   synth_flow.sh ice40   OUTDIR TOP PARAMS FILE...   wrapper generation + synth_ice40 -> OUTDIR/ice40.json
#                                                     (WRAP_DROP="pat ...": outputs the wrapper leaves open;
#                                                     WRAP_SHARE="p,q,... ...": inputs driven from one field;
#                                                     ICE40_SYNTH_OPTS="...": extra synth_ice40 options, e.g. -abc9)
#   synth_flow.sh pnr     OUTDIR SEED                 nextpnr-ice40 (needs ICE40_DEVICE= ICE40_PACKAGE= ICE40_FREQ=)
#
# PARAMS is NAME=VALUE[:NAME=VALUE...] or "default" (the RTL's own defaults).
# Commands are recorded per step in OUTDIR/<step>.cmd (pnr: pnr-seed<SEED>.cmd), relative to the repository.
# Tools: YOSYS, STA, NEXTPNR, PYTHON (defaults yosys, sta, nextpnr-ice40, /usr/bin/python3); NICE (default nice).
set -euo pipefail

YOSYS=${YOSYS:-yosys}
STA=${STA:-sta}
NEXTPNR=${NEXTPNR:-nextpnr-ice40}
PYTHON=${PYTHON:-/usr/bin/python3}
NICE=${NICE:-nice}
HERE=$(dirname "$0")

die() { echo "synth_flow: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: see the header of $0"
step=$1 out=$2
mkdir -p "$out"
if [ "$step" = pnr ]; then cmdlog=$out/pnr-seed$3.cmd; else cmdlog=$out/$step.cmd; fi
: >"$cmdlog"

SYNTH_TAG=synth_flow
# run LOGFILE CMD... (record, run, report a failure): scripts/synth_lib.sh
. "$HERE/synth_lib.sh"

# Include files among FILE... (*.vh, e.g. the generated build/gen/gpupd_flit.vh) are not read: their folders
# become -I include paths (listing them as files keeps them make prerequisites).
split_inc() { # files... -> sets SRCS and INCS
  SRCS=""; INCS=""
  local f
  for f in "$@"; do
    case $f in *.vh) INCS+=" -I$(dirname "$f")";; *) SRCS+=" $f";; esac
  done
}

# Yosys front end for TOP with PARAMS: read everything deferred, set parameters on the top, elaborate.
front_end() { # top params files...
  local top=$1 params=$2; shift 2
  split_inc "$@"
  local s="read_verilog -defer$INCS $SRCS;"
  if [ "$params" != default ]; then
    s+=" chparam"
    local kv
    for kv in ${params//:/ }; do s+=" -set ${kv%%=*} ${kv#*=}"; done
    s+=" $top;"
  fi
  printf '%s hierarchy -check -top %s;' "$s" "$top"
}

# Assert no latch of any flavour and no SR flip-flop survived synthesis (check -assert does not cover latches).
NO_LATCH='select -assert-none t:*DLATCH* t:*dlatch* t:*_SR_* t:*LATCH*;'

case $step in
generic)
  top=$3 params=$4; shift 4
  run "$out/generic.log" "$YOSYS" -p "$(front_end "$top" "$params" "$@") synth -flatten -top $top; check -assert; $NO_LATCH tee -o $out/generic.stat stat; tee -q -o $out/generic.stat.json stat -json"
  ;;
osu)
  top=$3 params=$4; shift 4
  : "${SDC:?} ${CONSTR:?} ${LIB:?}"
  # abc delay target (ps) = the SDC clock period (ns) * 1000
  per=$(sed -n 's/.*create_clock.*-period[[:space:]]*\([0-9.][0-9.]*\).*/\1/p' "$SDC" | head -1)
  [ -n "$per" ] || die "no 'create_clock ... -period P' in $SDC"
  dps=$(awk -v p="$per" 'BEGIN { printf "%d", p * 1000 }')
  run "$out/osu.log" "$YOSYS" -p "read_liberty -lib $LIB; $(front_end "$top" "$params" "$@") synth -flatten -top $top; dfflibmap -liberty $LIB; abc -liberty $LIB -constr $CONSTR -D $dps; opt_clean -purge; setundef -zero; splitnets; opt_clean -purge; autoname; check -assert; $NO_LATCH tee -o $out/osu.stat stat -liberty $LIB; write_verilog -noattr -noexpr $out/osu.v"
  # (splitnets above leaves one-bit nets only, which removes most such assigns, including those whose two sides
  # are lists of different lengths, e.g. { a[3:2], b[1:0] } = { 2'h0, x, y }.) The rest: one assign per bit
  # (OpenSTA 2019 cannot parse a concatenation on the left of an assign, e.g. the always-zero top bit of a flit).
  split_osu_assigns "$out/osu.v"
  ;;
sta)
  top=$3
  : "${SDC:?} ${LIB:?}"
  [ -s "$out/osu.v" ] || die "$out/osu.v missing (run the osu step first)"
  run "$out/sta.log" env STA_LIB="$LIB" STA_NETLIST="$out/osu.v" STA_TOP="$top" STA_SDC="$SDC" \
    "$STA" -no_splash -exit "$HERE/synth_sta.tcl"
  grep -q '^SYNTH_STA worst_slack_max ' "$out/sta.log" || { tail -20 "$out/sta.log" >&2; die "sta gave no worst slack"; }
  if grep -q '^Error' "$out/sta.log"; then grep '^Error' "$out/sta.log" >&2; die "sta reported errors"; fi
  ;;
ice40)
  top=$3 params=$4; shift 4
  # 1. port list of the elaborated top, 2. I/O wrapper, 3. synth_ice40 of the wrapper (DUT flattened inside).
  run "$out/ports.log" "$YOSYS" -p "$(front_end "$top" "$params" "$@") proc; write_json $out/ports.json"
  pargs=()
  if [ "$params" != default ]; then for kv in ${params//:/ }; do pargs+=(--param "$kv"); done; fi
  # WRAP_DROP: output-port patterns the wrapper leaves unconnected (synth_wrap.py --drop-output; read without
  # globbing)
  read -r -a drops <<<"${WRAP_DROP:-}"
  for p in "${drops[@]}"; do pargs+=(--drop-output "$p"); done
  # WRAP_SHARE: groups of input ports driven from one shared field (synth_wrap.py --share-inputs), "a,b c,d"
  read -r -a shares <<<"${WRAP_SHARE:-}"
  for p in "${shares[@]}"; do pargs+=(--share-inputs "$p"); done
  run "$out/wrap.log" "$PYTHON" "$HERE/synth_wrap.py" --ports "$out/ports.json" --top "$top" "${pargs[@]}" \
    --clock "${CLOCK:-clk_i}" --out "$out/wrap.v"
  split_inc "$@"
  run "$out/ice40.log" "$YOSYS" -p "read_verilog -defer$INCS $SRCS $out/wrap.v; hierarchy -check -top ${top}_synthwrap; synth_ice40 -top ${top}_synthwrap${ICE40_SYNTH_OPTS:+ $ICE40_SYNTH_OPTS} -json $out/ice40.json; check -assert; tee -o $out/ice40.stat stat"
  ;;
pnr)
  seed=$3
  : "${ICE40_DEVICE:?} ${ICE40_PACKAGE:?} ${ICE40_FREQ:?}"
  [ -s "$out/ice40.json" ] || die "$out/ice40.json missing (run the ice40 step first)"
  rm -f "$out/pnr-seed$seed.report.json" "$out/pnr-seed$seed.status"
  # A design that does not fit the device is a result (recorded as such), not a flow failure.
  if run "$out/pnr-seed$seed.log" "$NEXTPNR" "--$ICE40_DEVICE" --package "$ICE40_PACKAGE" --json "$out/ice40.json" \
       --seed "$seed" --freq "$ICE40_FREQ" --timing-allow-fail --report "$out/pnr-seed$seed.report.json" 2>/dev/null; then
    echo ok >"$out/pnr-seed$seed.status"
  elif grep -q 'Failed to expand region\|Unable to place cell\|design does not fit\|Failed to place' "$out/pnr-seed$seed.log"; then
    echo "does-not-fit" >"$out/pnr-seed$seed.status"
    echo "synth_flow: design does not fit --$ICE40_DEVICE (see $out/pnr-seed$seed.log); recorded" >&2
  else
    tail -25 "$out/pnr-seed$seed.log" >&2
    die "nextpnr failed (log $out/pnr-seed$seed.log)"
  fi
  ;;
*) die "unknown step '$step'";;
esac
