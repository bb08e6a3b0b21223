# The paper's evaluation (Fig. 13-19) on the bundled traces: the main job of `make run`. See docs/evaluation.md.
#
#   make run-eval        job list -> every job (parallel, progress + ETA) -> tables, plots, out/eval/index.html
#   make eval-jobs       only write the job list: out/eval/jobs.txt (one command per line), jobs.mk, jobs.tsv
#   make eval-report     only rebuild tables/plots/index from the finished jobs (e.g. after a cluster run)
#   make bench-eval      wall time of the full sweep of one OpenArena frame (6 schemes x N = 1, 2, 4, 8, 16)
#   make test-eval       reduced end-to-end run on one small trace, checked (tests/eval/)
#
# Parallelism: `make -jK run` shares make's job slots; a plain `make run` uses EVAL_J (default: all cores).
# (Literal tool paths: this file is included before mk/model.mk and mk/trace.mk.)

EVAL_OUT         ?= out/eval
EVAL_SIM         := $(BUILD)/bin/gpupd-sim
EVAL_TRACE_TOOL  := $(BUILD)/bin/gpupd-trace
EVAL_TRACES      ?= $(sort $(wildcard traces/*.gpt))
# Fig. 17-19 (sensitivity) traces. The paper sweeps three "benchmarks of interest" of its eight; we sweep
# one per kind of workload: an OpenArena game frame (the most draws of those), the render-to-texture scene
# with the most synchronisations, the 572k-triangle geometry-bound scene, and the first paper-sized 1920x1080
# Nexuiz frame (1,393 draws, shadow maps, bloom, water) (EVAL_SENS_TRACES="$(EVAL_TRACES)" sweeps every trace:
# about three times the jobs). docs/evaluation.md
EVAL_SENS_TRACES ?= $(filter $(addprefix traces/,oa-dm4-f215.gpt glmark2-terrain.gpt mesh-bunnies.gpt nexuiz-f107.gpt),$(EVAL_TRACES))
# extra scripts/eval_jobs.py arguments (e.g. --gpus 1,2,4 --lats 100,800 --batches none,4096)
EVAL_ARGS        ?=
# extra gpupd-sim arguments for every run (a what-if sweep; give it its own EVAL_OUT), e.g.
#   make run-eval EVAL_OUT=out/eval-pe16 EVAL_SIM_ARGS="--pe golden --send-rate 16"
EVAL_SIM_ARGS    ?=
EVAL_SCRIPTS     := scripts/eval_jobs.py scripts/eval_job.sh scripts/eval_sweep.sh scripts/eval_report.py scripts/eval_keys.py

eval_list = $(subst $(eval_sp),$(eval_comma),$(strip $1))
eval_sp := $(eval_empty) $(eval_empty)
eval_comma := ,

.PHONY: eval-jobs run-eval eval-report bench-eval test-eval
eval-jobs: $(EVAL_TRACE_TOOL)
	@$(PYTHON) scripts/eval_jobs.py --out $(EVAL_OUT) --sim $(EVAL_SIM) --trace-tool $(EVAL_TRACE_TOOL) \
	  --traces "$(call eval_list,$(EVAL_TRACES))" --sens-traces "$(call eval_list,$(EVAL_SENS_TRACES))" \
	  --sim-args "$(EVAL_SIM_ARGS)" $(EVAL_ARGS)

run-eval: eval-jobs $(EVAL_SIM)
	+@scripts/eval_sweep.sh $(EVAL_OUT)
	@$(PYTHON) scripts/eval_report.py $(EVAL_OUT)
RUN_TARGETS += run-eval

eval-report:
	@$(PYTHON) scripts/eval_report.py $(EVAL_OUT)

# ------------------------------------------------------------------ benchmark: the full sweep of one frame
# oa-dm4-f215 (OpenArena, 516 draws, 23,630 triangles): single, dup, gpupd, gpupd-batch, gpupd-ra, chopin, afr
# at N = 1, 2, 4, 8, 16 (single is one run: N is forced to 1; chopin from N = 2), line, 400 ns, threshold 4096; every job re-run,
# 2 at a time (the 2-core CI machine). Goal: <= 60 s wall. Prints per-job times and simulated cycles/s.
EVAL_BENCH_TRACE ?= traces/oa-dm4-f215.gpt
EVAL_BENCH_OUT   := out/bench/eval
bench-eval: $(EVAL_SIM) $(EVAL_TRACE_TOOL)
	@rm -rf $(EVAL_BENCH_OUT) && mkdir -p $(EVAL_BENCH_OUT)
	@$(PYTHON) scripts/eval_jobs.py --out $(EVAL_BENCH_OUT) --sim $(EVAL_SIM) --trace-tool $(EVAL_TRACE_TOOL) \
	  --traces $(EVAL_BENCH_TRACE) --sens-traces '' --figs 13 --afr-traces $(EVAL_BENCH_TRACE) --png-gpus ''
	@EVAL_J=2 MAKEFLAGS= scripts/eval_sweep.sh $(EVAL_BENCH_OUT) | grep -v '^  eval \['
	@$(PYTHON) scripts/eval_bench.py $(EVAL_BENCH_OUT) 60
BENCH_TARGETS += bench-eval

# ------------------------------------------------------------------ test: reduced sweep end to end
# One small trace with a render-to-texture sync, N = 1, 2, 4, the sensitivity sweeps at N = 4 with two
# points each, through the same scripts; then consistency checks, GNU parallel on the same list
# (identical results), and failing jobs / missing keys / missing results must fail (tests/eval/test_eval.sh).
EVAL_TEST_TRACE ?= traces/glmark2-shadow.gpt
test-eval: $(EVAL_SIM) $(EVAL_TRACE_TOOL)
	@tests/eval/test_eval.sh out/test/eval $(EVAL_SIM) $(EVAL_TRACE_TOOL) $(EVAL_TEST_TRACE)
TEST_TARGETS += test-eval
