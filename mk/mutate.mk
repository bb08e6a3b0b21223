# Mutation testing (issue 25, docs/testing.md): `make mutate UNIT=p2g|pe|simt` applies source-level operator
# mutations to the unit's RTL, one at a time in a scratch copy (out/mutate/UNIT-work/; rtl/ and build/ are never
# written), runs the unit's Icarus benches on the C cycle model's vectors against each (the prerequisites build
# them) and writes out/mutate/UNIT.md: killed (by which test), survived, argued equivalent
# (tests/mutate/UNIT.equiv), the id of each. Options:
#   MUTANTS=n       a sample of n mutants drawn with MUTATE_SEED (default 1); 0 = every mutant
#   LOCKSTEP=1      survivors of the benches also run the Verilator lockstep (built per mutant under
#                   out/mutate/UNIT-work/build)
#   ONLY=ID         one mutant, verbosely, with each test's command and output (the report's reproduce command)
#   LIST=1          print every mutant id and the line it makes
#   MUTATE_FRESH=1  forget the stored results (by default a rerun reuses every result whose mutant, RTL, benches
#                   and vectors are unchanged, so an interrupted campaign resumes)
# make test-long runs every unit at MUTATE_LONG_MUTANTS with the lockstep tier; make test runs the mutator's
# self-test (test-mutate-self: a known P2G mutant is generated and killed, the unmutated RTL passes).
MUTANTS     ?= 0
MUTATE_SEED ?= 1
MUTATE_LONG_MUTANTS ?= 60
MUTATE_FILES_pe    := rtl/pe_exchanger.v rtl/pe_fifo.v rtl/pe_lowbit.v
MUTATE_PRE_pe      := sim-pe test-pe-err
MUTATE_FILES_p2g   := rtl/p2g_mapper.v rtl/p2g_range_mask.v rtl/p2g_add_tree.v
MUTATE_PRE_p2g     := sim-p2g
MUTATE_FILES_simt  := rtl/simt_warp.v rtl/simt_decode.v rtl/simt_core.v rtl/simt_lane.v
MUTATE_PRE_simt    := sim-simt test-simt-hazard-sim
MUTATE_PRE_LOCK_pe   := cosim-pe-build
MUTATE_PRE_LOCK_p2g  := cosim-p2g-build
MUTATE_PRE_LOCK_simt  = $(SIMT_BIN)
MUTATE_ARGS = --unit $(UNIT) --build $(BUILD) --rtl "$(MUTATE_RTL_$(UNIT))" --mutate "$(MUTATE_FILES_$(UNIT))" -o out/mutate
MUTATE_RTL_pe       = $(PE_RTL)
MUTATE_RTL_p2g      = $(P2G_RTL)
MUTATE_RTL_simt     = $(SIMT_RTL)
.PHONY: mutate mutate-all test-mutate-self
mutate:
	@case "$(UNIT)" in p2g|pe|simt) ;; *) echo "make mutate UNIT=p2g|pe|simt [MUTANTS=n] [MUTATE_SEED=s] [LOCKSTEP=1] [ONLY=id] [LIST=1]"; exit 2;; esac
	@$(if $(LIST),,$(MAKE) --no-print-directory $(MUTATE_PRE_$(UNIT)) $(if $(LOCKSTEP),$(MUTATE_PRE_LOCK_$(UNIT))) >/dev/null)
	SIMT_ICE40_PARAMS='$(SIMT_ICE40_PARAMS)' $(PYTHON) scripts/mutate.py $(MUTATE_ARGS) --mutants $(MUTANTS) --seed $(MUTATE_SEED) $(if $(LOCKSTEP),--lockstep) \
	  $(if $(ONLY),--only '$(ONLY)') $(if $(LIST),--list) $(if $(MUTATE_FRESH),--fresh)
mutate-all:
	@for u in p2g pe simt; do $(MAKE) --no-print-directory mutate UNIT=$$u MUTANTS=$(MUTATE_LONG_MUTANTS) LOCKSTEP=1 || exit 1; done
test-long: mutate-all
# the mutator itself (a few s of CPU: one Icarus compile + one bench run on the unmutated RTL, one on the known
# mutant, which dies early)
test-mutate-self: sim-p2g
	$(PYTHON) scripts/mutate.py --unit p2g --build $(BUILD) --rtl "$(P2G_RTL)" --mutate "$(MUTATE_FILES_p2g)" --selftest -o out/test/mutate
TEST_TARGETS += test-mutate-self
