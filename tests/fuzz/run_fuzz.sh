#!/usr/bin/env bash
# Run libFuzzer targets for a fixed time each from the committed seeds; print executions and coverage per
# target; fail on any crash, leak, timeout or out-of-memory (the reproducer is kept and its command printed).
#   run_fuzz.sh --bin DIR --as GPUPD_AS --seconds S --work DIR [--max-len N] [--keep] TARGET...
set -u
BIN= AS= SEC=4 WORK= MAXLEN=65536 KEEP=0
while [ $# -gt 0 ]; do
  case $1 in
    --bin) BIN=$2; shift 2;; --as) AS=$2; shift 2;; --seconds) SEC=$2; shift 2;; --work) WORK=$2; shift 2;;
    --max-len) MAXLEN=$2; shift 2;; --keep) KEEP=1; shift;; *) break;;
  esac
done
mkdir -p "$WORK"
S=$(realpath tests/fuzz/seeds); BIN=$(realpath "$BIN"); WORK=$(realpath "$WORK")
# generated seeds: the shader library (assembler) and its binaries (disassembler), PNGs of the writer
mkdir -p "$WORK/gen/asm" "$WORK/gen/dis"
for s in cmodel/shaders/*.s; do cp "$s" "$WORK/gen/asm/"; "$AS" "$s" -o "$WORK/gen/dis/$(basename "$s" .s).bin" || exit 1; done
: > "$WORK/gen/dis/empty.bin"
seeds_of() {
  case $1 in
    trace_file|trace|scene) echo "$S/trace";;
    trace_text) echo "$S/text";;
    png) echo "$S/png";;
    asm) echo "$WORK/gen/asm";;
    dis) echo "$WORK/gen/dis";;
    p2g_text) echo "$S/p2g";;
  esac
}
fails=0
printf '%-11s %10s %9s %7s %7s %7s  %s\n' target execs exec/s cov ft corpus result
for t in "$@"; do
  b="$BIN/fuzz_$t"; c="$WORK/corpus/$t"; l="$WORK/$t.log"
  [ $KEEP -eq 1 ] || rm -rf "$c"
  mkdir -p "$c" "$WORK/crash/$t"
  (cd "$WORK/crash/$t" && "$b" -max_total_time="$SEC" -max_len="$MAXLEN" -rss_limit_mb=1536 -malloc_limit_mb=1024 \
     -timeout=20 -seed=1 -print_final_stats=1 -close_fd_mask=1 "$c" "$(seeds_of "$t")" >"$l" 2>&1)
  rc=$?
  ex=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -1)
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$l" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$l" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$l" | tail -1 | cut -d' ' -f2)
  n=$(ls "$c" | wc -l)
  if [ $rc -ne 0 ]; then
    res="FAIL (exit $rc)"; fails=$((fails+1))
  else res=ok; fi
  printf '%-11s %10s %9s %7s %7s %7s  %s\n' "$t" "${ex:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "$n" "$res"
  if [ $rc -ne 0 ]; then
    grep -m1 -E 'ERROR: |runtime error|SUMMARY' "$l"; tail -5 "$l"
    art=$(ls "$WORK/crash/$t"/crash-* "$WORK/crash/$t"/leak-* "$WORK/crash/$t"/timeout-* "$WORK/crash/$t"/oom-* 2>/dev/null | head -1)
    echo "  log: $l"; [ -n "$art" ] && echo "  reproduce: $b $art"
  fi
done
if [ $fails -ne 0 ]; then echo "fuzz: $fails target(s) FAILED"; exit 1; fi
echo "fuzz: $# targets, ${SEC} s each, no crash, leak, timeout or OOM"
