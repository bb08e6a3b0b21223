#!/usr/bin/env bash
# Run the job list OUT/jobs.mk (scripts/eval_jobs.py) with make, in parallel, with a progress line and ETA.
#   scripts/eval_sweep.sh OUT [make arguments...]
# Parallelism: the caller's make jobserver when called from `make -jK` (recipe marked +), else EVAL_J
# (default: the number of cores). Writes OUT/sweep_time.txt: "<seconds> <parallel jobs> <jobs run> <load
# average at the start> <at the end>" (the machine's load says how much of the wall time was other work).
# Exit status: that of make (nonzero as soon as a job fails; the jobs already running finish first).
set -u -o pipefail
out=$1; shift
MAKE=${MAKE:-make}
[ -f "$out/jobs.mk" ] || { echo "eval_sweep: $out/jobs.mk missing (scripts/eval_jobs.py)" >&2; exit 2; }
jflag=()
case " ${MAKEFLAGS:-} " in
  *jobserver*|*" -j"*) par="jobserver" ;;
  *) par=${EVAL_J:-$(nproc)}; jflag=(-j"$par") ;;
esac
# Threads per job (gpupd-sim --threads, read from GPUPD_THREADS): jobs first, threads for the cores that the
# parallel jobs leave idle: cores / parallel jobs (1 under a make jobserver, whose job count is not known here).
# Same results for any value (make test-threads); docs/evaluation.md, "Jobs and threads".
if [ -z "${GPUPD_THREADS:-}" ]; then
  case $par in
    ''|*[!0-9]*) GPUPD_THREADS=1 ;;
    *) GPUPD_THREADS=$(( $(nproc) / (par > 0 ? par : 1) )); [ "$GPUPD_THREADS" -ge 1 ] || GPUPD_THREADS=1 ;;
  esac
fi
export GPUPD_THREADS
n=$($MAKE -s -n -f "$out/jobs.mk" all 2>/dev/null | grep -c 'eval_job\.sh')
total=$(wc -l < "$out/jobs.txt")
echo "eval: $n of $total jobs to run ($((total - n)) already done), parallel: $par, threads per job: $GPUPD_THREADS"
: > "$out/progress.log"
echo "$(date +%s) $n" > "$out/.sweep"
load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
t0=$(date +%s.%N)
$MAKE --no-print-directory "${jflag[@]}" -f "$out/jobs.mk" "$@" all
rc=$?
t1=$(date +%s.%N)
rm -f "$out/.sweep"
dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
if [ $rc -ne 0 ]; then
  echo "eval: sweep FAILED after ${dt}s (see the failed job above; logs in $out/logs/)" >&2
  exit $rc
fi
load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
echo "$dt $par $n ${load0:-?} ${load1:-?}" > "$out/sweep_time.txt"
echo "eval: sweep done: $n jobs in ${dt}s wall (load average ${load0:-?} at the start, ${load1:-?} at the end)"
