; vs_project: the CP-phase projection shader = vs_mvp followed by vs_viewport in one program.
; in : a[0..3] position  a[4..7] colour  a[8..11] texcoord
; c  : c[0..15] MVP (row-major), c[16..21] viewport and depth range as in vs_viewport.s
; out: o[0..3] clip position  o[4..7] colour  o[8..11] texcoord
;      o[12] X  o[13] Y (int32, 1/256 pixel, clamped to 24-bit signed)  o[14] window z  o[15] 1/w
;      o[16] flags (bit0 z < -w, bit1 w <= 0)
.equ XMAX, 8388607
.equ XMIN, -8388608
        ld.a    r0, [0]
        ld.a    r1, [1]
        ld.a    r2, [2]
        ld.a    r3, [3]
        mov     r8, 0
        mov     r9, 0
row:    ld.c    r4, [r8+0]
        ld.c    r5, [r8+1]
        ld.c    r6, [r8+2]
        ld.c    r7, [r8+3]
        fmul    r10, r0, r4
        fmad    r10, r1, r5, r10
        fmad    r10, r2, r6, r10
        fmad    r10, r3, r7, r10
        st.o    [r9+0], r10
        st.l    [r9+0], r10             ; keep the clip position for the viewport step
        iadd    r8, r8, 4
        iadd    r9, r9, 1
        isetp.lt p0, r9, 4
        @p0 bra row, done
done:   ld.a    r4, [4]
        st.o    [4], r4
        ld.a    r4, [5]
        st.o    [5], r4
        ld.a    r4, [6]
        st.o    [6], r4
        ld.a    r4, [7]
        st.o    [7], r4
        ld.a    r4, [8]
        st.o    [8], r4
        ld.a    r4, [9]
        st.o    [9], r4
        ld.a    r4, [10]
        st.o    [10], r4
        ld.a    r4, [11]
        st.o    [11], r4
        ld.l    r0, [0]                 ; clip x, y, z, w
        ld.l    r1, [1]
        ld.l    r2, [2]
        ld.l    r3, [3]
        ld.c    r4, [16]
        ld.c    r5, [17]
        ld.c    r6, [18]
        ld.c    r7, [19]
        ld.c    r8, [20]
        ld.c    r9, [21]
        rcp     r10, r3
        fmul    r11, r0, r10
        fmad    r11, r11, r4, r5
        f2i.rn  r11, r11
        imax    r11, r11, XMIN
        imin    r11, r11, XMAX
        st.o    [12], r11
        fmul    r12, r1, r10
        fmad    r12, r12, r6, r7
        f2i.rn  r12, r12
        imax    r12, r12, XMIN
        imin    r12, r12, XMAX
        st.o    [13], r12
        fmul    r13, r2, r10
        fmad    r13, r13, r8, r9
        st.o    [14], r13
        st.o    [15], r10
        fsetp.lt p0, r2, -r3
        fsetp.le p1, r3, 0
        mov     r14, 0
        @p0 or  r14, r14, 1
        @p1 or  r14, r14, 2
        st.o    [16], r14
        exit
