#!/usr/bin/python3
"""Tests of the apitrace -> GPUpd converter (traces/capture/apitrace2gpupd.py).

1. Unit checks of the GL emulation against hand-computed expectations: primitive assembly of strips,
   fans, quads; fixed-function matrix helpers; vertex-array decoding with strides and normalisation.
2. End to end: a small glmark2 `shadow` capture made now (apitrace + faketime on llvmpipe under Xvfb),
   converted with per-draw pixel counts, then checked: it validates; the frame has the 3 draws of the scene
   (shadow-map depth pass, ground, horse); triangle counts match the horse model (7172 triangles,
   /usr/share/glmark2/models/horse.3ds, counted here from the file) and the 2-triangle ground quad; the
   ground samples the shadow map the depth pass rendered (1 RAW dependency); every draw carries the pixel
   count glretrace --ppd reported for its call; an independent simple rasterizer (gpupd-trace coverage) on the
   converted geometry gives the same per-draw pixel counts within 2%; the trace round-trips through text.
3. Fixed-function path end to end: traces/capture/ffscene.py captured now (matrix stacks, immediate mode,
   client arrays, strips/fans/quads, texture, scissor, depth range, polygon offset, blending); each draw's
   triangle count must equal the scene's own description (ffscene.py --expect) and every draw must
   reproduce its glretrace --ppd count.
Prints 'N passed, M failed'; exit 1 on any failure with the command to reproduce.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'traces', 'capture'))
import apitrace2gpupd as conv  # noqa: E402

passed, failed = 0, 0


def check(cond, what, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print('FAIL: %s %s' % (what, detail))


def unit_tests():
    check(conv.tri_indices('GL_TRIANGLE_STRIP', [0, 1, 2, 3, 4]) == [0, 1, 2, 2, 1, 3, 2, 3, 4],
          'strip assembly keeps the winding of odd triangles')
    check(conv.tri_indices('GL_TRIANGLE_FAN', [5, 6, 7, 8]) == [5, 6, 7, 5, 7, 8], 'fan assembly')
    check(conv.tri_indices('GL_QUADS', [0, 1, 2, 3, 4, 5, 6, 7]) == [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7],
          'quad assembly')
    check(conv.tri_indices('GL_TRIANGLES', [0, 1, 2, 3]) == [0, 1, 2], 'incomplete triangle dropped')
    check(conv.tri_indices('GL_LINES', [0, 1]) is None, 'lines are not triangles')
    # glOrtho(0,640,480,0,0,1) maps (640, 0) to NDC (1, 1) and (0, 480) to (-1, -1)
    m = conv.m_ortho(0, 640, 480, 0, 0, 1)
    x = [sum(m[c * 4 + r] * v for c, v in enumerate((640, 0, 0, 1))) for r in range(4)]
    check(abs(x[0] - 1) < 1e-9 and abs(x[1] - 1) < 1e-9, 'ortho maps the corner to NDC', str(x))
    # a 90-degree rotation about z maps x to y; translation composes on the right
    r = conv.mat_mul(conv.m_translate(1, 2, 3), conv.m_rotate(90, 0, 0, 1))
    p = [sum(r[c * 4 + k] * v for c, v in enumerate((1, 0, 0, 1))) for k in range(4)]
    check(all(abs(a - b) < 1e-9 for a, b in zip(p, (1, 3, 3, 1))), 'translate * rotate', str(p))
    check(conv.mvp_rows(conv.m_translate(1, 2, 3)) == [1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1],
          'constants are MVP rows')
    # decoding: 2 vertices of 3 floats, stride 16 bytes; normalised unsigned bytes
    blob = struct.pack('<3f4x3f4x', 1, 2, 3, 4, 5, 6)
    check(conv.decode_array(blob, 3, 'GL_FLOAT', 16, 0, 1, 1, False) == [(4.0, 5.0, 6.0)], 'strided float array')
    check(conv.decode_array(bytes([255, 0, 51, 255]), 4, 'GL_UNSIGNED_BYTE', 0, 0, 0, 1, True) ==
          [(1.0, 0.0, 0.2, 1.0)], 'normalised colour bytes')
    try:
        conv.decode_array(blob, 3, 'GL_FLOAT', 16, 0, 5, 1, False)
        check(False, 'read past the end of an array is refused')
    except ValueError:
        check(True, 'read past the end of an array is refused')
    check(conv.f32(0.1) == '0.100000001', 'float32 formatting is exact', conv.f32(0.1))
    # main_body: the linear-time form of the regular expression the converter used (backtracking for minutes
    # on darkplaces' 100 KB shader source), equal to it on small sources of every shape
    rx = r'(?s).*void\s+main\s*\(\s*(void)?\s*\)\s*\{(.*)\}\s*$'
    for src in ['void main() { gl_FragColor = c; }', 'uniform vec4 c;\nvoid main(void)\n{\n gl_FragColor = c;\n}\n\n',
                'void f() {}\nvoid main() { a(); }\n#if X\nvoid main() { b(); }\n#endif\n}', 'void main() { x; } y',
                'no main here }', '', '}', 'void main(){}', 'void  main ( void ) {{ nested {} }} \t\n',
                'void main() { if (a) { b; } }\nvoid main() {', 'void main() { a; }\x0b']:
        check(conv.main_body(src) == re.sub(rx, r'\2', src), 'main_body equals the regular expression', repr(src))


def converter():
    """A converter fed with GL calls by hand (the state machine of apitrace2gpupd.py without a capture)."""
    a = argparse.Namespace(width=64, height=64, max_tex_dim=0)
    cv = conv.Converter(a)
    cv.unpack_align = 4
    cv.tex_scaled = set()
    cv.start_frame()
    return cv


def gl(cv, no, name, **args):
    cv.handle(no, name, list(args.items()), None)


def fbo_with_texture(cv, no, fbo, tex, w, h, internal='GL_RGBA8'):
    gl(cv, no, 'glBindTexture', target='GL_TEXTURE_2D', texture=tex)
    gl(cv, no + 1, 'glTexImage2D', target='GL_TEXTURE_2D', level=0, internalformat=internal, width=w, height=h,
       border=0, format='GL_RGBA', type='GL_UNSIGNED_BYTE', pixels=None)
    gl(cv, no + 2, 'glBindFramebuffer', target='GL_FRAMEBUFFER', framebuffer=fbo)
    gl(cv, no + 3, 'glFramebufferTexture2D', target='GL_FRAMEBUFFER', attachment='GL_COLOR_ATTACHMENT0',
       textarget='GL_TEXTURE_2D', texture=tex, level=0)


def draws_of(cv):
    return [l for l in '\n'.join(cv.out).split('\n') if l.startswith('DRAW ')], '\n'.join(cv.out)


def gl_emulation_tests():
    """Framebuffer features of engines with render-to-texture passes (blits, draw buffers, storage uploaded
    in pieces, formats RGBA8 does not hold), checked on hand-fed GL call sequences."""
    # glBlitFramebuffer 4x4 -> 2x2 with GL_LINEAR: one draw over the destination, sampling the read
    # framebuffer's texture (rendered in the frame: a RAW dependency) with a linear, clamped filter
    cv = converter()
    fbo_with_texture(cv, 10, 1, 5, 4, 4)
    gl(cv, 14, 'glClear', mask='GL_COLOR_BUFFER_BIT')
    fbo_with_texture(cv, 20, 2, 6, 2, 2)
    gl(cv, 24, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=1)
    gl(cv, 25, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=2, dstY1=2,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_LINEAR')
    d, text = draws_of(cv)
    s5, s6 = cv.surf_ids[('tex', 5)], cv.surf_ids[('tex', 6)]
    blit = text[text.index('DRAW '):]
    check(len(d) == 1 and 'call 25' in d[0] and ' flags 0 ' in d[0], 'blit becomes one exact draw', str(d))
    check('viewport x 0 y 0 w 2 h 2' in blit and 'targets color 1 %d' % s6 in blit, 'blit: destination rectangle and target',
          blit[:400])
    check('tex unit 0 surface %d min 1 mag 1 wrap_s 1 wrap_t 1' % s5 in blit and 'deps 1 %d' % s5 in blit,
          'blit: linear clamped sampling of the source, RAW dependency on it', blit[-300:])
    check('  v 1 1 0 1 1 1 1 1 1 1' in blit and '  v -1 -1 0 1 1 1 1 1 0 0' in blit,
          'blit: quad corners map to the source rectangle corners', blit)
    check('depth test 0' in blit and 'blend en 0' in blit, 'blit: no depth test, no blending')
    # mirrored blit (dstX1 < dstX0): texture coordinates swapped, viewport still positive
    gl(cv, 30, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=2, dstY0=0, dstX1=0, dstY1=2,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    d, text = draws_of(cv)
    last = text[text.rindex('DRAW '):]
    check(len(d) == 2 and 'viewport x 0 y 0 w 2 h 2' in last and '  v -1 -1 0 1 1 1 1 1 1 0' in last and
          'min 0 mag 0' in last, 'mirrored nearest blit', last[:600])
    # a blit from the window is not drawn, and says so
    gl(cv, 40, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=0)
    gl(cv, 41, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=2, dstY1=2,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    check(len(draws_of(cv)[0]) == 2 and any('from the window' in k for k in cv.notes), 'blit from the window noted')

    # storage allocated without data, then filled with glTexSubImage2D (ioquake3 opengl2 uploads this way)
    cv = converter()
    gl(cv, 1, 'glBindTexture', target='GL_TEXTURE_2D', texture=3)
    gl(cv, 2, 'glTexImage2D', target='GL_TEXTURE_2D', level=0, internalformat='GL_RGBA8', width=2, height=2,
       border=0, format='GL_RGBA', type='GL_UNSIGNED_BYTE', pixels=None)
    gl(cv, 3, 'glTexSubImage2D', target='GL_TEXTURE_2D', level=0, xoffset=1, yoffset=1, width=1, height=1,
       format='GL_RGBA', type='GL_UNSIGNED_BYTE', pixels=bytes([10, 20, 30, 40]))
    check(cv.textures[3].rgba == bytes(12) + bytes([10, 20, 30, 40]), 'sub-image into storage without data',
          repr(cv.textures[3].rgba))

    # draw buffers: an FBO writes COLOR_ATTACHMENT0 only until glDrawBuffers selects more (GL's default)
    cv = converter()
    fbo_with_texture(cv, 1, 1, 7, 8, 8)
    gl(cv, 5, 'glBindTexture', target='GL_TEXTURE_2D', texture=8)
    gl(cv, 6, 'glTexImage2D', target='GL_TEXTURE_2D', level=0, internalformat='GL_RGBA8', width=8, height=8,
       border=0, format='GL_RGBA', type='GL_UNSIGNED_BYTE', pixels=None)
    gl(cv, 7, 'glFramebufferTexture2D', target='GL_FRAMEBUFFER', attachment='GL_COLOR_ATTACHMENT1',
       textarget='GL_TEXTURE_2D', texture=8, level=0)
    c1 = cv.targets()[0]
    gl(cv, 8, 'glDrawBuffers', n=2, bufs=['GL_COLOR_ATTACHMENT0', 'GL_COLOR_ATTACHMENT1'])
    c2 = cv.targets()[0]
    gl(cv, 9, 'glDrawBuffer', mode='GL_NONE')
    c3 = cv.targets()[0]
    check(len(c1) == 1 and len(c2) == 2 and c3 == [], 'glDrawBuffers selects the colour targets', str((c1, c2, c3)))

    # formats the model does not hold (packed float, sRGB): rendering into them and sampling them are flagged,
    # never silent
    cv = converter()
    fbo_with_texture(cv, 1, 1, 5, 4, 4, 'GL_R11F_G11F_B10F')
    gl(cv, 5, 'glClear', mask='GL_COLOR_BUFFER_BIT')
    fbo_with_texture(cv, 10, 2, 6, 4, 4, 'GL_RGBA8')
    gl(cv, 14, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=1)
    gl(cv, 15, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=4, dstY1=4,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    gl(cv, 16, 'glBindFramebuffer', target='GL_FRAMEBUFFER', framebuffer=1)
    gl(cv, 17, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=2)
    gl(cv, 18, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=4, dstY1=4,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    d, _ = draws_of(cv)
    check(len(d) == 2 and ' flags %d ' % conv.F_TEX_APPROX in d[0] and ' flags %d ' % conv.F_STATE_APPROX in d[1],
          'packed-float texture sampled / target drawn: flagged', str(d))
    check(any('GL_R11F_G11F_B10F' in k for k in cv.notes), 'the format is named in the notes', str(cv.notes))
    # floating-point formats the model holds (format 1.3): RGBA16F target and texture exact, unclamped clear
    cv = converter()
    fbo_with_texture(cv, 1, 1, 5, 4, 4, 'GL_RGBA16F')
    gl(cv, 4, 'glClearColor', red=2.5, green=-1.0, blue=0.5, alpha=1.0)
    gl(cv, 5, 'glClear', mask='GL_COLOR_BUFFER_BIT')
    fbo_with_texture(cv, 10, 2, 6, 4, 4, 'GL_RGBA8')
    gl(cv, 14, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=1)
    gl(cv, 15, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=4, dstY1=4,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    gl(cv, 16, 'glBindFramebuffer', target='GL_FRAMEBUFFER', framebuffer=1)
    gl(cv, 17, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=2)
    gl(cv, 18, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=4, dstY1=4,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    d, text = draws_of(cv)
    check(len(d) == 2 and all(' flags 0 ' in x for x in d) and 'format 4 w 4 h 4' in text,
          'RGBA16F target and texture: SURF format 4, draws not flagged', str(d))
    check('value 2.5 -1 0.5 1' in text, 'clear of a float target keeps its colour unclamped',
          text[text.index('CLER'):text.index('CLER') + 120])
    check(cv.stats['float_surfaces'] > 0, 'float surfaces counted (format 1.3 written)')
    # content known only as 8-bit RGBA (an upload, a reference dump) goes into a float surface as byte / 255
    # (binary16 rounded to nearest even: 51/255 -> 0x3266, 128/255 -> 0x3804), and the draws sampling it are flagged
    check(conv.float_texels(bytes([255, 0, 51, 128]), 4).hex() == '003c0000' + '66320438' and
          conv.float_texels(bytes([255, 0, 51, 128]), 7).hex() == '0000803f', 'RGBA8 -> float texels')
    prior_content_tests()
    # GL_DEPTH_CLAMP (format 1.4): rendered by the model, so not flagged; a draw carries DRAW state_flags 1,
    # a blit (which GL's depth clamp does not affect) 0
    gl(cv, 30, 'glEnable', cap='GL_DEPTH_CLAMP')
    check(cv.unsupported_state() == 0 and not any('GL_DEPTH_CLAMP' in k for k in cv.notes),
          'GL_DEPTH_CLAMP not flagged', str(cv.notes))
    gl(cv, 31, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=4, srcY1=4, dstX0=0, dstY0=0, dstX1=4, dstY1=4,
       mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
    quad = [(-1.0, -1.0, 2.0, 1.0), (1.0, -1.0, -2.0, 1.0), (1.0, 1.0, 0.0, 1.0)]
    cv.emit_draw(32, 'GL_TRIANGLES', [0, 1, 2], lambda used: (
        [(conv.SEM_POSITION, 4, [quad[i] for i in used]), (conv.SEM_COLOR, 4, [(1.0, 0.0, 0.0, 1.0)] * len(used))],
        'vs_mvp', 'fs_color', 'depth clamp test', 'depth clamp test', list(conv.mvp_rows(conv.IDENT)), (4, 0, 1), [], 0))
    d, _ = draws_of(cv)
    check(len(d) == 4 and d[2].endswith(' state_flags 0') and d[3].endswith(' state_flags 1') and ' flags 0 ' in d[3],
          'depth-clamped draw: state_flags 1, not flagged; blit: state_flags 0', str(d[2:]))
    check(cv.stats['depth_clamp_draws'] == 1, 'depth-clamped draws counted (format 1.4 written)')


def state_image(ident, w, h, texels):
    """An image as apitrace's JSON state dump writes a float texture: its PNM variant, rows top first."""
    import base64
    body = b''.join(struct.pack('<%df' % len(px), *px) for px in texels)
    return {'__data__': base64.b64encode(b'%s\n%d %d\n1\n' % (ident, w, h) + body).decode()}


def prior_content_tests():
    """Float content the converter cannot compute (rendered in frames it does not convert, or uploaded as bytes)
    comes from the reference's state dump at full precision: the float32 images of `glretrace -D` decoded,
    the textures asked for at the call before the draw that needs them, written into the float surface exactly."""
    # decoding: 'PX' (4 floats a texel) and 'PF' (3; alpha 1), rows flipped to bottom first
    w, h, rgba, f32 = conv.decode_state_image(state_image(b'PX', 1, 2, [(2.5, -1.0, 0.03, 1.0), (0.5, 0.25, 65504.0, 0.0)]))
    vals = struct.unpack('<8f', f32)
    check((w, h) == (1, 2) and vals[:4] == (0.5, 0.25, 65504.0, 0.0) and vals[4:] == struct.unpack('<4f', struct.pack(
        '<4f', 2.5, -1.0, 0.03, 1.0)) and rgba == bytes([128, 64, 255, 0, 255, 0, 8, 255]),
        'state dump PX image decoded exactly, bottom row first', str((w, h, vals, rgba)))
    w, h, rgba, f32 = conv.decode_state_image(state_image(b'PF', 1, 1, [(3.0, 0.0, 0.0)]))
    check(struct.unpack('<4f', f32) == (3.0, 0.0, 0.0, 1.0), 'state dump PF image: alpha 1', str(struct.unpack('<4f', f32)))
    # binary16 values read back as float32 go back into RGBA16F exactly (2.5 = 0x4100, 0.0300 = 0x27ae)
    h03 = struct.unpack('<e', struct.pack('<e', 0.03))[0]
    check(conv.float_texels_exact(struct.pack('<4f', 2.5, -1.0, h03, 1.0), 4).hex() == '0041' + '00bc' + 'ae27' + '003c',
          'float32 texels -> RGBA16F exact', conv.float_texels_exact(struct.pack('<4f', 2.5, -1.0, h03, 1.0), 4).hex())

    def frames(prior, bind=True):
        # frame 0 (not converted) renders into the RGBA16F textures 5 and 6; frame 1 blits 5 into 6 (6 is
        # sampled and 6 is a render target: both contents are needed, and neither is known to the converter)
        a = argparse.Namespace(width=64, height=64, max_tex_dim=0)
        cv = conv.Converter(a)
        cv.unpack_align, cv.tex_scaled, cv.emit_frames = 4, set(), {1}
        cv.prior_tex = prior
        cv.start_frame()
        fbo_with_texture(cv, 1, 1, 5, 2, 2, 'GL_RGBA16F')
        fbo_with_texture(cv, 10, 2, 6, 2, 2, 'GL_RGBA16F')
        gl(cv, 14, 'glTexSubImage2D', target='GL_TEXTURE_2D', level=0, xoffset=0, yoffset=0, width=2, height=2,
           format='GL_RGBA', type='GL_UNSIGNED_BYTE', pixels=bytes([128, 128, 128, 255]) * 4)
        gl(cv, 15, 'glBindFramebuffer', target='GL_FRAMEBUFFER', framebuffer=1)
        gl(cv, 16, 'glClear', mask='GL_COLOR_BUFFER_BIT')
        gl(cv, 20, 'glXSwapBuffers')
        # frame 1: a clear of one texel of 6 (the others keep their content), then 5 blitted into 6
        gl(cv, 21, 'glBindFramebuffer', target='GL_DRAW_FRAMEBUFFER', framebuffer=2)
        gl(cv, 22, 'glEnable', cap='GL_SCISSOR_TEST')
        gl(cv, 23, 'glScissor', x=0, y=0, width=1, height=1)
        gl(cv, 24, 'glClear', mask='GL_COLOR_BUFFER_BIT')
        gl(cv, 25, 'glDisable', cap='GL_SCISSOR_TEST')
        gl(cv, 26, 'glBindFramebuffer', target='GL_READ_FRAMEBUFFER', framebuffer=1)
        if bind:    # the state dump holds textures bound to a unit: a blit's source only if it is bound too
            gl(cv, 27, 'glActiveTexture', texture='GL_TEXTURE3')
            gl(cv, 28, 'glBindTexture', target='GL_TEXTURE_2D', texture=5)
        gl(cv, 29, 'glBlitFramebuffer', srcX0=0, srcY0=0, srcX1=2, srcY1=1, dstX0=0, dstY0=0, dstX1=2, dstY1=1,
           mask='GL_COLOR_BUFFER_BIT', filter='GL_NEAREST')
        gl(cv, 30, 'glXSwapBuffers')
        return cv
    check(frames({}, bind=False).prior_need == {(6, 23): ('fb', 'GL_COLOR_ATTACHMENT0', 2, 2)},
          'a blit source bound to no texture unit is not asked for (the state dump does not hold it)')
    cv = frames({})
    d, _ = draws_of(cv)
    check(cv.prior_need == {(5, 28): ('tex', 3, 2, 2), (6, 23): ('fb', 'GL_COLOR_ATTACHMENT0', 2, 2)},
          'rendered float texture sampled, float target with uploaded bytes partly cleared: both asked for at the '
          'call before', str(cv.prior_need))
    check(len(d) == 1 and ' flags %d ' % conv.F_TEX_APPROX in d[0] and
          any(k.startswith('render target drawn into whose earlier content is unknown') for k in cv.notes),
          'without the reference content the draw is flagged and the partial clear noted', str((d, cv.notes)))
    px5 = struct.pack('<4f', 2.5, -1.0, h03, 1.0) * 4
    px6 = struct.pack('<4f', 0.5, 0.5, 0.5, h03) * 4
    cv = frames({(5, 28): (2, 2, bytes(16), px5), (6, 23): (2, 2, bytes(16), px6)})
    d, text = draws_of(cv)
    s5, s6 = cv.surf_ids[('tex', 5)], cv.surf_ids[('tex', 6)]
    surf = lambda sid: text[text.rindex('SURF z auto id %d ' % sid):].split('\n')[1:3]
    check(len(d) == 1 and ' flags 0 ' in d[0], 'with the reference content the draw is exact', str(d))
    check(surf(s5) == [' data 32', '  x ' + ('0041' '00bc' 'ae27' '003c') * 4] and
          surf(s6) == [' data 32', '  x ' + ('0038' '0038' '0038' 'ae27') * 4],
          'sampled and target float textures carry the reference content exactly', str((surf(s5), surf(s6))))

    # a depth texture rendered before the frame and sampled (immediate mode: asked for before glBegin) gets the
    # reference's float32 depth in its DEPTH32F surface
    def depth_frame(prior):
        cv = converter()
        cv.prior_tex = prior
        gl(cv, 1, 'glBindTexture', target='GL_TEXTURE_2D', texture=9)
        gl(cv, 2, 'glTexImage2D', target='GL_TEXTURE_2D', level=0, internalformat='GL_DEPTH_COMPONENT24', width=2,
           height=1, border=0, format='GL_DEPTH_COMPONENT', type='GL_UNSIGNED_INT', pixels=None)
        gl(cv, 3, 'glTexParameteri', target='GL_TEXTURE_2D', pname='GL_TEXTURE_MIN_FILTER', param='GL_NEAREST')
        gl(cv, 4, 'glEnable', cap='GL_TEXTURE_2D')
        gl(cv, 5, 'glBegin', mode='GL_TRIANGLES')
        for i, v in enumerate(((0, 0), (1, 0), (0, 1))):
            gl(cv, 6 + i, 'glVertex2f', x=float(v[0]), y=float(v[1]))
        gl(cv, 9, 'glEnd')
        return cv
    cv = depth_frame({})
    d, _ = draws_of(cv)
    check(cv.prior_need == {(9, 4): ('tex', 0, 2, 1)} and ' flags %d ' % conv.F_TEX_APPROX in d[0],
          'depth texture rendered before the frame: asked for before glBegin, flagged without it', str((cv.prior_need, d)))
    cv = depth_frame({(9, 4): (2, 1, bytes(8), struct.pack('<8f', 0.25, 0, 0, 1, 0.75, 0, 0, 1))})
    d, text = draws_of(cv)
    sid = cv.surf_ids[('tex', 9)]
    check(' flags 0 ' in d[0] and text[text.rindex('SURF z auto id %d ' % sid):].split('\n')[1:3] == [
        ' data 8', '  x ' + struct.pack('<2f', 0.25, 0.75).hex()], 'depth texture carries the reference depth', text[-2000:])


def horse_triangles():
    """Triangle count of glmark2's horse.3ds, read from the 3DS chunks (0x4120 face list)."""
    data = open('/usr/share/glmark2/models/horse.3ds', 'rb').read()
    total, stack = 0, [(0, len(data))]
    containers = {0x4D4D, 0x3D3D, 0x4000, 0x4100}
    while stack:
        pos, end = stack.pop()
        while pos + 6 <= end:
            cid, clen = struct.unpack_from('<HI', data, pos)
            if clen < 6:
                break
            if cid in containers:
                body = pos + 6
                if cid == 0x4000:     # object name (NUL-terminated) precedes sub-chunks
                    body = data.index(b'\0', body) + 1
                stack.append((body, pos + clen))
            elif cid == 0x4120:
                total += struct.unpack_from('<H', data, pos + 6)[0]
            pos += clen
    return total


def e2e(tool, work):
    out = os.path.join(work, 'out')
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, TOOL=tool)
    cmd = [os.path.join(ROOT, 'traces', 'capture', 'capture.sh'), 'test', out]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode:
        check(False, 'capture + conversion of a small glmark2 shadow capture', '\n' + r.stderr[-2000:] +
              '\n  reproduce: ' + ' '.join(cmd))
        return
    gpt = os.path.join(out, 'test-shadow.gpt')
    check(subprocess.run([tool, 'validate', gpt], capture_output=True).returncode == 0, 'converted trace validates')
    rows = subprocess.run([tool, 'draws', gpt], capture_output=True, text=True).stdout.strip().split('\n')[1:]
    draws = [dict(zip(('frame', 'draw', 'call', 'prims', 'verts', 'vs', 'fs', 'color', 'depth', 'tex', 'deps',
                       'ref', 'flags'), r.split('\t'))) for r in rows]
    check(len(draws) == 3, 'shadow frame has 3 draws (depth pass, ground, horse)', str(len(draws)))
    if len(draws) == 3:
        ht = horse_triangles()
        check(ht > 1000 and int(draws[0]['prims']) == ht and int(draws[2]['prims']) == ht,
              'horse draws carry the model triangle count', '%s vs %d' % ([d['prims'] for d in draws], ht))
        check(int(draws[1]['prims']) == 2, 'ground is one quad')
        check(draws[0]['color'] == '-1' and draws[0]['depth'] != '-1', 'depth pass renders depth only')
        check(draws[1]['deps'] == '1' and draws[1]['tex'] == '1', 'ground samples the shadow map (RAW dep)')
        ppd = {}
        for line in open(os.path.join(out, 'work', 'test-shadow', 'ppd.txt')):
            c = line.split()
            if c and c[0] == 'call':
                ppd[c[1]] = c[-3]
        check(all(d['ref'] == ppd.get(d['call']) and int(d['ref']) > 0 for d in draws),
              'each draw carries its glretrace --ppd pixel count', str([(d['call'], d['ref']) for d in draws]))
    cov = subprocess.run([tool, 'coverage', gpt], capture_output=True, text=True).stdout
    check('3 draws compared' in cov and 'within 2% (100.0%)' in cov,
          'converted geometry reproduces the reference per-draw pixel counts (gpupd-trace coverage)', cov.strip())
    check(os.path.getsize(os.path.join(out, 'test-shadow.png')) > 1000, 'reference image written')
    # fixed-function path: ffscene.py draws, triangles per draw from the scene's own description
    ff = os.path.join(out, 'test-ff.gpt')
    exp = json.loads(subprocess.run(['/usr/bin/python3', os.path.join(ROOT, 'traces', 'capture', 'ffscene.py'),
                                     '--expect'], capture_output=True, text=True, check=True).stdout)
    rows = subprocess.run([tool, 'draws', ff], capture_output=True, text=True).stdout.strip().split('\n')[1:]
    got = [int(r.split('\t')[3]) for r in rows]
    check(got == [e['triangles'] for e in exp],
          'fixed-function scene: draws and triangles after primitive assembly (strips, fans, quads)',
          '%s vs %s' % (got, [e['triangles'] for e in exp]))
    check(all(r.split('\t')[11] != '-1' for r in rows), 'fixed-function scene: every draw has a --ppd count')
    cov = subprocess.run([tool, 'coverage', ff], capture_output=True, text=True).stdout
    m = re.search(r'(\d+) draws compared .*?: (\d+) exact, (\d+) within', cov)
    check(m and int(m.group(1)) == len(exp) and int(m.group(3)) == len(exp) and int(m.group(2)) >= len(exp) - 1,
          'fixed-function scene: matrix stacks, arrays, immediate mode, scissor, depth range, polygon offset '
          'reproduce the reference pixel counts', cov.strip())
    txt, back = os.path.join(work, 'rt.txt'), os.path.join(work, 'rt.gpt')
    ok = (subprocess.run([tool, 'dump', gpt, txt]).returncode == 0 and
          subprocess.run([tool, 'undump', txt, back]).returncode == 0 and
          open(gpt, 'rb').read() == open(back, 'rb').read())
    check(ok, 'converted trace round-trips through the text dump byte-identically')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--no-capture', action='store_true')
    a = ap.parse_args()
    unit_tests()
    gl_emulation_tests()
    if not a.no_capture:
        e2e(os.path.abspath(a.tool), os.path.abspath(a.work))
    print('test-trace-convert: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
