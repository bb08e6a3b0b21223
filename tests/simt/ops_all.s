; expect: done
; Directed lockstep program (docs/simt.md, coverage): every opcode, every FP source modifier (-a, |a|, -|a|,
; -b, -c, immediate B), every compare condition of fsetp/isetp/usetp, every rounding mode of frnd/f2i/f2u,
; every special register, every predicate operation with inverted sources and pt, sel on a true/false/
; inverted predicate, guards on every predicate (plain and inverted, @pt and @!pt), all memories with
; wrapping addresses, tex on every unit (a burst of 16) with the destination wrapping past r63, writes to
; rz and pt. Results are stored to o[] so the output read-back checks them too.
    s2r r60, %lane
    s2r r61, %warp
    s2r r62, %tid
    s2r r59, %vertex
    s2r r58, %prim
    ld.a r0, [rz+0]
    ld.a r1, [rz+1]
    ld.a r2, [rz+2]
    ld.a r3, [rz+3]
    ld.a r4, [rz+4]
    ld.a r5, [rz+5]
    ld.a r6, [rz+6]
    ld.a r7, [rz+7]
    ld.a r8, [rz+8]
    ld.a r9, [rz+9]
    ld.a r10, [rz+10]
    ld.a r11, [rz+11]
    ld.a r12, [rz+12]
    ld.a r13, [rz+13]
    ld.a r14, [rz+14]
    ld.a r15, [rz+15]
    ld.c r16, [r60+80]
    ld.c r17, [r60+117]
    ld.c r18, [r60+154]
    ld.c r19, [r60+191]
    ld.c r20, [r60+228]
    ld.c r21, [r60+9]
    ld.c r22, [r60+46]
    ld.c r23, [r60+83]
    ld.a r24, [r60+60]      ; wraps mod 64 per lane
    ld.c r25, [r62+250]     ; wraps mod 256
    fsetp.gt p0, r0, r1
    isetp.lt p1, r2, r3
    and r26, r60, 1
    isetp.eq p2, r26, 0
    usetp.gt p3, r60, 20
    pxor p4, p0, p1
    por p5, !p2, p3
    pand p6, p2, !p3
    fadd r30, r0, r1
    st.o [rz+0], r30
    fadd r30, -r2, r3
    st.o [rz+1], r30
    fadd r30, |r4|, -r5
    st.o [rz+2], r30
    fadd r30, -|r6|, -r7
    st.o [rz+3], r30
    fadd r30, r8, 1.5
    st.o [rz+4], r30
    fadd r30, -|r9|, -0.0
    st.o [rz+5], r30
    fadd r30, r10, 0x7fc00000
    st.o [rz+6], r30
    fadd r30, r11, 0x7f800000
    st.o [rz+7], r30
    fadd r30, rz, -r12
    st.o [rz+8], r30
    fadd r30, r13, 0x00000001
    st.o [rz+9], r30
    fmul r30, r0, r1
    st.o [rz+10], r30
    fmul r30, -r2, r3
    st.o [rz+11], r30
    fmul r30, |r4|, -r5
    st.o [rz+12], r30
    fmul r30, -|r6|, -r7
    st.o [rz+13], r30
    fmul r30, r8, 1.5
    st.o [rz+14], r30
    fmul r30, -|r9|, -0.0
    st.o [rz+15], r30
    fmul r30, r10, 0x7fc00000
    st.o [rz+16], r30
    fmul r30, r11, 0x7f800000
    st.o [rz+17], r30
    fmul r30, rz, -r12
    st.o [rz+18], r30
    fmul r30, r13, 0x00000001
    st.o [rz+19], r30
    fmin r30, r0, r1
    st.o [rz+20], r30
    fmin r30, -r2, r3
    st.o [rz+21], r30
    fmin r30, |r4|, -r5
    st.o [rz+22], r30
    fmin r30, -|r6|, -r7
    st.o [rz+23], r30
    fmin r30, r8, 1.5
    st.o [rz+24], r30
    fmin r30, -|r9|, -0.0
    st.o [rz+25], r30
    fmin r30, r10, 0x7fc00000
    st.o [rz+26], r30
    fmin r30, r11, 0x7f800000
    st.o [rz+27], r30
    fmin r30, rz, -r12
    st.o [rz+28], r30
    fmin r30, r13, 0x00000001
    st.o [rz+29], r30
    fmax r30, r0, r1
    st.o [rz+30], r30
    fmax r30, -r2, r3
    st.o [rz+31], r30
    fmax r30, |r4|, -r5
    st.o [rz+32], r30
    fmax r30, -|r6|, -r7
    st.o [rz+33], r30
    fmax r30, r8, 1.5
    st.o [rz+34], r30
    fmax r30, -|r9|, -0.0
    st.o [rz+35], r30
    fmax r30, r10, 0x7fc00000
    st.o [rz+36], r30
    fmax r30, r11, 0x7f800000
    st.o [rz+37], r30
    fmax r30, rz, -r12
    st.o [rz+38], r30
    fmax r30, r13, 0x00000001
    st.o [rz+39], r30
    fmad r30, r0, r1, r2
    st.o [rz+40], r30
    fmad r30, -r3, r4, -r5
    st.o [rz+41], r30
    fmad r30, |r6|, -r7, r8
    st.o [rz+42], r30
    fmad r30, -|r9|, r10, -r11
    st.o [rz+43], r30
    fmad r30, r12, rz, r13
    st.o [rz+44], r30
    fmad r30, r14, r15, rz
    st.o [rz+45], r30
    fsetp.f p0, r0, r1
    fsetp.f p1, -|r0|, 0x7fc00000
    isetp.f p2, r0, r1
    usetp.f p3, r0, 0
    sel r31, r0, r3, p4
    st.o [rz+46], r31
    fsetp.lt p1, r1, r6
    fsetp.lt p2, -|r1|, 0x7fc00000
    isetp.lt p3, r1, r6
    usetp.lt p4, r1, 977
    sel r31, r1, r4, p5
    st.o [rz+47], r31
    fsetp.eq p2, r2, r11
    fsetp.eq p3, -|r2|, 0x7fc00000
    isetp.eq p4, r2, r11
    usetp.eq p5, r2, 1954
    sel r31, r2, r5, p6
    st.o [rz+48], r31
    fsetp.le p3, r3, r0
    fsetp.le p4, -|r3|, 0x7fc00000
    isetp.le p5, r3, r0
    usetp.le p6, r3, 2931
    sel r31, r3, r6, p0
    st.o [rz+49], r31
    fsetp.gt p4, r4, r5
    fsetp.gt p5, -|r4|, 0x7fc00000
    isetp.gt p6, r4, r5
    usetp.gt p0, r4, 3908
    sel r31, r4, r7, p1
    st.o [rz+50], r31
    fsetp.ne p5, r5, r10
    fsetp.ne p6, -|r5|, 0x7fc00000
    isetp.ne p0, r5, r10
    usetp.ne p1, r5, 789
    sel r31, r5, r8, p2
    st.o [rz+51], r31
    fsetp.ge p6, r6, r15
    fsetp.ge p0, -|r6|, 0x7fc00000
    isetp.ge p1, r6, r15
    usetp.ge p2, r6, 1766
    sel r31, r6, r9, p3
    st.o [rz+52], r31
    fsetp.num p0, r7, r4
    fsetp.num p1, -|r7|, 0x7fc00000
    isetp.num p2, r7, r4
    usetp.num p3, r7, 2743
    sel r31, r7, r10, p4
    st.o [rz+53], r31
    fsetp.nan p1, r8, r9
    fsetp.nan p2, -|r8|, 0x7fc00000
    isetp.nan p3, r8, r9
    usetp.nan p4, r8, 3720
    sel r31, r8, r11, p5
    st.o [rz+54], r31
    fsetp.ltu p2, r9, r14
    fsetp.ltu p3, -|r9|, 0x7fc00000
    isetp.ltu p4, r9, r14
    usetp.ltu p5, r9, 601
    sel r31, r9, r12, p6
    st.o [rz+55], r31
    fsetp.equ p3, r10, r3
    fsetp.equ p4, -|r10|, 0x7fc00000
    isetp.equ p5, r10, r3
    usetp.equ p6, r10, 1578
    sel r31, r10, r13, p0
    st.o [rz+56], r31
    fsetp.leu p4, r11, r8
    fsetp.leu p5, -|r11|, 0x7fc00000
    isetp.leu p6, r11, r8
    usetp.leu p0, r11, 2555
    sel r31, r11, r14, p1
    st.o [rz+57], r31
    fsetp.gtu p5, r12, r13
    fsetp.gtu p6, -|r12|, 0x7fc00000
    isetp.gtu p0, r12, r13
    usetp.gtu p1, r12, 3532
    sel r31, r12, r15, p2
    st.o [rz+58], r31
    fsetp.neu p6, r13, r2
    fsetp.neu p0, -|r13|, 0x7fc00000
    isetp.neu p1, r13, r2
    usetp.neu p2, r13, 413
    sel r31, r13, r0, p3
    st.o [rz+59], r31
    fsetp.geu p0, r14, r7
    fsetp.geu p1, -|r14|, 0x7fc00000
    isetp.geu p2, r14, r7
    usetp.geu p3, r14, 1390
    sel r31, r14, r1, p4
    st.o [rz+60], r31
    fsetp.t p1, r15, r12
    fsetp.t p2, -|r15|, 0x7fc00000
    isetp.t p3, r15, r12
    usetp.t p4, r15, 2367
    sel r31, r15, r2, p5
    st.o [rz+61], r31
    fsetp.lt pt, r0, r1       ; write to pt dropped
    frnd.rn r30, r0
    st.o [rz+62], r30
    f2i.rn r30, r0
    st.o [rz+63], r30
    f2u.rn r30, r0
    st.o [rz+0], r30
    frnd.rn r30, -r1
    st.o [rz+1], r30
    f2i.rn r30, -r1
    st.o [rz+2], r30
    f2u.rn r30, -r1
    st.o [rz+3], r30
    frnd.rn r30, |r2|
    st.o [rz+4], r30
    f2i.rn r30, |r2|
    st.o [rz+5], r30
    f2u.rn r30, |r2|
    st.o [rz+6], r30
    frnd.rn r30, -|r3|
    st.o [rz+7], r30
    f2i.rn r30, -|r3|
    st.o [rz+8], r30
    f2u.rn r30, -|r3|
    st.o [rz+9], r30
    frnd.rn r30, r14
    st.o [rz+10], r30
    f2i.rn r30, r14
    st.o [rz+11], r30
    f2u.rn r30, r14
    st.o [rz+12], r30
    frnd.rz r30, r0
    st.o [rz+13], r30
    f2i.rz r30, r0
    st.o [rz+14], r30
    f2u.rz r30, r0
    st.o [rz+15], r30
    frnd.rz r30, -r1
    st.o [rz+16], r30
    f2i.rz r30, -r1
    st.o [rz+17], r30
    f2u.rz r30, -r1
    st.o [rz+18], r30
    frnd.rz r30, |r2|
    st.o [rz+19], r30
    f2i.rz r30, |r2|
    st.o [rz+20], r30
    f2u.rz r30, |r2|
    st.o [rz+21], r30
    frnd.rz r30, -|r3|
    st.o [rz+22], r30
    f2i.rz r30, -|r3|
    st.o [rz+23], r30
    f2u.rz r30, -|r3|
    st.o [rz+24], r30
    frnd.rz r30, r14
    st.o [rz+25], r30
    f2i.rz r30, r14
    st.o [rz+26], r30
    f2u.rz r30, r14
    st.o [rz+27], r30
    frnd.rm r30, r0
    st.o [rz+28], r30
    f2i.rm r30, r0
    st.o [rz+29], r30
    f2u.rm r30, r0
    st.o [rz+30], r30
    frnd.rm r30, -r1
    st.o [rz+31], r30
    f2i.rm r30, -r1
    st.o [rz+32], r30
    f2u.rm r30, -r1
    st.o [rz+33], r30
    frnd.rm r30, |r2|
    st.o [rz+34], r30
    f2i.rm r30, |r2|
    st.o [rz+35], r30
    f2u.rm r30, |r2|
    st.o [rz+36], r30
    frnd.rm r30, -|r3|
    st.o [rz+37], r30
    f2i.rm r30, -|r3|
    st.o [rz+38], r30
    f2u.rm r30, -|r3|
    st.o [rz+39], r30
    frnd.rm r30, r14
    st.o [rz+40], r30
    f2i.rm r30, r14
    st.o [rz+41], r30
    f2u.rm r30, r14
    st.o [rz+42], r30
    frnd.rp r30, r0
    st.o [rz+43], r30
    f2i.rp r30, r0
    st.o [rz+44], r30
    f2u.rp r30, r0
    st.o [rz+45], r30
    frnd.rp r30, -r1
    st.o [rz+46], r30
    f2i.rp r30, -r1
    st.o [rz+47], r30
    f2u.rp r30, -r1
    st.o [rz+48], r30
    frnd.rp r30, |r2|
    st.o [rz+49], r30
    f2i.rp r30, |r2|
    st.o [rz+50], r30
    f2u.rp r30, |r2|
    st.o [rz+51], r30
    frnd.rp r30, -|r3|
    st.o [rz+52], r30
    f2i.rp r30, -|r3|
    st.o [rz+53], r30
    f2u.rp r30, -|r3|
    st.o [rz+54], r30
    frnd.rp r30, r14
    st.o [rz+55], r30
    f2i.rp r30, r14
    st.o [rz+56], r30
    f2u.rp r30, r14
    st.o [rz+57], r30
    i2f r30, r0
    st.o [rz+58], r30
    u2f r30, r0
    st.o [rz+59], r30
    i2f r30, r5
    st.o [rz+60], r30
    u2f r30, r5
    st.o [rz+61], r30
    i2f r30, r61
    st.o [rz+62], r30
    u2f r30, r61
    st.o [rz+63], r30
    i2f r30, r62
    st.o [rz+0], r30
    u2f r30, r62
    st.o [rz+1], r30
    i2f r30, rz
    st.o [rz+2], r30
    u2f r30, rz
    st.o [rz+3], r30
    rcp r30, r0
    st.o [rz+4], r30
    rcp r30, -r1
    st.o [rz+5], r30
    rcp r30, |r2|
    st.o [rz+6], r30
    rcp r30, -|r3|
    st.o [rz+7], r30
    rsq r30, r0
    st.o [rz+8], r30
    rsq r30, -r1
    st.o [rz+9], r30
    rsq r30, |r2|
    st.o [rz+10], r30
    rsq r30, -|r3|
    st.o [rz+11], r30
    ex2 r30, r0
    st.o [rz+12], r30
    ex2 r30, -r1
    st.o [rz+13], r30
    ex2 r30, |r2|
    st.o [rz+14], r30
    ex2 r30, -|r3|
    st.o [rz+15], r30
    lg2 r30, r0
    st.o [rz+16], r30
    lg2 r30, -r1
    st.o [rz+17], r30
    lg2 r30, |r2|
    st.o [rz+18], r30
    lg2 r30, -|r3|
    st.o [rz+19], r30
    sin r30, r0
    st.o [rz+20], r30
    sin r30, -r1
    st.o [rz+21], r30
    sin r30, |r2|
    st.o [rz+22], r30
    sin r30, -|r3|
    st.o [rz+23], r30
    cos r30, r0
    st.o [rz+24], r30
    cos r30, -r1
    st.o [rz+25], r30
    cos r30, |r2|
    st.o [rz+26], r30
    cos r30, -|r3|
    st.o [rz+27], r30
    iadd r30, r0, r1
    st.o [rz+28], r30
    iadd r30, r2, -7
    st.o [rz+29], r30
    iadd r30, r61, 0xdeadbeef
    st.o [rz+30], r30
    iadd r30, r62, r60
    st.o [rz+31], r30
    iadd r30, rz, r3
    st.o [rz+32], r30
    isub r30, r0, r1
    st.o [rz+33], r30
    isub r30, r2, -7
    st.o [rz+34], r30
    isub r30, r61, 0xdeadbeef
    st.o [rz+35], r30
    isub r30, r62, r60
    st.o [rz+36], r30
    isub r30, rz, r3
    st.o [rz+37], r30
    imul r30, r0, r1
    st.o [rz+38], r30
    imul r30, r2, -7
    st.o [rz+39], r30
    imul r30, r61, 0xdeadbeef
    st.o [rz+40], r30
    imul r30, r62, r60
    st.o [rz+41], r30
    imul r30, rz, r3
    st.o [rz+42], r30
    and r30, r0, r1
    st.o [rz+43], r30
    and r30, r2, -7
    st.o [rz+44], r30
    and r30, r61, 0xdeadbeef
    st.o [rz+45], r30
    and r30, r62, r60
    st.o [rz+46], r30
    and r30, rz, r3
    st.o [rz+47], r30
    or r30, r0, r1
    st.o [rz+48], r30
    or r30, r2, -7
    st.o [rz+49], r30
    or r30, r61, 0xdeadbeef
    st.o [rz+50], r30
    or r30, r62, r60
    st.o [rz+51], r30
    or r30, rz, r3
    st.o [rz+52], r30
    xor r30, r0, r1
    st.o [rz+53], r30
    xor r30, r2, -7
    st.o [rz+54], r30
    xor r30, r61, 0xdeadbeef
    st.o [rz+55], r30
    xor r30, r62, r60
    st.o [rz+56], r30
    xor r30, rz, r3
    st.o [rz+57], r30
    shl r30, r0, r1
    st.o [rz+58], r30
    shl r30, r2, -7
    st.o [rz+59], r30
    shl r30, r61, 0xdeadbeef
    st.o [rz+60], r30
    shl r30, r62, r60
    st.o [rz+61], r30
    shl r30, rz, r3
    st.o [rz+62], r30
    shr r30, r0, r1
    st.o [rz+63], r30
    shr r30, r2, -7
    st.o [rz+0], r30
    shr r30, r61, 0xdeadbeef
    st.o [rz+1], r30
    shr r30, r62, r60
    st.o [rz+2], r30
    shr r30, rz, r3
    st.o [rz+3], r30
    sra r30, r0, r1
    st.o [rz+4], r30
    sra r30, r2, -7
    st.o [rz+5], r30
    sra r30, r61, 0xdeadbeef
    st.o [rz+6], r30
    sra r30, r62, r60
    st.o [rz+7], r30
    sra r30, rz, r3
    st.o [rz+8], r30
    imin r30, r0, r1
    st.o [rz+9], r30
    imin r30, r2, -7
    st.o [rz+10], r30
    imin r30, r61, 0xdeadbeef
    st.o [rz+11], r30
    imin r30, r62, r60
    st.o [rz+12], r30
    imin r30, rz, r3
    st.o [rz+13], r30
    imax r30, r0, r1
    st.o [rz+14], r30
    imax r30, r2, -7
    st.o [rz+15], r30
    imax r30, r61, 0xdeadbeef
    st.o [rz+16], r30
    imax r30, r62, r60
    st.o [rz+17], r30
    imax r30, rz, r3
    st.o [rz+18], r30
    pand p0, p0, p2
    por p1, p0, p2
    pxor p2, p0, p2
    pand p3, p0, !p3
    por p4, p0, !p3
    pxor p5, p0, !p3
    pand p6, p0, pt
    por p0, p0, pt
    pxor p1, p0, pt
    pand p2, !p1, p2
    por p3, !p1, p2
    pxor p4, !p1, p2
    pand p5, !p1, !p3
    por p6, !p1, !p3
    pxor p0, !p1, !p3
    pand p1, !p1, pt
    por p2, !p1, pt
    pxor p3, !p1, pt
    pand p4, pt, p2
    por p5, pt, p2
    pxor p6, pt, p2
    pand p0, pt, !p3
    por p1, pt, !p3
    pxor p2, pt, !p3
    pand p3, pt, pt
    por p4, pt, pt
    pxor p5, pt, pt
    pand p6, !pt, p2
    por p0, !pt, p2
    pxor p1, !pt, p2
    pand p2, !pt, !p3
    por p3, !pt, !p3
    pxor p4, !pt, !p3
    pand p5, !pt, pt
    por p6, !pt, pt
    pxor p0, !pt, pt
    sel r30, r0, r1, pt
    st.o [rz+19], r30
    sel r30, r0, r1, !pt
    st.o [rz+20], r30
    sel r30, r0, r1, !p2
    st.o [rz+21], r30
    mov r30, 0x12345678
    st.o [rz+22], r30
    mov r30, r61
    st.o [rz+23], r30
    mov rz, r1              ; write to rz dropped
    st.o [rz+24], rz
    @p0 iadd r32, r60, 0
    @!p0 isub r32, r60, 0
    st.o [rz+25], r32
    @p1 iadd r32, r60, 1
    @!p1 isub r32, r60, 1
    st.o [rz+26], r32
    @p2 iadd r32, r60, 2
    @!p2 isub r32, r60, 2
    st.o [rz+27], r32
    @p3 iadd r32, r60, 3
    @!p3 isub r32, r60, 3
    st.o [rz+28], r32
    @p4 iadd r32, r60, 4
    @!p4 isub r32, r60, 4
    st.o [rz+29], r32
    @p5 iadd r32, r60, 5
    @!p5 isub r32, r60, 5
    st.o [rz+30], r32
    @p6 iadd r32, r60, 6
    @!p6 isub r32, r60, 6
    st.o [rz+31], r32
    @pt mov r33, 1
    @!pt mov r33, 2
    st.o [rz+32], r33
    st.l [r60+0], r0
    st.l [r60+40], r1     ; wraps for lanes >= 24
    ld.l r34, [r60+0]
    st.o [rz+33], r34
    ld.l r34, [r60+104]
    st.o [rz+34], r34
    @p2 st.l [rz+63], r62
    ld.l r35, [rz+63]
    st.o [rz+35], r35
    @!p3 st.o [r60+32], r61
    mov r36, r0
    mov r37, r1
    tex r40, r36, 0
    tex r44, r36, 1
    tex r48, r36, 2
    tex r52, r36, 3
    tex r56, r36, 4
    tex r60, r36, 5
    tex r3, r36, 6
    tex r7, r36, 7
    tex r11, r36, 8
    tex r15, r36, 9
    tex r19, r36, 10
    tex r23, r36, 11
    tex r27, r36, 12
    tex r31, r36, 13
    tex r35, r36, 14
    tex r39, r36, 15
    mov r62, r2
    mov r63, r3
    tex r60, r62, 7          ; ra+1 wraps to r0; rd..rd+3 = r60..r63
    tex r44, r62, 3
    st.o [rz+36], r40
    st.o [rz+37], r41
    st.o [rz+38], r44
    st.o [rz+39], r45
    st.o [rz+40], r46
    st.o [rz+41], r47
    st.o [rz+42], r60
    st.o [rz+43], r61
    st.o [rz+44], r62
    @p4 tex r48, r36, 9
    @!p4 tex r52, r36, 10
    st.o [rz+45], r48
    st.o [rz+46], r52
    nop
    @p5 nop
    @p6 exit
    st.o [rz+5], r60
    exit
