; fs_color: interpolated colour.
; in : a[0..3] interpolated colour rgba      out: o[0..3] colour rgba
        ld.a    r0, [0]
        ld.a    r1, [1]
        ld.a    r2, [2]
        ld.a    r3, [3]
        st.o    [0], r0
        st.o    [1], r1
        st.o    [2], r2
        st.o    [3], r3
        exit
