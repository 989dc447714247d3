/* codegen_consts.c - the constant regions of a module: src/<prefix>_constants.c
 * and .h. Every constant tensor is a member of one struct per group: group 0
 * holds the constants placed by their role's rule (aot_constants), a group k
 * those that memory.tensors rules by tensor id keep elsewhere
 * (aot_constants_<memory>, plan_const_placement). A group read in place is
 * one initialised object in its memory (const in a non-volatile memory;
 * initialised data in RAM is not const-qualified); a staged group is a const
 * blob in the memory it is kept in (aot_constants[_<memory>]_blob) plus a
 * writable copy in the memory it is read from, which
 * <prefix>_hydrate_constants fills.
 * The operators' code names group 0; references to the members of other
 * groups are renamed to their object (cg_relocate_const_refs). */
#include "codegen_internal.h"

#include "../platform/platform.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int cg_const_ngroups(const cg_options *o) { return o->const_place ? o->const_place->ngroups : 0; }

int cg_const_group(const cg_options *o, int gi, int t) {
  return gi == 0 && o->const_place && o->const_place->group ? o->const_place->group[t] : 0;
}

void cg_const_group_mems(const cg_options *o, int k, const char **src, const char **dst, int *staged) {
  *src = k ? o->const_place->src[k - 1] : o->const_src_mem;
  *dst = k ? o->const_place->dst[k - 1] : o->const_mem;
  *staged = k ? strcmp(*src, *dst) != 0 : o->const_staged;
}

const char *cg_const_obj(const cg_options *o, int k, char *buf, size_t n) {
  if (!k) snprintf(buf, n, "aot_constants");
  else snprintf(buf, n, "aot_constants_%s", o->const_place->dst[k - 1]);
  return buf;
}

/* Replaces every whole-identifier occurrence of from in b by to. */
static void replace_ident(strbuf *b, const char *from, const char *to) {
  if (!b->s) return;
  size_t fl = strlen(from);
  strbuf r = {0};
  const char *p = b->s, *q;
  while ((q = strstr(p, from)) != NULL) {
    int before = q > b->s && (isalnum((unsigned char)q[-1]) || q[-1] == '_');
    int after = isalnum((unsigned char)q[fl]) || q[fl] == '_';
    sb_printf(&r, "%.*s%s", (int)(q - p), p, before || after ? from : to);
    p = q + fl;
  }
  sb_puts(&r, p);
  sb_free(b);
  *b = r;
}

void cg_relocate_const_refs(const ir_graph *g, const cg_options *o, strbuf *text) {
  if (!cg_const_ngroups(o)) return;
  for (int t = 0; t < g->nt; t++) {
    int k = cg_const_group(o, 0, t);
    if (!k || g->t[t].role != ROLE_CONST) continue;
    char ob[64];
    char *from = xasprintf("aot_constants.c_%s", g->t[t].cname);
    char *to = xasprintf("%s.c_%s", cg_const_obj(o, k, ob, sizeof ob), g->t[t].cname);
    replace_ident(text, from, to);
    free(from);
    free(to);
  }
}

int gen_constants(const ir_graph *g, const cg_options *o, char *const *const_used, strbuf *c, strbuf *h,
                  size_t *const_bytes, aotc_diag *d) {
  int nsg = g->nsubgraphs > 0 ? g->nsubgraphs : 1;
  *const_bytes = 0;
  cg_banner(c, o, "aot_constants.c");
  sb_puts(c, "#include <math.h>\n#include <stdint.h>\n\n#include \"aot_platform.h\"\n#include \"aot_constants.h\"\n\n");
  cg_banner(h, o, "aot_constants.h");
  sb_puts(h, "#ifndef AOT_CONSTANTS_H\n#define AOT_CONSTANTS_H\n\n#include <stdint.h>\n\n");
  int npacked = 0;
  for (int k = 0; k <= cg_const_ngroups(o); k++) {
    strbuf init = {0};
    int nconst = 0;
    char obj[64], pb[64], pr[64];
    cg_const_obj(o, k, obj, sizeof obj);
    for (int gi = 0; gi < nsg; gi++) {
      const ir_graph *cg = gi == 0 ? g : g->subgraphs[gi];
      if (!cg) continue;
      for (int t = 0; t < cg->nt; t++) {
        if (!const_used[gi][t] || cg_const_group(o, gi, t) != k) continue;
        const ir_tensor *x = &cg->t[t];
        const char *ct = dtype_ctype(x->dtype);
        size_t es = dtype_size(x->dtype);
        if (!ct || !es) {
          sb_free(&init);
          return diag_unsupported(d, "subgraph %d: constant tensor %d '%s' has dtype %s, which aotc cannot store in a C array; convert the model with plain numeric constants",
                                  gi, t, x->name, dtype_name(x->dtype));
        }
        if (!nconst)
          sb_printf(h, "/* %s constant tensor, in the order of the model. */\ntypedef struct {\n",
                    k ? "The constants placed by tensor id in this group, each" : "Every");
        size_t n = x->data_bytes / es;
        *const_bytes += x->data_bytes;
        sb_printf(h, "  %s c_%s[%zu];  /* %s: %s [", ct, x->cname, n ? n : 1, comment_text(x->name), dtype_name(x->dtype));
        for (int r = 0; r < x->rank; r++) sb_printf(h, "%s%d", r ? ", " : "", x->shape[r]);
        sb_puts(h, "] */\n");
        sb_printf(&init, "%s  /* %s */\n  {\n", nconst ? ",\n" : "", comment_text(x->name));
        /* an int8 CONV_2D filter the Helium build reads packed (the same
           bytes in the order its loop loads them; op_conv.c) */
        uint8_t *packed = gi == 0 ? ops_conv_mve_filter(g, t) : NULL;
        if (packed) {
          sb_puts(&init, "#if AOT_MVE_PACKED\n");
          emit_fmt_values(&init, x->dtype, packed, n);
          sb_puts(&init, "#else\n");
          npacked++;
        }
        emit_fmt_values(&init, x->dtype, x->data, n);
        if (packed) sb_puts(&init, "#endif\n");
        free(packed);
        sb_puts(&init, "  }");
        nconst++;
      }
    }
    if (!nconst) {
      if (k) continue; /* an empty group has no region */
      sb_puts(h, "/* The model has no constant tensors. */\ntypedef struct {\n  uint8_t unused;\n");
      sb_puts(&init, "  0");
    }
    const char *src, *dst;
    int staged;
    cg_const_group_mems(o, k, &src, &dst, &staged);
    if (staged) {
      /* the initialised blob stays in its memory; aot_hydrate_constants copies
       * it into the writable object, which the operators read */
      sb_printf(h, "} %s_t;\n\n/* kept in %s (the blob), read from %s after aot_hydrate_constants */\n"
                   "extern const %s_t %s_blob;\nextern %s_t %s;\n\n",
                obj, src, dst, obj, obj, obj, obj);
      sb_printf(c, "%s const %s_t %s_blob = {\n%s\n};\n\n%s %s_t %s\n#if defined(__GNUC__) || defined(__clang__)\n"
                   "    __attribute__((aligned(16)))\n#endif\n    ;\n\n",
                cg_put_in(src, 1, pb, sizeof pb), obj, obj, init.s, cg_put_in(dst, 0, pr, sizeof pr), obj, obj);
    } else {
      /* initialised data in a RAM memory is not const-qualified: GNU ld will
       * not merge read-only and writable input sections into one RAM section */
      const char *q = platform_mem_nonvolatile(dst) ? "const " : "";
      sb_printf(h, "} %s_t;\n\n/* kept in %s, read in place */\nextern %s%s_t %s;\n\n", obj, dst, q, obj, obj);
      sb_printf(c, "%s %s%s_t %s = {\n%s\n};\n\n", cg_put_in(dst, 1, pb, sizeof pb), q, obj, obj, init.s);
    }
    sb_free(&init);
  }
  if (npacked)
    /* the condition of the kernels' Helium build (aot_conv2d_s8.c,
       aot_common.h): the filters marked AOT_MVE_PACKED are stored packed
       there, and their convolutions' params say so */
    sb_printf(h, "/* 1 in a Helium build of the kernels (Cortex-M55: MVE, optimised, no\n"
                 " * AOT_NO_SIMD): %d convolution filter%s then stored packed in the order\n"
                 " * the kernel loads them (aot_conv_params.filter_packed). */\n"
                 "#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && defined(__OPTIMIZE__) && \\\n"
                 "    !defined(AOT_NO_SIMD)\n"
                 "#define AOT_MVE_PACKED 1\n#else\n#define AOT_MVE_PACKED 0\n#endif\n\n",
              npacked, npacked == 1 ? " is" : "s are");
  sb_puts(h, "#endif\n");
  return 0;
}
