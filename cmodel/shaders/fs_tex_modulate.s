; fs_tex_modulate: interpolated colour * texture(unit 0, s, t).
; in : a[0..3] interpolated colour rgba  a[4..5] texcoord (s, t)
; out: o[0..3] = colour * texel (component-wise fmul)
; The tex instruction asks the pipeline's sampler (isa_ctx_t.tex callback) for unit 0 at (s, t).
        ld.a    r0, [4]
        ld.a    r1, [5]
        tex     r4, r0, 0               ; r4..r7 = texel rgba
        ld.a    r0, [0]
        ld.a    r1, [1]
        ld.a    r2, [2]
        ld.a    r3, [3]
        fmul    r0, r0, r4
        fmul    r1, r1, r5
        fmul    r2, r2, r6
        fmul    r3, r3, r7
        st.o    [0], r0
        st.o    [1], r1
        st.o    [2], r2
        st.o    [3], r3
        exit
