; expect: done
; Divergent branches whose reconvergence pc is the fall-through instruction: the fall-through entry pushed by the
; split is dead at once and popped in the cycle after the issue, while simt_warp still holds the issue's stack write
; as pending (rtl/simt_warp.v pw_*: the pop reads the entry through the forwarding). Both split kinds: a new
; reconvergence pc (three entries) and the same one as the enclosing region (two entries).
    s2r r1, %lane
    and r2, r1, 1
    isetp.eq p0, r2, 0
    and r4, r1, 2
    isetp.eq p1, r4, 0
    mov r3, 0
    @p0 bra T1, J1          ; split, new rpc: the fall-through path is live
    @p1 bra T2, J1          ; split, same rpc J1, fall-through pc = J1: dead at once
J1: iadd r3, r3, 1
    @p1 bra T3, J2          ; split, new rpc, fall-through pc = J2: dead at once
J2: st.o [rz+0], r3
    @!p0 bra J3, J3         ; split with target = rpc = fall-through: both paths dead at once
J3: iadd r3, r3, 7
    st.o [rz+1], r3
    exit
T1: iadd r3, r3, 10
    bra J1
T2: iadd r3, r3, 100
    bra J1
T3: iadd r3, r3, 1000
    bra J2
