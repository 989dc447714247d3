/* kernel_choice.c - kernel choice by counted cost. Some int8 layers can
 * run on two paths of the Cortex-M4 DSP kernels (aot_conv_params.
 * dsp_variant): a CONV_2D of gathered windows on the four-position path, a
 * 3x3 DEPTHWISE_CONV_2D on the tap-pair loop. Each path's instructions are
 * estimated by the cost model (cost_dsp_conv_s8, src/ops/cost_dsp.c), and
 * the other path pays only where it is faster. But a path is a block of
 * code (an engine) that a module without a layer for it leaves out, so
 * the choice is made per module: an engine some layer needs anyway is
 * free, and the layers where it is faster take it; otherwise they take it
 * only when the instructions they save in one inference reach
 * KC_INSNS_PER_BYTE times the engine's code bytes. The choice is stored in
 * op->kernel_variant, which the lowering reads (op_conv.c); it runs on the
 * final graph, before planning (the paths' scratch differs). The Helium and
 * portable builds ignore it. */
#include "passes.h"

#include "../ops/lower.h"
#include "../ops/ops.h"
#include "aot_conv.h"

/* instructions of one inference worth one byte of code */
#define KC_INSNS_PER_BYTE 64
/* the other path pays where its estimate is at least this many percent
 * below the rule's (the model's mean error is 2.5-6%) */
#define KC_MARGIN_PCT 3

static int kc_faster(const ops_dsp_choice *ch) {
  return ch->cost_alt * 100 <= ch->cost_rule * (100 - KC_MARGIN_PCT);
}

static const struct kc_engine {
  int variant;        /* AOT_DSP_VAR_* */
  uint32_t feature;   /* LF bit of its code (aot_features.h) */
  int64_t code_bytes; /* its Cortex-M4 code, measured (arm-none-eabi-gcc -O2) */
} kc_engines[] = {
    {AOT_DSP_VAR_G4, LF(CONV_S8_G4), 2336},   /* ResNet-8's module with and without */
    {AOT_DSP_VAR_GEN, LF(DW_S8_GEN), 2672},   /* VWW's */
};

int pass_kernel_choice(ir_graph *g) {
  int chosen = 0;
  for (size_t e = 0; e < sizeof kc_engines / sizeof kc_engines[0]; e++) {
    const struct kc_engine *k = &kc_engines[e];
    int64_t saved = 0;
    int needed = 0;
    for (int i = 0; i < g->nops; i++) {
      ops_dsp_choice ch;
      const int two = ops_conv_dsp_choice(g, &g->ops[i], &ch);
      if (ch.features & k->feature) needed = 1;
      if (two && ch.variant == k->variant && kc_faster(&ch))
        saved += ch.cost_rule - ch.cost_alt;
    }
    if (saved == 0 || (!needed && saved < KC_INSNS_PER_BYTE * k->code_bytes)) continue;
    for (int i = 0; i < g->nops; i++) {
      ops_dsp_choice ch;
      if (ops_conv_dsp_choice(g, &g->ops[i], &ch) && ch.variant == k->variant &&
          kc_faster(&ch)) {
        g->ops[i].kernel_variant = k->variant;
        chosen++;
      }
    }
  }
  return chosen;
}
