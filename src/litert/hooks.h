/* hooks.h - LiteRT model hooks: rewrites of the mutable litert_model that run
 * after reading and before conversion to the IR (the only level where a WHILE
 * loop and its cond/body subgraphs can be seen whole). */
#ifndef AOTC_HOOKS_H
#define AOTC_HOOKS_H

#include "litert.h"

/* A hook rewrites m in place for the given subgraph. Returns the number of
 * rewrites it made (>= 0), or -1 with a diagnostic (d->code 2 for an
 * unsupported model). */
typedef int (*litert_hook_fn)(litert_model *m, int subgraph_index, const char *model_path,
                              aotc_diag *diag);

typedef struct litert_hook {
  const char *name;     /* config key litert_hooks.<name> */
  const char *doc;
  litert_hook_fn fn;
  int enabled;          /* default on */
} litert_hook;

/* The registry, in registration order. The default hooks (fuse_rolled_gru)
 * are registered on first use. */
int litert_hooks_count(void);
const litert_hook *litert_hooks_get(int i);
/* Adds a hook at the end, or replaces the one with the same name. Returns its
 * index. An embedding program can use this to add its own rewrites. */
int litert_hooks_register(const char *name, const char *doc, litert_hook_fn fn, int enabled);
/* Enables or disables a hook by name; -1 if no such hook. */
int litert_hooks_enable(const char *name, int enabled);
/* Runs every enabled hook on subgraph 0, in order. counts[i] (if non-NULL,
 * litert_hooks_count() entries) receives each hook's result. Returns 0 or -1. */
int litert_hooks_run(litert_model *m, const char *model_path, int *counts, aotc_diag *d);

/* The rolled-GRU fusion hook (fuse_gru.c). */
int litert_hook_fuse_rolled_gru(litert_model *m, int subgraph_index, const char *model_path,
                                aotc_diag *diag);

#endif
