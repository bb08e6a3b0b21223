; vs_viewport: perspective divide + viewport transform to the P2G's fixed-point screen coordinates.
; in : a[0..3] clip position (x,y,z,w)
; c  : c[16] SX = 128*W   c[17] OX = 256*X0 + 128*W     (1/256-pixel units)
;      c[18] SY = 128*H   c[19] OY = 256*Y0 + 128*H     (negate SY for a y-down raster)
;      c[20] DS = (f-n)/2 c[21] DO = (f+n)/2            (depth range)
; out: o[0] X  o[1] Y  : int32, round-to-nearest-even of (x/w*SX + OX), clamped to [-2^23, 2^23-1]
;      o[2] window z = (z/w)*DS + DO      o[3] 1/w (SFU rcp)
;      o[4] flags (int): bit0 = z < -w (vertex in front of the near plane), bit1 = w <= 0
.equ XMAX, 8388607
.equ XMIN, -8388608
        ld.a    r0, [0]
        ld.a    r1, [1]
        ld.a    r2, [2]
        ld.a    r3, [3]
        ld.c    r4, [16]
        ld.c    r5, [17]
        ld.c    r6, [18]
        ld.c    r7, [19]
        ld.c    r8, [20]
        ld.c    r9, [21]
        rcp     r10, r3                 ; 1/w
        fmul    r11, r0, r10            ; x/w
        fmad    r11, r11, r4, r5
        f2i.rn  r11, r11
        imax    r11, r11, XMIN
        imin    r11, r11, XMAX
        st.o    [0], r11
        fmul    r12, r1, r10            ; y/w
        fmad    r12, r12, r6, r7
        f2i.rn  r12, r12
        imax    r12, r12, XMIN
        imin    r12, r12, XMAX
        st.o    [1], r12
        fmul    r13, r2, r10            ; z/w
        fmad    r13, r13, r8, r9
        st.o    [2], r13
        st.o    [3], r10
        fsetp.lt p0, r2, -r3            ; z < -w
        fsetp.le p1, r3, 0              ; w <= 0
        mov     r14, 0
        @p0 or  r14, r14, 1
        @p1 or  r14, r14, 2
        st.o    [4], r14
        exit
