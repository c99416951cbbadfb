/* Migration of scalar host code to the device, STAGE_SOACS -> STAGE_SOACS,
 * for the GPU pipeline only (Futhark's "reduce device synchronisations").
 * Host code that reads an element of an array waits for the device and
 * copies the element back; when the value it computes only goes back into
 * an array, both trips are waste. Here an array literal of scalars
 *
 *   let t = xs[i]     let u = t * 2 + ys[j]     let r = [u, 0]
 *
 * whose elements depend on such reads becomes a map of one element whose
 * lambda does the reads and the arithmetic (a kernel of one work-item: no
 * wait, no copy):
 *
 *   let one = iota 1
 *   let (r0, r1) = map (\_ -> let t = xs[i] ... in (u, 0)) one
 *   let r = concat r0 r1        (r itself when the literal has one element)
 *
 * The statements moved are those the literal's elements need that read an
 * array element or depend on one (index arithmetic and other host scalars
 * stay, as the lambda's free variables); they move only when nothing but
 * the literal and each other uses them, so nothing is computed twice and
 * the host never needs them. Assertions stay where they are (they read
 * host scalars; one that reads a moved value keeps it on the host), and
 * nothing moves past a statement that may write an array in place. The
 * short-circuiting pass then builds the map's results in the literal's
 * place, as it builds the literal's elements. Bodies of the entry points
 * and of the host loops and branches in them are rewritten; lambdas run
 * on the device already. */
#include "passes.h"

#include <string.h>

typedef struct Mig {
    Prog *p;
    Arena *a;
    /* by Var id, for the body being rewritten (its statements as they were
     * before any literal of it moved) */
    char *dev;   /* a scalar computed from an array element */
    int *at;     /* its statement's index, or -1 */
    int *uses;   /* its uses in the body, nested bodies included */
    int *cnt;    /* scratch: uses by one literal and the statements it takes */
} Mig;

/* Whether statement s is scalar code the device can run in its place: a
 * scalar operation, conversion, copy, element read or call of a scalar
 * function, binding scalars only. */
static bool scalar_code(const Stm *s) {
    const IrExp *e = s->e;
    for (int i = 0; i < s->npat; i++)
        if (s->pat[i]->type.kind != TK_PRIM) return false;
    return e->kind == IE_OP || e->kind == IE_CONV || e->kind == IE_SUBEXP || e->kind == IE_APPLY ||
           (e->kind == IE_INDEX && ir_is_scalar_index(e));
}

typedef struct Reads {
    const Mig *M;
    bool dev;
} Reads;

static void reads_dev(IrWalk *w, Var *v) {
    Reads *r = w->ctx;
    if (r->M->dev[v->id]) r->dev = true;
}

static bool uses_dev(const Mig *M, Stm *s) {
    Reads r = {M, false};
    IrWalk w = {NULL, reads_dev, NULL, &r};
    ir_walk_stm(&w, s);
    return r.dev;
}

/* Adds delta to counts[id] for each use a walk meets. */
typedef struct Count {
    int *counts;
    int delta;
} Count;

static void count_use(IrWalk *w, Var *v) {
    Count *c = w->ctx;
    c->counts[v->id] += c->delta;
}

static void count_stm(int *counts, int delta, Stm *s) {
    Count c = {counts, delta};
    IrWalk w = {NULL, count_use, NULL, &c};
    ir_walk_stm(&w, s);
}

/* The facts about b's variables that the plans of its literals read: which
 * scalars come from array elements, where each is bound, how often used. */
static void index_body(Mig *M, Body *b) {
    int n = M->p->next_var_id + 1;
    M->dev = NEW_ARRAY(M->a, char, n);
    M->at = NEW_ARRAY(M->a, int, n);
    M->uses = NEW_ARRAY(M->a, int, n);
    M->cnt = NEW_ARRAY(M->a, int, n);
    memset(M->at, 0xff, sizeof(int) * (size_t)n);
    Count c = {M->uses, 1};
    IrWalk w = {NULL, count_use, NULL, &c};
    ir_walk_body(&w, b);
    for (int j = 0; j < b->nstms; j++) {
        Stm *s = b->stms[j];
        for (int i = 0; i < s->npat; i++) M->at[s->pat[i]->id] = j;
        bool d = scalar_code(s) && (s->e->kind == IE_INDEX || uses_dev(M, s));
        for (int i = 0; i < s->npat; i++) M->dev[s->pat[i]->id] = d;
    }
}

typedef struct Need {
    Mig *M;
    char *take; /* by statement index */
} Need;

static void need_use(IrWalk *w, Var *v) {
    Need *n = w->ctx;
    if (n->M->dev[v->id] && n->M->at[v->id] >= 0) n->take[n->M->at[v->id]] = 1;
}

/* Whether s may write an array in place (an update, scatter, histogram,
 * or a loop or branch that may hold one): a read moved past it would see
 * the new elements. */
static bool may_write(const Stm *s) {
    IrExpKind k = s->e->kind;
    return ir_is_update(s->e) || k == IE_SCATTER || k == IE_HIST || k == IE_LOOP || k == IE_IF;
}

/* Whether nothing but the literal at j and the statements taken uses what
 * those statements bind. */
static bool taken_alone(Mig *M, Body *b, int j, const char *take) {
    for (int k = 0; k <= j; k++)
        if (k == j || take[k]) count_stm(M->cnt, 1, b->stms[k]);
    bool alone = true;
    for (int k = 0; k < j; k++)
        for (int i = 0; take[k] && i < b->stms[k]->npat; i++) {
            const Var *v = b->stms[k]->pat[i];
            alone &= M->cnt[v->id] == M->uses[v->id];
        }
    for (int k = 0; k <= j; k++)
        if (k == j || take[k]) count_stm(M->cnt, -1, b->stms[k]);
    return alone;
}

/* The literal at statement j of b, when it qualifies: the statements to
 * move, marked in take (none of them moved already by an earlier literal). */
static bool plan_literal(Mig *M, Body *b, int j, char *take, const char *moved) {
    Need n = {M, take};
    IrWalk w = {NULL, need_use, NULL, &n};
    memset(take, 0, (size_t)j + 1);
    ir_walk_stm(&w, b->stms[j]);
    for (int k = j - 1; k >= 0; k--)
        if (take[k]) ir_walk_stm(&w, b->stms[k]);
    bool any = false;
    for (int k = 0; k < j; k++) {
        if (any && !take[k] && may_write(b->stms[k])) return false; /* between a moved read and the literal */
        if (take[k] && moved[k]) return false;
        any |= take[k];
    }
    return any && taken_alone(M, b, j, take);
}

/* Replaces the literal at j (its moved statements marked in take) by a
 * map over iota 1 and, for several elements, a concatenation. */
static void migrate_literal(Mig *M, Body *b, int j, const char *take, StmVec *out) {
    Stm *s = b->stms[j];
    IrExp *lit = s->e;
    Var *r = s->pat[0];
    int k = lit->nargs;
    PrimType t = lit->type.elem;
    SrcLoc loc = s->loc;
    SubExp one = se_i64(1);
    Var *ones = ir_var(M->p, "one", type_array(M->a, PT_I64, 1, &one));
    IrExp *io = NEW(M->a, IrExp);
    io->kind = IE_IOTA;
    io->t = PT_I64;
    io->n = one, io->start = se_i64(0), io->step = se_i64(1);
    vec_push(out, ir_stm1(M->a, ones, io, loc));
    Lambda *l = NEW(M->a, Lambda);
    l->nparams = 1;
    l->params = NEW_ARRAY(M->a, Var *, 1);
    l->params[0] = ir_var(M->p, "unused", type_prim(PT_I64));
    l->nret = k;
    l->ret = NEW_ARRAY(M->a, Type, k);
    l->body = NEW(M->a, Body);
    l->body->stms = NEW_ARRAY(M->a, Stm *, j + 1);
    for (int i = 0; i < j; i++)
        if (take[i]) l->body->stms[l->body->nstms++] = b->stms[i];
    l->body->nres = k;
    l->body->res = lit->args;
    Var **pat = NEW_ARRAY(M->a, Var *, k);
    for (int i = 0; i < k; i++) {
        l->ret[i] = type_prim(t);
        pat[i] = k == 1 ? r : ir_var(M->p, r->name, type_array(M->a, t, 1, &one));
    }
    IrExp *e = NEW(M->a, IrExp);
    e->kind = IE_SCREMA;
    e->screma.w = one;
    e->screma.narrs = 1;
    e->screma.arrs = NEW_ARRAY(M->a, Var *, 1);
    e->screma.arrs[0] = ones;
    e->screma.map = l;
    vec_push(out, ir_stm(M->a, pat, k, e, loc));
    if (k == 1) return;
    IrExp *c = NEW(M->a, IrExp);
    c->kind = IE_CONCAT;
    c->arrs = pat;
    c->narrs = k;
    c->len = se_i64(k);
    vec_push(out, ir_stm1(M->a, r, c, loc));
}

static bool is_literal_of_scalars(const IrExp *e) { return e->kind == IE_ARRAYLIT && e->type.kind == TK_PRIM; }

/* Plans every literal of b on b as it is, then rewrites b once: the
 * statements moved go, each migrated literal becomes its map. */
static void mig_body(Mig *M, Body *b) {
    int n = b->nstms, nlits = 0;
    for (int j = 0; j < n; j++) {
        IrExp *e = b->stms[j]->e;
        if (e->kind == IE_LOOP) mig_body(M, e->loop.body);
        if (e->kind == IE_IF) mig_body(M, e->tbody), mig_body(M, e->fbody);
        nlits += is_literal_of_scalars(e);
    }
    if (!nlits) return;
    index_body(M, b);
    char *take = NEW_ARRAY(M->a, char, n + 1), *moved = NEW_ARRAY(M->a, char, n + 1);
    StmVec *repl = NEW_ARRAY(M->a, StmVec, n + 1); /* by statement index: a migrated literal's map */
    bool changed = false;
    for (int j = 0; j < n; j++) {
        if (!is_literal_of_scalars(b->stms[j]->e) || !plan_literal(M, b, j, take, moved)) continue;
        for (int k = 0; k < j; k++) moved[k] |= take[k];
        migrate_literal(M, b, j, take, &repl[j]);
        changed = true;
    }
    if (!changed) return;
    StmVec out = {0};
    for (int j = 0; j < n; j++) {
        if (moved[j]) continue;
        if (!repl[j].len) vec_push(&out, b->stms[j]);
        for (int i = 0; i < repl[j].len; i++) vec_push(&out, repl[j].items[i]);
        vec_free(&repl[j]);
    }
    b->nstms = out.len;
    b->stms = vec_to_arena(M->a, &out);
    vec_free(&out);
}

void pass_migrate(Prog *p) {
    if (p->stage != STAGE_SOACS) ICE("pass_migrate: expected a program at STAGE_SOACS");
    Mig M = {p, p->arena, NULL, NULL, NULL, NULL};
    for (int i = 0; i < p->nfuns; i++) mig_body(&M, p->funs[i]->body);
}
