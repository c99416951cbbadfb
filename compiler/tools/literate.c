/* `futhorc literate prog.fut`: Futhark's literate programs (Futhark's
 * futhark-literate(1)). The program's lines become blocks: comments
 * ("--") Markdown text, code ```futhark blocks, test blocks code, and
 * directives ("-- >" lines) FutharkScript expressions evaluated with the
 * program in server mode (script.c), shown with their results: values as
 * text, :img as PNG files (png.c), :plot2d and :gnuplot through gnuplot,
 * :video through ffmpeg. The program is compiled with the names the
 * directives call as entry points (--entry-point). Files go to
 * PROG-img/ beside the program, named by a hash of the program and the
 * directive, and are kept while they are still used. */
#include "tools/literate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"
#include "tools/frontend.h"
#include "tools/png.h"
#include "tools/script.h"

/* Default size of a :plot2d image, in pixels (Futhark's). */
enum { LIT_PLOT_SIZE = 500 };
/* Default frames per second of a :video. */
enum { LIT_VIDEO_FPS = 30 };
/* Longest time an external program (gnuplot, ffmpeg) may take. */
enum { LIT_TOOL_TIMEOUT_S = 300 };

typedef enum { B_TEXT, B_CODE, B_DIRECTIVE } BlockKind;

typedef struct Block {
    BlockKind kind;
    Buf text; /* text, code, or the directive as shown (comment marks removed) */
    Buf exp;  /* B_DIRECTIVE: what follows "> " */
    const char *params; /* after ';': parameter lines, or a gnuplot script */
} Block;

typedef VEC(Block) Blocks;
typedef VEC(char *) Strs;

typedef struct Lit {
    Arena *a;
    SpecWork *work;
    Script s;
    const char *prog_dir, *img_dir; /* img_dir relative to prog_dir */
    uint64_t hash;                  /* of the program's text */
    Strs kept;                      /* files of img_dir in use */
    bool stop_on_error, verbose;
} Lit;

static bool starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* ---- Blocks --------------------------------------------------------------------------- */

/* The line at *p (without its newline); advances past it. */
static const char *next_line(Arena *a, const char **p) {
    const char *s = *p, *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    *p = nl ? nl + 1 : s + n;
    return arena_strndup(a, s, n && s[n - 1] == '\r' ? n - 1 : n);
}

/* A comment line's text: after "--" and one space. */
static const char *uncomment(const char *l) { return l + 2 + (l[2] == ' '); }

/* Whether the brackets of text are all closed (a directive's expression
 * continues on the next comment line while they are not). */
static bool balanced(const char *t) {
    int depth = 0;
    for (; *t; t++) {
        if (*t == '"')
            while (t[1] && *++t != '"') {}
        depth += (*t == '(' || *t == '[' || *t == '{') - (*t == ')' || *t == ']' || *t == '}');
    }
    return depth <= 0;
}

/* Splits the program into blocks, as Futhark's literate parser does. */
static void parse_blocks(Arena *a, const char *text, Blocks *out) {
    const char *p = text;
    while (*p) {
        const char *start = p;
        const char *l = next_line(a, &p);
        Block b = {0};
        if (starts(l, "-- ==")) { /* a test block, shown as code */
            b.kind = B_CODE;
            buf_printf(&b.text, "%s\n", l);
            while (*p && starts(p, "--")) buf_printf(&b.text, "%s\n", next_line(a, &p));
        } else if (starts(l, "-- >")) {
            b.kind = B_DIRECTIVE;
            buf_printf(&b.text, "%s\n", uncomment(l));
            buf_puts(&b.exp, l + 4 + (l[4] == ' '));
            while (*p && starts(p, "--") && !starts(p, "-- >") && !balanced(b.exp.data)) {
                const char *c = next_line(a, &p);
                buf_printf(&b.text, "%s\n", uncomment(c));
                buf_printf(&b.exp, "\n%s", uncomment(c));
            }
            size_t n = b.exp.len;
            while (n && isspace((unsigned char)b.exp.data[n - 1])) n--;
            if (n && b.exp.data[n - 1] == ';') { /* parameters on the following comment lines */
                b.exp.data[n - 1] = 0, b.exp.len = n - 1;
                Buf params = {0};
                while (*p && starts(p, "--") && !starts(p, "-- >")) {
                    const char *c = next_line(a, &p);
                    buf_printf(&b.text, "%s\n", uncomment(c));
                    buf_printf(&params, "%s\n", uncomment(c));
                }
                b.params = arena_strdup(a, params.data ? params.data : "");
                buf_free(&params);
            }
        } else if (starts(l, "--")) {
            b.kind = B_TEXT;
            buf_printf(&b.text, "%s\n", uncomment(l));
            while (*p && starts(p, "--")) buf_printf(&b.text, "%s\n", uncomment(next_line(a, &p)));
        } else { /* code up to the next comment line, without blank lines around it */
            b.kind = B_CODE;
            p = start;
            const char *first = NULL, *last_end = NULL;
            while (*p && !starts(p, "--")) {
                const char *ls = p;
                const char *c = next_line(a, &p);
                bool blank = true;
                for (const char *q = c; *q; q++) blank &= isspace((unsigned char)*q) != 0;
                if (!blank && !first) first = ls;
                if (!blank) last_end = p;
            }
            if (first) {
                Buf code = {0};
                for (const char *q = first; q < last_end;) buf_printf(&code, "%s\n", next_line(a, &q));
                b.text = code;
            }
        }
        vec_push(out, b);
    }
}

static void free_blocks(Blocks *bs) {
    for (int i = 0; i < bs->len; i++) buf_free(&bs->items[i].text), buf_free(&bs->items[i].exp);
    vec_free(bs);
}

/* ---- Names the directives call ---------------------------------------------------------- */

/* Adds the names in expression text that may be definitions of the program
 * (not after '$' or '.', not keywords, not in strings) to out. */
static void names_in(Arena *a, const char *t, Strs *out) {
    for (size_t i = 0; t[i];) {
        if (t[i] == '"') {
            for (i++; t[i] && t[i] != '"'; i++) {}
            if (t[i]) i++;
            continue;
        }
        if (!isalpha((unsigned char)t[i]) && t[i] != '_') {
            i++;
            continue;
        }
        size_t s = i;
        while (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '\'') i++;
        bool qualified = s > 0 && (t[s - 1] == '$' || t[s - 1] == '.' || isdigit((unsigned char)t[s - 1]));
        const char *n = arena_strndup(a, t + s, i - s);
        static const char *const keywords[] = {"let", "in", "true", "false", "empty"};
        for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++) qualified |= !strcmp(n, keywords[k]);
        if (!qualified) vec_push(out, (char *)n);
    }
}

/* --entry-point options for the top-level definitions of prog that the
 * directives name and that are not entry points already. */
static void entry_options(Lit *L, const char *prog, const Blocks *bs, Strs *copts) {
    Strs names = {0};
    for (int i = 0; i < bs->len; i++)
        if (bs->items[i].kind == B_DIRECTIVE) names_in(L->a, bs->items[i].exp.data, &names);
    ProgramVec files = frontend_load(L->a, prog);
    Program *main = files.len ? files.items[files.len - 1] : NULL;
    for (int i = 0; main && i < main->ndecls; i++) {
        Decl *d = main->decls[i];
        if (d->kind != D_VAL || d->is_local || d->is_entry || !d->name || !strcmp(d->name, "main")) continue;
        bool named = false;
        for (int k = 0; k < names.len && !named; k++) named = !strcmp(names.items[k], d->name);
        if (named) vec_push(copts, arena_printf(L->a, "--entry-point=%s", d->name));
    }
    vec_free(&files);
    vec_free(&names);
}

/* ---- Files ---------------------------------------------------------------------------------- */

/* FNV-1a, for the names of generated files. */
static uint64_t hash(uint64_t h, const char *s) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The path (relative to the program's directory) of a generated file for
 * directive text: the given name, else HASH-suffix. *fresh tells whether it
 * must be made (it does not exist yet). */
static const char *out_file(Lit *L, const Block *b, const char *given, const char *suffix, bool *fresh) {
    unsigned long long h = hash(L->hash, b->text.data);
    const char *name = given ? given : arena_printf(L->a, "%016llx-%s", h, suffix);
    const char *rel = arena_printf(L->a, "%s/%s", L->img_dir, name);
    const char *full = arena_printf(L->a, "%s/%s", L->prog_dir, rel);
    mkdir(arena_printf(L->a, "%s/%s", L->prog_dir, L->img_dir), 0777);
    struct stat st;
    *fresh = stat(full, &st) != 0;
    vec_push(&L->kept, (char *)name);
    return rel;
}

static const char *full_path(Lit *L, const char *rel) { return arena_printf(L->a, "%s/%s", L->prog_dir, rel); }

/* Removes the files of the image directory that no directive made. */
static void clean_img_dir(Lit *L) {
    const char *dir = full_path(L, L->img_dir);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        bool kept = e->d_name[0] == '.';
        for (int i = 0; i < L->kept.len && !kept; i++) kept = !strcmp(L->kept.items[i], e->d_name);
        if (!kept) {
            if (L->verbose) fprintf(stderr, "Deleting unused file: %s/%s\n", dir, e->d_name);
            unlink(arena_printf(L->a, "%s/%s", dir, e->d_name));
        }
    }
    if (d) closedir(d);
}

/* Runs an external tool (gnuplot, ffmpeg) with stdin from in; NULL on
 * success, else why not. */
static const char *run_tool(Lit *L, char **argv, const char *in) {
    const char *out = spec_tmp(L->work, "tool"), *err = spec_tmp(L->work, "toolerr");
    pid_t pid = spec_spawn(argv, in, out, err);
    int status = 0;
    for (int waited = 0; pid > 0; waited++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        if (waited > LIT_TOOL_TIMEOUT_S * 100) kill(-pid, SIGKILL);
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    char *msg = util_read_file(err, NULL);
    const char *why = NULL;
    if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        why = WIFEXITED(status) && WEXITSTATUS(status) == 127
                  ? arena_printf(L->a, "%s is not installed", argv[0])
                  : arena_printf(L->a, "%s failed: %s", argv[0], msg && *msg ? msg : spec_status_str(L->a, status));
    free(msg);
    unlink(out), unlink(err);
    return why;
}

/* ---- Images ---------------------------------------------------------------------------------- */

/* The RGBA pixels of a 2-D value as :img reads it: ARGB integers, grey
 * floats in [0,1], grey bytes, black and white booleans. NULL with *why. */
static uint8_t *pixels(Lit *L, const rt_value *v, const char **why) {
    if (v->type.rank != 2)
        return *why = arena_printf(L->a, "an image must be a 2-D array, not of rank %d", v->type.rank), NULL;
    int64_t n = v->shape[0] * v->shape[1];
    uint8_t *px = malloc((size_t)(n ? n : 1) * 4);
    if (!px) return *why = "out of memory", NULL;
    rt_prim e = v->type.elem;
    if (e != RT_I32 && e != RT_U32 && e != RT_F32 && e != RT_F64 && e != RT_U8 && e != RT_BOOL) {
        free(px);
        return *why = arena_printf(L->a, "cannot make an image of %s values", rt_prim_name(e)), NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        uint8_t *q = px + i * 4;
        q[3] = 255;
        if (e == RT_I32 || e == RT_U32) { /* 0xAARRGGBB, alpha ignored */
            uint32_t c = ((const uint32_t *)v->data)[i];
            q[0] = (uint8_t)(c >> 16), q[1] = (uint8_t)(c >> 8), q[2] = (uint8_t)c;
            continue;
        }
        double g = e == RT_F32 ? ((const float *)v->data)[i] : e == RT_F64 ? ((const double *)v->data)[i]
                 : e == RT_U8  ? ((const uint8_t *)v->data)[i] / 255.0 : ((const uint8_t *)v->data)[i];
        g = g > 1 ? 1 : g > 0 ? g : 0; /* NaN is black */
        q[0] = q[1] = q[2] = (uint8_t)(g * 255 + 0.5);
    }
    return px;
}

static const char *write_png(Lit *L, const rt_value *v, const char *path) {
    const char *why = NULL;
    uint8_t *px = pixels(L, v, &why);
    if (!px) return why;
    FILE *f = fopen(path, "wb");
    bool ok = f && png_write(f, px, (uint32_t)v->shape[1], (uint32_t)v->shape[0]);
    if (f && fclose(f) != 0) ok = false;
    free(px);
    return ok ? NULL : arena_printf(L->a, "cannot write %s", path);
}

/* ---- Plots ------------------------------------------------------------------------------------ */

/* Writes the columns of a tuple of 1-D arrays of equal length to a data
 * file for gnuplot. */
static const char *write_columns(Lit *L, ScriptVal *v, const char *path) {
    const char *const *names;
    ScriptVal *const *elems;
    int n = script_components(v, &names, &elems);
    if (n <= 0) return "a plot needs a tuple of one-dimensional arrays";
    rt_value *cols = calloc((size_t)n, sizeof(rt_value));
    const char *why = NULL;
    int got = 0;
    for (; got < n && !why; got++) {
        if (!script_fetch(&L->s, elems[got], &cols[got])) why = L->s.error;
        else if (cols[got].type.rank != 1 || cols[got].type.elem == RT_BOOL)
            why = "a plot needs one-dimensional numeric arrays";
        else if (cols[got].shape[0] != cols[0].shape[0]) why = "the arrays of a plot must have the same length";
    }
    FILE *f = why ? NULL : fopen(path, "w");
    if (!why && !f) why = arena_printf(L->a, "cannot write %s", path);
    for (int64_t r = 0; f && r < cols[0].shape[0]; r++) {
        for (int c = 0; c < n; c++) {
            const rt_value *col = &cols[c];
            double x;
            const void *d = col->data;
            switch (col->type.elem) {
            case RT_I8: x = ((const int8_t *)d)[r]; break;
            case RT_I16: x = ((const int16_t *)d)[r]; break;
            case RT_I32: x = ((const int32_t *)d)[r]; break;
            case RT_I64: x = (double)((const int64_t *)d)[r]; break;
            case RT_U8: x = ((const uint8_t *)d)[r]; break;
            case RT_U16: x = ((const uint16_t *)d)[r]; break;
            case RT_U32: x = ((const uint32_t *)d)[r]; break;
            case RT_U64: x = (double)((const uint64_t *)d)[r]; break;
            case RT_F32: x = ((const float *)d)[r]; break;
            default: x = ((const double *)d)[r]; break;
            }
            fprintf(f, "%s%.17g", c ? " " : "", x);
        }
        fputc('\n', f);
    }
    if (f) fclose(f);
    for (int c = 0; c < got; c++) rt_value_free(&cols[c]);
    free(cols);
    return why;
}

/* The datasets of a plot: (name or NULL, data file) for one tuple, or for
 * each field of a script record. */
static const char *plot_data(Lit *L, ScriptVal *v, bool need_record, Strs *names, Strs *files) {
    const char *const *fnames;
    ScriptVal *const *elems;
    int n = script_components(v, &fnames, &elems);
    if (need_record && (n < 0 || !fnames)) return "the value must be a record of tuples of arrays";
    if (n < 0) return "a plot needs a tuple of arrays";
    for (int i = 0; i < (fnames ? n : 1); i++) {
        const char *file = spec_tmp(L->work, "plot");
        const char *why = write_columns(L, fnames ? elems[i] : v, file);
        if (why) return why;
        vec_push(names, fnames ? (char *)fnames[i] : NULL);
        vec_push(files, (char *)file);
    }
    return NULL;
}

static const char *gnuplot(Lit *L, const char *script) {
    const char *in = spec_tmp(L->work, "gp");
    if (!util_write_file(in, script, strlen(script))) return "cannot write the gnuplot script";
    char *argv[] = {"gnuplot", NULL};
    const char *why = run_tool(L, argv, in);
    unlink(in);
    return why;
}

/* :plot2d: lines of (x, y) data, one per record field. */
static const char *plot2d(Lit *L, ScriptVal *v, const char *params, const char *png) {
    int w = LIT_PLOT_SIZE, h = LIT_PLOT_SIZE;
    if (params && *params && sscanf(params, " size: ( %d , %d )", &w, &h) != 2)
        return "expected the parameter size: (width,height)";
    Strs names = {0}, files = {0};
    const char *why = plot_data(L, v, false, &names, &files);
    Buf s = {0};
    buf_printf(&s, "set terminal png size %d,%d enhanced\nset output '%s'\nset key outside\nplot ", w, h, png);
    for (int i = 0; !why && i < files.len; i++)
        buf_printf(&s, "%s'%s' %s with lines", i ? ", " : "", files.items[i],
                   names.items[i] ? arena_printf(L->a, "title '%s'", names.items[i]) : "notitle");
    buf_putc(&s, '\n');
    if (!why) why = gnuplot(L, s.data);
    buf_free(&s), vec_free(&names), vec_free(&files);
    return why;
}

/* :gnuplot: the user's script, with each record field's data file in a
 * variable of its name. */
static const char *gnuplot_directive(Lit *L, ScriptVal *v, const char *script, const char *png) {
    Strs names = {0}, files = {0};
    const char *why = plot_data(L, v, true, &names, &files);
    Buf s = {0};
    buf_printf(&s, "set terminal png enhanced\nset output '%s'\n", png);
    for (int i = 0; !why && i < files.len; i++) buf_printf(&s, "%s='%s'\n", names.items[i], files.items[i]);
    buf_puts(&s, script ? script : "");
    if (!why) why = gnuplot(L, s.data);
    buf_free(&s), vec_free(&names), vec_free(&files);
    return why;
}

/* ---- Video ---------------------------------------------------------------------------------- */

/* The value of "key:" among parameter lines, or NULL. */
static const char *param(Lit *L, const char *params, const char *key) {
    size_t n = strlen(key);
    for (const char *p = params; p && *p;) {
        const char *l = next_line(L->a, &p);
        while (isspace((unsigned char)*l)) l++;
        if (!strncmp(l, key, n) && l[n] == ':') {
            l += n + 1;
            while (isspace((unsigned char)*l)) l++;
            return l;
        }
    }
    return NULL;
}

/* :video: the frames of a 3-D array, encoded by ffmpeg. */
static const char *video(Lit *L, ScriptVal *v, const char *params, const char *out) {
    rt_value frames;
    if (!script_fetch(&L->s, v, &frames)) return L->s.error;
    const char *why = frames.type.rank == 3 ? NULL : "a video must be a 3-D array of frames";
    int64_t nf = why ? 0 : frames.shape[0];
    size_t esize = (size_t)rt_prim_size(frames.type.elem);
    size_t fsize = why ? 0 : (size_t)(frames.shape[1] * frames.shape[2]);
    const char *dir = spec_tmp(L->work, "frames");
    mkdir(dir, 0777);
    for (int64_t i = 0; i < nf && !why; i++) {
        int64_t shape[2] = {frames.shape[1], frames.shape[2]};
        rt_value f = {{frames.type.elem, 2}, shape, (char *)frames.data + (size_t)i * fsize * esize};
        why = write_png(L, &f, arena_printf(L->a, "%s/%06lld.png", dir, (long long)i));
    }
    rt_value_free(&frames);
    if (why) return why;
    const char *fps = param(L, params, "fps");
    char *argv[] = {"ffmpeg", "-y", "-loglevel", "error", "-framerate", (char *)(fps ? fps : "30"), "-i",
                    (char *)arena_printf(L->a, "%s/%%06d.png", dir), (char *)out, NULL};
    return run_tool(L, argv, NULL);
}

/* ---- Directives ------------------------------------------------------------------------------- */

/* The kind of a directive and its expression: ":img e" -> "img", "e". */
static const char *directive_kind(const char *e, const char **rest) {
    static const char *const kinds[] = {"covert", "brief", "img", "plot2d", "gnuplot", "video", "audio"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t n = strlen(kinds[k]);
        if (e[0] == ':' && !strncmp(e + 1, kinds[k], n) && isspace((unsigned char)e[1 + n])) {
            *rest = e + 1 + n;
            while (isspace((unsigned char)**rest)) (*rest)++;
            return kinds[k];
        }
    }
    *rest = e;
    return "";
}

/* Evaluates a directive into out (its result); NULL, or why it failed. */
static const char *directive(Lit *L, const Block *b, const char *kind, const char *e, Buf *out) {
    ScriptVal *v = script_eval(&L->s, e);
    if (!v) return L->s.error;
    if (!*kind) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        bool ok = script_write(&L->s, v, mem, false);
        fclose(mem);
        if (ok) buf_printf(out, "```\n%s\n```\n", text);
        free(text);
        return ok ? NULL : L->s.error;
    }
    bool fresh;
    const char *why = NULL, *file = b->params ? param(L, b->params, "file") : NULL;
    if (file && strchr(file, '/')) return "a file parameter must not name a directory";
    const char *format = b->params ? param(L, b->params, "format") : NULL;
    const char *video_suffix = format && !strcmp(format, "gif") ? "video.gif" : "video.webm";
    const char *suffix = !strcmp(kind, "img") ? "img.png" : !strcmp(kind, "video") ? video_suffix : "plot.png";
    if (!strcmp(kind, "audio")) return ":audio is not supported";
    const char *rel = out_file(L, b, file, suffix, &fresh), *path = full_path(L, rel);
    if (fresh && !strcmp(kind, "img")) {
        rt_value val;
        why = script_fetch(&L->s, v, &val) ? write_png(L, &val, path) : L->s.error;
        if (!why) rt_value_free(&val);
    } else if (fresh && !strcmp(kind, "plot2d")) {
        why = plot2d(L, v, b->params, path);
    } else if (fresh && !strcmp(kind, "gnuplot")) {
        why = gnuplot_directive(L, v, b->params, path);
    } else if (fresh && !strcmp(kind, "video")) {
        why = video(L, v, b->params, path);
    }
    if (why) unlink(path);
    else buf_printf(out, "![](%s)\n", rel);
    return why;
}

/* One block's Markdown; false if a directive failed. */
static bool block_md(Lit *L, const Block *b, Buf *md) {
    if (b->kind == B_TEXT) return buf_puts(md, b->text.data), true;
    if (b->kind == B_CODE) {
        if (b->text.len) buf_printf(md, "```futhark\n%s```\n", b->text.data);
        return true;
    }
    const char *e = b->exp.data, *kind = directive_kind(e, &e);
    bool covert = !strcmp(kind, "covert"), brief = !strcmp(kind, "brief");
    if (covert || brief) kind = directive_kind(e, &e);
    if (L->verbose) fprintf(stderr, "Processing > %s...\n", b->exp.data);
    if (brief) buf_printf(md, "```\n> %s%s%s%s\n```\n", *kind ? ":" : "", kind, *kind ? " " : "", e);
    else if (!covert) buf_printf(md, "```\n%s```\n", b->text.data);
    Buf out = {0};
    const char *why = directive(L, b, kind, e, &out);
    if (why) {
        fprintf(stderr, "futhorc literate: > %s failed:\n%s\n", b->exp.data, why);
        buf_printf(md, "\n**FAILED**\n```\n%s\n```\n", why);
    } else {
        buf_printf(md, "%s%s", covert ? "" : "\n", out.data ? out.data : "");
    }
    buf_free(&out);
    return why == NULL;
}

/* ---- futhorc literate ---------------------------------------------------------------------- */

static int usage_error(const char *msg, const char *arg) {
    fprintf(stderr, "futhorc literate: %s%s%s\nusage: futhorc literate [options] PROG.fut\n", msg, arg ? " " : "",
            arg ? arg : "");
    return 1;
}

static void literate_usage(void) {
    printf("usage: futhorc literate [options] PROG.fut\n\n"
           "Writes PROG.md: the program's comments as text, its code in code blocks, and\n"
           "each directive (-- > ...) with its result; images go to PROG-img/.\n\n"
           "  -o, --output=FILE           write FILE instead of PROG.md\n"
           "  --backend=NAME              compile with c (default), opencl or multicore\n"
           "  --pass-option=OPT           give OPT to the program\n"
           "  --pass-compiler-option=OPT  give OPT to the compiler\n"
           "  --stop-on-error             stop at the first failing directive, writing nothing\n"
           "  -v, --verbose               show the directives as they run\n"
           "See futhorc-literate(1).\n");
}

/* Writes the Markdown of the blocks; false if a directive failed. */
static bool process(Lit *L, const Blocks *bs, Buf *md) {
    bool ok = true;
    for (int i = 0; i < bs->len; i++) {
        if (i) buf_putc(md, '\n');
        if (!block_md(L, &bs->items[i], md)) {
            ok = false;
            if (L->stop_on_error) return false;
        }
    }
    return ok;
}

int tool_literate(int argc, char **argv, const char *futhorc_path) {
    Arena a = {0};
    Strs copts = {0}, popts = {0};
    const char *prog = NULL, *backend = "c", *output = NULL, *v;
    bool stop = false, verbose = false;
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return literate_usage(), 0;
        if (!strcmp(argv[i], "--stop-on-error")) stop = true;
        else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) verbose = true;
        else if ((v = spec_optval(argc, argv, &i, "--output")) || (v = spec_optval(argc, argv, &i, "-o"))) output = v;
        else if ((v = spec_optval(argc, argv, &i, "--backend"))) backend = v;
        else if ((v = spec_optval(argc, argv, &i, "--pass-option"))) vec_push(&popts, (char *)v);
        else if ((v = spec_optval(argc, argv, &i, "--pass-compiler-option"))) vec_push(&copts, (char *)v);
        else if (argv[i][0] == '-' && argv[i][1]) rc = usage_error("unknown option", argv[i]);
        else if (!prog) prog = argv[i];
        else rc = usage_error("more than one program given:", argv[i]);
    }
    size_t n = prog ? strlen(prog) : 0;
    if (!rc && (n < 5 || strcmp(prog + n - 4, ".fut")))
        rc = usage_error("expected a .fut program, got", prog ? prog : "none");
    if (!rc && !spec_backend_known(backend)) rc = usage_error("unknown backend", backend);
    char *text = rc ? NULL : util_read_file(prog, NULL);
    if (!rc && !text) rc = (fprintf(stderr, "futhorc literate: cannot read %s: %s\n", prog, strerror(errno)), 1);
    SpecWork w = {0};
    if (!rc && !spec_work_init(&w, &a, "literate")) rc = 1;
    Blocks bs = {0};
    Lit L = {&a, &w, {0}, NULL, NULL, 0, {0}, stop, verbose};
    const char *md_path = output ? output : arena_printf(&a, "%.*s.md", (int)(n - 4), prog ? prog : "");
    if (!rc) {
        parse_blocks(&a, text, &bs);
        L.prog_dir = spec_dir_of(&a, prog);
        const char *base = strrchr(md_path, '/') ? strrchr(md_path, '/') + 1 : md_path;
        const char *dot = strrchr(base, '.');
        L.img_dir = arena_printf(&a, "%.*s-img", dot ? (int)(dot - base) : (int)strlen(base), base);
        L.hash = hash(0xcbf29ce484222325ull, text);
        entry_options(&L, prog, &bs, &copts);
    }
    const char *exe = rc ? NULL : script_compile(&a, &w, futhorc_path, backend, copts.items, copts.len, prog);
    if (!rc && !exe) rc = 1;
    L.s = (Script){&a, &w, L.prog_dir, 0, NULL, NULL, 0, false, NULL, 0, NULL, NULL};
    vec_push(&popts, NULL);
    if (!rc && !script_start(&L.s, exe, popts.items))
        rc = (fprintf(stderr, "futhorc literate: %s\n", L.s.error), 1);
    if (!rc) script_entry_types(&L.s, prog, copts.items, copts.len);
    Buf md = {0};
    if (!rc && !process(&L, &bs, &md)) rc = 1;
    if (!rc || !stop) {
        clean_img_dir(&L);
        FILE *f = exe && L.s.pid ? fopen(md_path, "w") : NULL;
        if (f) fputs(md.data ? md.data : "", f);
        if (f && fclose(f) != 0) f = NULL;
        if (exe && L.s.pid && !f) rc = (fprintf(stderr, "futhorc literate: cannot write %s\n", md_path), 1);
    }
    script_stop(&L.s);
    buf_free(&md);
    free_blocks(&bs);
    free(text);
    if (w.tmpdir) spec_work_free(&w);
    vec_free(&copts), vec_free(&popts), vec_free(&L.kept);
    arena_free(&a);
    return rc;
}
