/* Imp: the imperative IR between the memory IR and every backend
 * (../shared/design/ARCHITECTURE.md, stage "imp"; Futhark's ImpCode and
 * Halide's Stmt are the models).
 *
 * The lowering (imp_lower; compiler/imp/lower.h lists its files) turns a
 * program at STAGE_MEM (or STAGE_GPU) into Imp once, owning everything
 * that is not specific to a target: SOAC lowering to loops with
 * accumulators (or to kernels, as a SegInfo says), index arithmetic from
 * LMADs, bounds and size checks (as assertions), allocation and the
 * release of every block after its last use, copies between LMAD layouts,
 * calls of scalar functions, and the reading and writing of entry points'
 * arguments and results. A backend (compiler/backend/) prints Imp and
 * nothing else: it decides how a block, an allocation, a failure, an
 * argument or a result looks on its target, never what the program does.
 *
 * Imp is small on purpose:
 *   - variables are scalars (a PrimType) or memory blocks (in a space);
 *     arrays are gone: an array is a block read and written at element
 *     offsets that the lowering computed from its LMAD;
 *   - expressions (ImpExp) are pure: constants, variables, the scalar
 *     operations of ops.def, conversions, loads, and Syms (LMAD arithmetic,
 *     kept symbolic so that printers can print it compactly);
 *   - statements (ImpStm) declare, assign, store, allocate, retain and
 *     release blocks, copy between LMAD layouts, loop, branch, call, assert,
 *     and bind entry arguments and results.
 * Control never jumps: an assertion or allocation that fails ends the whole
 * entry point with an error (its location and message), which the printers
 * map to their target's failure path (C: `goto fail`; the blocks still held
 * are freed by the entry's pool).
 *
 * Names: a variable made from an IR Var keeps its id and name, so that
 * generated code reads like the source and Syms (whose variables are Var
 * ids) refer to Imp variables directly; variables the lowering makes get
 * fresh ids after the program's (Prog.next_var_id and on). Every variable is
 * declared (IMP_DECL, or bound by IMP_FOR, IMP_CALL, IMP_ARG, IMP_MAP or
 * IMP_ATOMIC, or as a function's or kernel's parameter or a kernel's local
 * array) before its uses, in an enclosing code block: scopes are the code
 * blocks, as in C (a kernel's scopes are its own). A variable is not
 * declared again while it is in scope, but may be in another scope: the
 * lowering writes one lambda several times in a kernel (unrolled loops,
 * the steps of a tree reduction), each copy in a scope of its own.
 *
 * The GPU forms (the OpenCL backend, lowered from STAGE_GPU):
 *   - blocks live in host memory, in device memory (a device buffer,
 *     reference-counted in host code, a __global pointer in kernel code)
 *     or in a work-group's local memory (kernel code only);
 *   - a kernel (ImpKernel) has scalar and device-block parameters, local
 *     arrays and a body run by every work-item; host code launches it
 *     (IMP_LAUNCH) over a grid of work-groups; kernel code reads the
 *     work-item's position (IX_THREAD), and a failed assertion there is
 *     recorded for the host, which reports it when it next waits for the
 *     device;
 *   - in host code a load from or a store into a device block is a
 *     transfer of one element, a copy between device blocks runs on the
 *     device, IMP_FILL and IMP_IOTA fill device blocks, IMP_MAP lends a
 *     device block's contents to sequential host code, and IX_TUNING reads
 *     a kernel's tuning parameter.
 * Code is host code (functions, entries) or kernel code (kernel bodies);
 * imp_check says which forms each may hold.
 *
 * Kernel code also has work-group forms: IMP_BARRIER (the work-items of a
 * group meet), IMP_ATOMIC (an atomic read-modify-write of a block
 * element), blocks that other work-groups write while a kernel runs
 * (ImpVar.is_volatile), and IMP_SCOPE, whose end is where a work-item
 * goes on after an assertion in it failed: a kernel whose work-items meet
 * at barriers puts its barriers outside the scopes that may fail, so that
 * a failing work-item still meets the others.
 *
 * The multicore form (the LLVM backend, lowered from STAGE_MEM with
 * parallel loops): IMP_PARFOR runs its body once for each of a number of
 * tasks, which the runtime hands out to its threads as they come free; a
 * task is a contiguous chunk of a SOAC's iterations, chosen by the
 * lowering from IX_NUM_THREADS. The body runs as code of its own: it
 * reads the variables declared outside it but assigns only its own,
 * writes only elements no other task touches (a task's results go into
 * its own element of a block of partial results, which the code after
 * the loop combines in task order), allocates and releases only its own
 * blocks, and may fail (then the loop fails once its started tasks end).
 * Tasks start in the order of their numbers (none before every lower one
 * started), so a task may wait for one numbered lower (IMP_AWAIT) to
 * publish something (IMP_SIGNAL) without a deadlock: a scan's tasks
 * pass their running totals on that way.
 */
#ifndef FUTHORC_IMP_H
#define FUTHORC_IMP_H

#include "../ir/ir.h"

typedef struct ImpExp ImpExp;
typedef struct ImpStm ImpStm;
typedef struct ImpKernel ImpKernel;

/* Where a block lives. */
typedef enum ImpSpace {
    IMP_SPACE_HOST,   /* host memory, reference-counted (runtime/memory.h) */
    IMP_SPACE_DEVICE, /* device memory: in host code a device buffer,
                         reference-counted; in kernel code a __global
                         pointer, not counted */
    IMP_SPACE_LOCAL,  /* a work-group's local memory (kernel code only): a
                         local array of the kernel */
} ImpSpace;

typedef enum ImpVarKind { IMP_SCALAR, IMP_MEM } ImpVarKind;

typedef struct ImpVar {
    int id;           /* unique in the program: an IR Var's id, or fresh */
    const char *name; /* base name; printers append the id */
    ImpVarKind kind;
    PrimType t;       /* IMP_SCALAR */
    ImpSpace space;   /* IMP_MEM */
    bool is_volatile; /* IMP_MEM in kernel code: other work-groups read and
                         write it while the kernel runs, so every load and
                         store goes to memory (the statuses of a scan's
                         look-back) */
} ImpVar;

/* ---- Expressions ---------------------------------------------------------- */

typedef enum ImpExpKind {
    IX_CONST, /* c */
    IX_VAR,   /* a scalar variable (or a block, only as the value of a
                 block's IMP_DECL or IMP_ASSIGN) */
    IX_OP,    /* op (ops.def) on args[arity], whose operands have type t */
    IX_CONV,  /* args[0] converted from t to to */
    IX_LOAD,  /* element index (an i64 element offset) of block mem, of type t
                 (in host code, from a device block: a transfer of one
                 element, only as the whole value of a scalar's IMP_DECL or
                 IMP_ASSIGN) */
    IX_SYM,   /* sym, an i64 expression whose variables are ids of i64
                 (or i32, widened) scalar ImpVars (LMAD offsets and sizes);
                 with t == PT_I32 (kernel code) evaluated in 32-bit
                 arithmetic, its variables converted to i32, where the
                 lowering knows every value fits (a tiled kernel's narrow
                 indexing, its local memory indices over i32 counters) */
    IX_THREAD,  /* kernel code: the work-item's thread (an i64) */
    IX_TUNING,  /* host code: the value of tuning parameter tune of kernel
                   (an i64; the target's default, computed from args as
                   ImpTune says, when the user set none) */
    IX_MEMSIZE, /* host code: the size in bytes of device block var */
    IX_LOCAL_BUDGET, /* host code: the bytes of local memory a work-group
                        may use for arrays the lowering sizes at run time */
    IX_MAX_GROUP, /* host code (GPU): the most work-items a work-group of
                     the device may have */
    IX_THRESHOLD, /* host code (GPU): the bool args[0] >= the value of tuning
                     threshold thr (an IR Threshold: name, default, tree) */
    IX_NUM_THREADS,  /* entry code (multicore): the number of threads that
                        run the tasks of an IMP_PARFOR (an i64, >= 1) */
} ImpExpKind;

/* Where a work-item is (one dimension). */
typedef enum ImpThread {
    IMP_GLOBAL_ID,   /* among all work-items of the launch */
    IMP_LOCAL_ID,    /* in its work-group */
    IMP_GROUP_ID,    /* its work-group's number */
    IMP_GLOBAL_SIZE, /* work-items of the launch */
    IMP_LOCAL_SIZE,  /* work-items of a work-group */
    IMP_NUM_GROUPS,  /* work-groups of the launch */
} ImpThread;

/* A kernel's tuning parameters (`futhorc autotune` sets them, named
 * "<kernel>.<name>" after the kernel's name in the target). */
typedef enum ImpTune {
    IMP_TUNE_GROUP_SIZE,      /* "group_size": its work-group size */
    IMP_TUNE_SCAN_GROUP_SIZE, /* "group_size" of a scan, whose work-items
                                 keep args[0] bytes each in local memory:
                                 the group shrinks to fit */
    IMP_TUNE_NUM_GROUPS,      /* "num_groups": work-groups for args[0]
                                 elements in groups of args[1] work-items */
    IMP_TUNE_LANES,           /* "lanes": work-items per segment (a power
                                 of two) for args[0] segments in groups of
                                 args[1], about args[2] at least */
    IMP_TUNE_SEGMENT_GROUPS,  /* "groups_per_segment": work-groups per
                                 segment for args[0] segments of args[1]
                                 elements in groups of args[2] */
    IMP_TUNE_GROUP_WIDTH,     /* "group_size" of an intra-group kernel whose
                                 widest operation has args[0] elements, in
                                 args[1] work-groups: a work-item per few
                                 elements, at most as many as the device
                                 and the kernel allow */
    IMP_TUNE_VARIANT,         /* "variant": which of the kernel's variants
                                 (1 to its nvariants) the program is built
                                 with */
} ImpTune;

/* How many arguments tuning parameter t takes, and its name's suffix. */
int imp_tune_arity(ImpTune t);
const char *imp_tune_name(ImpTune t);

/* An atomic read-modify-write (IMP_ATOMIC). */
typedef enum ImpAtomic {
    IMP_AT_ADD, /* integers and floats */
    IMP_AT_MIN, /* integers (the rest too) */
    IMP_AT_MAX,
    IMP_AT_AND,
    IMP_AT_OR,
    IMP_AT_XOR,
    IMP_AT_CMPXCHG, /* u32 and u64: value where the element is expected */
} ImpAtomic;

struct ImpExp {
    ImpExpKind kind;
    PrimType t;      /* the operands' type (IX_OP), the source type (IX_CONV),
                        the element type (IX_LOAD); see imp_exp_type */
    PrimType to;     /* IX_CONV */
    PrimValue c;     /* IX_CONST */
    ImpVar *var;     /* IX_VAR; IX_LOAD: the block */
    Op op;           /* IX_OP */
    ImpExp **args;   /* IX_OP (op's arity), IX_CONV (1), IX_TUNING */
    ImpExp *index;   /* IX_LOAD */
    Sym *sym;        /* IX_SYM */
    ImpThread thread; /* IX_THREAD */
    ImpKernel *kernel; /* IX_TUNING */
    ImpTune tune;    /* IX_TUNING */
    const Threshold *thr; /* IX_THRESHOLD */
    bool reassoc;    /* IX_OP: a float addition or multiplication of a
                        reduction's operator, which the target may
                        reassociate (the order in which a reduction
                        combines its elements is unspecified): a loop that
                        reduces can then be vectorised */
};

/* ---- Statements ------------------------------------------------------------ */

/* A sequence of statements: a scope. */
typedef struct ImpCode {
    ImpStm **stms;
    int n;
} ImpCode;

typedef enum ImpStmKind {
    IMP_DECL,    /* declares var, initialised to init (NULL: a scalar is
                    undefined until assigned, a block is none; a block's init
                    is an IX_VAR of a block, named as by IMP_ASSIGN). In
                    kernel code a block may start offset bytes (an i64) into
                    init's block (a work-item's slice of a block) */
    IMP_ASSIGN,  /* var = value; for blocks value is an IX_VAR of a block: the
                    variable then names that block (no reference is taken) */
    IMP_STORE,   /* element index of block mem (type t) = value (in host
                    code, into a device block: a transfer of one element) */
    IMP_ALLOC,   /* mem = a new block of size bytes in mem's space; fails at
                    loc ("out of memory", with the size) when it cannot be
                    had; size is never negative or wrapped (OP_SIZE_MUL) */
    IMP_RETAIN,  /* takes one more reference to the block mem names */
    IMP_RELEASE, /* drops one reference to mem's block (freed at the last) */
    IMP_COPY,    /* the elements of src's LMAD src_lmad (of type t) in block
                    src, to dst's LMAD dst_lmad in block dst, in row-major order
                    of the two LMADs' common shape (dst_lmad's); the regions do
                    not overlap unless they are equal. A stride of src_lmad
                    may be 0: a replicate of an array reads its source once
                    per row */
    IMP_FOR,     /* for (i = 0; i < bound; i++) body; i is an i64 (or i32)
                    scalar bound by the loop, in scope in body; bound is of
                    its type; unroll: a hint that the
                    target unrolls it (a constant bound); vector: see below */
    IMP_WHILE,   /* while (cond) body; cond is evaluated before each iteration */
    IMP_IF,      /* if (cond) body else orelse */
    IMP_CALL,    /* results = fn(args): fn one of ImpProg.funs; binds the
                    scalar variables results (declared by the call) */
    IMP_RETURN,  /* in an ImpFun: returns args (one per result) */
    IMP_ASSERT,  /* fails at loc with msg unless cond; msg's "{}" are replaced
                    by args (i64 expressions) in order */
    IMP_ARG,     /* in an entry point: binds argument k. A scalar argument
                    declares var to its value. An array argument declares mem
                    (a block holding its elements, dense and row-major) and
                    dims[0..rank-1] (i64 scalars) to its shape; the block is
                    the caller's, released like any other (see unique).
                    Where a dimension must equal a size bound before, the
                    lowering follows with an IMP_ASSERT */
    IMP_RESULT,  /* in an entry point: sets result k. A scalar result is
                    value; an array result is the elements of block mem at
                    LMAD lmad (of type t), whose shape is dims[0..rank-1] (i64
                    expressions), written out dense and row-major. A device
                    block's LMAD is row-major (the lowering made a dense copy
                    otherwise): a target that keeps results on the device
                    hands the block itself over */
    /* ---- GPU (host code) ---- */
    IMP_FILL,    /* every element of device block dst at LMAD dst_lmad (of
                    type t) = value */
    IMP_IOTA,    /* element c < bound of device block dst at the rank-1
                    LMAD dst_lmad = value + c * step, of integer type t
                    (wrapping) */
    IMP_MAP,     /* declares host block mem as device block src's contents,
                    lent to host code: reads and writes of mem are src's
                    until IMP_UNMAP; src is not used meanwhile */
    IMP_UNMAP,   /* ends the loan of src's contents to mem (not used after) */
    IMP_LAUNCH,  /* runs kernel on groups work-groups of group_size
                    work-items (i64 expressions) each, its parameter i set to
                    args[i] (a scalar expression, or an IX_VAR of a device
                    block); its local arrays get their counts, evaluated now */
    IMP_SCOPE,   /* body, a scope of its own (keep: its declarations stay
                    in scope after it). In kernel code a failed assertion
                    in body (not in a scope inside it) ends body: the
                    work-item goes on after it (the kernel's body is such a
                    scope too), where the variables body did not set yet
                    are undefined */
    /* ---- GPU (kernel code) ---- */
    IMP_BARRIER, /* every work-item of the group waits until all reach it
                    (all of them must); their stores to local memory (with
                    global: to device memory too) are seen after it */
    IMP_FENCE,   /* the work-item's stores to device memory before it are
                    seen by other work-groups before its stores and atomics
                    after it, and its loads after it see what the stores
                    that it saw ordered before them (a count's atomic after
                    a result's store: the last to count reads them all) */
    /* ---- Multicore (entry code) ---- */
    IMP_PARFOR,  /* for each task var < bound (an i64 bound by the loop):
                    body, the tasks run at once on the runtime's threads,
                    in any order (see the header) */
    IMP_AWAIT,   /* in a task: waits until the i32 element index of host
                    block mem is non-zero, set by IMP_SIGNAL in a task of the
                    same loop numbered lower than this one, and declares var
                    (an i32) to it; the task fails when the loop has failed
                    meanwhile. The stores that task made before it signalled
                    are seen after this */
    IMP_SIGNAL,  /* in a task: sets the i32 element index of block mem to
                    value (non-zero), once every store before it is seen */
    IMP_ATOMIC,  /* atomically: old = element index of block mem (type t),
                    element = atomic(old, value) (IMP_AT_CMPXCHG: value when
                    old == expected, else old); var, when not NULL, is
                    declared to old (not for a float IMP_AT_ADD) */
} ImpStmKind;

typedef struct ImpFun ImpFun;

struct ImpStm {
    ImpStmKind kind;
    ImpVar *var;          /* DECL, ASSIGN, FOR and PARFOR (i), scalar ARG, ATOMIC (or NULL), AWAIT */
    ImpExp *init;         /* DECL */
    ImpExp *value;        /* ASSIGN, STORE, scalar RESULT, FILL, IOTA (start), ATOMIC */
    ImpVar *mem;          /* STORE, ALLOC, RETAIN, RELEASE, array ARG and RESULT, MAP, UNMAP, ATOMIC */
    ImpExp *index;        /* STORE, ATOMIC */
    PrimType t;           /* STORE, COPY, ARG, RESULT, FILL, IOTA, ATOMIC: the element type */
    ImpExp *size;         /* ALLOC: bytes */
    ImpVar *dst, *src;    /* COPY, FILL and IOTA (dst), MAP and UNMAP (src) */
    Lmad *dst_lmad, *src_lmad; /* COPY, FILL and IOTA (dst_lmad) */
    Lmad *lmad;           /* array RESULT */
    ImpExp *bound;        /* FOR, PARFOR, IOTA */
    ImpExp *cond;         /* WHILE, IF, ASSERT */
    ImpCode body;         /* FOR, PARFOR, WHILE, IF (then), SCOPE */
    ImpCode orelse;       /* IF */
    ImpFun *fn;           /* CALL */
    ImpExp **args;        /* CALL, RETURN, ASSERT, LAUNCH */
    int nargs;
    ImpVar **results;     /* CALL */
    int nresults;
    const char *msg;      /* ASSERT */
    int k;                /* ARG, RESULT: the argument's or result's index */
    int rank;             /* ARG, RESULT: 0 for a scalar */
    bool unique;          /* array ARG: the entry consumes the argument (it
                             may write the block): a target whose caller
                             keeps its arguments gives it a copy */
    ImpVar **dims;        /* array ARG */
    ImpExp **shape;       /* array RESULT */
    SrcLoc loc;           /* ALLOC, ASSERT: where a failure is reported */
    ImpExp *offset;       /* block DECL (kernel code): bytes into init's block */
    bool unroll;          /* FOR */
    bool vector;          /* FOR: its iterations are independent (the
                             elements of a parallel map, in a task), so a
                             target may run several at once in the lanes
                             of vector registers */
    bool keep;            /* SCOPE */
    bool stream;          /* STORE: a streaming store (the multicore
                             backend's): the element goes to memory
                             without its cache line being read first, and
                             is not kept in the cache */
    bool global;          /* BARRIER */
    ImpAtomic atomic;     /* ATOMIC */
    ImpExp *expected;     /* ATOMIC (IMP_AT_CMPXCHG) */
    ImpExp *step;         /* IOTA */
    ImpKernel *kernel;    /* LAUNCH */
    ImpExp *groups, *group_size; /* LAUNCH */
};

/* ---- Functions and programs -------------------------------------------------- */

/* A scalar function (one of Prog.defs): scalar parameters and results, a
 * body that cannot fail and ends in IMP_RETURN. */
struct ImpFun {
    const char *name; /* the source name */
    int index;        /* in ImpProg.funs */
    ImpVar **params;
    int nparams;
    PrimType *rets;
    int nrets;
    ImpCode body;
};

/* An entry point: its body binds every argument (IMP_ARG) and sets every
 * result (IMP_RESULT). src is the memory IR's entry (for its name, external
 * types and the values of the C API). */
typedef struct ImpEntry {
    const Fun *src;
    ImpCode body;
} ImpEntry;

/* A local array of a kernel: block mem (IMP_SPACE_LOCAL) of count
 * elements of type t per work-group; count is a host i64 expression,
 * evaluated at the launch (a constant one the target may size when it
 * compiles the kernel). */
typedef struct ImpLocal {
    ImpVar *mem;
    PrimType t;
    ImpExp *count;
} ImpLocal;

/* A kernel: parameters (scalars and device blocks) that its launch sets,
 * local arrays, and the body every work-item runs. The kernel's variables
 * are its own: a parameter or variable made from an IR Var keeps that
 * Var's id and name (so that the Syms of its LMADs name it), like the host
 * variable of the same Var, which the launch passes. A kernel is launched
 * once. */
struct ImpKernel {
    const char *name; /* what it is ("segmap"); a target numbers kernels */
    int index;        /* in ImpProg.kernels */
    ImpVar **params;
    int nparams;
    ImpLocal *locals;
    int nlocals;
    ImpCode body;
    int fixed_group_size; /* > 0: every launch uses groups of this many
                             work-items (the target may compile for it) */
    bool contract;        /* float multiplications may fuse into additions
                             (one rounding instead of two) */
    /* Variants: kernels of one operation of which a target builds only one,
     * the one that the tuning parameter IMP_TUNE_VARIANT of the first (the
     * head) names; host code launches it after testing that parameter.
     * variant: 1 to the head's nvariants (0: not a variant), of which
     * variant_default is built unless the parameter says otherwise;
     * described: a line on each variant, for the parameter's description. */
    ImpKernel *head;
    int variant, nvariants, variant_default;
    const char *described;
};

typedef struct ImpProg {
    ImpFun **funs;   /* callees before callers, as Prog.defs */
    int nfuns;
    ImpKernel **kernels; /* in the order of their launches in host code */
    int nkernels;
    ImpEntry **entries; /* in Prog.funs's order */
    int nentries;
    int next_id;     /* for fresh variables */
    Arena *arena;
} ImpProg;

/* ---- Construction ------------------------------------------------------------- */

/* A code block being built: statements are appended to it. */
typedef struct ImpBuilder {
    Arena *a;
    VEC(ImpStm *) stms;
} ImpBuilder;

/* A fresh variable (id p->next_id), a block in host memory. The lowering
 * makes one ImpVar per IR Var it needs, with the Var's id and name, and
 * keeps it in a table. */
ImpVar *imp_var(ImpProg *p, const char *name, ImpVarKind kind, PrimType t);
/* A fresh block in space. */
ImpVar *imp_block(ImpProg *p, const char *name, ImpSpace space);
/* A new kernel, kernel number p->nkernels of p (its parameters, locals
 * and body set by the caller). */
ImpKernel *imp_kernel(ImpProg *p, const char *name);

ImpExp *imp_const(Arena *a, PrimValue c);
ImpExp *imp_i64(Arena *a, int64_t c);
ImpExp *imp_read(Arena *a, ImpVar *v);
ImpExp *imp_op(Arena *a, Op op, PrimType t, ImpExp **args);
ImpExp *imp_op2(Arena *a, Op op, PrimType t, ImpExp *x, ImpExp *y);
ImpExp *imp_conv(Arena *a, PrimType from, PrimType to, ImpExp *x);
ImpExp *imp_load(Arena *a, ImpVar *mem, PrimType t, ImpExp *index);
/* sym as an expression (an IX_CONST when it is constant). */
ImpExp *imp_sym(Arena *a, Sym *sym);
/* sym evaluated in 32-bit arithmetic (an i32; kernel code). */
ImpExp *imp_sym32(Arena *a, Sym *sym);
ImpExp *imp_thread(Arena *a, ImpThread t);
/* args: imp_tune_arity(tune) i64 expressions. */
ImpExp *imp_tuning(Arena *a, ImpKernel *k, ImpTune tune, ImpExp **args);
ImpExp *imp_memsize(Arena *a, ImpVar *mem);
/* p >= threshold thr (p an i64 expression). */
ImpExp *imp_threshold(Arena *a, const Threshold *thr, ImpExp *p);
/* How many of e->args e has (operands of IX_OP, IX_CONV, IX_TUNING and
 * IX_THRESHOLD; 0 for the others). */
int imp_exp_nargs(const ImpExp *e);
ImpExp *imp_local_budget(Arena *a);
ImpExp *imp_max_group(Arena *a);
ImpExp *imp_num_threads(Arena *a);
/* The type of e's value. */
PrimType imp_exp_type(const ImpExp *e);

/* Appends a statement of kind k to b and returns it, for the caller to
 * fill in (the helpers below fill in the common ones). */
ImpStm *imp_add(ImpBuilder *b, ImpStmKind k);
void imp_decl(ImpBuilder *b, ImpVar *v, ImpExp *init);
void imp_assign(ImpBuilder *b, ImpVar *v, ImpExp *value);
void imp_store(ImpBuilder *b, ImpVar *mem, PrimType t, ImpExp *index, ImpExp *value);
/* The statements appended to b so far, as a code block; b is empty again. */
ImpCode imp_finish(ImpBuilder *b);

/* Calls fn(id, ctx) once for each variable that code c uses but does not
 * declare (the variables an IMP_PARFOR's body takes from outside), in the
 * order of their first uses; Syms' variables count. */
void imp_free_vars(const ImpCode *c, int next_id, void (*fn)(int id, void *ctx), void *ctx);
/* The same, but the block of an IMP_STORE counts only where the code
 * mentions it otherwise (it reads or passes on those it reports). */
void imp_free_reads(const ImpCode *c, int next_id, void (*fn)(int id, void *ctx), void *ctx);
/* Whether e may change where the variables of set (by id) change: it
 * reads one of them, or memory (a load, or anything but constants,
 * variables, Syms, operations and conversions). */
bool imp_exp_varies(const ImpExp *e, const char *set);
/* Sets set[id] for each scalar variable code c declares (IMP_DECL, and the
 * counters of its for loops) when decls, and assigns (IMP_ASSIGN) when
 * assigns, nested code included. */
void imp_mark_vars(const ImpCode *c, bool decls, bool assigns, char *set);

/* ---- Failures, as every target reports them ---------------------------------------- */

/* "file:line:col: " of a failure at loc, or "" (allocated in a). */
const char *imp_loc(Arena *a, SrcLoc loc);
/* Appends to fmt the printf format of assertion s's message: its location,
 * then msg with each "{}" (the first max of them) as %lld, taking the
 * i64 arguments s->args in order, and every other % doubled. Returns how
 * many arguments it takes. */
int imp_message_format(Arena *a, const ImpStm *s, int max, Buf *fmt);

/* ---- The lowering, the printer and the checker ------------------------------------ */

/* Lowers p (at STAGE_MEM, or STAGE_GPU for the OpenCL backend: host code
 * on device blocks and kernels) to Imp, allocated in p's arena; with
 * parallel (STAGE_MEM, the multicore backend), its host-level SOACs as
 * parallel loops. */
ImpProg *imp_lower(const Prog *p, bool parallel);
/* Narrows for loops whose iterations past a point (a guard on the counter)
 * do nothing: they stop there (narrow.c). */
void imp_narrow(ImpProg *p);
/* Runs several iterations of a loop around a reduction (for each centre,
 * a distance) together: their inner loops as one, their tails in order
 * (jam.c; the multicore backend). */
void imp_jam(ImpProg *p);
/* Loads a kernel loop repeats in every iteration (an element's row, read
 * again for each centre) are made once into scalar variables before it,
 * when the row is short (regcache.c). */
void imp_regcache(ImpProg *p);
/* Rewrites f16 arithmetic as f32 arithmetic rounded to half precision,
 * f16 values staying half bits in memory and at entry points (half.c). */
void imp_half(ImpProg *p);

/* Writes p readably (`futhorc dump --stage=imp`). */
void imp_print(Buf *out, const ImpProg *p);

/* Checks Imp's invariants (run under --verify): every variable declared
 * once, before its uses, in an enclosing scope; operand, assignment, load
 * and store types agree; Sym variables are i64 scalars in scope; blocks are
 * used only as blocks and scalars only as scalars; IMP_RETURN only in
 * functions and IMP_ARG/IMP_RESULT only in entry points, each argument and
 * result bound exactly once on every path that does not fail; host code
 * has no kernel-only forms (IX_THREAD, local blocks) and kernel code no
 * host-only ones (allocation, reference counts, launches, host blocks...);
 * launches pass one argument of the right kind per parameter. Returns
 * false at the first violation, with a message naming the function and the
 * variable or statement in *err (the driver reports it as an internal
 * compiler error). */
bool imp_check(const ImpProg *p, Buf *err);

#endif
