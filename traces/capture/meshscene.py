#!/usr/bin/python3
"""A real-mesh OpenGL scene for capture with apitrace (traces/capture/capture.sh mesh).

Draws 8 copies of the Stanford bunny from glmark2-data (69,666 triangles each) and 4 copies of the Wuson
mesh from assimp-testmodels with VBOs, 32-bit index buffers, a GLSL `MVP * position` vertex shader and a uniform colour:
about 572k triangles in one frame at 640x480, many of them crossing tiles of every GPU. Pure Python with
ctypes on libGL/libX11 (no extra packages). Renders 2 frames (the converter takes the last one) and exits.
"""
import argparse
import ctypes
import ctypes.util
import math
import struct
import sys

import glwin

BUNNY = '/usr/share/glmark2/models/bunny.obj'
WUSON = '/usr/share/assimp/models/OBJ/WusonOBJ.obj'

GL_COLOR_BUFFER_BIT, GL_DEPTH_BUFFER_BIT = 0x4000, 0x100
GL_DEPTH_TEST, GL_CULL_FACE, GL_TRIANGLES = 0x0B71, 0x0B44, 0x0004
GL_ARRAY_BUFFER, GL_ELEMENT_ARRAY_BUFFER, GL_STATIC_DRAW = 0x8892, 0x8893, 0x88E4
GL_FLOAT, GL_UNSIGNED_INT, GL_FALSE = 0x1406, 0x1405, 0
GL_VERTEX_SHADER, GL_FRAGMENT_SHADER = 0x8B31, 0x8B30


VS = b"""
attribute vec3 position;
uniform mat4 ModelViewProjectionMatrix;
void main(void)
{
    gl_Position = ModelViewProjectionMatrix * vec4(position, 1.0);
}
"""
FS = b"""
uniform vec4 MaterialColor;
void main(void)
{
    gl_FragColor = MaterialColor;
}
"""


def load_obj(path):
    vs, idx = [], []
    with open(path) as f:
        for line in f:
            if line.startswith('v '):
                vs.append(tuple(float(x) for x in line.split()[1:4]))
            elif line.startswith('f '):
                fi = [int(t.split('/')[0]) - 1 for t in line.split()[1:]]
                for k in range(1, len(fi) - 1):
                    idx += [fi[0], fi[k], fi[k + 1]]
    lo = [min(v[i] for v in vs) for i in range(3)]
    hi = [max(v[i] for v in vs) for i in range(3)]
    c = [(lo[i] + hi[i]) / 2 for i in range(3)]
    s = 2.0 / max(hi[i] - lo[i] for i in range(3))
    verts = [tuple((v[i] - c[i]) * s for i in range(3)) for v in vs]   # unit-size, centred
    return verts, idx


def mat_mul(a, b):
    r = [0.0] * 16
    for col in range(4):
        for row in range(4):
            r[col * 4 + row] = sum(a[k * 4 + row] * b[col * 4 + k] for k in range(4))
    return r


def perspective(fovy, aspect, n, f):
    t = 1.0 / math.tan(math.radians(fovy) / 2)
    return [t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (f + n) / (n - f), -1, 0, 0, 2 * f * n / (n - f), 0]


def model(tx, ty, tz, ry, s):
    c, si = math.cos(ry), math.sin(ry)
    return [c * s, 0, -si * s, 0, 0, s, 0, 0, si * s, 0, c * s, 0, tx, ty, tz, 1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--width', type=int, default=640)
    ap.add_argument('--height', type=int, default=480)
    ap.add_argument('--frames', type=int, default=2)
    a = ap.parse_args()

    gl, dpy, win = glwin.open_window(a.width, a.height)

    def shader(kind, src):
        s = gl.glCreateShader(kind)
        arr = (ctypes.c_char_p * 1)(src)
        gl.glShaderSource(s, 1, arr, None)
        gl.glCompileShader(s)
        return s
    prog = gl.glCreateProgram()
    gl.glAttachShader(prog, shader(GL_VERTEX_SHADER, VS))
    gl.glAttachShader(prog, shader(GL_FRAGMENT_SHADER, FS))
    gl.glBindAttribLocation(prog, 0, b'position')
    gl.glLinkProgram(prog)
    gl.glUseProgram(prog)
    loc_mvp = gl.glGetUniformLocation(prog, b'ModelViewProjectionMatrix')
    loc_col = gl.glGetUniformLocation(prog, b'MaterialColor')

    meshes = []
    for path in (BUNNY, WUSON):
        verts, idx = load_obj(path)
        data = []
        for v in verts:
            data += [v[0], v[1], v[2]]
        vb, ib = ctypes.c_uint(), ctypes.c_uint()
        gl.glGenBuffers(1, ctypes.byref(vb))
        gl.glBindBuffer(GL_ARRAY_BUFFER, vb)
        vbytes = struct.pack('<%df' % len(data), *data)
        gl.glBufferData(GL_ARRAY_BUFFER, ctypes.c_ssize_t(len(vbytes)), vbytes, GL_STATIC_DRAW)
        gl.glGenBuffers(1, ctypes.byref(ib))
        gl.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib)
        ibytes = struct.pack('<%dI' % len(idx), *idx)
        gl.glBufferData(GL_ELEMENT_ARRAY_BUFFER, ctypes.c_ssize_t(len(ibytes)), ibytes, GL_STATIC_DRAW)
        meshes.append((vb, ib, len(idx)))

    gl.glViewport(0, 0, a.width, a.height)
    gl.glEnable(GL_DEPTH_TEST)
    gl.glEnable(GL_CULL_FACE)
    gl.glClearColor(ctypes.c_float(0.1), ctypes.c_float(0.1), ctypes.c_float(0.15), ctypes.c_float(1.0))
    proj = perspective(45.0, a.width / a.height, 1.0, 40.0)
    # 8 bunnies on two rows (the nearest one crosses the near plane), 4 Wusons in front
    placements = [(0, x * 1.3 - 4.55, -0.6 + (i % 2) * 0.9, -5.5 - (i % 3), x * 0.7, 1.0)
                  for i, x in enumerate(range(8))]
    placements[0] = (0, -0.8, -0.3, -1.2, 0.3, 1.0)     # crosses the near plane
    placements += [(1, -2.4 + 1.6 * k, -1.2, -4.0, 0.5 * k, 0.6) for k in range(4)]
    mvp_arr = ctypes.c_float * 16
    for frame in range(a.frames):
        gl.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT)
        for mi, tx, ty, tz, ry, s in placements:
            vb, ib, n = meshes[mi]
            gl.glBindBuffer(GL_ARRAY_BUFFER, vb)
            gl.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib)
            gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 12, ctypes.c_void_p(0))
            gl.glEnableVertexAttribArray(0)
            k = len(placements) and placements.index((mi, tx, ty, tz, ry, s))
            gl.glUniform4f(loc_col, ctypes.c_float(0.3 + 0.7 * ((k * 37) % 11) / 10.0),
                           ctypes.c_float(0.3 + 0.7 * ((k * 53) % 7) / 6.0), ctypes.c_float(0.3 + 0.7 * ((k * 17) % 5) / 4.0),
                           ctypes.c_float(1.0))
            m = mat_mul(proj, model(tx, ty, tz, ry + 0.2 * frame, s))
            gl.glUniformMatrix4fv(loc_mvp, 1, GL_FALSE, mvp_arr(*m))
            gl.glDrawElements(GL_TRIANGLES, n, GL_UNSIGNED_INT, ctypes.c_void_p(0))
        gl.glXSwapBuffers(dpy, win)
    gl.glFinish()
    return 0


if __name__ == '__main__':
    sys.exit(main())
