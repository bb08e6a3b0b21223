/* libFuzzer target: the PNG reader (img_read_png, used by `gpupd-sim validate --ref`) on a file. Whatever it
 * accepts must have a sane size and be fully readable; it must write back and read back identically.
 * Seeds: tests/fuzz/seeds/png (small PNGs written by the model's own writer). */
#include "fuzz_common.h"
#include "img/png.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    const char *path = fz_path(".png");
    if (fz_write(path, data, size)) return 0;
    uint32_t *px = NULL, w = 0, h = 0;
    char err[128];
    if (img_read_png(path, &px, &w, &h, 1, err) == 0) {
        if (!px || !w || !h) abort();
        volatile uint32_t acc = 0;
        for (size_t i = 0; i < (size_t)w * h; i++) acc ^= px[i];
        (void)acc;
        /* round trip through the writer (opaque RGB: alpha forced to 0xff) */
        if ((uint64_t)w * h <= (1u << 18)) {
            for (size_t i = 0; i < (size_t)w * h; i++) px[i] |= 0xFF000000u;
            const char *p2 = fz_path(".rt.png");
            if (img_write_png(p2, px, w, h, 1, 0) == 0) {
                uint32_t *q = NULL, w2, h2;
                if (img_read_png(p2, &q, &w2, &h2, 1, err) != 0 || w2 != w || h2 != h ||
                    memcmp(q, px, (size_t)w * h * 4) != 0) {
                    fprintf(stderr, "PNG write/read round trip differs\n");
                    abort();
                }
                free(q);
            }
            remove(p2);
        }
        free(px);
    }
    remove(path);
    return 0;
}
