#include "img/png.h"

#include "common/outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* Largest PNG file read: a 16384 x 16384 RGBA image stored without compression is just above 1 GiB. */
#define IMG_PNG_MAX_FILE (3ull << 29)

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int chunk(FILE *f, const char *type, const uint8_t *data, uint32_t len)
{
    uint8_t hdr[8];
    put32(hdr, len);
    memcpy(hdr + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (len) crc = crc32(crc, data, len);
    uint8_t c[4];
    put32(c, (uint32_t)crc);
    if (fwrite(hdr, 1, 8, f) != 8) return -1;
    if (len && fwrite(data, 1, len, f) != len) return -1;
    return fwrite(c, 1, 4, f) == 4 ? 0 : -1;
}

int img_write_png(const char *path, const uint32_t *pixels, uint32_t w, uint32_t h, int flip_y, int keep_alpha)
{
    if (w == 0 || h == 0) return -1;
    uint32_t bpp = keep_alpha ? 4 : 3;
    size_t row = (size_t)w * bpp + 1, raw_len = row * h;
    uint8_t *raw = malloc(raw_len);
    uLongf zlen = compressBound((uLong)raw_len);
    uint8_t *z = malloc(zlen);
    if (!raw || !z) { free(raw); free(z); return -1; }
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *o = raw + row * y;
        const uint32_t *src = pixels + (size_t)(flip_y ? h - 1 - y : y) * w;
        *o++ = 0;
        for (uint32_t x = 0; x < w; x++) {
            uint32_t v = src[x];
            *o++ = (uint8_t)v; *o++ = (uint8_t)(v >> 8); *o++ = (uint8_t)(v >> 16);
            if (keep_alpha) *o++ = (uint8_t)(v >> 24);
        }
    }
    int rc = -1;
    if (compress2(z, &zlen, raw, (uLong)raw_len, 6) == Z_OK) {
        outf_t of;
        char oerr[512];
        if (outf_open(&of, path, 1, oerr, sizeof oerr) == 0) {
            FILE *f = of.f;
            static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
            uint8_t ihdr[13];
            put32(ihdr, w);
            put32(ihdr + 4, h);
            ihdr[8] = 8;
            ihdr[9] = keep_alpha ? 6 : 2;
            ihdr[10] = ihdr[11] = ihdr[12] = 0;
            rc = (fwrite(sig, 1, 8, f) == 8 && chunk(f, "IHDR", ihdr, 13) == 0 && chunk(f, "IDAT", z, (uint32_t)zlen) == 0 &&
                  chunk(f, "IEND", NULL, 0) == 0) ? 0 : -1;
            if (rc) outf_abort(&of);
            else rc = outf_commit(&of, oerr, sizeof oerr);
        }
    }
    free(raw);
    free(z);
    return rc;
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

int img_read_png(const char *path, uint32_t **pixels, uint32_t *w, uint32_t *h, int flip_y, char err[128])
{
    *pixels = NULL;
    /* The size comes from fstat of a regular file only: a directory or a FIFO has no meaningful size (ftell on
     * an ext4 directory gives 2^63-1, which must never size the allocation below), and a FIFO is refused
     * without waiting for a writer. */
    struct stat st;
    FILE *f = inf_open_regular(path, &st);
    if (!f && st.st_mode == 0) { snprintf(err, 128, "cannot open %s", path); return -1; }
    if (!f) {
        snprintf(err, 128, "%s: not a regular file%s", path, S_ISDIR(st.st_mode) ? " (it is a directory)" : "");
        return -1;
    }
    uint8_t *buf = NULL, *idat = NULL, *raw = NULL;
    size_t idat_len = 0;
    int rc = -1;
    if (st.st_size < 8) { snprintf(err, 128, "%s: not a PNG", path); goto out; }
    if ((uint64_t)st.st_size > IMG_PNG_MAX_FILE) {
        snprintf(err, 128, "%s: larger than %llu bytes", path, (unsigned long long)IMG_PNG_MAX_FILE);
        goto out;
    }
    size_t len = (size_t)st.st_size;
    buf = malloc(len);
    if (!buf || fread(buf, 1, len, f) != len) { snprintf(err, 128, "%s: read error", path); goto out; }
    if (memcmp(buf, "\x89PNG\r\n\x1a\n", 8)) { snprintf(err, 128, "%s: not a PNG", path); goto out; }
    size_t pos = 8;
    uint32_t W = 0, H = 0, ct = 0;
    while (pos + 12 <= len) {
        uint32_t cl = get32(buf + pos);
        if (cl > len - pos - 12) { snprintf(err, 128, "%s: truncated chunk", path); goto out; }
        const uint8_t *d = buf + pos + 8;
        if (!memcmp(buf + pos + 4, "IHDR", 4) && cl >= 13) {
            W = get32(d); H = get32(d + 4); ct = d[9];
            if (d[8] != 8 || d[12] != 0 || (ct != 0 && ct != 2 && ct != 4 && ct != 6) || W == 0 || H == 0 || W > 16384 || H > 16384) {
                snprintf(err, 128, "%s: unsupported PNG (need 8-bit, non-interlaced, grey/RGB/RGBA)", path);
                goto out;
            }
        } else if (!memcmp(buf + pos + 4, "IDAT", 4)) {
            uint8_t *n = realloc(idat, idat_len + cl + 1);
            if (!n) goto out;
            idat = n;
            memcpy(idat + idat_len, d, cl);
            idat_len += cl;
        } else if (!memcmp(buf + pos + 4, "IEND", 4)) {
            break;
        }
        pos += 12 + (size_t)cl;
    }
    if (!W || !idat) { snprintf(err, 128, "%s: no image data", path); goto out; }
    uint32_t ch = ct == 0 ? 1 : ct == 4 ? 2 : ct == 2 ? 3 : 4;
    size_t row = (size_t)W * ch + 1;
    uLongf rl = (uLongf)(row * H);
    raw = malloc(rl);
    if (!raw || uncompress(raw, &rl, idat, (uLong)idat_len) != Z_OK || rl != row * H) {
        snprintf(err, 128, "%s: corrupt image data", path);
        goto out;
    }
    for (uint32_t y = 0; y < H; y++) {
        uint8_t *r = raw + row * y + 1, ft = raw[row * y];
        const uint8_t *pr = y ? raw + row * (y - 1) + 1 : NULL;
        for (size_t i = 0; i < (size_t)W * ch; i++) {
            int a = i >= ch ? r[i - ch] : 0, b = pr ? pr[i] : 0, c = (pr && i >= ch) ? pr[i - ch] : 0;
            switch (ft) {
            case 0: break;
            case 1: r[i] = (uint8_t)(r[i] + a); break;
            case 2: r[i] = (uint8_t)(r[i] + b); break;
            case 3: r[i] = (uint8_t)(r[i] + ((a + b) >> 1)); break;
            case 4: r[i] = (uint8_t)(r[i] + paeth(a, b, c)); break;
            default: snprintf(err, 128, "%s: bad filter type", path); goto out;
            }
        }
    }
    *pixels = malloc((size_t)W * H * 4);
    if (!*pixels) goto out;
    for (uint32_t y = 0; y < H; y++) {
        const uint8_t *r = raw + row * y + 1;
        uint32_t *o = *pixels + (size_t)(flip_y ? H - 1 - y : y) * W;
        for (uint32_t x = 0; x < W; x++) {
            const uint8_t *p = r + (size_t)x * ch;
            uint32_t R, G, B, A = 255;
            if (ch <= 2) { R = G = B = p[0]; if (ch == 2) A = p[1]; }
            else { R = p[0]; G = p[1]; B = p[2]; if (ch == 4) A = p[3]; }
            o[x] = R | (G << 8) | (B << 16) | (A << 24);
        }
    }
    *w = W;
    *h = H;
    rc = 0;
out:
    fclose(f);
    free(buf);
    free(idat);
    free(raw);
    return rc;
}

void img_diff(const uint32_t *a, const uint32_t *b, uint32_t *out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (a[i] == b[i]) {
            uint32_t v = a[i];
            uint32_t r = ((v & 0xFF) >> 2), g = (((v >> 8) & 0xFF) >> 2), bl = (((v >> 16) & 0xFF) >> 2);
            out[i] = 0xFF000000u | (bl << 16) | (g << 8) | r;
        } else {
            out[i] = 0xFF0000FFu;
        }
    }
}
