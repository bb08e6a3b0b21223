# Shared helpers of the synthesis scripts (scripts/synth_flow.sh, scripts/simt_synth.sh); sourced, not run.
#
# run LOGFILE CMD...: append CMD (shell-quoted where needed) to $cmdlog, run it under $NICE with stdout and
# stderr in LOGFILE; on failure print the log's tail, the command and the log's path (prefixed with
# $SYNTH_TAG, the calling script's name) and return 1. Needs: cmdlog, NICE, step, SYNTH_TAG.
run() {
  local log=$1; shift
  local a sep=""
  for a in "$@"; do
    case $a in *[[:space:]\;\*\$]*) printf "%s'%s'" "$sep" "$a";; *) printf '%s%s' "$sep" "$a";; esac
    sep=" "
  done >>"$cmdlog"
  printf '\n' >>"$cmdlog"
  if ! $NICE "$@" >"$log" 2>&1; then
    tail -25 "$log" >&2
    echo "$SYNTH_TAG: FAILED ($step): $*" >&2
    echo "  full log: $log" >&2
    return 1
  fi
}

# split_osu_assigns NETLIST: OpenSTA 2019 cannot parse a concatenation on the left of an assign (Yosys writes one
# when several output bits are constants or copies of other bits): rewrite those as one assign per bit, in place
# (no other line changes).
split_osu_assigns() {
  "$PYTHON" - "$1" <<'PY'
import re, sys
p = sys.argv[1]
out = []
for line in open(p).read().split("\n"):
    m = re.match(r"^(\s*)assign \{ (.*) \} = \{ (.*) \};$", line)
    if m:
        lhs = [x.strip() for x in m.group(2).split(",")]
        rhs = [x.strip() for x in m.group(3).split(",")]
        if len(lhs) == len(rhs):
            out += [f"{m.group(1)}assign {l} = {r};" for l, r in zip(lhs, rhs)]
            continue
    out.append(line)
open(p, "w").write("\n".join(out))
PY
}
