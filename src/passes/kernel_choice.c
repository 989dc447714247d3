/* kernel_choice.c - kernel choice by counted cost. Some int8 layers can
 * run on two paths of the Cortex-M4 DSP kernels (aot_conv_params.
 * dsp_variant): a CONV_2D of gathered windows on the four-position path, a
 * 3x3 DEPTHWISE_CONV_2D on the tap-pair loop. Each path's instructions are
 * estimated by the cost model (cost_dsp_conv_s8, src/ops/cost_dsp.c), and
 * the other path pays only where it is faster. But a path is a block of
 * code (an engine) that a module without a layer for it leaves out, so
 * the choice is made per module: the layers where the other path is
 * faster take it when the code the module gains by it is none (an engine
 * some layer needs anyway, or one that replaces an engine no layer needs
 * any more), or when the instructions they save in one inference reach
 * OPS_INSNS_PER_BYTE times the bytes it gains. The choice is stored in
 * op->kernel_variant, which the lowering reads (op_conv.c); it runs on the
 * final graph, before planning (the paths' scratch differs). The Helium and
 * portable builds ignore it. */
#include "passes.h"

#include <stdlib.h>

#include "../ops/lower.h"
#include "../ops/ops.h"
#include "aot_conv.h"

/* the other path pays where its estimate is at least this many percent
 * below the rule's (the model's mean error is 4-5%) */
#define KC_MARGIN_PCT 3

static int kc_faster(const ops_dsp_choice *ch) {
  return ch->cost_alt * 100 <= ch->cost_rule * (100 - KC_MARGIN_PCT);
}

/* Cortex-M4 code of the kernel paths a choice adds or removes (.text of
 * the kernel file built with arm-none-eabi-gcc -O2, the path on and off;
 * the 3x3 depthwise path is a part both of its strides share and a part
 * per stride) */
static const struct kc_code {
  uint32_t feature;  /* LF bit (aot_features.h) */
  int64_t bytes;
} kc_code[] = {
    {LF(CONV_S8_G4), 2336}, {LF(CONV_S8_FPAD), 960}, {LF(DW_S8_GEN), 3088},
    {LF(DW_S8_3S1), 604},   {LF(DW_S8_3S2), 600},
};
#define KC_DW3_SHARED 1764

static int64_t kc_bytes(uint32_t f) {
  int64_t b = (f & (LF(DW_S8_3S1) | LF(DW_S8_3S2))) ? KC_DW3_SHARED : 0;
  for (size_t i = 0; i < sizeof kc_code / sizeof kc_code[0]; i++)
    if (f & kc_code[i].feature) b += kc_code[i].bytes;
  return b;
}

/* For the layers of variant v where the other path is faster (ch[i]: op
 * i's two costs): takes it when the instructions saved pay for the code it
 * adds (the paths the module reaches after the choice against before it;
 * code a choice removes, such as the 3x3 path once no layer runs on it,
 * counts for it). */
static int kc_choose(ir_graph *g, const ops_dsp_choice *ch, const int *two, int v) {
  int64_t saved = 0;
  uint32_t before = 0, after = 0;
  for (int i = 0; i < g->nops; i++) {
    const int take = two[i] && ch[i].variant == v && kc_faster(&ch[i]);
    before |= ch[i].features;
    after |= take ? ch[i].alt_features : ch[i].features;
    if (take) saved += ch[i].cost_rule - ch[i].cost_alt;
  }
  const int64_t added = kc_bytes(after) - kc_bytes(before);
  if (saved == 0 || (added > 0 && saved < OPS_INSNS_PER_BYTE * added)) return 0;
  int chosen = 0;
  for (int i = 0; i < g->nops; i++)
    if (two[i] && ch[i].variant == v && kc_faster(&ch[i])) {
      g->ops[i].kernel_variant = v;
      chosen++;
    }
  return chosen;
}

int pass_kernel_choice(ir_graph *g) {
  /* each op lowered once: its costs on both paths */
  ops_dsp_choice *ch = xcalloc((size_t)(g->nops > 0 ? g->nops : 1), sizeof *ch);
  int *two = xcalloc((size_t)(g->nops > 0 ? g->nops : 1), sizeof *two);
  for (int i = 0; i < g->nops; i++) two[i] = ops_conv_dsp_choice(g, &g->ops[i], &ch[i]);
  const int n = kc_choose(g, ch, two, AOT_DSP_VAR_G4) + kc_choose(g, ch, two, AOT_DSP_VAR_GEN);
  free(two);
  free(ch);
  return n;
}
