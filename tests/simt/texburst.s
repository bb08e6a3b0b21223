; expect: done
; Texture bursts: back-to-back tex instructions (each Q x 4 beats) from every warp, their results used at once
; (scoreboard on rd..rd+3 and on ra+1), a divergent tex inside an if, and tex in a loop with a lane-dependent
; trip count.
    s2r r1, %lane
    ld.a r2, [rz+0]
    ld.a r3, [rz+1]
    tex r4, r2, 0
    tex r8, r2, 1
    tex r12, r4, 2
    tex r16, r6, 15
    fadd r20, r4, r8
    fmul r21, r12, r16
    st.o [rz+0], r20
    st.o [rz+1], r21
    and r22, r1, 3
    isetp.eq p0, r22, 0
    @!p0 bra J0, J0
    tex r24, r20, 5
    tex r28, r24, 6
    st.o [rz+2], r28
    st.o [rz+3], r31
J0: and r40, r1, 7
    iadd r40, r40, 1
L0: tex r32, r2, 8
    tex r36, r32, 9
    fadd r2, r36, r38
    isub r40, r40, 1
    isetp.gt p1, r40, 0
    @p1 bra L0, X0
X0: st.o [rz+4], r2
    st.o [rz+5], r39
    exit
