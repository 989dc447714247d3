/* hooks.c - the registry of LiteRT model hooks. */
#include "hooks.h"

#include <string.h>

#define MAX_HOOKS 32

static litert_hook hooks[MAX_HOOKS];
static int nhooks;
static int defaults_done;

/* Weak so the registry links before fuse_gru.c exists. */
int litert_hook_fuse_rolled_gru(litert_model *m, int sg, const char *path, aotc_diag *d)
    __attribute__((weak));

static void register_defaults(void) {
  if (defaults_done) return;
  defaults_done = 1;
  if (litert_hook_fuse_rolled_gru)
    litert_hooks_register("fuse_rolled_gru",
                          "replace Keras rolled GRU WHILE loops by one native GRU operator",
                          litert_hook_fuse_rolled_gru, 1);
}

int litert_hooks_count(void) {
  register_defaults();
  return nhooks;
}

const litert_hook *litert_hooks_get(int i) {
  register_defaults();
  return (i >= 0 && i < nhooks) ? &hooks[i] : NULL;
}

int litert_hooks_register(const char *name, const char *doc, litert_hook_fn fn, int enabled) {
  register_defaults();
  for (int i = 0; i < nhooks; i++) {
    if (strcmp(hooks[i].name, name) == 0) {
      hooks[i] = (litert_hook){name, doc, fn, enabled};
      return i;
    }
  }
  if (nhooks == MAX_HOOKS) return -1;
  hooks[nhooks] = (litert_hook){name, doc, fn, enabled};
  return nhooks++;
}

int litert_hooks_enable(const char *name, int enabled) {
  register_defaults();
  for (int i = 0; i < nhooks; i++) {
    if (strcmp(hooks[i].name, name) == 0) {
      hooks[i].enabled = enabled;
      return 0;
    }
  }
  return -1;
}

int litert_hooks_run(litert_model *m, const char *model_path, int *counts, aotc_diag *d) {
  register_defaults();
  for (int i = 0; i < nhooks; i++) {
    if (counts) counts[i] = 0;
    if (!hooks[i].enabled) continue;
    int n = hooks[i].fn(m, 0, model_path, d);
    if (n < 0) return -1;
    if (counts) counts[i] = n;
  }
  return 0;
}
