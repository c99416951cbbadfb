/* The type checker: name resolution, type inference with let-polymorphism,
 * size-dependent types, uniqueness checking and the module system.
 * Annotates the AST in place (the fields marked "checker" in syntax/ast.h).
 * Modules leave nothing behind for internalisation: references resolve to
 * the definitions themselves (for a parametric module's application, to
 * the checked copy of its body made for that application; see
 * check/modules.c), and abstract types are replaced by what they stand
 * for in the types written into the AST. */
#ifndef FUTHORC_CHECK_H
#define FUTHORC_CHECK_H

#include "../syntax/ast.h"

/* Checks files[0..n) in order: files[0] is the prelude (which alone may use
 * `__intrinsic "name"` bodies), the last one is the main program; each
 * D_IMPORT's `imported` points to an earlier file. Names of the prelude are
 * visible everywhere; an import makes the imported file's top-level
 * (non-local) names visible after it. Reports errors through diag_error and
 * returns false if there were any. */
bool check_programs(Arena *a, Program **files, int n);

/* A checked type as messages show it ("[n]i32 -> i32"), in a. Usable after
 * check_programs has returned (its type variables then print by name). */
const char *check_type_text(Arena *a, Ty *t);

/* Entry points must have types the outside world can provide: parameters
 * that are primitives, arrays of primitives, or tuples and records of those
 * (each component becomes one external parameter; `()` becomes none), and
 * results of primitive types or arrays of them, or a tuple of such results.
 * The checker reports other entry types as errors. */

#endif
