/* Helpers shared by the libFuzzer targets (issue 12; docs/fuzzing.md). Header-only, no global state beyond
 * the per-process scratch path. */
#ifndef GPUPD_FUZZ_COMMON_H
#define GPUPD_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* A scratch file of this process, in the current directory (tests/fuzz/run_fuzz.sh runs each target inside
 * its own work directory): the file-path surfaces (trace_reader_open_file, the PNG reader, the
 * scene loader) are fuzzed through a real file, not only through memory. */
static inline const char *fz_path(const char *suffix)
{
    static char p[4][96];
    static int k;
    k = (k + 1) & 3;
    snprintf(p[k], sizeof p[k], "gpupd-fuzz-%d%s", (int)getpid(), suffix);
    return p[k];
}

static inline int fz_write(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(d, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static inline void fz_put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
static inline uint32_t fz_get32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* Recompute the header CRC and every chunk's payload CRC of a binary trace in place, so that mutated
 * inputs get past the CRC checks and reach the parsers and the model with the reader's normal options
 * (CRC on). Chunk boundaries follow the stored lengths; anything past the end is left alone. */
static inline void fz_fix_crcs(uint8_t *b, size_t n)
{
    if (n < 32) return;
    fz_put32(b + 24, (uint32_t)crc32(0L, b, 24));
    size_t pos = 32;
    while (pos + 20 <= n) {
        uint32_t stored = fz_get32(b + pos + 8);
        if (stored > n - pos - 20) break;
        fz_put32(b + pos + 16, (uint32_t)crc32(0L, b + pos + 20, stored));
        pos += 20 + (size_t)stored;
    }
}

#endif
