; fs_depth: depth-only pass: no colour; the fragment's interpolated window z goes to the depth output.
; in : a[8] window z            out: o[4] depth
        ld.a    r0, [8]
        st.o    [4], r0
        exit
