/* Safe output files for every tool (issue 12, item 1; docs/cli.md "Output files").
 *
 * A regular output file is written to a temporary file in the SAME directory (".NAME.XXXXXX") and renamed
 * over PATH only by outf_commit(), after every byte was written and flushed: a failing run leaves an
 * existing PATH untouched and no partial PATH behind. outf_abort() removes only the temporary file the tool
 * created. Special cases:
 *   - PATH "-": standard output (nothing renamed, nothing removed);
 *   - PATH exists and is not a regular file (a device node such as /dev/null, a FIFO): written in place,
 *     never unlinked, never renamed over;
 *   - PATH is a directory, or its directory is missing or not writable: a clear error before any work.
 * The new file gets mode 0666 & ~umask (as fopen would give it); an existing PATH's mode is kept. */
#ifndef GPUPD_COMMON_OUTFILE_H
#define GPUPD_COMMON_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;          /* write here */
    char *path;       /* final path */
    char *tmp;        /* temporary path (NULL: writing in place: stdout or a special file) */
    int is_stdout;
} outf_t;

/* Open for writing. 0 ok; -1 error with a message "cannot write PATH: reason" in err. */
int outf_open(outf_t *o, const char *path, int binary, char *err, size_t err_len);
/* Flush, close and rename into place. 0 ok; -1 error (message in err; the temporary file is removed and
 * PATH is left as it was). Always releases o. */
int outf_commit(outf_t *o, char *err, size_t err_len);
/* Give up: close and remove the temporary file (never PATH). Safe on a zeroed or already released o. */
void outf_abort(outf_t *o);
/* Check early (before a long run) that PATH can be written: same rules as outf_open, nothing created.
 * 0 ok; -1 with the reason in err. */
int outf_check(const char *path, char *err, size_t err_len);

/* Open an input file ("-": standard input). A directory or an unreadable path is an error with the reason
 * in err (fopen alone accepts a directory and then reads nothing). NULL on error. */
FILE *inf_open(const char *path, int binary, char *err, size_t err_len);
/* Close an input opened by inf_open (not stdin); returns -1 if a read error happened on it. */
int inf_close(FILE *f);

struct stat;
/* Open an input that must be a regular file (it is sized with fstat and read at offsets), binary. open(2) of a
 * FIFO with no writer waits for one, so the file is opened without blocking and checked before anything is
 * read. NULL on error: st->st_mode is 0 if the open failed (errno says why), else the file is not regular (its
 * mode is in st). */
FILE *inf_open_regular(const char *path, struct stat *st);

#endif
