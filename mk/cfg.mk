# Hardware configurations of the units from one table per unit (defs/cfg_<unit>.tbl, format in
# scripts/gen_cfg.py): the make functions that expand a configuration string into Verilator -G, Icarus -P and
# C -D flags ($(BUILD)/gen/cfg.mk, included here: make generates it first and restarts), the C headers and
# Verilog includes ($(BUILD)/gen/cfg_<unit>.{h,vh}), and the tables as JSON for coverage reports
# ($(BUILD)/gen/cfg.json, make cfg-json). Included by the Makefile right after mk/verilator.mk, so that every
# mk/*.mk can call the functions at parse time. make test-cfg checks that all of them agree with the tables.
CFG_TBLS := $(sort $(wildcard defs/cfg_*.tbl))
CFG_GEN  := scripts/gen_cfg.py
CFG_MK   := $(BUILD)/gen/cfg.mk
CFG_HDRS := $(patsubst defs/cfg_%.tbl,$(BUILD)/gen/cfg_%.h,$(CFG_TBLS)) $(patsubst defs/cfg_%.tbl,$(BUILD)/gen/cfg_%.vh,$(CFG_TBLS))

$(CFG_MK): $(CFG_TBLS) $(CFG_GEN)
	@mkdir -p $(@D)
	@$(PYTHON) $(CFG_GEN) mk $@ $(CFG_TBLS)
include $(CFG_MK)

$(BUILD)/gen/cfg_%.h: defs/cfg_%.tbl $(CFG_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(CFG_GEN) h $(@D) $<
$(BUILD)/gen/cfg_%.vh: defs/cfg_%.tbl $(CFG_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(CFG_GEN) vh $(@D) $<
GEN_HDRS += $(CFG_HDRS)

$(BUILD)/gen/cfg.json: $(CFG_TBLS) $(CFG_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(CFG_GEN) list $(CFG_TBLS) > $@.tmp && mv $@.tmp $@
.PHONY: cfg-json test-cfg
cfg-json: $(BUILD)/gen/cfg.json

# For every configuration of every table: the flags make generates, the C header and the Verilog include carry
# the table's values (compiled by cc and elaborated by Icarus), every value is legal, the RTL defaults are the
# tops' declarations and every C define is read by the unit's shim (scripts/gen_cfg.py check).
test-cfg: $(CFG_MK) $(CFG_HDRS)
	@CC=$(CC) $(PYTHON) $(CFG_GEN) check $(CFG_MK) $(BUILD)/gen $(CFG_TBLS)
TEST_TARGETS += test-cfg
LINT_TARGETS += test-cfg

# Configuration coverage (scripts/cfg_coverage.py, docs/configurations.md "Coverage"): per unit and parameter,
# the values the configurations of make test (uses CFG_COVER_USES) and of make test-long only (CFG_COVER_LONG_USES)
# build, against the required ones (extremes, a non-default value, a non-power-of-two depth, MAX_GPUS 1, 2, 3, 16,
# 63, 64); a required value that neither set builds fails. Writes out/cfg-coverage.md. In make test (< 1 s of
# CPU; the builds it counts run in their own targets: sim-p2g-cfg, sim-pe-cfg, sim-cd in make test,
# test-long-cfg-cosim in make test-long), with a self-test: the tables without the configurations that build
# MAX_GPUS = 63 must fail the report.
CFG_COVER_USES ?= cosim,tb,tb-cfg,cosim-ice40
CFG_COVER_LONG_USES ?= cosim-long,cosim-cfg,tb-long
.PHONY: cfg-coverage
cfg-coverage: $(BUILD)/gen/cfg.json
	$(PYTHON) scripts/cfg_coverage.py --cfg $< --uses $(CFG_COVER_USES) --long-uses $(CFG_COVER_LONG_USES) --out out/cfg-coverage.md
	@$(PYTHON) -c "import json, sys; u = json.load(open(sys.argv[1])); \
	  [t.__setitem__('configs', [c for c in t['configs'] if 63 not in c['values'].values()]) for t in u]; \
	  json.dump(u, open(sys.argv[2], 'w'))" $< $(BUILD)/gen/cfg-no63.json
	@if $(PYTHON) scripts/cfg_coverage.py --cfg $(BUILD)/gen/cfg-no63.json --uses $(CFG_COVER_USES) \
	    --long-uses $(CFG_COVER_LONG_USES) --out $(BUILD)/gen/cfg-no63.md > $(BUILD)/gen/cfg-no63.log 2>&1; then \
	  echo "cfg-coverage: FAIL: the report passed on tables without MAX_GPUS = 63 ($(BUILD)/gen/cfg-no63.json)"; exit 1; \
	elif ! grep -q 'MAX_GPUS: 63 (MAX_GPUS set) never built' $(BUILD)/gen/cfg-no63.log; then \
	  echo "cfg-coverage: FAIL: without MAX_GPUS = 63 the report failed for another reason:"; tail -3 $(BUILD)/gen/cfg-no63.log; exit 1; \
	else echo "cfg-coverage: self-test: tables without MAX_GPUS = 63 fail the report: OK"; fi
TEST_TARGETS += cfg-coverage
