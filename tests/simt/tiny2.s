; expect: error
; The smallest SIMT build (defs/cfg_simt.tbl 1_1_4_1_2_tiny: RF_WORDS = MEM_WORDS = CONST_WORDS = IMEM_DEPTH = 2):
; the last constant word into the last register, that register to the last output word, then the fetch at
; pc 2 = IMEM_DEPTH = the program length runs off the program (ISA_ERR_PC): the warp stops with err_o there.
    ld.c r1, [rz+1]
    st.o [rz+1], r1
