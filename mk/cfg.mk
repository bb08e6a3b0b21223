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
# the values the configurations of the tests (uses CFG_COVER_USES) build, against the required ones (extremes, a
# non-default value, a non-power-of-two depth, MAX_GPUS 1, 2, 3, 16, 63, 64); a required value never built fails.
# Writes out/cfg-coverage.md. Not in make test while the tables miss required configurations (the report lists
# them).
CFG_COVER_USES ?= cosim,tb,cosim-ice40
.PHONY: cfg-coverage
cfg-coverage: $(BUILD)/gen/cfg.json
	$(PYTHON) scripts/cfg_coverage.py --cfg $< --uses $(CFG_COVER_USES) --out out/cfg-coverage.md
