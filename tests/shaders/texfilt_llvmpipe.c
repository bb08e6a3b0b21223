/* The texture unit's llvmpipe filtering (gpupd-sim --tex-filter llvmpipe, cmodel/gpu/frag.c) against llvmpipe
 * itself: make test-texfilt-llvmpipe (docs/golden-model.md section 1, "Texture filtering").
 *
 * A GL program under Xvfb (Mesa llvmpipe) uploads random RGBA8 textures, lets glGenerateMipmap make their levels
 * and draws full-screen quads whose fragment shader samples at coordinates that are exact binary32 functions of
 * gl_FragCoord (scale, skew and offset drawn at random per draw), into the window (y down in llvmpipe) and into a
 * texture target (y up). Every pixel read back is compared with what the model's texture unit returns for the
 * same quad (gpu_tex_quad_lod + gpu_tex_sample_lod, RGBA8 rounding) with the llvmpipe filter, and, for contrast,
 * with the float filter. The generated levels are compared texel by texel. Exit 0 only if the llvmpipe filter
 * differs nowhere on the configurations it claims and something was compared; 1 otherwise (each difference is
 * printed with the configuration, draw, pixel and both values); 2 without a GL display. */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/frag.h"
#include "gpu/gpu.h"

#define SW 256
#define SH 256

typedef struct {
    const char *name;
    uint32_t tw, th;
    GLenum min, mag, wrap;
    int fbo;            /* 1: draw into a texture target (y up in llvmpipe), 0: the window (y down) */
    int claimed;        /* 1: the llvmpipe filter must match every pixel */
} cfg_t;

static const cfg_t CFGS[] = {
    {"64x64 linear-mipmap-linear repeat, window", 64, 64, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR, GL_REPEAT, 0, 1},
    {"64x64 linear-mipmap-linear clamp, texture target", 64, 64, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR, GL_CLAMP_TO_EDGE, 1, 1},
    {"32x128 linear-mipmap-linear repeat, texture target", 32, 128, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR, GL_REPEAT, 1, 1},
    {"64x64 linear-mipmap-nearest repeat, window", 64, 64, GL_LINEAR_MIPMAP_NEAREST, GL_LINEAR, GL_REPEAT, 0, 1},
    {"64x64 nearest-mipmap-linear clamp, window", 64, 64, GL_NEAREST_MIPMAP_LINEAR, GL_NEAREST, GL_CLAMP_TO_EDGE, 0, 1},
    {"64x64 linear, no mipmap, repeat, window", 64, 64, GL_LINEAR, GL_LINEAR, GL_REPEAT, 0, 1},
    {"48x40 linear-mipmap-linear repeat, window (not a power of two)", 48, 40, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR, GL_REPEAT, 0, 1},
    {"64x64 linear-mipmap-linear mirrored repeat, window (llvmpipe's float path)", 64, 64, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR, GL_MIRRORED_REPEAT, 0, 0},
};
#define NDRAWS 12

static uint32_t rng_state = 0x2545F491u;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static const char *FS =
    "uniform sampler2D t; uniform vec2 sc; uniform vec2 sk; uniform vec2 of;\n"
    "void main() { vec2 p = gl_FragCoord.xy; gl_FragColor = texture2D(t, p * sc + p.yx * sk + of); }\n";

static void state_of(const cfg_t *c, gpu_draw_t *d)
{
    memset(d, 0, sizeof *d);
    d->st = gpu_state_default(-1, SW, SH);
    d->st.y_down = c->fbo ? 0 : 1;
    d->st.tex[0] = 0;
    d->st.tex_filter[0] = c->mag == GL_LINEAR ? GPU_FILTER_LINEAR : GPU_FILTER_NEAREST;
    int min_lin = c->min == GL_LINEAR || c->min == GL_LINEAR_MIPMAP_LINEAR || c->min == GL_LINEAR_MIPMAP_NEAREST;
    d->st.tex_min[0] = (uint8_t)(1 + (min_lin ? GPU_FILTER_LINEAR : GPU_FILTER_NEAREST));
    d->st.tex_mip[0] = c->min == GL_LINEAR_MIPMAP_LINEAR || c->min == GL_NEAREST_MIPMAP_LINEAR ? GPU_MIP_LINEAR
                     : c->min == GL_LINEAR_MIPMAP_NEAREST || c->min == GL_NEAREST_MIPMAP_NEAREST ? GPU_MIP_NEAREST
                                                                                                  : GPU_MIP_NONE;
    d->st.tex_wrap[0] = c->wrap == GL_REPEAT ? GPU_WRAP_REPEAT : c->wrap == GL_MIRRORED_REPEAT ? GPU_WRAP_MIRROR : GPU_WRAP_CLAMP;
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "texfilt-llvmpipe: no X display (run under xvfb-run)\n"); return 2; }
    int att[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, None};
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), att);
    if (!vi) { fprintf(stderr, "texfilt-llvmpipe: no GLX visual\n"); return 2; }
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
    Window win = XCreateWindow(dpy, root, 0, 0, SW, SH, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    XMapWindow(dpy, win);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) { fprintf(stderr, "texfilt-llvmpipe: no GL context\n"); return 2; }
    const char *rend = (const char *)glGetString(GL_RENDERER), *ver = (const char *)glGetString(GL_VERSION);
    printf("texfilt-llvmpipe: %s, %s\n", rend, ver);
    if (!strstr(rend, "llvmpipe")) { fprintf(stderr, "texfilt-llvmpipe: the renderer is not llvmpipe\n"); return 2; }

    GLuint sh = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(sh, 1, &FS, NULL);
    glCompileShader(sh);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, sh);
    glLinkProgram(prog);
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "t"), 0);
    GLuint target, fbo;
    glGenTextures(1, &target);
    glBindTexture(GL_TEXTURE_2D, target);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, SW, SH, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "texfilt-llvmpipe: texture target incomplete\n");
        return 2;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    uint8_t *px = malloc((size_t)SW * SH * 4);
    int failed = 0;
    uint64_t compared = 0;
    for (size_t ci = 0; ci < sizeof CFGS / sizeof CFGS[0]; ci++) {
        const cfg_t *c = &CFGS[ci];
        uint32_t *texels = malloc((size_t)c->tw * c->th * 4);
        for (uint32_t i = 0; i < c->tw * c->th; i++) texels[i] = rnd();
        GLuint tex;
        glGenTextures(1, &tex);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei)c->tw, (GLsizei)c->th, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)c->min);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)c->mag);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, (GLint)c->wrap);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, (GLint)c->wrap);
        gpu_t glp, gfl;
        if (gpu_init(&glp, 0, 1, P2G_MODE_DIAG, 3) || gpu_init(&gfl, 0, 1, P2G_MODE_DIAG, 3)) return 2;
        glp.tex_filter = GPU_TEXF_LLVMPIPE;
        gfl.tex_filter = GPU_TEXF_FLOAT;
        if (gpu_add_surface(&glp, c->tw, c->th, GPU_FMT_RGBA8, texels) || gpu_add_surface(&gfl, c->tw, c->th, GPU_FMT_RGBA8, texels))
            return 2;
        gpu_draw_t d;
        state_of(c, &d);
        /* generated levels, texel by texel (the model's level l sampled at texel centres with lod l) */
        uint64_t lev_bad = 0, lev_n = 0, lev_bad_float = 0;
        if (c->min != GL_LINEAR) {
            gpu_draw_t dl = d;
            dl.st.tex_filter[0] = GPU_FILTER_NEAREST;
            dl.st.tex_min[0] = 1 + GPU_FILTER_NEAREST;
            dl.st.tex_mip[0] = GPU_MIP_NEAREST;
            dl.st.tex_wrap[0] = GPU_WRAP_CLAMP;
            uint32_t w = c->tw, h = c->th;
            for (uint32_t l = 1; w > 1 || h > 1; l++) {
                w = w > 1 ? w / 2 : 1;
                h = h > 1 ? h / 2 : 1;
                uint32_t *lv = malloc((size_t)w * h * 4);
                glGetTexImage(GL_TEXTURE_2D, (GLint)l, GL_RGBA, GL_UNSIGNED_BYTE, lv);
                for (uint32_t y = 0; y < h; y++)
                    for (uint32_t x = 0; x < w; x++) {
                        float o[4], u = ((float)x + 0.5f) / (float)w, v = ((float)y + 0.5f) / (float)h;
                        gpu_tex_sample_lod(&glp, &dl, 0, u, v, (float)l, o);
                        uint32_t m = gpu_pack_rgba8(o), r = lv[(size_t)y * w + x];
                        lev_n++;
                        if (m != r) {
                            if (lev_bad++ < 4)
                                printf("  %s: level %u texel (%u,%u): llvmpipe %08x, model %08x\n", c->name, l, x, y, r, m);
                        }
                        gpu_tex_sample_lod(&gfl, &dl, 0, u, v, (float)l, o);
                        lev_bad_float += gpu_pack_rgba8(o) != r;
                    }
                free(lv);
            }
            printf("texfilt-llvmpipe: %s: generated levels: %llu texels, llvmpipe filter differs on %llu, float filter on %llu\n",
                   c->name, (unsigned long long)lev_n, (unsigned long long)lev_bad, (unsigned long long)lev_bad_float);
            compared += lev_n;
            if (lev_bad && c->claimed) failed = 1;
        }
        glBindFramebuffer(GL_FRAMEBUFFER, c->fbo ? fbo : 0);
        glViewport(0, 0, SW, SH);
        uint64_t bad = 0, bad_float = 0, n = 0;
        int maxd = 0;
        for (int k = 0; k < NDRAWS; k++) {
            float sx = (float)(1 + rnd() % 255) / 2048.0f, sy = (float)(1 + rnd() % 255) / 2048.0f;
            float kx = (k & 1) ? (float)(rnd() % 64) / 4096.0f : 0.0f, ky = (k & 1) ? (float)(rnd() % 64) / 4096.0f : 0.0f;
            float ox = (float)(rnd() % 256) / 256.0f, oy = (float)(rnd() % 256) / 256.0f;
            if (k < 2) { sx = sy = (float)(1 + k) / 2048.0f; kx = ky = 0.0f; }     /* magnified */
            glUniform2f(glGetUniformLocation(prog, "sc"), sx, sy);
            glUniform2f(glGetUniformLocation(prog, "sk"), kx, ky);
            glUniform2f(glGetUniformLocation(prog, "of"), ox, oy);
            glClear(GL_COLOR_BUFFER_BIT);
            glBegin(GL_QUADS);
            glVertex2f(-1, -1); glVertex2f(1, -1); glVertex2f(1, 1); glVertex2f(-1, 1);
            glEnd();
            glReadPixels(0, 0, SW, SH, GL_RGBA, GL_UNSIGNED_BYTE, px);
            for (int qy = 0; qy < SH; qy += 2)
                for (int qx = 0; qx < SW; qx += 2) {
                    float s4[4], t4[4];     /* the model's quad lanes: k = (x + (k & 1), y + (k >> 1)), GL's y up */
                    for (int q = 0; q < 4; q++) {
                        float fx = (float)(qx + (q & 1)) + 0.5f, fy = (float)(qy + (q >> 1)) + 0.5f;
                        s4[q] = fx * sx + fy * kx + ox;
                        t4[q] = fy * sy + fx * ky + oy;
                    }
                    float lod_lp = gpu_tex_quad_lod(&glp, &d, 0, s4, t4), lod_fl = gpu_tex_quad_lod(&gfl, &d, 0, s4, t4);
                    for (int q = 0; q < 4; q++) {
                        int x = qx + (q & 1), y = qy + (q >> 1);
                        const uint8_t *r = &px[((size_t)y * SW + (size_t)x) * 4];
                        float o[4];
                        gpu_tex_sample_lod(&glp, &d, 0, s4[q], t4[q], lod_lp, o);
                        uint32_t m = gpu_pack_rgba8(o);
                        int diff = 0;
                        for (int ch = 0; ch < 3; ch++) {     /* the window has no alpha: RGB */
                            int dd = abs((int)((m >> (8 * ch)) & 255u) - (int)r[ch]);
                            if (dd > diff) diff = dd;
                        }
                        n++;
                        if (diff) {
                            if (bad++ < 4 && c->claimed)
                                printf("  %s: draw %d (scale %g %g, skew %g %g, offset %g %g) pixel (%d,%d): llvmpipe %02x%02x%02x, model %06x\n",
                                       c->name, k, sx, sy, kx, ky, ox, oy, x, y, r[2], r[1], r[0], m & 0xFFFFFFu);
                            if (diff > maxd) maxd = diff;
                        }
                        gpu_tex_sample_lod(&gfl, &d, 0, s4[q], t4[q], lod_fl, o);
                        uint32_t f = gpu_pack_rgba8(o);
                        bad_float += (f & 0xFFFFFFu) != ((uint32_t)r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16);
                    }
                }
        }
        printf("texfilt-llvmpipe: %s: %d draws, %llu pixels, llvmpipe filter differs on %llu (max %d/255), float filter on %llu%s\n",
               c->name, NDRAWS, (unsigned long long)n, (unsigned long long)bad, maxd, (unsigned long long)bad_float,
               c->claimed ? "" : " (not claimed exact)");
        compared += n;
        if (bad && c->claimed) failed = 1;
        gpu_free(&glp);
        gpu_free(&gfl);
        glDeleteTextures(1, &tex);
        free(texels);
    }
    free(px);
    if (!compared) { printf("texfilt-llvmpipe: FAIL: nothing compared\n"); return 1; }
    if (failed) {
        printf("texfilt-llvmpipe: FAIL: the llvmpipe filter differs from llvmpipe (above); reproduce: make test-texfilt-llvmpipe\n");
        return 1;
    }
    printf("texfilt-llvmpipe: passed (%llu values compared)\n", (unsigned long long)compared);
    return 0;
}
