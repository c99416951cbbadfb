/* Building the AST from the parser's actions (parser.y): the basic
 * constructors its rules share, and the paths of fields and brackets of
 * updates (e with [i].f = v, let r.f[j] = v) and of sections ((.[i].f)),
 * which become record updates, array updates, updates of a path, or
 * lambdas that index and project. */
#include "syntax_internal.h"

#include <string.h>

#define LS (syn_state(scanner))
#define AR (LS->arena)

/* Most primes appended to a section's parameter name before giving up;
 * each one is needed only if the program itself uses the previous
 * candidate inside the section. */
enum { SYN_MAX_FRESH_TRIES = 64 };

Exp *mk_exp(void *scanner, ExpKind k, SrcLoc loc) {
    Exp *e = NEW(AR, Exp);
    e->kind = k;
    e->loc = loc;
    return e;
}

Exp *mk_var(void *scanner, QualName qn, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_VAR, loc);
    e->name = qn;
    return e;
}

Pat *mk_pat(void *scanner, PatKind k, SrcLoc loc) {
    Pat *p = NEW(AR, Pat);
    p->kind = k;
    p->loc = loc;
    return p;
}

Exp *mk_let(void *scanner, Pat *p, Exp *e1, Exp *body, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_LET, loc);
    e->pat = p;
    e->e1 = e1;
    e->e2 = body;
    return e;
}

/* Copies a list into an arena array of elements of elem_size bytes: either
 * the pointers themselves (elem_size == sizeof(void *)) or the pointees. */
void *list_array(void *scanner, PtrList *l, size_t elem_size) {
    int n = plist_len(l);
    if (n == 0) return NULL;
    char *out = arena_alloc(AR, elem_size * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (elem_size == sizeof(void *)) memcpy(out + i * elem_size, &l->items[i], elem_size);
        else memcpy(out + i * elem_size, l->items[i], elem_size);
    }
    return out;
}

Exp *mk_record_update(void *scanner, Exp *r, const char **path, int npath, Exp *v, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_RECORD_UPDATE, loc);
    e->e1 = r;
    e->path = path;
    e->npath = npath;
    e->e2 = v;
    return e;
}

UpdStep *mk_slice_step(void *scanner, PtrList *dims, SrcLoc loc) {
    UpdStep *s = NEW(AR, UpdStep);
    s->slice = list_array(scanner, dims, sizeof(DimIndex));
    s->nslice = dims->len;
    s->loc = loc;
    return s;
}

UpdStep *mk_field_step(void *scanner, const char *field, SrcLoc loc) {
    UpdStep *s = NEW(AR, UpdStep);
    s->field = field;
    s->loc = loc;
    return s;
}

/* The fields of a name or dotted name (f, f.g) as steps. */
PtrList *field_steps(void *scanner, Tok t, SrcLoc loc) {
    PtrList *l = NULL;
    for (int i = 0; i < t.qn.nparts; i++) l = plist_push(AR, l, mk_field_step(scanner, t.qn.parts[i], loc));
    return l;
}

/* first ++ rest, and the field names of the path when every step is a
 * field (else NULL). */
static const char **join_steps(void *scanner, PtrList **first, PtrList *rest) {
    for (int i = 0; rest && i < rest->len; i++) *first = plist_push(AR, *first, rest->items[i]);
    int n = (*first)->len;
    const char **path = NEW_ARRAY(AR, const char *, n);
    for (int i = 0; i < n; i++)
        if (!(path[i] = ((UpdStep *)(*first)->items[i])->field)) return NULL;
    return path;
}

/* r with <first ++ rest> = v: a record update when every step is a field,
 * the array update e with [slice] = v for one bracket, else an update of
 * a path (EX_UPDATE with steps). */
Exp *mk_path_update(void *scanner, Exp *r, PtrList *first, PtrList *rest, Exp *v, SrcLoc loc) {
    const char **path = join_steps(scanner, &first, rest);
    int n = first->len;
    if (path) return mk_record_update(scanner, r, path, n, v, loc);
    Exp *e = mk_exp(scanner, EX_UPDATE, loc);
    e->e1 = r;
    e->e2 = v;
    if (n == 1) {
        UpdStep *s = first->items[0];
        e->slice = s->slice;
        e->nslice = s->nslice;
        return e;
    }
    e->steps = NEW_ARRAY(AR, UpdStep, n);
    for (int i = 0; i < n; i++) e->steps[i] = *(UpdStep *)first->items[i];
    e->nsteps = n;
    return e;
}

/* let x <steps ++ rest> = v in body: let x = x with <path> = v in body. */
Exp *mk_let_path_update(void *scanner, Tok x, SrcLoc xloc, PtrList *steps, PtrList *rest, Exp *v, Exp *body,
                        SrcLoc loc) {
    QualName qn = {NEW_ARRAY(AR, const char *, 1), 1};
    qn.parts[0] = x.text;
    Pat *p = mk_pat(scanner, P_ID, xloc);
    p->name = x.text;
    return mk_let(scanner, p, mk_path_update(scanner, mk_var(scanner, qn, xloc), steps, rest, v, loc), body, loc);
}

Exp *mk_lambda(void *scanner, PtrList *params, TypeExp *ret, Exp *body, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_LAMBDA, loc);
    e->params = list_array(scanner, params, sizeof(Pat *));
    e->nparams = params->len;
    e->ret = ret;
    e->e1 = body;
    return e;
}

/* Whether a bracket of steps mentions name. */
static bool steps_mention(PtrList *steps, const char *name) {
    for (int i = 0; i < steps->len; i++) {
        UpdStep *s = steps->items[i];
        if (!s->field && syn_slice_mentions(s->slice, s->nslice, name)) return true;
    }
    return false;
}

/* A section of a path of fields and brackets ((.a.b), (.[i]), (.[i].f),
 * (.a[1:3])): fields alone are an EX_PROJ_SECTION, anything else the
 * lambda \arr -> arr<path> (a name that no index mentions). */
Exp *mk_path_section(void *scanner, PtrList *first, PtrList *rest, SrcLoc loc) {
    const char **path = join_steps(scanner, &first, rest);
    int n = first->len;
    if (path) {
        Exp *e = mk_exp(scanner, EX_PROJ_SECTION, loc);
        e->path = path;
        e->npath = n;
        return e;
    }
    const char *name = intern("arr");
    for (int k = 0; k < SYN_MAX_FRESH_TRIES && steps_mention(first, name); k++)
        name = intern(arena_printf(AR, "%s'", name));
    if (steps_mention(first, name)) diag_error(loc, "cannot name the argument of this section");
    Pat *param = mk_pat(scanner, P_ID, loc);
    param->name = name;
    QualName qn = {NEW_ARRAY(AR, const char *, 1), 1};
    qn.parts[0] = name;
    Exp *body = mk_var(scanner, qn, loc);
    for (int i = 0; i < n; i++) {
        UpdStep *s = first->items[i];
        Exp *x = mk_exp(scanner, s->field ? EX_PROJECT : EX_INDEX, loc);
        x->e1 = body;
        x->field = s->field;
        x->slice = s->slice;
        x->nslice = s->nslice;
        body = x;
    }
    return mk_lambda(scanner, plist_push(AR, NULL, param), NULL, body, loc);
}
