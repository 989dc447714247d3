/* codegen_internal.h - what the files of the code generator share: text
 * helpers of codegen.c (comments, literals, file writing) and the generators
 * of the other files (API header, build glue, test case, reports), which
 * codegen_module() in codegen.c calls. Not part of the compiler's API. */
#ifndef AOTC_CODEGEN_INTERNAL_H
#define AOTC_CODEGEN_INTERNAL_H

#include "codegen.h"
#include "../ops/emit.h"

/* Model text (names, paths) is wrapped in CG_TEXT_BEGIN / CG_TEXT_END: the
 * prefix rename (codegen_rename_prefix, applied by write_text) leaves it alone
 * and drops the marks. */
#define CG_TEXT_BEGIN '\001'
#define CG_TEXT_END '\002'

/* codegen.c */
/* A model name made safe for a C comment (marked as model text). */
const char *comment_text(const char *name);
/* A model string as plain text for the README (json = 0) or a JSON string
 * body (json = 1): no control characters, marked as model text. */
void sb_plain_text(strbuf *b, const char *text, int json);
const char *op_dtypes(const ir_graph *g, const ir_op *op, char *buf, size_t n);
int write_text(const char *dir, const char *rel, const char *text, const char *prefix,
               aotc_diag *d);

/* Points the scratch addresses of windows k >= 1 of the plan ("S + N",
 * N >= PLAN_WINDOW(1)) at the regions of their memories; returns how many
 * were rewritten, or -1 for an address outside every window. */
struct cg_layout;
int cg_relocate_scratch_refs(const struct cg_layout *L, int nwindows, char **text);

/* codegen_consts.c: the constant groups and their source files */
int cg_const_ngroups(const cg_options *o);
int cg_const_group(const cg_options *o, int gi, int t);   /* of an owner constant */
void cg_const_group_mems(const cg_options *o, int k, const char **src, const char **dst, int *staged);
const char *cg_const_obj(const cg_options *o, int k, char *buf, size_t n);
int gen_constants(const ir_graph *g, const cg_options *o, char *const *const_used, strbuf *c, strbuf *h,
                  size_t *const_bytes, aotc_diag *d);
/* Renames references to constants of groups > 0 in generated text. */
void cg_relocate_const_refs(const ir_graph *g, const cg_options *o, strbuf *text);

/* codegen_sha256.c */
void cg_sha256_hex(const void *data, size_t len, char out[65]);

/* codegen_api.c: the arena layout and the public C API */
typedef struct cg_region {
  int role;            /* 0 scratch, 1 persistent, 2 constant */
  char mem[16];        /* memory name, lower case */
  char name[48];       /* aot_arena_<mem>, aot_arena_persistent_<mem>, aot_arena_const_<mem> */
  char src[16];        /* constants: the memory they are kept in (== mem unless staged) */
  int staged;          /* constants copied from src into mem at init */
  char obj[48];        /* constants: the C object (aot_constants[_<mem>]) */
  size_t size;
  int align;
} cg_region;
typedef struct cg_ent {  /* one tensor descriptor */
  char ident[160];    /* aot_tensor_<index> | aot_tensor_<op>_<id>_scratch */
  int type;            /* 0 constant, 1 persistent, 2 scratch */
  int region;
  size_t offset, size;
  int t;               /* main-graph tensor, -1 for op scratch */
  char off_expr[192];  /* C expression of the offset (constants: offsetof) or "" */
} cg_ent;
typedef struct cg_layout {
  int nregions;
  cg_region regions[12];
  int r_scratch, r_persistent, r_const;  /* r_const: the role's constants (group 0) */
  int r_const_group[1 + PLAN_MAX_CONST_GROUPS]; /* region of each constant group, -1 if empty */
  int r_scratch_group[1 + PLAN_MAX_SCRATCH_GROUPS]; /* region of each plan window (0: the arena) */
  int any_staged;      /* a constant region is staged */
  int nents, capents;
  cg_ent *ents;
  int *tensor_ent;     /* main-graph tensor -> descriptor, -1 */
  size_t const_bytes_padded;
  char plan_hash[17], layout_hash[17];
} cg_layout;
void cg_layout_build(const ir_graph *g, const cg_options *o, char *const *const_used, cg_layout *L);
void cg_layout_free(cg_layout *L);
/* The region of (role, memory), or -1. */
int cg_region_of(const cg_layout *L, int role, const char *mem);
void cg_banner(strbuf *b, const cg_options *o, const char *file);
void cg_banner_hash(strbuf *b, const cg_options *o, const char *file); /* "# " lines */
const char *cg_model_file(const cg_options *o);
const char *cg_put_in(const char *mem, int init, char *buf, size_t n);
void gen_platform_h(const cg_options *o, strbuf *h);
void gen_common_h(const cg_options *o, strbuf *h);
void gen_tensors_h(const ir_graph *g, const cg_options *o, const cg_layout *L, strbuf *h);
void gen_context_h(const ir_graph *g, const cg_options *o, strbuf *h);
void gen_model_h(const cg_options *o, strbuf *h);
void gen_tensors_c(const ir_graph *g, const cg_options *o, const cg_layout *L, strbuf *c);

/* codegen_build.c: runtime files and build glue */
int copy_runtime_file(const cg_options *o, const char *rel, const char *dir, aotc_diag *d);
/* Copies the runtime headers the kernel files (runtime-relative or absolute
 * user paths) need, and the module's aot_kernels.h. */
/* Rewrites the module's src/aot_features.h (if it has one): the kernel
 * paths not in features[] off (codegen_features.c). */
int cg_write_features(const cg_options *o, const char *dir, const char *const *features,
                      int nfeatures, aotc_diag *d);
int copy_runtime_headers(const cg_options *o, const char *dir, const char *const *kernels,
                         int nkernels, aotc_diag *d);
int cmp_str(const void *a, const void *b);
/* Writes the build glue of o->module_type (CMakeLists.txt, module.mk,
 * zephyr/, nsx-module.yaml, .pdsc) into dir. */
int gen_build_glue(const ir_graph *g, const cg_options *o, const char *const *kernels, int nkernels,
                   const char *dir, aotc_diag *d);

/* A runtime file's text as a module holds it (includes flattened). */
char *cg_module_text(const char *text);

/* codegen_shared.c: a module against a shared kernel library (module.runtime) */
int cg_shared_begin(const cg_options *o, aotc_diag *d);  /* reads the manifest */
void cg_shared_end(void);
int cg_shared_active(void);
/* The rename while active: runtime identifiers and library headers take the
 * library prefix, the rest prefix. */
char *cg_shared_rename(const char *text, const char *prefix);
/* codegen_rename_prefix with a second prefix: an aot_/AOT_ identifier for
 * which is_rt(text, start, length) holds takes rt_prefix instead (rt_prefix
 * NULL: every one takes prefix). */
char *codegen_rename_split(const char *text, const char *prefix, const char *rt_prefix,
                           int (*is_rt)(const char *text, const char *p, size_t n));
/* Refuses a kernel the library lacks or holds in another version. */
int cg_shared_check_kernels(const cg_options *o, const char *const *kernels, int n, aotc_diag *d);
const char *cg_shared_name(void);
const char *cg_shared_prefix(void);
char *cg_shared_relpath(const cg_options *o); /* malloc'd */
void cg_collect_kernel(const char *rel);

/* codegen_test.c: the test case */
void gen_test_case(const ir_graph *g, const cg_options *o, strbuf *c, strbuf *h);

/* codegen_report.c: README and residency report */
void gen_readme(const ir_graph *g, const cg_options *o, const cg_layout *L, strbuf *r, size_t const_bytes,
                size_t param_bytes);
void gen_residency(const ir_graph *g, const cg_options *o, const cg_layout *L, strbuf *j);

#endif
