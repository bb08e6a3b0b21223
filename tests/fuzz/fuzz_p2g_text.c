/* libFuzzer target: the P2G text input of gpupd-p2g (its line parser, the configuration arguments and
 * p2g_mask), run through the tool's own main on a memory stream as standard input. The first bytes choose
 * the configuration (GPU count, screen, tile size, mode, scissor); the rest is the primitive text.
 * Every line is either answered or reported with its line number (exit 2), never a crash.
 * Seeds: tests/fuzz/seeds/p2g. */
#include "fuzz_common.h"

#define main gpupd_p2g_main
#include "../../cmodel/tools/gpupd-p2g.c"
#undef main

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || size > 65536) return 0;
    char a[8][24];
    snprintf(a[0], sizeof a[0], "%u", 1u + data[0] % 64u);
    snprintf(a[1], sizeof a[1], "%u", 1u + (uint32_t)(data[1] | data[2] << 8) % 16384u);
    snprintf(a[2], sizeof a[2], "%u", 1u + (uint32_t)(data[3] | data[4] << 8) % 16384u);
    snprintf(a[3], sizeof a[3], "%u", (uint32_t)data[5] % 15u);
    snprintf(a[4], sizeof a[4], "%u,%u,%u,%u", data[6] * 61u % 16384u, data[7] * 67u % 16384u,
             (data[6] * 61u + data[7] * 977u) % 16384u, (data[7] * 67u + data[6] * 1013u) % 16384u);
    char *argv[] = {(char *)"gpupd-p2g", (char *)"--gpus", a[0], (char *)"--width", a[1], (char *)"--height", a[2],
                    (char *)"--tile-log2", a[3], (char *)"--mode", (char *)((data[5] & 0x80) ? "linear" : "diag"),
                    (char *)"--scissor", a[4], NULL};
    int argc = (data[6] & 1) ? 13 : 11;
    if (argc == 11) argv[11] = NULL;
    FILE *in = fmemopen((void *)(data + 8), size - 8 ? size - 8 : 1, "r");
    if (!in) return 0;
    FILE *saved_in = stdin, *saved_out = stdout;
    FILE *out = fopen("/dev/null", "w");
    if (!out) { fclose(in); return 0; }
    stdin = in;
    stdout = out;
    int rc = size > 8 ? gpupd_p2g_main(argc, argv) : 0;
    stdin = saved_in;
    stdout = saved_out;
    fclose(in);
    fclose(out);
    if (rc != 0 && rc != 2) abort();
    return 0;
}
