; fs_flat: flat colour from the constant bank.
; c  : c[0..3] colour rgba      out: o[0..3] colour rgba
        ld.c    r0, [0]
        ld.c    r1, [1]
        ld.c    r2, [2]
        ld.c    r3, [3]
        st.o    [0], r0
        st.o    [1], r1
        st.o    [2], r2
        st.o    [3], r3
        exit
