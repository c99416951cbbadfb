/* Fuzz target: the server's command loop (runtime/server.c) in the
 * program generated from tests/server/arith.fut at build time
 * (build/fuzz/gen/server_prog.c, included below with its main renamed).
 * The input is a command script, optionally followed by a line "%%%" and
 * the contents of the file `data`, which the script can restore. The
 * files that commands name live in a private temporary directory: fopen
 * is redirected there (a '/' in a name becomes '_'), and the directory is
 * emptied after every input. Replies go to stdout. */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static FILE *fuzz_fopen(const char *path, const char *mode);
#define fopen fuzz_fopen
#define main fuzz_program_main
#include "server_prog.c"
#undef main
#undef fopen

/* Separates the script from the data file's contents. */
#define FUZZ_DATA_MARK "\n%%%\n"

/* The private directory, made on first use. */
static char fuzz_dir[4096];

/* Removes the files of the private directory (and, with gone, it). */
static void fuzz_clean(bool gone) {
    DIR *d = opendir(fuzz_dir);
    FUZZ_CHECK(d != NULL, "cannot open %s", fuzz_dir);
    char path[8192];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    if (gone) rmdir(fuzz_dir);
}

static void fuzz_remove_dir(void) { fuzz_clean(true); }

static void fuzz_make_dir(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/futhorc-fuzz-server.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(fuzz_dir) != NULL, "cannot make a directory %s", fuzz_dir);
    atexit(fuzz_remove_dir);
}

/* fopen of the file named path in the private directory. */
static FILE *fuzz_fopen(const char *path, const char *mode) {
    char full[8192];
    size_t k = (size_t)snprintf(full, sizeof full, "%s/", fuzz_dir);
    for (const char *p = path; *p && k + 1 < sizeof full; p++) full[k++] = *p == '/' ? '_' : *p;
    full[k] = 0;
    return fopen(full, mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!fuzz_dir[0]) fuzz_make_dir();
    size_t mark_len = strlen(FUZZ_DATA_MARK);
    const uint8_t *mark = memmem(data, size, FUZZ_DATA_MARK, mark_len);
    size_t len = mark ? (size_t)(mark - data) + 1 : size; /* the script keeps its last newline */
    if (mark) {
        FILE *f = fuzz_fopen("data", "wb");
        FUZZ_CHECK(f != NULL, "cannot write the data file");
        fwrite(mark + mark_len, 1, (size_t)(data + size - (mark + mark_len)), f);
        fclose(f);
    }
    char *script = fuzz_cstr(data, len);
    FILE *in = fmemopen(script, len, "r");
    FUZZ_CHECK(in != NULL, "fmemopen failed");
    rt_server_run(in, futhorc_entries, (int)(sizeof futhorc_entries / sizeof futhorc_entries[0]));
    fclose(in);
    fuzz_clean(false);
    free(script);
    return 0;
}
