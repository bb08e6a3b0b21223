#!/usr/bin/env bash
# CPU cost of the trace-heavy `make test` targets on a set of traces (docs/traces.md, "Compression"):
# runs, per trace, the commands test-model-identical, test-model-validate and test-shader-agreement run on
# it, and prints the summed user+sys CPU seconds per target. Used to compare two versions of the bundled
# traces (e.g. before/after a re-conversion):
#   tests/trace/trace_cost.sh DIR_WITH_GPTS [TRACE_NAMES...]   (reference images are taken from traces/)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1; shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$dir" && ls *.gpt | sed 's/\.gpt$//'))
SIM=${SIM:-build/bin/gpupd-sim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# CPU seconds of one command; a command that fails is counted in $T/failed and named on stderr
cpu() { if ! /usr/bin/time -f "%U %S" -o "$T/t" "$@" >/dev/null 2>&1; then echo "trace_cost: FAILED: $*" >&2; echo x >> "$T/failed"; fi
        awk '$1 ~ /^[0-9.]+$/ {printf "%.3f", $1 + $2}' "$T/t"; }
declare -A tot=([identical]=0 [validate]=0 [agreement]=0 [load]=0)
add() { tot[$1]=$(awk -v a="${tot[$1]}" -v b="$2" 'BEGIN {printf "%.3f", a + b}'); }
for n in "${names[@]}"; do
  t=$dir/$n.gpt
  add identical "$(cpu "$SIM" verify --trace "$t" --gpus 2,3,4,8,16 --topology line --shaders builtin -q)"
  add identical "$(cpu "$SIM" verify --trace "$t" --gpus 3,16 --schemes gpupd-batch,gpupd-ra --topology hub --check-masks --shaders builtin -q)"
  refs=(); frames=()
  if [ -f traces/$n.png ]; then refs=(traces/$n.png); frames=(0)
  else for p in traces/$n.f*.png; do refs+=("$p"); f=${p##*.f}; frames+=("${f%.png}"); done; fi
  last=$((${#refs[@]} - 1))
  add validate "$(cpu "$SIM" validate --trace "$t" --frame "${frames[$last]}" --ref "${refs[$last]}" --json "$T/v.json" -q)"
  for i in "${!refs[@]}"; do
    add agreement "$(cpu "$SIM" validate --trace "$t" --frame "${frames[$i]}" --ref "${refs[$i]}" --json "$T/a.json" -q)"
  done
  if build/bin/gpupd-trace draws "$t" | grep -q -e 'glsl:' -e 'ff:'; then
    for m in auto builtin; do add agreement "$(cpu "$SIM" render --trace "$t" --shaders $m --stats "$T/s.json" -q)"; done
  fi
  add load "$(cpu build/bin/gpupd-trace validate "$t")"
done
nf=0
if [ -f "$T/failed" ]; then nf=$(wc -l < "$T/failed"); fi
echo "$dir: CPU seconds: test-model-identical ${tot[identical]}  test-model-validate ${tot[validate]}  test-shader-agreement ${tot[agreement]}  (gpupd-trace validate ${tot[load]})  traces: ${names[*]}; failed commands: $nf"
[ "$nf" -eq 0 ]
