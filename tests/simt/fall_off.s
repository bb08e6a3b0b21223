; expect: error
; No exit at the end: every lane runs off the program, the fetch at pc = program length is ISA_ERR_PC
; (docs/isa.md section 4); the RTL must stop the warp with err_o exactly there.
    s2r r1, %lane
    iadd r2, r1, 5
    st.o [rz+0], r2
