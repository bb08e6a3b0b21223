; expect: error
; A divergent branch whose target is far past the end of the program (pc 65535, every pc bit set): the
; fall-through lanes run to the join first, then the taken entry fetches at 65535 (ISA_ERR_PC), as in the
; interpreter; the warp stops with err_o.
    s2r r1, %lane
    isetp.lt p0, r1, 16
    @p0 bra 65535, J0
    iadd r2, r1, 1
    st.o [rz+2], r2
J0: st.o [rz+1], r2
    exit
