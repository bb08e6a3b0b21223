# Mutation testing (issue 25): `make mutate UNIT=p2g|pe|simt` applies source-level operator mutations to the
# unit's RTL in a scratch copy (out/mutate/UNIT-work), runs the unit's fast-bench tests against each (Icarus on
# the C cycle model's vectors, which the prerequisites build) and writes out/mutate/UNIT.md (killed, survived
# with the killing test). MUTATE_MAX caps the number of mutants (spread evenly; 0 = all). In make test-long,
# not in make test. scripts/mutate.py explains the operators.
MUTATE_MAX ?= 0
MUTATE_RTL_pe       = $(PE_RTL)
MUTATE_FILES_pe    := rtl/pe_exchanger.v rtl/pe_fifo.v rtl/pe_lowbit.v
MUTATE_PRE_pe      := sim-pe test-pe-err
MUTATE_RTL_p2g      = $(P2G_RTL)
MUTATE_FILES_p2g   := rtl/p2g_mapper.v rtl/p2g_range_mask.v rtl/p2g_add_tree.v
MUTATE_PRE_p2g     := sim-p2g
MUTATE_RTL_simt     = $(SIMT_RTL)
MUTATE_FILES_simt  := rtl/simt_warp.v rtl/simt_decode.v rtl/simt_core.v
MUTATE_PRE_simt    := sim-simt test-simt-hazard-sim
.PHONY: mutate mutate-all
mutate:
	@case "$(UNIT)" in p2g|pe|simt) ;; *) echo "make mutate UNIT=p2g|pe|simt"; exit 2;; esac
	$(MAKE) --no-print-directory $(MUTATE_PRE_$(UNIT))
	$(PYTHON) scripts/mutate.py --unit $(UNIT) --build $(BUILD) --rtl "$(MUTATE_RTL_$(UNIT))" \
	  --mutate "$(MUTATE_FILES_$(UNIT))" --max $(MUTATE_MAX) -o out/mutate
mutate-all:
	@for u in p2g pe simt; do $(MAKE) --no-print-directory mutate UNIT=$$u || exit 1; done
test-long: mutate-all
