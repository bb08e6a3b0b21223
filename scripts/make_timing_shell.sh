#!/usr/bin/env bash
# Timing shell for make (docs/testing.md): every recipe line runs in /bin/bash as usual and appends one line
#   <target> <start epoch s> <end epoch s> <exit code> <user CPU> <sys CPU>
# to $MAKE_TIMING_LOG (CPU of the line's whole process tree, from the `times` builtin). Use:
#   make -j2 test SHELL=$PWD/scripts/make_timing_shell.sh '.SHELLFLAGS=TT:$@ -o pipefail -c' MAKE_TIMING_LOG=$PWD/t.log
#   scripts/make_timing_report.py t.log
# ($@ in .SHELLFLAGS names the target; `$(shell ...)` calls have an empty target and run untimed; the
# command-line variables reach sub-makes, so the recipes of Verilator's own makefiles are logged too.)
t="${1#TT:}"
shift
[ -n "$t" ] || exec /bin/bash "$@"
s=$(date +%s.%N)
/bin/bash "$@"
rc=$?
e=$(date +%s.%N)
tf=$(mktemp "${TMPDIR:-/tmp}/make_timing.XXXXXX")
times > "$tf"
c=$(tail -1 "$tf")
rm -f "$tf"
echo "$t $s $e $rc $c" >> "${MAKE_TIMING_LOG:?MAKE_TIMING_LOG is not set}"
exit $rc
