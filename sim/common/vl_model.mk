# Run by mk/verilator.mk (VL_MODEL, step 2) inside a Verilator -Mdir: compiles the verilated model and the shim
# (the --exe sources) WITHOUT the Verilator runtime (compiled once per flavour: sim/common/vl_runtime.mk) and
# without linking, and lists what the link needs (link.objs: objects relative to the -Mdir; link.libs: linker
# flags and libraries). link.objs is rewritten only when an object changed, so the link rule sees an up-to-date
# model as unchanged.
# usage: make -C MDIR -f sim/common/vl_model.mk VM_MK=Vtop.mk [OPT_FAST=.. OPT_GLOBAL=.. OPT_SLOW=..] link.objs
include $(VM_MK)

link.objs: $(VK_USER_OBJS) $(VM_PREFIX)__ALL.a
	@echo $(LDFLAGS) $(LDLIBS) $(LIBS) $(SC_LIBS) > link.libs
	@echo $(VK_USER_OBJS) $(VM_PREFIX)__ALL.a > link.objs.tmp && mv link.objs.tmp link.objs
