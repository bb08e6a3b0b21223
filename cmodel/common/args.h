/* Checked command-line value parsing, shared by every tool (issue 12; docs/cli.md lists every option's range).
 *
 * One helper per value kind. Each parses the WHOLE string (no leading blanks, no trailing characters, no
 * empty value), rejects overflow instead of wrapping, checks the documented range, and on any problem prints
 *     <tool>: <option> '<value>': <what is wrong> (expected <range>)
 * on stderr and returns -1. The caller then exits with status 2 (bad arguments). Nothing is written to *out
 * on error. Integers are decimal; where hex_ok is set (seeds) a 0x prefix selects hexadecimal. A sign is
 * accepted only by the signed parser. Header-only (static inline) so that harnesses that do not link the
 * model library (Verilator/Icarus helpers) use the same code.
 *
 *   arg_u32 / arg_u64 / arg_i64   integer in [lo, hi]
 *   arg_f64                       finite number in [lo, hi] (strtod syntax, no inf/nan)
 *   arg_u32_list                  comma-separated integers in [lo, hi], 1..max items, no empty item
 *   arg_wxh                       "WxH", each in [lo, hi]
 *   arg_need                      an option given without its value
 */
#ifndef GPUPD_COMMON_ARGS_H
#define GPUPD_COMMON_ARGS_H

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int arg_fail(const char *tool, const char *opt, const char *val, const char *why, const char *range)
{
    fprintf(stderr, "%s: %s '%s': %s%s%s%s\n", tool, opt, val ? val : "", why, range ? " (expected " : "",
            range ? range : "", range ? ")" : "");
    return -1;
}

/* "<opt> needs a value" (the option was the last word of the command line). */
static inline int arg_need(const char *tool, const char *opt)
{
    fprintf(stderr, "%s: %s needs a value\n", tool, opt);
    return -1;
}

/* Core: parse an unsigned decimal (or 0x hex if hex_ok) integer of up to 64 bits. 0 ok, -1 malformed,
 * -2 overflow. */
static inline int arg__u64_raw(const char *s, int hex_ok, uint64_t *out)
{
    int base = 10;
    if (!s || !*s) return -1;
    if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; s += 2; if (!*s) return -1; }
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9') d = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
        else return -1;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return -2;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

static inline int arg_u64x(const char *tool, const char *opt, const char *val, uint64_t lo, uint64_t hi, int hex_ok,
                           uint64_t *out)
{
    char range[96];
    snprintf(range, sizeof range, "an integer in %" PRIu64 "..%" PRIu64 "%s", lo, hi, hex_ok ? ", decimal or 0x hex" : "");
    if (!val) return arg_need(tool, opt);
    uint64_t v = 0;
    int rc = arg__u64_raw(val, hex_ok, &v);
    if (rc == -1) return arg_fail(tool, opt, val, val[0] == '-' ? "negative value" : "not a non-negative integer", range);
    if (rc == -2 || v > hi) return arg_fail(tool, opt, val, "too large", range);
    if (v < lo) return arg_fail(tool, opt, val, "too small", range);
    *out = v;
    return 0;
}

static inline int arg_u64(const char *tool, const char *opt, const char *val, uint64_t lo, uint64_t hi, uint64_t *out)
{
    return arg_u64x(tool, opt, val, lo, hi, 0, out);
}

static inline int arg_u32(const char *tool, const char *opt, const char *val, uint32_t lo, uint32_t hi, uint32_t *out)
{
    uint64_t v = 0;
    if (arg_u64x(tool, opt, val, lo, hi, 0, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

static inline int arg_i64(const char *tool, const char *opt, const char *val, int64_t lo, int64_t hi, int64_t *out)
{
    char range[96];
    snprintf(range, sizeof range, "an integer in %" PRId64 "..%" PRId64, lo, hi);
    if (!val) return arg_need(tool, opt);
    int neg = val[0] == '-';
    uint64_t m = 0;
    int rc = arg__u64_raw(val + (neg || val[0] == '+'), 0, &m);
    if (rc == -1) return arg_fail(tool, opt, val, "not an integer", range);
    if (rc == -2 || (!neg && m > (uint64_t)INT64_MAX) || (neg && m > (uint64_t)INT64_MAX + 1u))
        return arg_fail(tool, opt, val, neg ? "too small" : "too large", range);
    int64_t v = neg ? (m == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)m) : (int64_t)m;
    if (v < lo) return arg_fail(tool, opt, val, "too small", range);
    if (v > hi) return arg_fail(tool, opt, val, "too large", range);
    *out = v;
    return 0;
}

static inline int arg_f64(const char *tool, const char *opt, const char *val, double lo, double hi, double *out)
{
    char range[96];
    snprintf(range, sizeof range, "a number in %g..%g", lo, hi);
    if (!val) return arg_need(tool, opt);
    if (!*val || val[0] == ' ' || val[0] == '\t' || val[0] == '\n') return arg_fail(tool, opt, val, "not a number", range);
    char *e;
    errno = 0;
    double v = strtod(val, &e);
    if (*e || e == val) return arg_fail(tool, opt, val, "not a number", range);
    if (!isfinite(v) || errno == ERANGE) return arg_fail(tool, opt, val, "not a finite number", range);
    if (v < lo) return arg_fail(tool, opt, val, "too small", range);
    if (v > hi) return arg_fail(tool, opt, val, "too large", range);
    *out = v;
    return 0;
}

/* Comma-separated list of 1..max integers in [lo, hi]: "4", "2,3,16". "4,", ",4", "4,,5", "4,0" are errors. */
static inline int arg_u32_list(const char *tool, const char *opt, const char *val, uint32_t lo, uint32_t hi,
                               uint32_t *out, uint32_t max, uint32_t *n)
{
    char range[128];
    snprintf(range, sizeof range, "1..%" PRIu32 " comma-separated integers, each in %" PRIu32 "..%" PRIu32, max, lo, hi);
    if (!val) return arg_need(tool, opt);
    uint32_t k = 0;
    const char *p = val;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char item[32];
        if (len == 0 || len >= sizeof item) return arg_fail(tool, opt, val, len ? "item too long" : "empty item", range);
        memcpy(item, p, len);
        item[len] = 0;
        uint64_t v = 0;
        int rc = arg__u64_raw(item, 0, &v);
        if (rc == -1 || rc == -2 || v < lo || v > hi) {
            char why[96];
            snprintf(why, sizeof why, "item '%s' %s", item,
                     rc == -1 ? "is not a non-negative integer" : v < lo ? "is too small" : "is too large");
            return arg_fail(tool, opt, val, why, range);
        }
        if (k == max) return arg_fail(tool, opt, val, "too many items", range);
        out[k++] = (uint32_t)v;
        if (!c) break;
        p = c + 1;
    }
    *n = k;
    return 0;
}

/* "WxH" with W and H in [lo, hi]. */
static inline int arg_wxh(const char *tool, const char *opt, const char *val, uint32_t lo, uint32_t hi, uint32_t *w,
                          uint32_t *h)
{
    char range[96];
    snprintf(range, sizeof range, "WxH, each an integer in %" PRIu32 "..%" PRIu32, lo, hi);
    if (!val) return arg_need(tool, opt);
    const char *x = strchr(val, 'x');
    if (!x || x == val || strchr(x + 1, 'x')) return arg_fail(tool, opt, val, "not of the form WxH", range);
    char a[32];
    size_t len = (size_t)(x - val);
    if (len >= sizeof a) return arg_fail(tool, opt, val, "width too long", range);
    memcpy(a, val, len);
    a[len] = 0;
    uint64_t vw = 0, vh = 0;
    int rw = arg__u64_raw(a, 0, &vw), rh = arg__u64_raw(x + 1, 0, &vh);
    if (rw == -1 || rh == -1) return arg_fail(tool, opt, val, "not of the form WxH", range);
    if (rw == -2 || rh == -2 || vw > hi || vh > hi) return arg_fail(tool, opt, val, "too large", range);
    if (vw < lo || vh < lo) return arg_fail(tool, opt, val, "too small", range);
    *w = (uint32_t)vw;
    *h = (uint32_t)vh;
    return 0;
}

#endif
