"""Open an X11 window with a GLX context from Python with ctypes only (libX11, libGL): for the small
OpenGL programs captured by traces/capture/capture.sh (meshscene.py, ffscene.py)."""
import ctypes
import ctypes.util
import sys

GLX_RGBA, GLX_DOUBLEBUFFER, GLX_DEPTH_SIZE, GLX_RED_SIZE = 4, 5, 12, 8


def open_window(width, height):
    """-> (libGL handle, display, window), context current. libGL is loaded by soname so apitrace's
    dlopen redirection sees it."""
    x11 = ctypes.CDLL(ctypes.util.find_library('X11'))
    gl = ctypes.CDLL('libGL.so.1')
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    dpy = x11.XOpenDisplay(None)
    if not dpy:
        sys.exit('glwin: cannot open X display')
    x11.XDefaultScreen.argtypes = [ctypes.c_void_p]
    scr = x11.XDefaultScreen(dpy)
    x11.XRootWindow.restype = ctypes.c_ulong
    x11.XRootWindow.argtypes = [ctypes.c_void_p, ctypes.c_int]
    root = x11.XRootWindow(dpy, scr)
    attribs = (ctypes.c_int * 11)(GLX_RGBA, GLX_DOUBLEBUFFER, GLX_DEPTH_SIZE, 24, GLX_RED_SIZE, 8, 0)
    gl.glXChooseVisual.restype = ctypes.c_void_p
    gl.glXChooseVisual.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    vi = gl.glXChooseVisual(dpy, scr, attribs)
    if not vi:
        sys.exit('glwin: no GLX visual')
    # XVisualInfo: Visual *visual; VisualID visualid; int screen; int depth; ...
    visual = ctypes.c_void_p.from_address(vi).value
    depth = ctypes.c_int.from_address(vi + 20).value
    x11.XCreateColormap.restype = ctypes.c_ulong
    x11.XCreateColormap.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_int]
    cmap = x11.XCreateColormap(dpy, root, visual, 0)

    class XSetWindowAttributes(ctypes.Structure):
        _fields_ = [('background_pixmap', ctypes.c_ulong), ('background_pixel', ctypes.c_ulong),
                    ('border_pixmap', ctypes.c_ulong), ('border_pixel', ctypes.c_ulong),
                    ('bit_gravity', ctypes.c_int), ('win_gravity', ctypes.c_int), ('backing_store', ctypes.c_int),
                    ('backing_planes', ctypes.c_ulong), ('backing_pixel', ctypes.c_ulong),
                    ('save_under', ctypes.c_int), ('event_mask', ctypes.c_long),
                    ('do_not_propagate_mask', ctypes.c_long), ('override_redirect', ctypes.c_int),
                    ('colormap', ctypes.c_ulong), ('cursor', ctypes.c_ulong)]
    swa = XSetWindowAttributes()
    swa.colormap = cmap
    x11.XCreateWindow.restype = ctypes.c_ulong
    x11.XCreateWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                  ctypes.c_uint, ctypes.c_uint, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
                                  ctypes.c_ulong, ctypes.POINTER(XSetWindowAttributes)]
    CWBorderPixel, CWColormap = 1 << 3, 1 << 13
    win = x11.XCreateWindow(dpy, root, 0, 0, width, height, 0, depth, 1, visual, CWColormap | CWBorderPixel,
                            ctypes.byref(swa))
    x11.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XMapWindow(dpy, win)
    gl.glXCreateContext.restype = ctypes.c_void_p
    gl.glXCreateContext.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    ctx = gl.glXCreateContext(dpy, vi, None, 1)
    gl.glXMakeCurrent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p]
    if not gl.glXMakeCurrent(dpy, win, ctx):
        sys.exit('glwin: glXMakeCurrent failed')
    gl.glXSwapBuffers.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    return gl, dpy, win
