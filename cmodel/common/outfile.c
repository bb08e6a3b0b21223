/* Safe output files: temporary file in the same directory, renamed on success (cmodel/common/outfile.h). */
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

/* Directory part of path ("." if none). Caller frees. */
static char *dir_of(const char *path)
{
    const char *sl = strrchr(path, '/');
    if (!sl) return dup_str(".");
    if (sl == path) return dup_str("/");
    size_t n = (size_t)(sl - path);
    char *d = malloc(n + 1);
    if (d) { memcpy(d, path, n); d[n] = 0; }
    return d;
}

FILE *inf_open(const char *path, int binary, char *err, size_t err_len)
{
    if (!path || !*path) { snprintf(err, err_len, "cannot read '': empty file name"); return NULL; }
    if (!strcmp(path, "-")) return stdin;
    FILE *f = fopen(path, binary ? "rb" : "r");
    if (!f) { snprintf(err, err_len, "cannot read %s: %s", path, strerror(errno)); return NULL; }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        snprintf(err, err_len, "cannot read %s: it is a directory", path);
        return NULL;
    }
    return f;
}

FILE *inf_open_regular(const char *path, struct stat *st)
{
    memset(st, 0, sizeof *st);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat s;
    int fl;
    FILE *f = NULL;
    if (fstat(fd, &s) == 0) {
        *st = s;
        if (S_ISREG(s.st_mode) && (fl = fcntl(fd, F_GETFL)) >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0)
            f = fdopen(fd, "rb");
        else if (S_ISREG(s.st_mode)) st->st_mode = 0;   /* fcntl failed: errno says why */
        if (f) return f;
    }
    int e = errno;
    close(fd);
    errno = e;
    if (f == NULL && S_ISREG(st->st_mode)) st->st_mode = 0;   /* fdopen failed */
    return NULL;
}

int inf_close(FILE *f)
{
    if (!f) return 0;
    int bad = ferror(f) != 0;
    if (f != stdin) fclose(f);
    return bad ? -1 : 0;
}

int outf_check(const char *path, char *err, size_t err_len)
{
    if (!path || !*path) { snprintf(err, err_len, "cannot write '': empty file name"); return -1; }
    if (!strcmp(path, "-")) return 0;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) { snprintf(err, err_len, "cannot write %s: it is a directory", path); return -1; }
        if (!S_ISREG(st.st_mode)) {
            if (access(path, W_OK)) { snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno)); return -1; }
            return 0;
        }
    } else if (errno != ENOENT) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (path[strlen(path) - 1] == '/') { snprintf(err, err_len, "cannot write %s: it names a directory", path); return -1; }
    char *d = dir_of(path);
    if (!d) { snprintf(err, err_len, "cannot write %s: out of memory", path); return -1; }
    int rc = 0;
    if (stat(d, &st)) { snprintf(err, err_len, "cannot write %s: directory %s: %s", path, d, strerror(errno)); rc = -1; }
    else if (!S_ISDIR(st.st_mode)) { snprintf(err, err_len, "cannot write %s: %s is not a directory", path, d); rc = -1; }
    else if (access(d, W_OK | X_OK)) { snprintf(err, err_len, "cannot write %s: directory %s: %s", path, d, strerror(errno)); rc = -1; }
    free(d);
    return rc;
}

int outf_open(outf_t *o, const char *path, int binary, char *err, size_t err_len)
{
    memset(o, 0, sizeof *o);
    if (outf_check(path, err, err_len)) return -1;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        o->is_stdout = 1;
        return 0;
    }
    o->path = dup_str(path);
    if (!o->path) { snprintf(err, err_len, "cannot write %s: out of memory", path); return -1; }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* device node, FIFO, ...: write in place, never remove or replace it */
        o->f = fopen(path, binary ? "wb" : "w");
        if (!o->f) { snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno)); outf_abort(o); return -1; }
        return 0;
    }
    int have_old = stat(path, &st) == 0;
    char *d = dir_of(path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = (d ? strlen(d) : 0) + strlen(base) + 16;
    o->tmp = d ? malloc(n) : NULL;
    if (!o->tmp) { free(d); snprintf(err, err_len, "cannot write %s: out of memory", path); outf_abort(o); return -1; }
    snprintf(o->tmp, n, "%s/.%s.XXXXXX", d, base);
    free(d);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, err_len, "cannot write %s: temporary file: %s", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        outf_abort(o);
        return -1;
    }
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, have_old ? (st.st_mode & 07777) : (0666 & ~um));
    o->f = fdopen(fd, binary ? "wb" : "w");
    if (!o->f) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        outf_abort(o);
        return -1;
    }
    return 0;
}

void outf_abort(outf_t *o)
{
    if (!o) return;
    if (o->f && !o->is_stdout) fclose(o->f);
    if (o->tmp) unlink(o->tmp);   /* only the temporary file this tool created */
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int outf_commit(outf_t *o, char *err, size_t err_len)
{
    if (!o->f) { snprintf(err, err_len, "cannot write %s: not open", o->path ? o->path : "?"); outf_abort(o); return -1; }
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (o->is_stdout) {
        memset(o, 0, sizeof *o);
        if (bad) { snprintf(err, err_len, "cannot write standard output: %s", strerror(e)); return -1; }
        return 0;
    }
    if (fclose(o->f) != 0 && !bad) { bad = 1; e = errno; }
    o->f = NULL;
    if (bad) {
        snprintf(err, err_len, "cannot write %s: %s", o->path, strerror(e));
        outf_abort(o);
        return -1;
    }
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        snprintf(err, err_len, "cannot write %s: rename: %s", o->path, strerror(errno));
        outf_abort(o);
        return -1;
    }
    free(o->tmp);
    o->tmp = NULL;
    free(o->path);
    memset(o, 0, sizeof *o);
    return 0;
}
