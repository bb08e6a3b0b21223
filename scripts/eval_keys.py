#!/usr/bin/env python3
"""The gpupd-sim stats JSON keys the evaluation reads (docs/timing.md section 4, docs/evaluation.md).

`eval_keys.py FILE.json...` exits 1 naming the first missing key of each file; scripts/eval_job.sh runs it on
every job's output before accepting it, scripts/eval_report.py imports check() and runs it again.
"""
import json
import sys

TOP = ["trace", "scheme", "gpus", "topology", "frame", "frame_hash", "cycles", "prims_app", "syncs", "sync_bytes",
       "per_gpu", "links"]
PER_GPU = ["gpu", "prims_projected", "prims_received", "prims_received_from", "prims_kept", "prims_to_render",
           "prims_rasterized", "prims_sent", "cycle_stack"]
STACK = ["no_primitive", "stall", "sync"]
LINK = ["from", "to", "prim_packets", "last_packets", "sync_bytes", "bytes"]


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check(j):
    """Return None if j has every key the evaluation reads with a sane value, else a message."""
    for k in TOP:
        if k not in j:
            return f'top-level key "{k}" missing'
    if not is_num(j["cycles"]) or j["cycles"] <= 0:
        return f'"cycles" must be a positive number, is {j["cycles"]!r}'
    n = j["gpus"]
    if not isinstance(j["per_gpu"], list) or len(j["per_gpu"]) != n:
        return f'"per_gpu" must have {n} entries (gpus), has {len(j["per_gpu"]) if isinstance(j["per_gpu"], list) else "none"}'
    for g, e in enumerate(j["per_gpu"]):
        for k in PER_GPU:
            if k not in e:
                return f'per_gpu[{g}]: key "{k}" missing'
        cs = e["cycle_stack"]
        for k in STACK:
            if k not in cs:
                return f'per_gpu[{g}].cycle_stack: key "{k}" missing'
            if not is_num(cs[k]) or cs[k] < 0:
                return f'per_gpu[{g}].cycle_stack.{k} must be a number >= 0, is {cs[k]!r}'
        if len(e["prims_received_from"]) != n:
            return f'per_gpu[{g}].prims_received_from must have {n} entries'
    for i, l in enumerate(j["links"]):
        for k in LINK:
            if k not in l:
                return f'links[{i}]: key "{k}" missing'
    return None


def main():
    bad = 0
    for p in sys.argv[1:]:
        try:
            with open(p) as f:
                j = json.load(f)
            msg = check(j)
        except (OSError, ValueError) as e:
            msg = f"unreadable JSON: {e}"
        if msg:
            print(f"eval_keys: {p}: {msg}", file=sys.stderr)
            bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
