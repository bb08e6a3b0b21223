; vs_mvp: clip-space position = MVP * position; colour and texcoord passed through.
; in : a[0..3] position (x,y,z,w)  a[4..7] colour rgba  a[8..11] texcoord (s,t,r,q)
; c  : c[0..15] MVP matrix, row-major (row i = c[4i..4i+3]), clip_i = sum_j M[i][j] * pos_j,
;      evaluated as mad(p3,M[i][3], mad(p2,M[i][2], mad(p1,M[i][1], p0*M[i][0]))) (two roundings each)
; out: o[0..3] clip position  o[4..7] colour  o[8..11] texcoord
        ld.a    r0, [0]
        ld.a    r1, [1]
        ld.a    r2, [2]
        ld.a    r3, [3]
        mov     r8, 0                   ; r8 = 4*i, the matrix row base
        mov     r9, 0                   ; r9 = i
row:    ld.c    r4, [r8+0]
        ld.c    r5, [r8+1]
        ld.c    r6, [r8+2]
        ld.c    r7, [r8+3]
        fmul    r10, r0, r4
        fmad    r10, r1, r5, r10
        fmad    r10, r2, r6, r10
        fmad    r10, r3, r7, r10
        st.o    [r9+0], r10
        iadd    r8, r8, 4
        iadd    r9, r9, 1
        isetp.lt p0, r9, 4
        @p0 bra row, done               ; uniform loop: never diverges
done:   ld.a    r4, [4]
        ld.a    r5, [5]
        ld.a    r6, [6]
        ld.a    r7, [7]
        st.o    [4], r4
        st.o    [5], r5
        st.o    [6], r6
        st.o    [7], r7
        ld.a    r4, [8]
        ld.a    r5, [9]
        ld.a    r6, [10]
        ld.a    r7, [11]
        st.o    [8], r4
        st.o    [9], r5
        st.o    [10], r6
        st.o    [11], r7
        exit
