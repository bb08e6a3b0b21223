#!/usr/bin/env bash
# Hierarchical OSU 0.18 um synthesis + whole-core OpenSTA of the SIMT core (docs/simt.md, synthesis section).
# Called by mk/simt.mk (make synth-simt); usable by hand from the repository root.
#
#   simt_synth.sh osu OUTDIR TOP PARAMS FILE...   Yosys: every distinct module mapped once, hierarchy kept
#   simt_synth.sh sta OUTDIR TOP                  OpenSTA on the whole hierarchical netlist OUTDIR/osu.v
# TOP is simt_core (the core) or any of its modules (e.g. simt_sfu: its row with the table as a ROM macro).
#
# Method. The flat flow (scripts/synth_flow.sh osu: synth -flatten, one abc run over the whole design) does not
# finish on this core in reasonable time (about 10^5 gates plus eight FPUs and two SFUs in one abc network).
# Here three module boundaries stay: simt_lane (one per lane: its LANE parameter makes LANES distinct modules),
# simt_fpu and simt_sfu (one each); everything inside a kept module, and the core's own logic with its warps, is
# flattened (the issue loop, warp ready -> select -> stack update, is then one abc network), and abc maps each
# kept module once (an FPU or SFU network is the same as in its own flat row).
# Limits: no optimisation across the kept boundaries (constants on their ports are not propagated), so the area
# is an upper bound of a flat run's; abc does not see the parts of a path outside the module it maps (hence the
# reduced delay target below). Timing is NOT per module: OpenSTA links the whole hierarchical netlist, so every
# path through several modules (warp -> issue select -> warp) is timed end to end, as in a flat netlist.
#
# Storage arrays (every rtl/simt_ram.v instance) are SRAM macros: scripts/simt_sram_lib.py writes a Liberty
# library of black-box macro cells (read access time SIMT_SRAM_TACC ns after the clock, input setup
# SIMT_SRAM_TSETUP ns; default 0 and 0) and the stand-in simt_ram that instantiates them. Macro area is not in
# the standard-cell area (inventory: OUTDIR/macros.txt).
#
# PARAMS: NAME=VALUE[:NAME=VALUE...] on TOP, or "default". Env: YOSYS, STA, PYTHON, NICE, LIB, CONSTR, SDC,
# SIMT_SRAM_TACC, SIMT_SRAM_TSETUP, SIMT_SFU_TROM, SIMT_SFU_ROM (macro | logic), SIMT_ABC_DELAY_FRAC,
# SIMT_ABC_SCRIPT (map | nf). Commands are recorded in OUTDIR/<step>.cmd.
set -euo pipefail

YOSYS=${YOSYS:-yosys}
STA=${STA:-sta}
PYTHON=${PYTHON:-/usr/bin/python3}
NICE=${NICE:-nice}
HERE=$(dirname "$0")
TACC=${SIMT_SRAM_TACC:-0}
TSETUP=${SIMT_SRAM_TSETUP:-0}
TROM=${SIMT_SFU_TROM:-0}
ROM=${SIMT_SFU_ROM:-macro}   # macro: the SFU table is a ROM macro; logic: rtl/simt_sfu_rom.v mapped to cells

die() { echo "simt_synth: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: see the header of $0"
step=$1 out=$2
mkdir -p "$out"
cmdlog=$out/$step.cmd
: >"$cmdlog"

SYNTH_TAG=simt_synth
. "$HERE/synth_lib.sh"   # run LOGFILE CMD...: record, run, report a failure

case $step in
osu)
  top=$3 params=$4; shift 4
  : "${SDC:?} ${CONSTR:?} ${LIB:?}"
  per=$(sed -n 's/.*create_clock.*-period[[:space:]]*\([0-9.][0-9.]*\).*/\1/p' "$SDC" | head -1)
  [ -n "$per" ] || die "no 'create_clock ... -period P' in $SDC"
  # abc's delay target: each module is mapped alone and abc sees neither the arrival times at its inputs nor the
  # logic after its outputs, so a path through several modules would get the whole period in each of them; the
  # target is therefore a fraction of the period (SIMT_ABC_DELAY_FRAC, default 0.8). OpenSTA then times the
  # real paths end to end.
  dps=$(awk -v p="$per" -v f="${SIMT_ABC_DELAY_FRAC:-0.8}" 'BEGIN { printf "%d", p * 1000 * f }')
  # abc's mapping script (SIMT_ABC_SCRIPT): "map" (default) = strash; dch -f; map -D; cleanup; topo; buffer;
  # upsize/dnsize -D (cleanup + topo: map can leave a dangling node, on which buffer fails or segfaults): the
  # delay-driven mapper, which keeps the prefix (Brent-Kung) carry trees Yosys builds for $alu/$lcu. "nf" = Yosys
  # 0.23's own liberty script (... &dch -f; &nf -D; buffer; upsize; dnsize), the flow of session 3: measured here,
  # &nf ignores the delay target and area-recovers every adder and comparator into a ripple chain (a registered
  # 32-bit add + signed compare alone: 4.75 ns with "nf" at any -D, 2.0 ns with "map"; docs/simt.md section 6).
  abcs=${SIMT_ABC_SCRIPT:-map}
  case $abcs in
    map) printf 'strash; dch -f; map -D %s; cleanup; topo; buffer; upsize -D %s; dnsize -D %s; stime -p\n' "$dps" "$dps" "$dps" >"$out/abc.script"
         abcopt="-script $out/abc.script";;
    nf)  abcopt="";;
    *)   die "SIMT_ABC_SCRIPT must be map or nf";;
  esac
  run "$out/sramlib.log" "$PYTHON" "$HERE/simt_sram_lib.py" "$out" --tacc "$TACC" --tsetup "$TSETUP" --trom "$TROM"
  srcs="" incs=""
  for f in "$@"; do
    case $f in
      *.vh) incs+=" -I$(dirname "$f")";;
      rtl/simt_ram.v|*/rtl/simt_ram.v) ;;   # replaced by the macro stand-in
      rtl/simt_sfu_rom.v|*/rtl/simt_sfu_rom.v) [ "$ROM" = macro ] || srcs+=" $f";;
      *) srcs+=" $f";;
    esac
  done
  cp=""
  if [ "$params" != default ]; then
    cp="chparam"
    for kv in ${params//:/ }; do cp+=" -set ${kv%%=*} ${kv#*=}"; done
    cp+=" $top;"
  fi
  # module boundaries that stay (everything inside them, e.g. the FPU's adders and multipliers, is flattened into
  # one abc network per module, as in the flat flow; tiny modules mapped alone would each get the whole delay
  # target and be area-recovered into ripple chains)
  KEEP='*simt_lane *simt_fpu* *simt_sfu'
  NO_LATCH='select -assert-none t:*DLATCH* t:*dlatch* t:*_SR_* t:*LATCH*;'
  ys="read_liberty -lib $LIB; read_liberty -lib $out/simt_sram.lib; read_verilog -defer$incs$srcs $out/simt_ram_macro.v$([ "$ROM" = macro ] && echo " $out/simt_sfu_rom_macro.v"); $cp hierarchy -check -top $top; setattr -mod -set keep_hierarchy 1 $KEEP; synth -flatten -top $top; dfflibmap -liberty $LIB; abc -liberty $LIB -constr $CONSTR -D $dps $abcopt; opt_clean -purge; setundef -zero; splitnets; opt_clean -purge; autoname; check -assert; $NO_LATCH tee -o $out/osu.stat stat -liberty $LIB -top $top; write_verilog -noattr -noexpr $out/osu.v"
  # abc gives no output when it crashes ("Can't open ABC output file", its buffered messages lost): seen on the core
  # module when `buffer` met a dangling node left by `map` (segfault; fixed by cleanup + topo above). Retry once for
  # any other such crash, then fail.
  if ! run "$out/osu.log" "$YOSYS" -p "$ys"; then
    grep -q "Can't open ABC output file" "$out/osu.log" || exit 1
    echo "simt_synth: abc gave no output; retrying once (first log: $out/osu.log.abcfail)" >&2
    mv "$out/osu.log" "$out/osu.log.abcfail"
    run "$out/osu.log" "$YOSYS" -p "$ys"
  fi
  split_osu_assigns "$out/osu.v"   # one assign per bit (OpenSTA 2019)
  ;;
sta)
  top=$3
  : "${SDC:?} ${LIB:?}"
  [ -s "$out/osu.v" ] || die "$out/osu.v missing (run the osu step first)"
  run "$out/sta.log" env STA_LIB="$LIB" STA_EXTRA_LIB="$out/simt_sram.lib" STA_NETLIST="$out/osu.v" STA_TOP=$top \
    STA_SDC="$SDC" STA_MACRO_PATHS=1 "$STA" -no_splash -exit "$HERE/synth_sta.tcl"
  grep -q '^SYNTH_STA worst_slack_max ' "$out/sta.log" || { tail -20 "$out/sta.log" >&2; die "sta gave no worst slack"; }
  if grep -q '^Error' "$out/sta.log"; then grep '^Error' "$out/sta.log" >&2; die "sta reported errors"; fi
  # the worst path ending in each part (SFU, FPU, warp, lane, core): scripts/simt_sta_groups.tcl
  if [ "$top" = simt_core ]; then
    run "$out/sta_groups.log" env STA_LIB="$LIB" STA_EXTRA_LIB="$out/simt_sram.lib" STA_NETLIST="$out/osu.v" \
      STA_TOP=$top STA_SDC="$SDC" "$STA" -no_splash -exit "$HERE/simt_sta_groups.tcl"
    # the slack left for each class of storage macro, launched by it and into its inputs: scripts/simt_sta_macros.tcl
    run "$out/sta_macros.log" env STA_LIB="$LIB" STA_EXTRA_LIB="$out/simt_sram.lib" STA_NETLIST="$out/osu.v" \
      STA_TOP=$top STA_SDC="$SDC" "$STA" -no_splash -exit "$HERE/simt_sta_macros.tcl"
  fi
  ;;
*) die "unknown step '$step'";;
esac
