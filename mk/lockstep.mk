# The lockstep driver shared by every co-simulation harness (sim/common/lockstep.{h,c}): one object, linked into
# every cosim-* binary next to the harness's own object.
LOCKSTEP_OBJ := $(BUILD)/cosim/obj/lockstep.o
$(LOCKSTEP_OBJ): sim/common/lockstep.c sim/common/lockstep.h sim/common/gtkw_view.h cmodel/common/args.h
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -c $< -o $@
