/* The environment of internalisation: the static value each name stands
 * for at a point of the program. Environments are persistent, since a
 * function value keeps the one it was defined in: binding a name makes a
 * new environment that shares the old one. Each binding is a list node,
 * newest first (for the few lookups by name), and the root of a treap over
 * the uids bound so far (a search tree whose nodes are also heap-ordered by
 * a hash of their uid), built by path copying, so that a lookup by uid
 * takes logarithmic time however long the environment: walking the list
 * made a long chain of lets quadratic. */
#include "lower.h"

/* A node of the treap; never changed once built. */
struct EnvTree {
    EnvTree *left, *right;
    int uid;
    SVal *val;
};

/* The treap's heap order: a mix of the uid's bits, so that uids bound in
 * order still give a tree of logarithmic depth. */
static uint32_t prio(int uid) {
    uint32_t h = (uint32_t)uid * 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    return h ^ (h >> 13);
}

static EnvTree *tree_node(Lower *l, int uid, SVal *val, EnvTree *left, EnvTree *right) {
    EnvTree *t = NEW(l->a, EnvTree);
    *t = (EnvTree){left, right, uid, val};
    return t;
}

/* The nodes of t with uids below uid (*lo) and above it (*hi), copied
 * where they change; a node of uid itself is left out. */
static void tree_split(Lower *l, EnvTree *t, int uid, EnvTree **lo, EnvTree **hi) {
    if (!t) {
        *lo = *hi = NULL;
    } else if (t->uid == uid) {
        *lo = t->left;
        *hi = t->right;
    } else if (t->uid < uid) {
        EnvTree *c = tree_node(l, t->uid, t->val, t->left, NULL);
        tree_split(l, t->right, uid, &c->right, hi);
        *lo = c;
    } else {
        EnvTree *c = tree_node(l, t->uid, t->val, NULL, t->right);
        tree_split(l, t->left, uid, lo, &c->left);
        *hi = c;
    }
}

/* t with uid bound to val (replacing an earlier binding of uid). */
static EnvTree *tree_insert(Lower *l, EnvTree *t, int uid, SVal *val) {
    if (!t || prio(uid) > prio(t->uid)) {
        EnvTree *n = tree_node(l, uid, val, NULL, NULL);
        tree_split(l, t, uid, &n->left, &n->right);
        return n;
    }
    if (t->uid == uid) return tree_node(l, uid, val, t->left, t->right);
    if (uid < t->uid) return tree_node(l, t->uid, t->val, tree_insert(l, t->left, uid, val), t->right);
    return tree_node(l, t->uid, t->val, t->left, tree_insert(l, t->right, uid, val));
}

Env *lower_env_bind(Lower *l, Env *env, int uid, const char *name, SVal *val) {
    Env *e = NEW(l->a, Env);
    e->next = env;
    e->name = name;
    e->val = val;
    e->tree = tree_insert(l, env ? env->tree : NULL, uid, val);
    return e;
}

SVal *lower_env_lookup(const Env *env, int uid) {
    for (const EnvTree *t = env ? env->tree : NULL; t; t = uid < t->uid ? t->left : t->right)
        if (t->uid == uid) return t->val;
    return NULL;
}

SVal *lower_env_lookup_name(const Env *env, const char *name) {
    for (; env; env = env->next)
        if (env->name == name) return env->val;
    return NULL;
}
