# GPUpd: top-level Makefile.
# This file holds the shared variables and the aggregate targets only. Each concern adds its rules in
# mk/<concern>.mk (p2g.mk, isa.mk, trace.mk, model.mk, ...) and registers its targets by appending to
#   TEST_TARGETS   run by `make test`        (must finish well under 20 minutes in total)
#   RUN_TARGETS    run by `make run`         (the main job on the bundled traces)
#   BENCH_TARGETS  run by `make bench`       (fixed workloads, printed as rates/ratios)
#   LINT_TARGETS, SYNTH_TARGETS, COVERAGE_TARGETS, GEN_HDRS (generated headers the C library needs)
#
# The C golden model is one static library built from every cmodel/**/*.c except cmodel/tools/ (each
# file there is one command-line tool: cmodel/tools/gpupd-foo.c -> build/bin/gpupd-foo).
# Two flavours: build/lib/libgpupd.a (-O2, for tools and benchmarks) and build/san/libgpupd.a
# (ASan+UBSan, for the unit tests). Unit tests are tests/unit/test_*.c on cmocka, linked with the latter.

SHELL      := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

# Parallel by default: a top-level make without -j runs nproc jobs at once (`make test` on 2 cores: 2 jobs),
# with each target's output printed in one piece when it finishes (--output-sync=target). An explicit -jN on
# the command line or in the environment's MAKEFLAGS wins (`make -j1 test` runs one target at a time); a
# sub-make (MAKELEVEL > 0) shares its parent's job slots. `make bench...` stays serial: benchmarks measure
# rates and must not share the CPU with each other. (GNU make 4.3 does not show a command-line -j in
# MAKEFLAGS while it reads the makefiles, but a command-line -j overrides this one.)
ifeq ($(MAKELEVEL),0)
ifeq ($(filter bench%,$(MAKECMDGOALS)),)
ifeq ($(shell printenv MAKEFLAGS | sed 's/ -- .*//' | tr ' ' '\n' | grep -c '^-*[A-Za-z]*j'),0)
MAKEFLAGS += -j$(shell nproc) --output-sync=target --no-print-directory
endif
endif
endif

BUILD      ?= build
CC         ?= gcc
PYTHON     ?= /usr/bin/python3
CPPFLAGS_COMMON := -Icmodel -I$(BUILD)/gen -D_POSIX_C_SOURCE=200809L
CWARN      := -std=c11 -Wall -Wextra -Werror
COPT       ?= -O2 -g
SANFLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS_COMMON := -lm -pthread

LIB_SRCS   := $(sort $(filter-out cmodel/tools/%,$(shell find cmodel -name '*.c')))
TOOL_SRCS  := $(sort $(wildcard cmodel/tools/*.c))
TOOLS      := $(patsubst cmodel/tools/%.c,$(BUILD)/bin/%,$(TOOL_SRCS))
LIB        := $(BUILD)/lib/libgpupd.a
SANLIB     := $(BUILD)/san/libgpupd.a
LIB_OBJS   := $(patsubst %.c,$(BUILD)/lib/obj/%.o,$(LIB_SRCS))
SAN_OBJS   := $(patsubst %.c,$(BUILD)/san/obj/%.o,$(LIB_SRCS))
UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

TEST_TARGETS :=
RUN_TARGETS :=
BENCH_TARGETS :=
LINT_TARGETS :=
SYNTH_TARGETS :=
COVERAGE_TARGETS :=
GEN_HDRS :=

# Bundled traces. The 1920x1080 game frames (traces/nexuiz-*: 1,000-1,400 draws, about 10 CPU-seconds per
# render on one GPU, 15 MB each) are sampled by the make-test checks that render, replay or re-encode every trace:
# TRACES_TEST is every other trace plus the first of them; make test-long and make run take them all
# (docs/testing.md, "Paper-sized frames").
TRACES_ALL  := $(sort $(wildcard traces/*.gpt))
TRACES_BIG  := $(sort $(wildcard traces/nexuiz-*.gpt))
TRACES_TEST := $(filter-out $(wordlist 2,999,$(TRACES_BIG)),$(TRACES_ALL))

# Per-concern rules. They may use every variable above and append to the target lists.
# mk/verilator.mk first: it defines the Verilator build macro the others call; mk/cfg.mk next: the configuration
# functions generated from defs/cfg_*.tbl, which the others call at parse time.
include mk/verilator.mk mk/cfg.mk
include $(filter-out mk/verilator.mk mk/cfg.mk,$(sort $(wildcard mk/*.mk)))

.PHONY: all deps check-tools lib tools test test-unit check test-long run bench lint synth coverage clean help

all: lib tools

help:
	@echo "make deps      install missing Debian packages and check tool versions (needs root/sudo)"
	@echo "make run       main job on the bundled traces (results under out/)"
	@echo "make test      whole test suite:$(foreach t,test-unit $(TEST_TARGETS), $t)"
	@echo "make check     quick subset (build, unit tests, CLI checks, P2G/PE lint and testbenches):$(foreach t,$(CHECK_TARGETS), $t)"
	@echo "make test-long longer sweeps and the checks moved out of make test (make test-timing: make test, timed)"
	@echo "make bench     benchmarks:$(foreach t,$(BENCH_TARGETS), $t)"
	@echo "make lint | synth | coverage | sim-<unit> | cosim-<unit> | waves-<unit>"

deps:
	scripts/install-deps.sh

check-tools:
	scripts/check-tools.sh

lib: $(LIB)
tools: $(TOOLS)

$(BUILD)/lib/obj/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -MMD -MP -c $< -o $@

$(BUILD)/san/obj/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O1 -g $(SANFLAGS) $(CPPFLAGS_COMMON) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(SANLIB): $(SAN_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/%: cmodel/tools/%.c $(LIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -MMD -MP $< $(LIB) $(LDLIBS_COMMON) -o $@

$(BUILD)/tests/test_%: tests/unit/test_%.c $(SANLIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O1 -g $(SANFLAGS) $(CPPFLAGS_COMMON) -MMD -MP $< $(SANLIB) -lcmocka $(LDLIBS_COMMON) -o $@

# Every cmocka unit test binary, each its own target (unit-test_foo: make -j runs them side by side, each one's
# output in one piece); a failure stops make with that test's output.
UNIT_RUNS  := $(patsubst $(BUILD)/tests/%,unit-%,$(UNIT_BINS))
.PHONY: $(UNIT_RUNS)
$(UNIT_RUNS): unit-%: $(BUILD)/tests/%
	@echo "== $<"; $<
test-unit: $(UNIT_RUNS)
	@echo "test-unit: $(words $(UNIT_RUNS)) unit test programs passed"

# The long chains first (the SIMT lockstep models' verilate + PGO compile + run, the Yosys elaboration of the
# default core, the unit FPU model), so that under -j they overlap with the many short targets instead of
# starting last and stretching the run (the generated headers they need are made before: headers.mk below).
TEST_FIRST := lint-simt-yosys-default test-simt-cosim test-simt-cosim-failure test-simt-waves test-simt-cosim-ice40 \
              test-simt-cp test-simt-fpu-cosim test-simt-fpu-cosim-area test-rtl-headers
test: $(filter $(TEST_TARGETS),$(TEST_FIRST)) test-unit $(filter-out $(TEST_FIRST),$(TEST_TARGETS))
	@echo "make test: ALL PASSED ($(words test-unit $(TEST_TARGETS)) suites)"

# The quick edit-compile loop (under 3 minutes on an idle 2-core machine from a clean clone): the C library and
# tools, the unit tests (ASan + UBSan), the command-line checks, the RTL lints of the P2G and PE and their
# Icarus testbenches, the generated headers against their sources. make test runs all of it and the rest.
CHECK_TARGETS := test-unit test-model-cli test-p2g-cli test-timing-cli test-isa-tools lint-p2g lint-pe test-p2g-sim test-pe-sim
check: all $(CHECK_TARGETS)
	@echo "make check: ALL PASSED ($(words $(CHECK_TARGETS)) suites; the whole suite: make test)"

# `make test` with every recipe line timed (scripts/make_timing_shell.sh) and the 1-minute load average sampled
# every 15 s; writes out/testing/make-test-timing.md (span, CPU and start/end per target; docs/testing.md).
# TIMING_GOAL=check times `make check` instead (out/testing/make-check-timing.md). From scratch: run it in a clean
# clone. Takes the job count of the make that runs it (default: nproc).
TEST_TIMING_OUT := out/testing
TIMING_GOAL     ?= test
TIMING_BASE     := $(TEST_TIMING_OUT)/make-$(TIMING_GOAL)-timing
.PHONY: test-timing
test-timing:
	@mkdir -p $(TEST_TIMING_OUT) && rm -f $(TIMING_BASE).log $(TIMING_BASE).load
	+@( while :; do echo "$$(date +%s) $$(cut -d' ' -f1 /proc/loadavg)"; sleep 15; done ) > $(TIMING_BASE).load & lp=$$!; \
	t0=$$(date -u '+%Y-%m-%d %H:%M UTC'); \
	$(MAKE) $(TIMING_GOAL) SHELL=$(abspath scripts/make_timing_shell.sh) '.SHELLFLAGS=TT:$$@ -o pipefail -c' \
	  MAKE_TIMING_LOG=$(abspath $(TIMING_BASE)).log; rc=$$?; kill $$lp; \
	$(PYTHON) scripts/make_timing_report.py $(TIMING_BASE).log --top 60 --cores $$(nproc) --goal $(TIMING_GOAL) \
	  --load $(TIMING_BASE).load --report $(TIMING_BASE).md \
	  --meta "commit=$$(git rev-parse --short HEAD 2>/dev/null)$$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')" \
	  --meta "run=make $(TIMING_GOAL) $(filter -j%,$(MAKEFLAGS)) $(filter -O%,$(MAKEFLAGS)), started $$t0, exit status $$rc" \
	  --meta "machine=$$(nproc) cores, $$(free -g | awk '/^Mem:/ {print $$2}') GB"; \
	exit $$rc

run: $(RUN_TARGETS)
	@echo "make run: done. Results:"
	@for f in out/validation/summary.txt out/p2g/p2g_summary.md out/p2g/p2g_stats.csv out/p2g/p2g_redundancy.png out/p2g/p2g_balance.png \
	    out/eval/index.html out/eval/index.md out/eval/summary.md out/eval/results.csv out/eval/jobs.txt; do \
	  [ -e $$f ] && echo "  $$f"; done; true

bench: $(BENCH_TARGETS)
lint: $(LINT_TARGETS)
synth: $(SYNTH_TARGETS)
coverage: $(COVERAGE_TARGETS)

clean:
	rm -rf $(BUILD) out

# Our compilers' dependency files (-MMD -MP). Not Verilator's (V*.d, verilated*.d in each model's -Mdir): its own
# sub-make reads them, and they name RTL files without -MP phony targets, so a removed RTL file would stop every
# make in an old build tree with "No rule to make target" (the model rules list their RTL themselves).
-include $(shell find $(BUILD) -name '*.d' -not -name 'V*.d' -not -name 'verilated*.d' 2>/dev/null)

# The generated headers before everything else for the suites: make remakes an included makefile (and restarts)
# before it works on the goals, so $(BUILD)/gen/headers.mk, which depends on every generated header, brings them
# up to date first. Without it, make -j defers a target whose prerequisite is still being generated until it has
# started the rest of the list (GNU make 4.3), and the long chains of TEST_FIRST would start last on a clean tree.
ifneq ($(filter test check test-timing,$(MAKECMDGOALS)),)
-include $(BUILD)/gen/headers.mk
endif
$(BUILD)/gen/headers.mk: $(GEN_HDRS)
	@mkdir -p $(@D) && echo '# generated headers up to date (Makefile: remade first for test, check)' > $@
