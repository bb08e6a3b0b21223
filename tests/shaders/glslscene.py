#!/usr/bin/python3
"""A small OpenGL scene for the shader compiler's differential test (tests/shaders/test_diff.py): drawn by
Mesa llvmpipe under Xvfb, captured with apitrace, converted (GLSL compiled to the ISA, fixed function
generated) and rendered by the golden model; the two frames must agree.

Draws, in a 160x120 window (client arrays, no VBOs):
 0. a lit, textured, mipmapped quad (GLSL: per-fragment diffuse + specular with pow, normalize, reflect,
    a loop over 3 lights with an early break, a function, mix/clamp/step, a matrix uniform)
 1. a quad whose fragment shader discards a checkerboard (discard; per-draw pixel count checks it)
 2. a quad displaced in the vertex shader by a texture fetch (vertex texture fetch, like glmark2 terrain)
 3. fixed function: two texture units (lightmap-style MODULATE then ADD) with vertex colour
 4. fixed function: DECAL + GL_REPEAT/CLAMP/MIRRORED wraps on a minified, mipmapped texture
Renders 2 frames (the converter takes the last one) and exits.

With --lines it draws lines and points instead (the line/point part of the differential test, issue 11
item 4; docs/golden-model.md section 1.1), in the same window:
 0. a depth-tested background quad
 1. GLSL line strip, width 1, per-vertex colour (varying interpolated along the line), every slope class:
    horizontal, vertical, 45 degrees, shallow and steep, ends on pixel centres, edges and corners
 2-4. fixed-function GL_LINES of widths 2, 3 and 4.5 (rounds to 5 as llvmpipe does), depth tested
 5. GL_LINE_LOOP, width 1
 6-9. GL_POINTS of sizes 1, 2, 3 and 6 (odd and even), some on pixel corners
 10. a perspective line strip crossing the near plane (clipped), width 2
 11. GL_LINE_SMOOTH lines (antialiased in GL: the converter must flag the draw, never pass it as exact)

With --hdr it draws a floating-point render-to-texture scene (issue 22: what ioquake3's opengl2 renderer
needs), in the same window:
 0. clear of an RGBA16F colour texture A (160x120) to (0.5, 2.0, 0.25, 1), unclamped
 1. GLSL quad into A: colour (4s, 4t, 3, 1), additive blending (ONE, ONE): values up to about 7; its vertex
    shader has 10 attributes (eight of them shift the texture coordinate: more than 8 attributes)
 2. GLSL triangles into A, one counter-clockwise and one clockwise, no culling: gl_FrontFacing picks
    (5, 0.1, 0, 1) or (0, 0.2, 6, 1)
 2b. GLSL quad into A (blended on): dFdx, dFdy and fwidth of a quadratic in (s, t) (the quad derivative unit)
 3. clear of an R32F texture B (80x60) to -1.5, then a GLSL quad into it: 10 s - 3 (negative and > 1)
 3b. a sloped quad into a 40x30 GL_DEPTH_COMPONENT24 texture D (depth only), then a GLSL quad into A that
    samples D through sampler2DShadow (GL_LINEAR, GL_COMPARE_REF_TO_TEXTURE, GL_LEQUAL) with a reference
    sloped the other way: the shadow edge runs across the quad, filtered 2x2 (percentage-closer); then the
    same lookup with the texture's filters set to GL_NEAREST (one texel compared), in another quad
 4. to the window: a tone-mapping quad sampling A (bilinear, half-texel offset) and B (bilinear, 2x
    magnification): c / (1 + c) + 0.05 * (B + 3)
 5. to the window with glFrontFace(GL_CW): the gl_FrontFacing triangles again (the winding flips)
 6. to the window, depth cleared, GL_DEPTH_CLAMP on, glDepthRange(0.1, 0.9), depth test GL_LESS: a triangle
    through both the near and the far plane (perspective w), a triangle wholly beyond the far plane and one
    with a vertex behind the eye (w < 0: only the x/y planes clip it); the model must not clip them at
    near/far and must clamp their depth to the range
 7. the same, GL_DEPTH_CLAMP off, depth range (0, 1): a quad at window depth 0.85 over them, GL_LESS, so its
    pixel count depends on the clamped depths the first draw left
"""
import argparse
import ctypes
import math
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'traces', 'capture'))
import glwin  # noqa: E402

GL_COLOR_BUFFER_BIT, GL_DEPTH_BUFFER_BIT = 0x4000, 0x100
GL_DEPTH_TEST, GL_TRIANGLES, GL_TRIANGLE_STRIP = 0x0B71, 0x0004, 0x0005
GL_FLOAT, GL_FALSE, GL_UNSIGNED_BYTE = 0x1406, 0, 0x1401
GL_VERTEX_SHADER, GL_FRAGMENT_SHADER = 0x8B31, 0x8B30
GL_TEXTURE_2D, GL_RGBA, GL_RGB = 0x0DE1, 0x1908, 0x1907
GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T = 0x2801, 0x2800, 0x2802, 0x2803
GL_NEAREST, GL_LINEAR, GL_LINEAR_MIPMAP_LINEAR, GL_NEAREST_MIPMAP_NEAREST = 0x2600, 0x2601, 0x2703, 0x2700
GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT = 0x2901, 0x812F, 0x8370
GL_TEXTURE0, GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE = 0x84C0, 0x2300, 0x2200
GL_MODULATE, GL_ADD, GL_DECAL = 0x2100, 0x0104, 0x2101
GL_VERTEX_ARRAY, GL_COLOR_ARRAY, GL_TEXTURE_COORD_ARRAY = 0x8074, 0x8076, 0x8078
GL_GENERATE_MIPMAP = 0x8191
GL_COMBINE, GL_COMBINE_RGB, GL_COMBINE_ALPHA, GL_RGB_SCALE = 0x8570, 0x8571, 0x8572, 0x8573
GL_SRC0_RGB, GL_SRC0_ALPHA, GL_OPERAND0_RGB, GL_OPERAND0_ALPHA = 0x8580, 0x8588, 0x8590, 0x8598   # +n for n = 1, 2
GL_INTERPOLATE, GL_ADD_SIGNED, GL_SUBTRACT, GL_DOT3_RGB = 0x8575, 0x8574, 0x84E7, 0x86AE
GL_CONSTANT, GL_PRIMARY_COLOR, GL_PREVIOUS, GL_TEXTURE = 0x8576, 0x8577, 0x8578, 0x1702
GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA = 0x0300, 0x0301, 0x0302, 0x0303
GL_TEXTURE_ENV_COLOR, GL_REPLACE = 0x2201, 0x1E01

VS_LIT = b"""
attribute vec3 position;
attribute vec3 normal;
attribute vec2 texcoord;
uniform mat4 mvp;
uniform mat3 nmat;
varying vec3 v_n;
varying vec2 v_uv;
varying vec3 v_pos;
void main() {
    v_n = nmat * normal;
    v_uv = texcoord * 3.0;
    v_pos = position;
    gl_Position = mvp * vec4(position, 1.0);
}
"""
FS_LIT = b"""
uniform sampler2D tex;
uniform vec3 lights[3];
uniform vec4 tint;
varying vec3 v_n;
varying vec2 v_uv;
varying vec3 v_pos;
float lambert(vec3 n, vec3 l) { return max(dot(n, l), 0.0); }
void main() {
    vec3 n = normalize(v_n);
    vec3 acc = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        vec3 l = normalize(lights[i] - v_pos);
        float d = lambert(n, l);
        vec3 r = reflect(-l, n);
        float s = pow(max(r.z, 0.0), 8.0);
        acc += vec3(d * 0.5) + s * 0.25 * step(0.2, d);
        if (acc.x > 1.5) break;
    }
    vec4 t = texture2D(tex, v_uv);
    gl_FragColor = vec4(clamp(mix(t.rgb, tint.rgb, 0.25) * acc, 0.0, 1.0), 1.0);
}
"""
VS_FLAT = b"""
attribute vec2 position;
attribute vec2 texcoord;
uniform vec4 rect;
varying vec2 v_uv;
void main() { v_uv = texcoord; gl_Position = vec4(rect.xy + position * rect.zw, 0.0, 1.0); }
"""
FS_DISCARD = b"""
varying vec2 v_uv;
void main() {
    vec2 c = floor(v_uv * 6.0);
    if (mod(c.x + c.y, 2.0) < 0.5) discard;
    gl_FragColor = vec4(v_uv, 0.5, 1.0);
}
"""
VS_VTF = b"""
attribute vec2 position;
attribute vec2 texcoord;
uniform sampler2D height;
uniform vec4 rect;
varying vec2 v_uv;
varying float v_h;
void main() {
    float h = texture2DLod(height, texcoord, 0.0).r;
    v_uv = texcoord; v_h = h;
    gl_Position = vec4(rect.xy + position * rect.zw + vec2(0.0, h * 0.3), 0.0, 1.0);
}
"""
FS_VTF = b"""
varying vec2 v_uv;
varying float v_h;
void main() { gl_FragColor = vec4(v_h, v_uv.x, 1.0 - v_h, 1.0); }
"""


def checker(n, c0, c1, k):
    px = []
    for y in range(n):
        for x in range(n):
            c = c0 if ((x // k) + (y // k)) % 2 else c1
            px += [c[0], c[1], (x * 255) // (n - 1), 255]
    return bytes(px)


GL_LINES, GL_LINE_LOOP, GL_LINE_STRIP, GL_POINTS = 0x0001, 0x0002, 0x0003, 0x0000
GL_LINE_SMOOTH, GL_BLEND, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA = 0x0B20, 0x0BE2, 0x0302, 0x0303
VS_LINE = b"""
attribute vec2 position;
attribute vec4 color;
varying vec4 v_c;
void main() { v_c = color; gl_Position = vec4(position, 0.25, 1.0); }
"""
FS_LINE = b"""
varying vec4 v_c;
void main() { gl_FragColor = v_c; }
"""


VS_HDR = b"""
attribute vec2 position;
attribute vec2 texcoord;
varying vec2 v_t;
void main() { v_t = texcoord; gl_Position = vec4(position, 0.0, 1.0); }
"""
VS_HDR10 = b"""
attribute vec2 position;
attribute vec2 texcoord;
attribute vec2 w0, w1, w2, w3, w4, w5, w6, w7;
varying vec2 v_t;
void main() {
    v_t = texcoord + ((w0 + w1) + (w2 + w3)) + ((w4 + w5) + (w6 + w7));
    gl_Position = vec4(position, 0.0, 1.0);
}
"""
FS_HDR_ADD = b"""
varying vec2 v_t;
void main() { gl_FragColor = vec4(4.0 * v_t.x, 4.0 * v_t.y, 3.0, 1.0); }
"""
FS_HDR_FACE = b"""
varying vec2 v_t;
void main() { gl_FragColor = gl_FrontFacing ? vec4(5.0, 0.1 + v_t.x, 0.0, 1.0) : vec4(0.0, 0.2, 6.0 * v_t.y, 1.0); }
"""
FS_HDR_DERIV = b"""
varying vec2 v_t;
void main() {
    float q = 40.0 * v_t.x * v_t.x + 30.0 * v_t.y * v_t.y + 20.0 * v_t.x * v_t.y;
    gl_FragColor = vec4(3.0 * dFdx(q) + 1.0, 3.0 * dFdy(q) + 1.0, 2.0 * fwidth(q), 0.0);
}
"""
VS_CLAMP = b"""
attribute vec4 position;
attribute vec2 texcoord;
varying vec2 v_t;
void main() { v_t = texcoord; gl_Position = position; }
"""
FS_CLAMP = b"""
varying vec2 v_t;
void main() { gl_FragColor = vec4(v_t, 0.6, 1.0); }
"""
GL_DEPTH_CLAMP, GL_LESS = 0x864F, 0x0201
FS_HDR_R = b"""
varying vec2 v_t;
void main() { gl_FragColor = vec4(10.0 * v_t.x - 3.0, 7.0, 7.0, 7.0); }
"""
FS_HDR_DEPTH = b"""
varying vec2 v_t;
void main() { gl_FragColor = vec4(1.0); }
"""
VS_HDR_SLOPE = b"""
attribute vec2 position;
attribute vec2 texcoord;
varying vec2 v_t;
void main() { v_t = texcoord; gl_Position = vec4(position, 0.8 * position.x + 0.1 * position.y, 1.0); }
"""
FS_HDR_SHADOW = b"""
uniform sampler2DShadow sm;
varying vec2 v_t;
void main() {
    float r = shadow2D(sm, vec3(v_t, 0.9 - 0.8 * v_t.x + 0.05 * v_t.y)).x;
    gl_FragColor = vec4(2.0 * r, 0.5, 1.0 - r, 1.0);
}
"""
FS_HDR_TONE = b"""
uniform sampler2D hdr;
uniform sampler2D red;
varying vec2 v_t;
void main() {
    vec4 c = texture2D(hdr, v_t + vec2(0.5 / 160.0, 0.5 / 120.0));
    float r = texture2D(red, v_t).r;
    gl_FragColor = vec4(c.rgb / (vec3(1.0) + c.rgb) + vec3(0.05 * (r + 3.0)), 1.0);
}
"""
GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RGBA16F, GL_R32F = 0x8D40, 0x8CE0, 0x881A, 0x822E
GL_BLEND, GL_ONE, GL_CW, GL_CCW, GL_CULL_FACE = 0x0BE2, 1, 0x0900, 0x0901, 0x0B44
GL_DEPTH_ATTACHMENT, GL_DEPTH_COMPONENT, GL_DEPTH_COMPONENT24, GL_LEQUAL = 0x8D00, 0x1902, 0x81A6, 0x0203
GL_TEXTURE_COMPARE_MODE, GL_TEXTURE_COMPARE_FUNC, GL_COMPARE_REF_TO_TEXTURE = 0x884C, 0x884D, 0x884E


def hdr_scene(gl, dpy, win, w, h):
    """Floating-point render targets and gl_FrontFacing (see the module docstring)."""
    f = ctypes.c_float
    keep = []

    def arr(vals):
        x = (ctypes.c_float * len(vals))(*vals)
        keep.append(x)
        return x

    def shader(kind, src):
        s = gl.glCreateShader(kind)
        gl.glShaderSource(s, 1, (ctypes.c_char_p * 1)(src), None)
        gl.glCompileShader(s)
        return s

    def program(fs, vs=VS_HDR, extra=0):
        p = gl.glCreateProgram()
        gl.glAttachShader(p, shader(GL_VERTEX_SHADER, vs))
        gl.glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs))
        gl.glBindAttribLocation(p, 0, b'position')
        gl.glBindAttribLocation(p, 1, b'texcoord')
        for k in range(extra):
            gl.glBindAttribLocation(p, 2 + k, b'w%d' % k)
        gl.glLinkProgram(p)
        return p

    def target(tw, th, fmt):
        t = ctypes.c_uint()
        gl.glGenTextures(1, ctypes.byref(t))
        gl.glBindTexture(GL_TEXTURE_2D, t)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE)
        gl.glTexImage2D(GL_TEXTURE_2D, 0, fmt, tw, th, 0, GL_RGBA, GL_FLOAT, None)
        fb = ctypes.c_uint()
        gl.glGenFramebuffers(1, ctypes.byref(fb))
        gl.glBindFramebuffer(GL_FRAMEBUFFER, fb)
        gl.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0)
        gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
        return t, fb

    def quad(x0, y0, x1, y1):
        gl.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, arr([x0, y0, x1, y0, x0, y1, x1, y1]))
        gl.glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, arr([0, 0, 1, 0, 0, 1, 1, 1]))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)

    def faces():
        # one counter-clockwise and one clockwise triangle
        gl.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, arr([-0.9, -0.8, -0.1, -0.8, -0.5, 0.7,
                                                                    0.1, -0.7, 0.5, 0.8, 0.9, -0.7]))
        gl.glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, arr([0, 0, 1, 0, 0.5, 1, 0, 0, 0.5, 1, 1, 0]))
        gl.glDrawArrays(GL_TRIANGLES, 0, 6)

    p_add = program(FS_HDR_ADD, VS_HDR10, 8)
    p_face, p_r, p_tone = program(FS_HDR_FACE), program(FS_HDR_R), program(FS_HDR_TONE)
    p_deriv = program(FS_HDR_DERIV)
    p_depth = program(FS_HDR_DEPTH, VS_HDR_SLOPE)
    p_shadow = program(FS_HDR_SHADOW)
    p_clamp = program(FS_CLAMP, VS_CLAMP)
    t_d = ctypes.c_uint()
    gl.glGenTextures(1, ctypes.byref(t_d))
    gl.glBindTexture(GL_TEXTURE_2D, t_d)
    for pn, pv in ((GL_TEXTURE_MIN_FILTER, GL_LINEAR), (GL_TEXTURE_MAG_FILTER, GL_LINEAR),
                   (GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE), (GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE),
                   (GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE), (GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL)):
        gl.glTexParameteri(GL_TEXTURE_2D, pn, pv)
    gl.glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 40, 30, 0, GL_DEPTH_COMPONENT, GL_FLOAT, None)
    fb_d = ctypes.c_uint()
    gl.glGenFramebuffers(1, ctypes.byref(fb_d))
    gl.glBindFramebuffer(GL_FRAMEBUFFER, fb_d)
    gl.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t_d, 0)
    gl.glDrawBuffer(0)
    gl.glReadBuffer(0)
    gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
    t_a, fb_a = target(w, h, GL_RGBA16F)
    t_b, fb_b = target(w // 2, h // 2, GL_R32F)
    gl.glEnableVertexAttribArray(0)
    gl.glEnableVertexAttribArray(1)
    gl.glDisable(GL_CULL_FACE)
    for frame in range(2):
        gl.glBindFramebuffer(GL_FRAMEBUFFER, fb_a)
        gl.glViewport(0, 0, w, h)
        gl.glClearColor(f(0.5), f(2.0), f(0.25), f(1.0))
        gl.glClear(GL_COLOR_BUFFER_BIT)
        gl.glUseProgram(p_add)
        gl.glEnable(GL_BLEND)
        gl.glBlendFunc(GL_ONE, GL_ONE)
        for k in range(8):     # per-vertex shifts: (+-(k+1)/64, ...), summing to (0.25, -0.125) at vertex 0
            sgn = 1.0 if k % 2 == 0 else -0.5
            gl.glVertexAttribPointer(2 + k, 2, GL_FLOAT, GL_FALSE, 0,
                                     arr([sgn * (k + 1) / 64.0, -sgn * (k + 1) / 128.0, 0.0, 0.0,
                                          0.0, sgn * (k + 1) / 64.0, 0.01 * k, 0.0]))
            gl.glEnableVertexAttribArray(2 + k)
        quad(-0.8, -0.9, 0.7, 0.6)
        for k in range(8):
            gl.glDisableVertexAttribArray(2 + k)
        gl.glDisable(GL_BLEND)
        gl.glUseProgram(p_face)
        gl.glFrontFace(GL_CCW)
        faces()
        gl.glUseProgram(p_deriv)
        gl.glEnable(GL_BLEND)
        quad(0.1, 0.1, 0.95, 0.95)
        gl.glDisable(GL_BLEND)
        # depth-only pass into D, then the shadow lookup into A
        gl.glBindFramebuffer(GL_FRAMEBUFFER, fb_d)
        gl.glViewport(0, 0, 40, 30)
        gl.glClearDepth(ctypes.c_double(1.0))
        gl.glClear(GL_DEPTH_BUFFER_BIT)
        gl.glEnable(GL_DEPTH_TEST)
        gl.glUseProgram(p_depth)
        quad(-1.0, -1.0, 1.0, 1.0)
        gl.glDisable(GL_DEPTH_TEST)
        gl.glBindFramebuffer(GL_FRAMEBUFFER, fb_a)
        gl.glViewport(0, 0, w, h)
        gl.glUseProgram(p_shadow)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glBindTexture(GL_TEXTURE_2D, t_d)
        gl.glUniform1i(gl.glGetUniformLocation(p_shadow, b'sm'), 0)
        quad(-0.95, 0.2, -0.05, 0.95)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST)     # the same lookup, GL_NEAREST
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST)
        quad(0.05, -0.95, 0.95, -0.2)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR)
        gl.glBindFramebuffer(GL_FRAMEBUFFER, fb_b)
        gl.glViewport(0, 0, w // 2, h // 2)
        gl.glClearColor(f(-1.5), f(0.0), f(0.0), f(0.0))
        gl.glClear(GL_COLOR_BUFFER_BIT)
        gl.glUseProgram(p_r)
        quad(-0.7, -0.6, 0.9, 0.8)
        gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
        gl.glViewport(0, 0, w, h)
        gl.glClearColor(f(0.1), f(0.1), f(0.1), f(1.0))
        gl.glClear(GL_COLOR_BUFFER_BIT)
        gl.glUseProgram(p_tone)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glBindTexture(GL_TEXTURE_2D, t_a)
        gl.glActiveTexture(GL_TEXTURE0 + 1)
        gl.glBindTexture(GL_TEXTURE_2D, t_b)
        gl.glUniform1i(gl.glGetUniformLocation(p_tone, b'hdr'), 0)
        gl.glUniform1i(gl.glGetUniformLocation(p_tone, b'red'), 1)
        quad(-1.0, -1.0, 1.0, 1.0)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glUseProgram(p_face)
        gl.glFrontFace(GL_CW)
        faces()
        gl.glFrontFace(GL_CCW)
        # GL_DEPTH_CLAMP: clip-space (x, y, z, w) given directly
        gl.glClearDepth(ctypes.c_double(1.0))
        gl.glClear(GL_DEPTH_BUFFER_BIT)
        gl.glEnable(GL_DEPTH_TEST)
        gl.glDepthFunc(GL_LESS)
        gl.glUseProgram(p_clamp)
        gl.glEnable(GL_DEPTH_CLAMP)
        gl.glDepthRange(ctypes.c_double(0.1), ctypes.c_double(0.9))
        gl.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, arr([
            -0.9, -0.9, -1.7, 1.0, 1.2, -0.6, 2.4, 1.5, 0.0, 0.9, 0.3, 1.0,        # through near and far
            -0.95, 0.3, 1.5, 1.0, -0.3, 0.35, 1.2, 1.0, -0.6, 0.95, 1.9, 1.0,     # beyond far
            0.3, 0.2, 0.1, 1.0, 0.9, 0.1, -0.2, 1.0, 0.7, 0.5, 0.6, -0.4]))      # a vertex with w < 0
        gl.glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, arr([0, 0, 1, 0, 0.5, 1] * 3))
        gl.glDrawArrays(GL_TRIANGLES, 0, 9)
        gl.glDisable(GL_DEPTH_CLAMP)
        gl.glDepthRange(ctypes.c_double(0.0), ctypes.c_double(1.0))
        gl.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, arr([-1, -1, 0.7, 1, 1, -1, 0.7, 1, -1, 1, 0.7, 1,
                                                                    1, 1, 0.7, 1]))
        gl.glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, arr([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        gl.glDisable(GL_DEPTH_TEST)
        gl.glXSwapBuffers(dpy, win)
    gl.glFinish()
    return 0


def lines_scene(gl, dpy, win, w, h):
    """Lines and points (see the module docstring). Coordinates are given in pixels (window origin bottom
    left) and turned into NDC, so the ends sit exactly where a test wants them."""
    f = ctypes.c_float
    keep = []

    def arr(vals):
        x = (ctypes.c_float * len(vals))(*vals)
        keep.append(x)
        return x

    def ndc(pts):
        out = []
        for x, y in pts:
            out += [2.0 * x / w - 1.0, 2.0 * y / h - 1.0]
        return out

    def shader(kind, src):
        s = gl.glCreateShader(kind)
        gl.glShaderSource(s, 1, (ctypes.c_char_p * 1)(src), None)
        gl.glCompileShader(s)
        return s
    prog = gl.glCreateProgram()
    gl.glAttachShader(prog, shader(GL_VERTEX_SHADER, VS_LINE))
    gl.glAttachShader(prog, shader(GL_FRAGMENT_SHADER, FS_LINE))
    gl.glBindAttribLocation(prog, 0, b'position')
    gl.glBindAttribLocation(prog, 1, b'color')
    gl.glLinkProgram(prog)
    gl.glViewport(0, 0, w, h)
    gl.glEnable(GL_DEPTH_TEST)
    # slope classes, ends on centres (x.5), edges (x.0 / y.5) and corners (x.0, y.0)
    strip = [(5.5, 5.5), (40.5, 5.5), (40.5, 40.5), (10.0, 10.0), (30.0, 70.25), (70.0, 80.0), (150.5, 60.0),
             (100.25, 115.75), (95.0, 30.0), (131.0, 30.0), (131.0, 5.0), (155.75, 20.5)]
    for frame in range(2):
        gl.glClearColor(f(0.1), f(0.1), f(0.12), f(1.0))
        gl.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT)
        gl.glUseProgram(0)
        gl.glEnableClientState(GL_VERTEX_ARRAY)
        gl.glEnableClientState(GL_COLOR_ARRAY)
        # 0: background quad at z = 0 (in front of nothing, behind the z = 0.25 lines)
        gl.glVertexPointer(3, GL_FLOAT, 0, arr([0.0, -0.5, 0.0, 0.9, -0.5, 0.0, 0.0, 0.4, 0.0, 0.9, 0.4, 0.0]))
        gl.glColorPointer(4, GL_FLOAT, 0, arr([0.3, 0.3, 0.35, 1] * 4))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        gl.glDisableClientState(GL_VERTEX_ARRAY)
        gl.glDisableClientState(GL_COLOR_ARRAY)
        # 1: GLSL line strip, width 1, colour interpolated along each segment
        gl.glUseProgram(prog)
        cols = []
        for i in range(len(strip)):
            cols += [0.2 + 0.8 * (i % 3 == 0), 0.2 + 0.8 * (i % 3 == 1), 0.2 + 0.8 * (i % 3 == 2), 1.0]
        gl.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, arr(ndc(strip)))
        gl.glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, arr(cols))
        gl.glEnableVertexAttribArray(0)
        gl.glEnableVertexAttribArray(1)
        gl.glDrawArrays(GL_LINE_STRIP, 0, len(strip))
        gl.glDisableVertexAttribArray(0)
        gl.glDisableVertexAttribArray(1)
        gl.glUseProgram(0)
        gl.glEnableClientState(GL_VERTEX_ARRAY)
        gl.glEnableClientState(GL_COLOR_ARRAY)

        def ff(mode, pts, z, col, width=None, size=None):
            v = []
            for x, y in pts:
                v += [2.0 * x / w - 1.0, 2.0 * y / h - 1.0, z]
            gl.glVertexPointer(3, GL_FLOAT, 0, arr(v))
            c = []
            for i in range(len(pts)):
                c += [col[0], col[1] * (0.5 + 0.5 * (i % 2)), col[2], 1.0]
            gl.glColorPointer(4, GL_FLOAT, 0, arr(c))
            if width is not None:
                gl.glLineWidth(f(width))
            if size is not None:
                gl.glPointSize(f(size))
            gl.glDrawArrays(mode, 0, len(pts))
        # 2-4: wide lines (x-major, y-major, diagonal), partly behind the background quad (z 0.5 > 0)
        ff(GL_LINES, [(8.5, 95.5), (60.5, 100.0), (20.0, 60.0), (26.0, 118.5), (70.25, 20.75), (110.75, 64.25)],
           0.5, (1.0, 0.6, 0.1), width=2.0)
        ff(GL_LINES, [(75.0, 100.5), (150.0, 90.0), (140.5, 10.5), (145.5, 110.5), (12.0, 30.0), (60.0, 44.0)],
           -0.5, (0.2, 0.9, 0.9), width=3.0)
        ff(GL_LINES, [(30.5, 80.0), (120.0, 110.0), (100.0, 5.5), (90.0, 55.5)], -0.3, (0.9, 0.3, 0.9), width=4.5)
        gl.glLineWidth(f(1.0))
        # 5: line loop
        ff(GL_LINE_LOOP, [(50.0, 50.0), (75.5, 52.5), (70.0, 75.0), (48.25, 70.75)], -0.6, (1.0, 1.0, 0.3))
        # 6-9: points
        ff(GL_POINTS, [(3.5, 115.5), (10.0, 112.0), (15.25, 108.75), (120.5, 100.5)], -0.7, (1, 1, 1), size=1.0)
        ff(GL_POINTS, [(20.5, 115.5), (26.0, 112.0), (31.25, 108.75), (120.5, 80.5)], -0.7, (1, 0.3, 0.3), size=2.0)
        ff(GL_POINTS, [(40.5, 115.5), (46.0, 112.0), (52.25, 107.75), (130.5, 70.5)], -0.7, (0.3, 1, 0.3), size=3.0)
        ff(GL_POINTS, [(60.5, 112.5), (72.0, 108.0), (84.75, 110.25), (150.5, 40.5)], 0.9, (0.3, 0.3, 1), size=6.0)
        gl.glPointSize(f(1.0))
        # 10: perspective line strip crossing the near plane (clip w from 1 down to -0.5)
        gl.glVertexPointer(4, GL_FLOAT, 0, arr([-0.9, -0.9, 0.0, 1.0, 0.2, -0.6, 0.4, 0.6, 0.5, 0.7, 1.2, -0.5]))
        gl.glColorPointer(4, GL_FLOAT, 0, arr([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1]))
        gl.glLineWidth(f(2.0))
        gl.glDrawArrays(GL_LINE_STRIP, 0, 3)
        gl.glLineWidth(f(1.0))
        # 11: smooth (antialiased) lines: flagged by the converter
        gl.glEnable(GL_LINE_SMOOTH)
        gl.glEnable(GL_BLEND)
        gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)
        ff(GL_LINES, [(100.0, 100.0), (155.0, 117.0)], -0.8, (1, 1, 1), width=2.0)
        gl.glDisable(GL_BLEND)
        gl.glDisable(GL_LINE_SMOOTH)
        gl.glLineWidth(f(1.0))
        gl.glDisableClientState(GL_COLOR_ARRAY)
        gl.glDisableClientState(GL_VERTEX_ARRAY)
        gl.glXSwapBuffers(dpy, win)
    gl.glFinish()
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--width', type=int, default=160)
    ap.add_argument('--height', type=int, default=120)
    ap.add_argument('--lines', action='store_true', help='draw the line/point scene instead')
    ap.add_argument('--hdr', action='store_true', help='draw the floating-point render-to-texture scene instead')
    a = ap.parse_args()
    gl, dpy, win = glwin.open_window(a.width, a.height)
    if a.lines:
        return lines_scene(gl, dpy, win, a.width, a.height)
    if a.hdr:
        return hdr_scene(gl, dpy, win, a.width, a.height)
    f = ctypes.c_float

    def shader(kind, src):
        s = gl.glCreateShader(kind)
        gl.glShaderSource(s, 1, (ctypes.c_char_p * 1)(src), None)
        gl.glCompileShader(s)
        return s

    def program(vs, fs, attribs):
        p = gl.glCreateProgram()
        gl.glAttachShader(p, shader(GL_VERTEX_SHADER, vs))
        gl.glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs))
        for i, n in enumerate(attribs):
            gl.glBindAttribLocation(p, i, n)
        gl.glLinkProgram(p)
        return p

    def texture(n, data, minf, wrap=GL_REPEAT, mip=False, fmt=GL_RGBA):
        t = ctypes.c_uint()
        gl.glGenTextures(1, ctypes.byref(t))
        gl.glBindTexture(GL_TEXTURE_2D, t)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, minf)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap)
        if mip:
            gl.glTexParameteri(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, 1)
        gl.glTexImage2D(GL_TEXTURE_2D, 0, fmt, n, n, 0, GL_RGBA, GL_UNSIGNED_BYTE, data)
        return t

    keep = []      # client arrays must outlive the draw calls that read them

    def arr(vals):
        x = (ctypes.c_float * len(vals))(*vals)
        keep.append(x)
        return x

    lit = program(VS_LIT, FS_LIT, [b'position', b'normal', b'texcoord'])
    disc = program(VS_FLAT, FS_DISCARD, [b'position', b'texcoord'])
    vtf = program(VS_VTF, FS_VTF, [b'position', b'texcoord'])
    t_check = texture(64, checker(64, (220, 40), (30, 200), 8), GL_LINEAR_MIPMAP_LINEAR, mip=True)
    t_light = texture(16, checker(16, (120, 120), (250, 250), 4), GL_LINEAR, GL_CLAMP_TO_EDGE)
    t_height = texture(32, checker(32, (255, 0), (0, 255), 16), GL_NEAREST)
    t_wrap = texture(32, checker(32, (250, 10), (10, 250), 4), GL_NEAREST_MIPMAP_NEAREST, GL_MIRRORED_REPEAT,
                     mip=True, fmt=GL_RGB)
    gl.glViewport(0, 0, a.width, a.height)
    gl.glEnable(GL_DEPTH_TEST)
    for frame in range(2):
        gl.glClearColor(f(0.2), f(0.2), f(0.25), f(1.0))
        gl.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT)
        # 0: lit textured quad in perspective (minified mipmapped texture)
        gl.glUseProgram(lit)
        ang = 1.1 + 0.05 * frame
        c, s = math.cos(ang), math.sin(ang)
        # quad in the x-z plane tilted away from the viewer
        pos = [-1, 0, -1, 1, 0, -1, -1, 0, 1, 1, 0, 1]
        nrm = [0, 1, 0] * 4
        uv = [0, 0, 1, 0, 0, 1, 1, 1]
        fx, fy, n_, f_ = 1.8, 2.4, 0.5, 20.0
        # model: rotate about x by ang, then translate (-0.4, 0, -3); projection: perspective
        def xf(p):
            x, y, z = p
            y, z = y * c - z * s, y * s + z * c
            return x - 0.4, y + 0.1, z - 3.0
        proj = [fx, 0, 0, 0, 0, fy, 0, 0, 0, 0, (f_ + n_) / (n_ - f_), -1, 0, 0, 2 * f_ * n_ / (n_ - f_), 0]
        model = [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, -0.4, 0.1, -3.0, 1]
        mvp = [sum(proj[k * 4 + r] * model[col * 4 + k] for k in range(4)) for col in range(4) for r in range(4)]
        gl.glUniformMatrix4fv(gl.glGetUniformLocation(lit, b'mvp'), 1, GL_FALSE, arr(mvp))
        gl.glUniformMatrix3fv(gl.glGetUniformLocation(lit, b'nmat'), 1, GL_FALSE, arr([1, 0, 0, 0, c, s, 0, -s, c]))
        gl.glUniform3fv(gl.glGetUniformLocation(lit, b'lights'), 3, arr([0, 2, 1, 1.5, 1, 0.5, -1, 1, -1]))
        gl.glUniform4f(gl.glGetUniformLocation(lit, b'tint'), f(0.9), f(0.6), f(0.2), f(1.0))
        gl.glUniform1i(gl.glGetUniformLocation(lit, b'tex'), 0)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glBindTexture(GL_TEXTURE_2D, t_check)
        for i, (data, n) in enumerate(((pos, 3), (nrm, 3), (uv, 2))):
            gl.glVertexAttribPointer(i, n, GL_FLOAT, GL_FALSE, 0, arr(data))
            gl.glEnableVertexAttribArray(i)
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        for i in range(3):
            gl.glDisableVertexAttribArray(i)
        # 1: discard checkerboard
        quad = [0, 0, 1, 0, 0, 1, 1, 1]
        gl.glUseProgram(disc)
        gl.glUniform4f(gl.glGetUniformLocation(disc, b'rect'), f(0.2), f(0.2), f(0.7), f(0.7))
        for i in range(2):
            gl.glVertexAttribPointer(i, 2, GL_FLOAT, GL_FALSE, 0, arr(quad))
            gl.glEnableVertexAttribArray(i)
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        # 2: vertex texture fetch (a strip of 8 columns displaced by the height texture)
        gl.glUseProgram(vtf)
        gl.glUniform4f(gl.glGetUniformLocation(vtf, b'rect'), f(-0.95), f(-0.95), f(0.9), f(0.4))
        gl.glUniform1i(gl.glGetUniformLocation(vtf, b'height'), 1)
        gl.glActiveTexture(GL_TEXTURE0 + 1)
        gl.glBindTexture(GL_TEXTURE_2D, t_height)
        strip = []
        for k in range(9):
            strip += [k / 8.0, 0.0, k / 8.0, 1.0]
        gl.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, arr(strip))
        gl.glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, arr([x * 0.98 + 0.01 for x in strip]))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 18)
        for i in range(2):
            gl.glDisableVertexAttribArray(i)
        gl.glUseProgram(0)
        gl.glActiveTexture(GL_TEXTURE0)
        # 3: fixed function, two units: MODULATE (base) then ADD (lightmap-like), vertex colours
        gl.glEnableClientState(GL_VERTEX_ARRAY)
        gl.glEnableClientState(GL_COLOR_ARRAY)
        v3 = [0.1, -0.9, 0, 0.9, -0.9, 0, 0.1, -0.1, 0, 0.9, -0.1, 0]
        gl.glVertexPointer(3, GL_FLOAT, 0, arr(v3))
        gl.glColorPointer(4, GL_FLOAT, 0, arr([1, 0.5, 0.5, 1, 0.5, 1, 0.5, 1, 0.5, 0.5, 1, 1, 1, 1, 1, 1]))
        for u, t, env, tcs in ((0, t_check, GL_MODULATE, [0, 0, 2, 0, 0, 2, 2, 2]), (1, t_light, GL_ADD, quad)):
            gl.glActiveTexture(GL_TEXTURE0 + u)
            gl.glClientActiveTexture(GL_TEXTURE0 + u)
            gl.glEnable(GL_TEXTURE_2D)
            gl.glBindTexture(GL_TEXTURE_2D, t)
            gl.glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, env)
            gl.glEnableClientState(GL_TEXTURE_COORD_ARRAY)
            gl.glTexCoordPointer(2, GL_FLOAT, 0, arr(tcs))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        gl.glActiveTexture(GL_TEXTURE0 + 1)
        gl.glClientActiveTexture(GL_TEXTURE0 + 1)
        gl.glDisable(GL_TEXTURE_2D)
        gl.glDisableClientState(GL_TEXTURE_COORD_ARRAY)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glClientActiveTexture(GL_TEXTURE0)
        # 4: fixed function DECAL on an RGB texture, mirrored repeat, minified (nearest mip)
        gl.glBindTexture(GL_TEXTURE_2D, t_wrap)
        gl.glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_DECAL)
        v4 = [-0.95, 0.3, 0.5, -0.3, 0.3, 0.5, -0.95, 0.95, 0.5, -0.3, 0.95, 0.5]
        gl.glVertexPointer(3, GL_FLOAT, 0, arr(v4))
        gl.glTexCoordPointer(2, GL_FLOAT, 0, arr([-2, -2, 3, -2, -2, 3, 3, 3]))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        # 5: fixed function GL_COMBINE on two units: unit 0 INTERPOLATE(texture, primary colour, constant alpha)
        #    with alpha REPLACE(primary); unit 1 ADD_SIGNED(previous, 1 - texture) x2 (RGB_SCALE), alpha
        #    MODULATE(previous, texture alpha)
        def combine(u, rgb, alpha, srcs, ops, asrcs=(), aops=(), scale=None, color=None):
            gl.glActiveTexture(GL_TEXTURE0 + u)
            gl.glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE)
            gl.glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, rgb)
            gl.glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_ALPHA, alpha)
            for n, (sv, ov) in enumerate(zip(srcs, ops)):
                gl.glTexEnvi(GL_TEXTURE_ENV, GL_SRC0_RGB + n, sv)
                gl.glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND0_RGB + n, ov)
            for n, (sv, ov) in enumerate(zip(asrcs, aops)):
                gl.glTexEnvi(GL_TEXTURE_ENV, GL_SRC0_ALPHA + n, sv)
                gl.glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND0_ALPHA + n, ov)
            if scale is not None:
                gl.glTexEnvf(GL_TEXTURE_ENV, GL_RGB_SCALE, f(scale))
            if color is not None:
                gl.glTexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, arr(color))
        gl.glColorPointer(4, GL_FLOAT, 0, arr([1, 0.2, 0.2, 0.8, 0.2, 1, 0.2, 0.6, 0.2, 0.2, 1, 1, 0.9, 0.9, 0.3, 0.4]))
        gl.glEnableClientState(GL_COLOR_ARRAY)
        v5 = [-0.95, -0.95, 0.2, -0.2, -0.95, 0.2, -0.95, -0.2, 0.2, -0.2, -0.2, 0.2]
        gl.glVertexPointer(3, GL_FLOAT, 0, arr(v5))
        for u, t, tcs in ((0, t_check, [0, 0, 1.5, 0, 0, 1.5, 1.5, 1.5]), (1, t_light, quad)):
            gl.glActiveTexture(GL_TEXTURE0 + u)
            gl.glClientActiveTexture(GL_TEXTURE0 + u)
            gl.glEnable(GL_TEXTURE_2D)
            gl.glBindTexture(GL_TEXTURE_2D, t)
            gl.glEnableClientState(GL_TEXTURE_COORD_ARRAY)
            gl.glTexCoordPointer(2, GL_FLOAT, 0, arr(tcs))
        combine(0, GL_INTERPOLATE, GL_REPLACE, (GL_TEXTURE, GL_PRIMARY_COLOR, GL_CONSTANT),
                (GL_SRC_COLOR, GL_SRC_COLOR, GL_SRC_ALPHA), (GL_PRIMARY_COLOR,), (GL_SRC_ALPHA,),
                color=[0.2, 0.4, 0.6, 0.3])
        combine(1, GL_ADD_SIGNED, GL_MODULATE, (GL_PREVIOUS, GL_TEXTURE), (GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR),
                (GL_PREVIOUS, GL_TEXTURE), (GL_SRC_ALPHA, GL_SRC_ALPHA), scale=2.0)
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        gl.glTexEnvf(GL_TEXTURE_ENV, GL_RGB_SCALE, f(1.0))
        gl.glDisable(GL_TEXTURE_2D)
        gl.glDisableClientState(GL_TEXTURE_COORD_ARRAY)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glClientActiveTexture(GL_TEXTURE0)
        # 6: one unit: DOT3_RGB(texture, primary colour); alpha SUBTRACT(primary, 1 - texture alpha)
        v6 = [0.3, 0.3, -0.2, 0.95, 0.3, -0.2, 0.3, 0.95, -0.2, 0.95, 0.95, -0.2]
        gl.glVertexPointer(3, GL_FLOAT, 0, arr(v6))
        gl.glTexCoordPointer(2, GL_FLOAT, 0, arr([0, 0, 2, 0, 0, 2, 2, 2]))
        combine(0, GL_DOT3_RGB, GL_SUBTRACT, (GL_TEXTURE, GL_PRIMARY_COLOR), (GL_SRC_COLOR, GL_SRC_COLOR),
                (GL_PRIMARY_COLOR, GL_TEXTURE), (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        gl.glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE)
        gl.glDisable(GL_TEXTURE_2D)
        gl.glDisableClientState(GL_TEXTURE_COORD_ARRAY)
        gl.glDisableClientState(GL_COLOR_ARRAY)
        gl.glDisableClientState(GL_VERTEX_ARRAY)
        gl.glXSwapBuffers(dpy, win)
    gl.glFinish()
    return 0


if __name__ == '__main__':
    sys.exit(main())
