#!/usr/bin/python3
"""A small fixed-function OpenGL scene for testing the converter's fixed-function path (capture.sh test).

Uses what OpenArena-era games use: projection/modelview matrix stacks (glFrustum, glOrtho, translate,
rotate, scale, push/pop, glLoadMatrixf), immediate mode (glBegin/glEnd quads with colour and texture
coordinates), client arrays with glDrawElements (a triangle strip ground grid that crosses the near plane,
unsigned-byte colours, unsigned-short indices) and glDrawArrays (a triangle fan), an RGB texture uploaded
with unpack alignment 1 and GL_MODULATE, back-face culling, scissor, depth range, polygon offset decal,
alpha blending with depth writes off, and a 2D overlay. Renders 2 frames and exits.

With --expect it prints, instead of rendering, the draws of one frame as JSON: the triangles each draw
must have after primitive assembly (the scene's own geometry, independent of the converter).
"""
import argparse
import ctypes
import json
import math
import sys

GL_COLOR_BUFFER_BIT, GL_DEPTH_BUFFER_BIT = 0x4000, 0x100
GL_DEPTH_TEST, GL_CULL_FACE, GL_BLEND, GL_SCISSOR_TEST, GL_TEXTURE_2D = 0x0B71, 0x0B44, 0x0BE2, 0x0C11, 0x0DE1
GL_POLYGON_OFFSET_FILL = 0x8037
GL_QUADS, GL_TRIANGLE_STRIP, GL_TRIANGLE_FAN, GL_TRIANGLES = 0x0007, 0x0005, 0x0006, 0x0004
GL_PROJECTION, GL_MODELVIEW = 0x1701, 0x1700
GL_FLOAT, GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT = 0x1406, 0x1401, 0x1403
GL_VERTEX_ARRAY, GL_COLOR_ARRAY = 0x8074, 0x8076
GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA = 0x0302, 0x0303
GL_RGB, GL_UNPACK_ALIGNMENT = 0x1907, 0x0CF5
GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_NEAREST, GL_LINEAR = 0x2801, 0x2800, 0x2600, 0x2601
GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE = 0x2300, 0x2200, 0x2100
GL_LEQUAL, GL_FALSE, GL_TRUE = 0x0203, 0, 1

GRID_N = 12          # grid of GRID_N x GRID_N quads, one strip per row
FAN_SEGS = 20

f = ctypes.c_float
d = ctypes.c_double


def expected():
    """Triangles per draw, in draw order, for one frame."""
    draws = [{'what': 'ground strip row %d' % r, 'triangles': 2 * GRID_N} for r in range(GRID_N)]
    draws.append({'what': 'textured cube (quads)', 'triangles': 12})
    draws.append({'what': 'decal quad (polygon offset)', 'triangles': 2})
    draws.append({'what': 'blended fan', 'triangles': FAN_SEGS})
    draws.append({'what': 'scissored quad', 'triangles': 2})
    draws.append({'what': 'overlay quad (ortho, depth range)', 'triangles': 2})
    return draws


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--width', type=int, default=320)
    ap.add_argument('--height', type=int, default=240)
    ap.add_argument('--frames', type=int, default=2)
    ap.add_argument('--expect', action='store_true')
    a = ap.parse_args()
    if a.expect:
        json.dump(expected(), sys.stdout, indent=1)
        return 0
    import glwin
    gl, dpy, win = glwin.open_window(a.width, a.height)

    # texture: 8x8 RGB checker, rows of 24 bytes (alignment 1 matters only for odd widths; set anyway)
    tex = ctypes.c_uint()
    gl.glGenTextures(1, ctypes.byref(tex))
    gl.glBindTexture(GL_TEXTURE_2D, tex)
    gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST)
    gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR)
    gl.glPixelStorei(GL_UNPACK_ALIGNMENT, 1)
    px = bytes(sum(([255, 200, 40] if (x + y) % 2 else [40, 80, 220] for y in range(8) for x in range(8)), []))
    gl.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 8, 8, 0, GL_RGB, GL_UNSIGNED_BYTE, px)
    gl.glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE)

    # ground grid (client arrays): (GRID_N+1)^2 vertices in y = -1, z from +2 (behind the eye) to -20
    verts, cols = [], []
    for r in range(GRID_N + 1):
        for c in range(GRID_N + 1):
            verts += [-10 + 20.0 * c / GRID_N, -1.0, 2.0 - 22.0 * r / GRID_N]
            cols += [60 + 15 * ((r + c) % 2), 120, 60, 255]
    va = (ctypes.c_float * len(verts))(*verts)
    ca = (ctypes.c_ubyte * len(cols))(*cols)
    strips = []
    for r in range(GRID_N):
        idx = []
        for c in range(GRID_N + 1):
            idx += [(r + 1) * (GRID_N + 1) + c, r * (GRID_N + 1) + c]
        strips.append((ctypes.c_ushort * len(idx))(*idx))
    fan = [0.0, 0.0, 0.0]
    for k in range(FAN_SEGS + 1):
        t = 2 * math.pi * k / FAN_SEGS
        fan += [math.cos(t), math.sin(t), 0.0]
    fa = (ctypes.c_float * len(fan))(*fan)

    cube = [  # (normal axis quads) x, y, z corners, counter-clockwise seen from outside
        [(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)], [(1, -1, -1), (-1, -1, -1), (-1, 1, -1), (1, 1, -1)],
        [(1, -1, 1), (1, -1, -1), (1, 1, -1), (1, 1, 1)], [(-1, -1, -1), (-1, -1, 1), (-1, 1, 1), (-1, 1, -1)],
        [(-1, 1, 1), (1, 1, 1), (1, 1, -1), (-1, 1, -1)], [(-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)]]
    uv = [(0, 0), (1, 0), (1, 1), (0, 1)]

    for frame in range(a.frames):
        gl.glViewport(0, 0, a.width, a.height)
        gl.glDisable(GL_SCISSOR_TEST)
        gl.glDepthMask(GL_TRUE)
        gl.glClearColor(f(0.2), f(0.3), f(0.5), f(1.0))
        gl.glClearDepth(d(1.0))
        gl.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT)
        gl.glEnable(GL_DEPTH_TEST)
        gl.glDepthFunc(GL_LEQUAL)
        gl.glMatrixMode(GL_PROJECTION)
        gl.glLoadIdentity()
        asp = a.width / a.height
        gl.glFrustum(d(-0.1 * asp), d(0.1 * asp), d(-0.1), d(0.1), d(0.1), d(50.0))
        gl.glMatrixMode(GL_MODELVIEW)
        gl.glLoadIdentity()
        gl.glRotatef(f(8.0), f(1.0), f(0.0), f(0.0))
        gl.glTranslatef(f(0.0), f(-0.3), f(-1.0 - 0.1 * frame))
        # ground: client arrays, one strip per row
        gl.glEnableClientState(GL_VERTEX_ARRAY)
        gl.glEnableClientState(GL_COLOR_ARRAY)
        gl.glVertexPointer(3, GL_FLOAT, 0, va)
        gl.glColorPointer(4, GL_UNSIGNED_BYTE, 0, ca)
        for s in strips:
            gl.glDrawElements(GL_TRIANGLE_STRIP, len(s), GL_UNSIGNED_SHORT, s)
        gl.glDisableClientState(GL_COLOR_ARRAY)
        # textured cube, immediate mode, back faces culled
        gl.glEnable(GL_CULL_FACE)
        gl.glEnable(GL_TEXTURE_2D)
        gl.glPushMatrix()
        gl.glTranslatef(f(-0.8), f(0.0), f(-5.0))
        gl.glRotatef(f(30.0 + 10 * frame), f(0.3), f(1.0), f(0.1))
        gl.glScalef(f(0.8), f(0.8), f(0.8))
        gl.glBegin(GL_QUADS)
        for q, face in enumerate(cube):
            gl.glColor3f(f(1.0), f(0.6 + 0.08 * q), f(0.6))
            for (x, y, z), (s_, t_) in zip(face, uv):
                gl.glTexCoord2f(f(s_), f(t_))
                gl.glVertex3f(f(x), f(y), f(z))
        gl.glEnd()
        gl.glPopMatrix()
        gl.glDisable(GL_TEXTURE_2D)
        gl.glDisable(GL_CULL_FACE)
        # decal on the ground with polygon offset
        gl.glEnable(GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(f(-1.0), f(-2.0))
        gl.glColor4f(f(0.9), f(0.1), f(0.1), f(1.0))
        gl.glBegin(GL_QUADS)
        for x, z in ((-1.5, -3.0), (-0.5, -3.0), (-0.5, -4.0), (-1.5, -4.0)):
            gl.glVertex3f(f(x), f(-1.0), f(z))
        gl.glEnd()
        gl.glDisable(GL_POLYGON_OFFSET_FILL)
        # blended fan (depth writes off)
        gl.glEnable(GL_BLEND)
        gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthMask(GL_FALSE)
        gl.glPushMatrix()
        gl.glTranslatef(f(1.0), f(0.3), f(-4.0))
        gl.glColor4f(f(1.0), f(1.0), f(0.2), f(0.5))
        gl.glVertexPointer(3, GL_FLOAT, 0, fa)
        gl.glDrawArrays(GL_TRIANGLE_FAN, 0, FAN_SEGS + 2)
        gl.glPopMatrix()
        gl.glDepthMask(GL_TRUE)
        gl.glDisable(GL_BLEND)
        gl.glDisableClientState(GL_VERTEX_ARRAY)
        # scissored quad
        gl.glEnable(GL_SCISSOR_TEST)
        gl.glScissor(a.width // 8, a.height * 5 // 8, a.width // 4, a.height // 5)
        gl.glColor3f(f(0.2), f(1.0), f(1.0))
        gl.glBegin(GL_QUADS)
        for x, y in ((-2, -1), (2, -1), (2, 3), (-2, 3)):
            gl.glVertex3f(f(x), f(y), f(-3.0))
        gl.glEnd()
        gl.glDisable(GL_SCISSOR_TEST)
        # 2D overlay: ortho projection, depth range squeezed to the front
        gl.glDepthRange(d(0.0), d(0.1))
        gl.glMatrixMode(GL_PROJECTION)
        gl.glLoadIdentity()
        gl.glOrtho(d(0), d(a.width), d(0), d(a.height), d(-1), d(1))
        gl.glMatrixMode(GL_MODELVIEW)
        m = (ctypes.c_float * 16)(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 10, 0, 1)
        gl.glLoadMatrixf(m)
        gl.glColor3f(f(1.0), f(1.0), f(1.0))
        gl.glBegin(GL_QUADS)
        for x, y in ((0, 0), (60, 0), (60, 20), (0, 20)):
            gl.glVertex3f(f(x), f(y), f(0.0))
        gl.glEnd()
        gl.glDepthRange(d(0.0), d(1.0))
        gl.glXSwapBuffers(dpy, win)
    gl.glFinish()
    return 0


if __name__ == '__main__':
    sys.exit(main())
