#!/usr/bin/env bash
# End-to-end test of the evaluation pipeline (make test-eval): a reduced job list on one small trace through
# the same scripts as `make run-eval`, then consistency checks (tests/eval/check_eval.py), GNU parallel and a
# scheduler-style array task on the same list (identical results), and the failure paths: a failing job
# fails the sweep, a job whose JSON lacks a key fails, a missing result or a missing key fails the report.
#   tests/eval/test_eval.sh OUT SIM TRACE_TOOL TRACE
set -u -o pipefail
out=$1 sim=$2 ttool=$3 trace=$4
PYTHON=${PYTHON:-/usr/bin/python3}
export PYTHON
fail() { echo "test-eval: FAIL: $*"; echo "  reproduce: tests/eval/test_eval.sh $out $sim $ttool $trace"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)

# 1. reduced list: N = 1, 2, 4; Fig. 17-19 at N = 4 with latencies 100/400, thresholds none/1024/4096, hub
$PYTHON scripts/eval_jobs.py --out "$out" --sim "$sim" --trace-tool "$ttool" --traces "$trace" \
  --gpus 1,2,4 --sens-gpus 4 --lats 100,400 --batches none,1024,4096 --fe-traces all --timeline "$(basename "$trace" .gpt):gpupd-ra:4" \
  || fail "eval_jobs.py"
n=$(wc -l < "$out/jobs.txt")
[ "$n" -ge 15 ] || fail "only $n jobs in $out/jobs.txt"

# 2. the make consumer (as make run-eval), then the report
EVAL_J=2 MAKEFLAGS= scripts/eval_sweep.sh "$out" > "$out/sweep.log" 2>&1 || { cat "$out/sweep.log"; fail "sweep"; }
grep -q "ETA" "$out/sweep.log" || fail "no progress line with an ETA in $out/sweep.log"
$PYTHON scripts/eval_report.py "$out" > "$out/report.log" 2>&1 || { cat "$out/report.log"; fail "eval_report.py"; }

# 3. consistency of tables, plots and index against the jobs' JSON
$PYTHON tests/eval/check_eval.py "$out" || fail "consistency checks"

# 4. GNU parallel and an array task (one line of jobs.txt) on the same list: identical JSON (deterministic)
mkdir -p "$out/ref"
sed -n '2p;5p;9p' "$out/jobs.txt" > "$out/subset.txt"
line=$(sed -n '12p' "$out/jobs.txt")
for id in $(awk '{print $3}' "$out/subset.txt") $(echo "$line" | awk '{print $3}'); do
  mv "$out/runs/$id.json" "$out/ref/$id.json"
done
parallel -j2 --halt now,fail=1 < "$out/subset.txt" > "$out/parallel.log" 2>&1 || { cat "$out/parallel.log"; fail "GNU parallel on the job list"; }
SLURM_ARRAY_TASK_ID=12 bash -c 'sed -n "${SLURM_ARRAY_TASK_ID}p" "$0" | bash' "$out/jobs.txt" > "$out/array.log" 2>&1 \
  || { cat "$out/array.log"; fail "array-task line of the job list"; }
for f in "$out"/ref/*.json; do
  cmp -s "$f" "$out/runs/$(basename "$f")" || fail "re-run of $(basename "$f" .json) (parallel / array task) differs from the make run: not deterministic"
done
echo "  test-eval: make, GNU parallel and an array task give identical results ($(ls "$out"/ref/*.json | wc -l) jobs re-run)"

# 5. a failing job fails the sweep (and names the job and the command to reproduce it)
f="$out/fail"
mkdir -p "$f"
head -1 "$out/jobs.txt" | sed "s#$out #$f #" > "$f/jobs.txt"
echo "scripts/eval_job.sh $f broken__job -- $sim render --trace $trace --gpus 0 -q" >> "$f/jobs.txt"
$PYTHON scripts/eval_jobs.py --mk-only "$f" > /dev/null || fail "eval_jobs.py --mk-only"
if EVAL_J=2 MAKEFLAGS= scripts/eval_sweep.sh "$f" > "$f/sweep.log" 2>&1; then fail "a failing job did not fail the sweep ($f/sweep.log)"; fi
grep -q "job FAILED: broken__job" "$f/sweep.log" && grep -q "reproduce:" "$f/sweep.log" || { cat "$f/sweep.log"; fail "no failure report for the failing job"; }
[ ! -e "$f/runs/broken__job.json" ] || fail "a failing job left a result"
# a job whose JSON lacks the timing keys fails too (and leaves nothing under the final name)
if scripts/eval_job.sh "$f" nokeys -- sh -c 'printf "{\"trace\": \"x\"}" > "$2"' x > "$f/nokeys.log" 2>&1; then fail "a JSON without the required keys was accepted"; fi
grep -q 'top-level key "scheme" missing' "$f/logs/nokeys.log" || fail "the missing key is not named ($f/logs/nokeys.log)"
[ ! -e "$f/runs/nokeys.json" ] || fail "a JSON without keys was kept"

# 6. the report refuses missing results and missing keys
id=$(sed -n '3p' "$out/jobs.txt" | awk '{print $3}')
mv "$out/runs/$id.json" "$out/ref/$id.moved"
if $PYTHON scripts/eval_report.py "$out" > "$out/r1.log" 2>&1; then fail "report accepted a missing job result"; fi
grep -q "have no result" "$out/r1.log" || { cat "$out/r1.log"; fail "missing result not reported"; }
$PYTHON -c "import json,sys; j=json.load(open(sys.argv[1])); del j['per_gpu'][0]['cycle_stack']['sync']; json.dump(j, open(sys.argv[2], 'w'))" \
  "$out/ref/$id.moved" "$out/runs/$id.json"
if $PYTHON scripts/eval_report.py "$out" > "$out/r2.log" 2>&1; then fail "report accepted a JSON without per_gpu[0].cycle_stack.sync"; fi
grep -q 'cycle_stack: key "sync" missing' "$out/r2.log" || { cat "$out/r2.log"; fail "missing key not named"; }
mv "$out/ref/$id.moved" "$out/runs/$id.json"
echo "test-eval: passed ($n jobs, $(($(date +%s) - t0)) s; failing job, missing result and missing keys all fail)"
