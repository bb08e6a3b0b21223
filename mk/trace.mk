# Trace concern (issue 3): trace format library (cmodel/trace), gpupd-trace tool, bundled traces (traces/),
# capture + converter (traces/capture/), fuzzing (tests/fuzz/). See docs/trace-format.md and docs/traces.md.

# The trace library uses zlib (per-chunk compression, CRC-32) and zstd (format 1.2 chunks).
LDLIBS_COMMON += -lz -lzstd

TRACE_TOOL    := $(BUILD)/bin/gpupd-trace
TRACE_FILES   := $(sort $(wildcard traces/*.gpt))
TRACE_SRCS    := $(sort $(wildcard cmodel/trace/*.c)) cmodel/common/outfile.c
FUZZ_SECONDS  ?= 30
# Share of comparable draws of each bundled trace whose converted geometry must reproduce the reference
# pixel count within 2% (gpupd-trace coverage).
TRACE_COVERAGE_MIN ?= 95
# Bundled traces with no draw the independent coverage rasterizer can compare (it takes triangles drawn by
# MVP * position programs only): glmark2-ideas (every vertex program displaces or is not MVP; line strips).
# Their per-draw counts are checked by test-model-validate (the golden model against glretrace --ppd) instead.
TRACE_COVERAGE_SKIP := traces/glmark2-ideas.gpt
CLANG         ?= clang

# Every bundled trace validates, round-trips binary -> text -> binary, is described by info, and its converted
# geometry reproduces the reference per-draw pixel counts (gpupd-trace coverage). Round trip: byte-identical
# for the synthetic traces (zlib, and zstd via `gpupd-trace pack`) and every bundled trace up to
# TRACE_RT_FULL_MAX bytes; larger ones are re-encoded at compression level 1 (zstd -19 costs ~1 s/MB) and their
# text dumps must be identical below the header line (every chunk's flags are explicit in the text).
TRACE_RT_FULL_MAX ?= 1000000
# make test: TRACES_TEST (Makefile: the big 1920x1080 frames sampled); make test-long: every bundled trace.
.PHONY: test-trace-roundtrip test-long-trace-roundtrip
test-trace-roundtrip: TRACE_RT_SET = $(TRACES_TEST)
test-long-trace-roundtrip: TRACE_RT_SET = $(TRACES_ALL)
test-trace-roundtrip test-long-trace-roundtrip: $(TRACE_TOOL)
	@set -e; d=$(BUILD)/trace-rt; mkdir -p $$d; \
	$(TRACE_TOOL) synth $$d/synthetic.gpt; $(TRACE_TOOL) pack $$d/synthetic.gpt $$d/synthetic-zstd.gpt; n=0; \
	for t in $$d/synthetic.gpt $$d/synthetic-zstd.gpt $(TRACE_RT_SET); do \
	  b=$$d/$$(basename $$t .gpt); \
	  $(TRACE_TOOL) validate $$t >/dev/null; \
	  $(TRACE_TOOL) info $$t >/dev/null; \
	  case " $(TRACE_COVERAGE_SKIP) " in *" $$t "*) ;; *) case $$t in traces/*) c=$$($(TRACE_TOOL) coverage $$t); \
	    p=$$(echo "$$c" | sed -n 's/.*within 2% (\([0-9.]*\)%).*/\1/p'); \
	    if [ -z "$$p" ] || [ $${p%.*} -lt $(TRACE_COVERAGE_MIN) ]; then echo "FAIL: $$c"; \
	      echo "  fewer than $(TRACE_COVERAGE_MIN)% of the draws match their glretrace --ppd pixel count;" \
	      "reproduce: $(TRACE_TOOL) coverage-draws $$t"; exit 1; fi;; esac;; esac; \
	  $(TRACE_TOOL) dump $$t $$b.txt; \
	  if [ $$(stat -c %s $$t) -le $(TRACE_RT_FULL_MAX) ]; then \
	    $(TRACE_TOOL) undump $$b.txt $$b.rt.gpt; \
	    if ! cmp $$t $$b.rt.gpt; then \
	      echo "FAIL: $$t: binary -> text -> binary differs (text dump $$b.txt)"; \
	      echo "  reproduce: $(TRACE_TOOL) dump $$t x.txt && $(TRACE_TOOL) undump x.txt x.gpt && cmp $$t x.gpt"; exit 1; fi; \
	  else \
	    sed '1s/zlevel [0-9]*/zlevel 1/' $$b.txt > $$b.l1.txt; \
	    $(TRACE_TOOL) undump $$b.l1.txt $$b.rt.gpt; $(TRACE_TOOL) dump $$b.rt.gpt $$b.rt.txt; \
	    if ! cmp <(tail -n +2 $$b.txt) <(tail -n +2 $$b.rt.txt); then \
	      echo "FAIL: $$t: binary -> text -> binary (level 1) -> text differs ($$b.txt vs $$b.rt.txt)"; exit 1; fi; \
	    rm -f $$b.l1.txt $$b.rt.txt; \
	  fi; \
	  n=$$((n+1)); rm -f $$b.txt $$b.rt.gpt; \
	done; echo "$@: $$n passed, 0 failed"
TEST_TARGETS += test-trace-roundtrip
test-long: test-long-trace-roundtrip

# libFuzzer target on the reader (CRC checks off so the fuzzer reaches the parsers) + short smoke run.
$(BUILD)/fuzz/fuzz_trace: tests/fuzz/fuzz_trace.c $(TRACE_SRCS) $(wildcard cmodel/trace/*.h)
	@mkdir -p $(@D)
	$(CLANG) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $(CPPFLAGS_COMMON) tests/fuzz/fuzz_trace.c $(TRACE_SRCS) -lz -lzstd -lm -o $@

.PHONY: fuzz-trace test-trace-fuzz
test-trace-fuzz: $(BUILD)/fuzz/fuzz_trace $(TRACE_TOOL)
	@set -e; d=$(BUILD)/fuzz/corpus; rm -rf $$d; mkdir -p $$d; \
	$(TRACE_TOOL) synth $$d/synthetic-z0.gpt 0; $(TRACE_TOOL) synth $$d/synthetic-z6.gpt 6; \
	cp tests/fuzz/corpus/* $$d/ 2>/dev/null || true; \
	echo "fuzzing the trace reader for $(FUZZ_SECONDS) s (reproduce: $< -max_total_time=$(FUZZ_SECONDS) $$d)"; \
	$< -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -rss_limit_mb=1024 -malloc_limit_mb=512 -timeout=5 \
	  -seed=1 -print_final_stats=1 $$d >$(BUILD)/fuzz/fuzz.log 2>&1 || { tail -40 $(BUILD)/fuzz/fuzz.log; \
	  echo "FAIL: fuzzer found a crash/leak/hang; log $(BUILD)/fuzz/fuzz.log, reproducer crash-* in the cwd"; exit 1; }; \
	grep -E 'stat::number_of_executed_units|Done' $(BUILD)/fuzz/fuzz.log | tail -2; \
	echo "test-trace-fuzz: 1 passed, 0 failed"
fuzz-trace: $(BUILD)/fuzz/fuzz_trace
	mkdir -p $(BUILD)/fuzz/corpus && $< -max_len=65536 $(BUILD)/fuzz/corpus
# (not in TEST_TARGETS any more: `make test-fuzz` (mk/harden.mk) runs this target and one per other input surface)

# Converter: unit tests of its GL emulation (primitive assembly, matrices, array decoding) and an end-to-end
# capture made in the test run (glmark2 shadow under faketime + apitrace, 1 frame converted, checked against
# the horse model's triangle count and glretrace --ppd).
.PHONY: test-trace-convert
test-trace-convert: $(TRACE_TOOL)
	@rm -rf $(BUILD)/trace-convert-test; mkdir -p $(BUILD)/trace-convert-test
	$(PYTHON) tests/trace/test_convert.py --tool $(TRACE_TOOL) --work $(BUILD)/trace-convert-test
TEST_TARGETS += test-trace-convert

# Regenerate the bundled trace set (slow: minutes; needs apitrace, glmark2, openarena, xvfb, faketime).
.PHONY: traces traces-table capture-traces capture-oa-demo
traces capture-traces: $(TRACE_TOOL) $(BUILD)/bin/gpupd-as
	nice traces/capture/capture.sh all
	$(MAKE) traces-table
traces-table: $(TRACE_TOOL)
	$(PYTHON) traces/capture/table.py --tool $(TRACE_TOOL) traces/README.md $(TRACE_FILES)
capture-oa-demo:
	traces/capture/capture.sh record-oa-demo

# Reader throughput on the bundled traces (decompress + decode + validate), as rates.
.PHONY: bench-trace
bench-trace: $(TRACE_TOOL)
	@$(TRACE_TOOL) bench $(TRACE_FILES)
BENCH_TARGETS += bench-trace
