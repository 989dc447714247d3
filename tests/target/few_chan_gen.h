/* few_chan_gen.h - the random int8 CONV_2D layers of 1-4 input channels
 * (first layers) that first_kernels.c and fmve_kernels.c check the
 * few-channel paths on: filters up to g->fh_max x g->fw_max (3x3, 10x4 and
 * 10x8 often), strides 1-3, paddings from none to filter - 1 (same and
 * valid), a last window past the edge, batches, 1-MAXC output channels
 * (tame: multiples of 8, shifts below 0, biases below 2^30, all of int8),
 * input and output zero points over all of int8, inputs and weights at
 * their extremes, random per-channel multipliers and shifts, biases whose
 * sums pass 2^30, the folded bias given or not, activation ranges. The
 * including file defines rnd / rr (kernel_check.h), MAXIN, MAXF, MAXOUT,
 * MAXC, MAXSCR and the buffers in8, filt, bias, kbias, mult, shift. */
#ifndef FEW_CHAN_GEN_H
#define FEW_CHAN_GEN_H

typedef struct few_gen_cfg {
  int fh_max, fw_max;   /* filter sizes drawn from 1..max */
  int in_w_max;         /* input widths drawn from 1..max, */
  int wide_kind;        /* 1..64 for the draws 3..wide_kind */
} few_gen_cfg;

typedef struct few_layer {
  int32_t K, nin, nf, nout;   /* taps of a window, input, filter and output sizes */
  int use_bias, use_kb;       /* the bias and the folded bias given */
} few_layer;

/* One random layer into p and the buffers; 0 when none fitted the limits. */
static int few_gen(aot_conv_params *p, const few_gen_cfg *g, int tame, few_layer *l,
                   int *big_bias) {
  int32_t K, nin, nf, nout, c, i;
  int tries = 0, mode, use_bias, use_kb;
  memset(p, 0, sizeof *p);
  do {
    const int kind = (int)(rnd() % 8);
    p->batches = (rnd() % 6) == 0 ? 2 : 1;
    p->in_c = p->filter_in_c = rr(1, 4);
    p->out_c = kind == 0 || tame ? 8 * rr(1, 5) : rr(1, MAXC);
    p->filter_h = rr(1, g->fh_max);
    p->filter_w = rr(1, g->fw_max);
    if (kind == 1) {   /* audio: 10 x 4 / 10 x 8, one channel */
      p->filter_h = 10;
      p->filter_w = rnd() & 1 ? 4 : 8;
      p->in_c = p->filter_in_c = 1;
    }
    if (kind == 2) p->filter_h = p->filter_w = 3;
    p->stride_h = rr(1, (rnd() % 4) == 0 ? 3 : 2);
    p->stride_w = rr(1, (rnd() % 4) == 0 ? 3 : 2);
    p->dilation_h = p->dilation_w = 1;
    p->in_h = rr(1, 20);
    p->in_w = rr(1, kind >= 3 && kind <= g->wide_kind ? 64 : g->in_w_max);
    if (rnd() & 1) {   /* same */
      p->pad_h = (p->filter_h - 1) / 2;
      p->pad_w = (p->filter_w - 1) / 2;
      p->out_h = (p->in_h + p->stride_h - 1) / p->stride_h;
      p->out_w = (p->in_w + p->stride_w - 1) / p->stride_w;
    } else {
      p->pad_h = (rnd() % 3) == 0 ? rr(0, p->filter_h - 1) : 0;
      p->pad_w = (rnd() % 3) == 0 ? rr(0, p->filter_w - 1) : 0;
      p->out_h = (p->in_h + 2 * p->pad_h - (p->filter_h - 1) - 1) / p->stride_h + 1;
      p->out_w = (p->in_w + 2 * p->pad_w - (p->filter_w - 1) - 1) / p->stride_w + 1;
      if ((rnd() % 4) == 0) p->out_w += 1;   /* a last window past the edge */
    }
    K = p->filter_h * p->filter_w * p->in_c;
    nin = p->batches * p->in_h * p->in_w * p->in_c;
    nf = p->out_c * K;
    nout = p->batches * p->out_h * p->out_w * p->out_c;
    tries++;
  } while ((p->out_h < 1 || p->out_w < 1 || nin > MAXIN || nf > MAXF || nout > MAXOUT ||
            aot_conv2d_s8_scratch_size(p) > MAXSCR) && tries < 1000);
  if (tries >= 1000) return 0;
  mode = (int)(rnd() % 4);
  for (i = 0; i < nin; i++)
    in8[i] = (int8_t)(mode == 1 ? (rnd() & 1 ? -128 : 127) : rr(-128, 127));
  for (i = 0; i < nf; i++)
    filt[i] = (int8_t)(mode == 1 ? (rnd() & 1 ? -128 : 127) : mode == 2 ? rr(-3, 3) : rr(-128, 127));
  if (mode == 1 && (rnd() & 1)) {   /* all products of one sign */
    memset(in8, 0x80, (size_t)nin);
    memset(filt, 0x80, (size_t)nf);
  }
  p->input_offset = (rnd() % 4) == 0 ? (rnd() & 1 ? 128 : -127) : -rr(-128, 127);
  p->output_offset = (rnd() % 4) == 0 ? (rnd() & 1 ? -128 : 127) : rr(-128, 127);
  use_bias = (rnd() % 4) != 0;
  use_kb = (rnd() % 4) != 0;
  for (c = 0; c < p->out_c; c++) {
    const int r = (int)(rnd() % 16);
    int32_t s = 0;
    mult[c] = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu));
    shift[c] = r == 0 && !tame ? rr(0, 3) : r == 1 ? rr(-31, -26) : rr(-20, -1);
    if (mode == 2) shift[c] = rr(-6, 0);
    if (r == 2) mult[c] = 0;
    bias[c] = !use_bias ? 0 : mode == 2 ? rr(-300, 300) : rr(-200000, 200000);
    if (use_bias && !tame && (rnd() % 16) == 0) {   /* sums past 2^30: the exact requantization */
      bias[c] = (int32_t)(rnd() % 1000u) + (rnd() & 1 ? 0x50000000 : -0x50000000);
      (*big_bias)++;
    }
    for (i = 0; i < K; i++) s += filt[c * K + i];
    kbias[c] = (int32_t)((uint32_t)bias[c] + (uint32_t)s * (uint32_t)p->input_offset);
  }
  if ((rnd() % 3) == 0 && !tame) {
    p->act_min = rr(-128, 0);
    p->act_max = rr(p->act_min, 127);
  } else {
    p->act_min = -128;
    p->act_max = 127;
  }
  p->out_mult = mult;
  p->out_shift = shift;
  p->kbias = use_kb ? kbias : NULL;
  l->K = K;
  l->nin = nin;
  l->nf = nf;
  l->nout = nout;
  l->use_bias = use_bias;
  l->use_kb = use_kb;
  return 1;
}

#endif
