#!/usr/bin/env bash
# One job of the evaluation sweep (a line of OUT/jobs.txt, written by scripts/eval_jobs.py):
#   scripts/eval_job.sh OUT ID [--png] [--timeline] -- gpupd-sim render ARGS...
# Runs the command with --stats (-o with --png, --timeline with --timeline) into temporary files, checks the JSON has every key the
# evaluation reads (scripts/eval_keys.py), then renames them to OUT/runs/ID.json (ID.png, ID.timeline.csv) and records the
# job's wall time in OUT/runs/ID.time. On failure: a message naming the job, its log and the command to
# reproduce it, nothing left under the final names, exit 1. OUT/runs/ID.time: "wall_s cpu_s" of the run.
# Progress: every finished job prints "[k/n] ID time, elapsed, ETA" when OUT/.sweep exists (written by
# `make run-eval`: start time and number of jobs to run), else "[k/n]" with n = lines of OUT/jobs.txt.
set -u -o pipefail
[ $# -ge 4 ] || { echo "usage: $0 OUT ID [--png] -- COMMAND..." >&2; exit 2; }
out=$1 id=$2; shift 2
png=0 tl=0
while [ "$1" = --png ] || [ "$1" = --timeline ]; do
  [ "$1" = --png ] && png=1
  [ "$1" = --timeline ] && tl=1
  shift
done
[ "$1" = -- ] || { echo "eval_job: expected -- before the command, got '$1'" >&2; exit 2; }
shift
PYTHON=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/runs" "$out/logs" "$out/frec"
tmp="$out/runs/$id.json.tmp.$$"
ptmp="$out/runs/$id.png.tmp.$$.png"
log="$out/logs/$id.log"
cmd=("$@" --stats "$tmp")
[ $png = 1 ] && cmd+=(-o "$ptmp")
ttmp="$out/runs/$id.timeline.tmp.$$.csv"
[ $tl = 1 ] && cmd+=(--timeline "$ttmp" --timeline-window 1024)
cpuf="$out/runs/$id.cpu.tmp.$$"
t0=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
  /usr/bin/time -q -f '%U %S' -o "$cpuf" "${cmd[@]}" >"$log" 2>&1
else
  "${cmd[@]}" >"$log" 2>&1
fi
rc=$?
t1=$(date +%s.%N)
cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$cpuf" 2>/dev/null)
rm -f "$cpuf"
why="exit status $rc"
if [ $rc -eq 0 ]; then
  if "$PYTHON" "$here/eval_keys.py" "$tmp" >>"$log" 2>&1; then why=""; else why="its stats JSON lacks keys the evaluation reads"; fi
fi
if [ -n "$why" ]; then
  echo "eval: job FAILED: $id ($why)" >&2
  tail -n 5 "$log" | sed 's/^/  | /' >&2
  echo "  log: $log" >&2
  echo "  reproduce: $* --stats $id.json" >&2
  rm -f "$tmp" "$ptmp" "$ttmp"
  exit 1
fi
[ $png = 1 ] && mv -f "$ptmp" "$out/runs/$id.png"
[ $tl = 1 ] && mv -f "$ttmp" "$out/runs/$id.timeline.csv"
dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo "$dt ${cpu:-}" > "$out/runs/$id.time"   # wall seconds, CPU seconds (user + sys)
mv -f "$tmp" "$out/runs/$id.json"
echo "$id $dt" >> "$out/progress.log"
if [ -f "$out/.sweep" ]; then
  read -r start total < "$out/.sweep"
  done_n=$(wc -l < "$out/progress.log")
  awk -v s="$start" -v n="$total" -v k="$done_n" -v id="$id" -v dt="$dt" -v now="$(date +%s)" 'BEGIN {
    el = now - s; eta = (k > 0 && n > k) ? el / k * (n - k) : 0;
    printf "  eval [%d/%d] %s %.1fs | elapsed %dm%02ds, ETA %dm%02ds\n", k, n, id, dt, el / 60, el % 60, eta / 60, eta % 60 }'
else
  printf '  eval [%d/%d] %s %.1fs\n' "$(ls "$out"/runs/*.json | wc -l)" "$(wc -l < "$out/jobs.txt")" "$id" "$dt"
fi
