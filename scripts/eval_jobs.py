#!/usr/bin/env python3
"""Write the job list of the evaluation sweep (the paper's Fig. 13-19, docs/evaluation.md).

Every job is one `gpupd-sim render` of one (trace, scheme, N, topology, link latency, batching threshold),
wrapped by scripts/eval_job.sh, which writes OUT/runs/<id>.json (and <id>.png for the frames the index
shows). Jobs shared by several figures (e.g. gpupd-ra N=16 line 400 ns 4096 is in Fig. 13, 17, 18 and 19)
appear once. Outputs, each written to a temporary file and renamed:

  OUT/jobs.txt   one shell command per line: the job list that make, GNU parallel and a cluster scheduler
                 (one array task per line) all consume
  OUT/jobs.tsv   the manifest: id and parameters of every job, in the order of jobs.txt (read by
                 scripts/eval_report.py)
  OUT/jobs.mk    a makefile with one rule per line of jobs.txt (the recipe is the line itself), so that
                 `make -jK -f OUT/jobs.mk` runs the list in parallel and skips jobs already done

Usage: eval_jobs.py --mk-only DIR   (jobs.mk again from an edited DIR/jobs.txt)
       eval_jobs.py --out DIR --sim build/bin/gpupd-sim --trace-tool build/bin/gpupd-trace
                    [--traces T1.gpt,T2.gpt] [--sens-traces ...] [--gpus 1,2,4,8,16] [--sens-gpus 4,16]
                    [--schemes single,dup,gpupd,gpupd-batch,gpupd-ra,gpupd-stream,chopin] [--lats 100,200,400,800]
                    [--batches none,256,...] [--afr-traces multi|none|LIST] [--figs 13,14,...] [--fe-rates 1,4]
"""
import argparse
import os
import re
import subprocess
import sys

DEFAULT_LAT = 400       # ns per link (paper Table 1 default)
DEFAULT_BATCH = 4096    # batching threshold (paper 5.1)
BATCH_SCHEMES = ("gpupd-batch", "gpupd-ra", "gpupd-stream")
SENS_SCHEMES = ("dup", "gpupd-batch", "gpupd-ra", "gpupd-stream", "chopin")   # "current", "GPUpd", "GPUpd (+Runahead)", ours, CHOPIN
# Fig. 22, front-end rate (issue 20 item 3): the exchanging schemes beside single and dup at every --fe-rates value
FE_SCHEMES = ("single", "dup", "gpupd-batch", "gpupd-ra", "gpupd-stream")


def trace_frames(tool, path):
    out = subprocess.run([tool, "info", path], check=True, capture_output=True, text=True).stdout
    m = re.search(r"^\s*frames\s+(\d+)", out, re.M)
    if not m:
        sys.exit(f"eval_jobs: cannot read the frame count of {path} from `{tool} info`")
    return int(m.group(1))


def csv_list(s):
    return [x for x in s.split(",") if x] if s else []


class Jobs:
    def __init__(self, out, sim, sim_args=(), replay=True):
        self.out, self.sim, self.sim_args, self.replay = out, sim, list(sim_args), replay
        self.jobs = {}          # id -> dict (insertion ordered)

    def add(self, trace, frame, scheme, n, topo="line", lat=DEFAULT_LAT, batch=None, png=False, timeline=False, fe=1):
        if scheme in ("single",):
            n = 1
        if scheme == "chopin" and n < 2:
            return None         # chopin composes the sub-images of 2+ GPUs (N = 1 is an error)
        if scheme not in BATCH_SCHEMES:
            batch = "none"      # single, dup, gpupd, afr do not batch
        elif batch is None:
            batch = DEFAULT_BATCH
        name = os.path.basename(trace)[:-4]
        jid = f"{name}__{scheme}__n{n}__{topo}__l{lat}__b{batch}" + (f"__fe{fe}" if fe != 1 else "")
        if jid in self.jobs:
            self.jobs[jid]["png"] |= png
            self.jobs[jid]["timeline"] |= timeline
            return jid
        self.jobs[jid] = dict(id=jid, trace=name, path=trace, frame=frame, scheme=scheme, gpus=n, topology=topo,
                              lat_ns=lat, batch=batch, png=png, timeline=timeline, fe=fe)
        return jid

    def command(self, j):
        # "none" for gpupd-ra = runahead with every draw its own batch: --batch 1 closes a batch after every
        # draw of >= 2 primitives (a 1-primitive draw merges with the next one); docs/evaluation.md.
        b = 1 if j["batch"] == "none" else j["batch"]
        args = [self.sim, "render", "--trace", j["path"], "--frame", str(j["frame"]), "--scheme", j["scheme"],
                "--gpus", str(j["gpus"]), "--topology", j["topology"], "--link-latency-ns", str(j["lat_ns"])]
        if j["scheme"] in BATCH_SCHEMES:
            args += ["--batch", str(b)]
        # the P2G mask probe costs up to 6x (mesh-bunnies); the sweep checks instead that every run of a trace
        # rendered the frame of `single` (eval_report.py), docs/evaluation.md
        args += ["--no-check-masks", "-q"] + self.sim_args
        if j["fe"] != 1:        # front-end width: CP/VF/CLIP/SETUP at fe triangles per cycle, fe P2G units per GPU
            args += ["--tcfg", f"fe_rate={j['fe']}"]
        # the functional work of a frame once for the whole sweep: runs without a frame image replay the
        # frame records in OUT/frec (the single run, which writes its frame, records them in passing);
        # same cycles and stats as executing (make test-replay), docs/timing.md
        if self.replay:
            args += ["--replay-cache", os.path.join(self.out, "frec")]
        return "scripts/eval_job.sh %s %s%s%s -- %s" % (self.out, j["id"], " --png" if j["png"] else "",
                                                       " --timeline" if j["timeline"] else "", " ".join(args))


def write_atomic(path, text):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def write_mk(out):
    """OUT/jobs.mk from OUT/jobs.txt: one rule per line, target OUT/runs/<id>.json, the recipe is the line
    verbatim, prerequisites the simulator and the trace (so a rebuilt simulator re-runs every job)."""
    lines = [l.rstrip("\n") for l in open(os.path.join(out, "jobs.txt")) if l.strip()]
    rules, targets = [], []
    for k, line in enumerate(lines, 1):
        w = line.split()
        if len(w) < 6 or not w[0].endswith("eval_job.sh") or "--" not in w:
            sys.exit(f"eval_jobs: {out}/jobs.txt line {k} is not 'scripts/eval_job.sh OUT ID [--png] -- COMMAND': {line}")
        jout, jid, cmd = w[1], w[2], w[w.index("--") + 1:]
        deps = [cmd[0]] + [cmd[i + 1] for i, x in enumerate(cmd[:-1]) if x == "--trace"]
        t = f"{jout}/runs/{jid}.json"
        targets.append(t)
        rules.append(f"{t}: {' '.join(deps)}\n\t@{line.replace('$', '$$')}")
    mk = ["# Generated by scripts/eval_jobs.py from jobs.txt: one rule per line, the recipe is the line itself.",
          f"# make -jK -f {out}/jobs.mk  (docs/evaluation.md)", ".DELETE_ON_ERROR:", ".PHONY: all",
          "JOBS := " + " ".join(targets), "all: $(JOBS)"] + rules
    write_atomic(os.path.join(out, "jobs.mk"), "\n".join(mk) + "\n")
    return len(lines)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--mk-only":
        n = write_mk(sys.argv[2])
        print(f"eval_jobs: {sys.argv[2]}/jobs.mk written from jobs.txt ({n} jobs)")
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--trace-tool", required=True)
    ap.add_argument("--traces", required=True, help="comma-separated .gpt files (Fig. 13-16)")
    ap.add_argument("--sens-traces", default=None, help="traces of Fig. 17-19 (default: --traces)")
    ap.add_argument("--gpus", default="1,2,4,8,16")
    ap.add_argument("--sens-gpus", default="4,16")
    ap.add_argument("--schemes", default="single,dup,gpupd,gpupd-batch,gpupd-ra,gpupd-stream,chopin")
    ap.add_argument("--lats", default="100,200,400,800")
    ap.add_argument("--batches", default="none,256,512,1024,2048,4096,8192,16384,32768,65536")
    ap.add_argument("--afr-traces", default="multi", help="'multi' = every multi-frame trace, 'none', or a list")
    ap.add_argument("--figs", default="13,14,15,16,17,18,19,22")
    ap.add_argument("--fe-rates", default="1,4", help="front-end rates (--tcfg fe_rate) of Fig. 22, on --fe-traces at the "
                    "sensitivity N (rate 1 = the Fig. 13 runs)")
    ap.add_argument("--fe-traces", default="oa-dm4-f215,oa-dm4-hd,mesh-bunnies", help="trace names of Fig. 22 (issue 20's "
                    "reference traces; those of --traces only; 'all' = every trace of --traces)")
    ap.add_argument("--png-gpus", default="16", help="also keep the frame of gpupd-ra at this N (besides single)")
    ap.add_argument("--no-replay", action="store_true", help="execute the functional model in every run "
                    "(default: runs without a frame image replay frame records from OUT/frec)")
    ap.add_argument("--sim-args", default="", help="extra gpupd-sim arguments for every run, e.g. a what-if "
                    "'--pe golden --send-rate 16' (use its own --out)")
    ap.add_argument("--timeline", default="oa-dm4-f215:gpupd-ra:4",
                    help="TRACE:SCHEME:N of the run that also writes the per-unit bottleneck timeline ('' none)")
    a = ap.parse_args()

    traces = csv_list(a.traces)
    if not traces:
        sys.exit("eval_jobs: no traces given")
    sens = csv_list(a.sens_traces) if a.sens_traces is not None else traces
    gpus = [int(x) for x in csv_list(a.gpus)]
    sgpus = [int(x) for x in csv_list(a.sens_gpus)]
    schemes = csv_list(a.schemes)
    lats = [int(x) for x in csv_list(a.lats)]
    batches = [x if x == "none" else int(x) for x in csv_list(a.batches)]
    figs = set(csv_list(a.figs))
    fes = [int(x) for x in csv_list(a.fe_rates)]
    frames = {t: trace_frames(a.trace_tool, t) for t in sorted(set(traces) | set(sens))}
    frame = {t: frames[t] - 1 for t in frames}      # multi-frame traces: the last frame (docs/evaluation.md)
    if a.afr_traces == "multi":
        afr = [t for t in traces if frames[t] > 1]
    elif a.afr_traces == "none":
        afr = []
    else:
        afr = csv_list(a.afr_traces)
    png_n = int(a.png_gpus) if a.png_gpus else None

    if any(c in a.sim_args for c in "'\"$`;|&<>\\"):
        sys.exit("eval_jobs: --sim-args must be plain words (no quotes or shell characters)")
    J = Jobs(a.out, a.sim, a.sim_args.split(), replay=not a.no_replay)
    for t in traces:
        J.add(t, frame[t], "single", 1, png=True)
        if figs & {"13", "14", "15", "16"}:
            for s in schemes:
                for n in gpus:
                    J.add(t, frame[t], s, n, png=(s == "gpupd-ra" and n == png_n))
            if t in afr:
                for n in gpus:
                    J.add(t, frame[t], "afr", n)
    for t in sens:
        J.add(t, frame[t], "single", 1, png=True)
        for n in sgpus:
            if "17" in figs:
                for s in SENS_SCHEMES:
                    for lat in lats:
                        J.add(t, frame[t], s, n, lat=lat)
            if "18" in figs:
                for s in BATCH_SCHEMES:
                    for b in batches:
                        if b == "none" and s == "gpupd-batch":
                            J.add(t, frame[t], "gpupd", n)         # GPUpd without batching
                        else:
                            J.add(t, frame[t], s, n, batch=b)
            if "19" in figs:
                for s in SENS_SCHEMES:
                    for topo in ("line", "hub"):
                        J.add(t, frame[t], s, n, topo=topo)
                # issue 20's target configuration of gpupd-stream: hub with 100 ns links (Fig. 20)
                J.add(t, frame[t], "gpupd-stream", n, topo="hub", lat=100)
    fe_names = None if a.fe_traces == "all" else set(csv_list(a.fe_traces))
    for t in traces:
        if "22" not in figs or (fe_names is not None and os.path.basename(t)[:-4] not in fe_names):
            continue
        for n in sgpus:
            for fe in fes:
                for s in FE_SCHEMES:
                    J.add(t, frame[t], s, n, fe=fe)

    if a.timeline:
        tn, ts, tg = a.timeline.split(":")
        tp = [t for t in traces if os.path.basename(t)[:-4] == tn]
        if tp:      # the trace may not be in a reduced list
            J.add(tp[0], frame[tp[0]], ts, int(tg), timeline=True)
    os.makedirs(a.out, exist_ok=True)
    # round-robin over traces, so that the mean run time so far (the ETA's basis) is representative early
    per = {}
    for j in J.jobs.values():
        per.setdefault(j["trace"], []).append(j)
    jobs = [q[k] for k in range(max(len(q) for q in per.values())) for q in per.values() if k < len(q)]
    cmds = [J.command(j) for j in jobs]
    write_atomic(os.path.join(a.out, "jobs.txt"), "".join(c + "\n" for c in cmds))
    cols = ["id", "trace", "path", "frame", "scheme", "gpus", "topology", "lat_ns", "batch", "png", "timeline", "fe"]
    write_atomic(os.path.join(a.out, "jobs.tsv"),
                 "\t".join(cols) + "\n" + "".join("\t".join(str(int(j[c]) if c in ("png", "timeline") else j[c])
                                                            for c in cols) + "\n"
                                                  for j in jobs))
    write_mk(a.out)
    import json
    write_atomic(os.path.join(a.out, "jobs.meta.json"),
                 json.dumps(dict(sim=a.sim, sim_args=a.sim_args, traces=traces, sens_traces=sens, gpus=gpus,
                                 sens_gpus=sgpus, schemes=schemes, lats=lats, batches=[str(b) for b in batches],
                                 figs=sorted(figs), fe_rates=fes, jobs=len(jobs)), indent=1) + "\n")
    print(f"eval_jobs: {len(jobs)} jobs on {len(frames)} traces in {a.out}/jobs.txt (make: {a.out}/jobs.mk, "
          f"manifest: {a.out}/jobs.tsv)")


if __name__ == "__main__":
    main()
