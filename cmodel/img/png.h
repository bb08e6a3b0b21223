/* Minimal PNG writer (RGBA8 or RGB8, zlib-compressed) and a reader for the files it and common tools
 * write (8-bit RGB/RGBA/grey, non-interlaced), for reference images. Link with -lz. */
#ifndef GPUPD_IMG_PNG_H
#define GPUPD_IMG_PNG_H

#include <stdint.h>

/* pixels: w*h packed R | G<<8 | B<<16 | A<<24. flip_y: row 0 of the buffer is the bottom row (OpenGL)
 * and becomes the last PNG row. keep_alpha: 0 writes RGB (alpha dropped). Returns 0 or -1. */
int img_write_png(const char *path, const uint32_t *pixels, uint32_t w, uint32_t h, int flip_y, int keep_alpha);

/* Read an 8-bit non-interlaced PNG (grey, grey+alpha, RGB, RGBA) into a malloc'd w*h packed buffer
 * (alpha 255 when absent). flip_y as above. Returns 0 or -1 (err filled). */
int img_read_png(const char *path, uint32_t **pixels, uint32_t *w, uint32_t *h, int flip_y, char err[128]);

/* Difference image: pixels equal -> dark grey copy of a, different -> bright red. */
void img_diff(const uint32_t *a, const uint32_t *b, uint32_t *out, uint32_t n);

#endif
