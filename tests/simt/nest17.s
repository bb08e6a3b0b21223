; expect: error
; 17 nested divergent levels (lane d leaves at level d): docs/isa.md section 4: 15 fit, 17 overflow the 32-entry stack (ISA_ERR_STACK)
    s2r r1, %lane
    isetp.eq p0, r1, 0
    @p0 bra J0, J0
    iadd r2, r2, 1
    isetp.eq p0, r1, 1
    @p0 bra J1, J1
    iadd r2, r2, 2
    isetp.eq p0, r1, 2
    @p0 bra J2, J2
    iadd r2, r2, 3
    isetp.eq p0, r1, 3
    @p0 bra J3, J3
    iadd r2, r2, 4
    isetp.eq p0, r1, 4
    @p0 bra J4, J4
    iadd r2, r2, 5
    isetp.eq p0, r1, 5
    @p0 bra J5, J5
    iadd r2, r2, 6
    isetp.eq p0, r1, 6
    @p0 bra J6, J6
    iadd r2, r2, 7
    isetp.eq p0, r1, 7
    @p0 bra J7, J7
    iadd r2, r2, 8
    isetp.eq p0, r1, 8
    @p0 bra J8, J8
    iadd r2, r2, 9
    isetp.eq p0, r1, 9
    @p0 bra J9, J9
    iadd r2, r2, 10
    isetp.eq p0, r1, 10
    @p0 bra J10, J10
    iadd r2, r2, 11
    isetp.eq p0, r1, 11
    @p0 bra J11, J11
    iadd r2, r2, 12
    isetp.eq p0, r1, 12
    @p0 bra J12, J12
    iadd r2, r2, 13
    isetp.eq p0, r1, 13
    @p0 bra J13, J13
    iadd r2, r2, 14
    isetp.eq p0, r1, 14
    @p0 bra J14, J14
    iadd r2, r2, 15
    isetp.eq p0, r1, 15
    @p0 bra J15, J15
    iadd r2, r2, 16
    isetp.eq p0, r1, 16
    @p0 bra J16, J16
    iadd r2, r2, 17
    st.o [rz+0], r2
J16:
    iadd r3, r3, 1
J15:
    iadd r3, r3, 1
J14:
    iadd r3, r3, 1
J13:
    iadd r3, r3, 1
J12:
    iadd r3, r3, 1
J11:
    iadd r3, r3, 1
J10:
    iadd r3, r3, 1
J9:
    iadd r3, r3, 1
J8:
    iadd r3, r3, 1
J7:
    iadd r3, r3, 1
J6:
    iadd r3, r3, 1
J5:
    iadd r3, r3, 1
J4:
    iadd r3, r3, 1
J3:
    iadd r3, r3, 1
J2:
    iadd r3, r3, 1
J1:
    iadd r3, r3, 1
J0:
    iadd r3, r3, 1
    st.o [rz+1], r3
    exit
