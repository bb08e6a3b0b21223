; expect: done
; Deep divergence: three nested loops with lane-dependent trip counts, divergent breaks out of the inner
; loop, an if/else inside the middle loop, lanes exiting inside divergent regions (the stack keeps entries
; whose lanes have all exited and pops them while settling), and a last region where every lane but one exits.
    s2r r1, %lane
    and r40, r1, 3
    iadd r40, r40, 1
    mov r10, 0
L0: and r41, r1, 5
    iadd r41, r41, 1
L1: and r42, r1, 6
    iadd r42, r42, 2
L2: iadd r10, r10, 1
    isetp.gt p0, r10, 20
    @p0 bra X2, X2
    isub r42, r42, 1
    isetp.gt p1, r42, 0
    @p1 bra L2, X2
X2: and r11, r10, 1
    isetp.eq p2, r11, 0
    @p2 bra E0, J0
    iadd r12, r12, 3
    isetp.eq p3, r1, 13
    @p3 exit
    bra J0
E0: iadd r12, r12, 5
    isetp.eq p3, r1, 22
    @p3 exit
J0: isub r41, r41, 1
    isetp.gt p1, r41, 0
    @p1 bra L1, X1
X1: isub r40, r40, 1
    isetp.gt p1, r40, 0
    @p1 bra L0, X0
X0: st.o [rz+0], r10
    st.o [rz+1], r12
    isetp.ne p4, r1, 7
    @p4 bra J1, J1
    iadd r13, r1, 1
    st.o [rz+2], r13
J1: isetp.ne p5, r1, 9
    @p5 exit
    st.o [rz+3], r1
    exit
