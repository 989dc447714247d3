/* aot_elementwise.h - elementwise arithmetic, comparisons, logical ops,
 * activations, softmax and (de)quantization kernels.
 *
 * Quantized arithmetic is that of the TFLite / TFLM reference kernels
 * (reference_ops / reference_integer_ops with gemmlowp fixed point, double
 * rounding). Multipliers follow aot_mbqm: shift > 0 is a left shift.
 *
 * Binary / ternary operators take an aot_bcast that aotc precomputes: the
 * output is walked in row-major order as rows of shape[ndims-1] elements;
 * stride[k][d] is the element stride of input k along output dimension d (0
 * where input k is broadcast). Adjacent dimensions that broadcast alike are
 * merged at compile time, so ndims is small. ndims == 0 means every input has
 * the output's shape (flat loop over size).
 *
 * Every kernel returns AOT_KERNEL_OK (or AOT_KERNEL_BAD_PARAM for a params
 * struct it cannot use). */
#ifndef AOT_ELEMENTWISE_H
#define AOT_ELEMENTWISE_H

#include "aot_common.h"

/* ======================================================================= */
/* Broadcasting                                                            */
/* ======================================================================= */

#define AOT_EW_MAX_DIMS 6

typedef struct aot_bcast {
  int32_t size;                           /* output elements */
  int32_t ndims;                          /* 0: same shapes, flat */
  int32_t shape[AOT_EW_MAX_DIMS];         /* output extents (merged) */
  int32_t stride[3][AOT_EW_MAX_DIMS];     /* per input, per dimension */
} aot_bcast;

/* Row iterator over an aot_bcast with ndims >= 1. off[k] is the element
 * offset of the current row's first element in input k. */
typedef struct aot_bcast_it {
  int32_t idx[AOT_EW_MAX_DIMS];
  int32_t off[3];
} aot_bcast_it;

AOT_INLINE void aot_bcast_begin(aot_bcast_it *it) {
  int32_t d;
  for (d = 0; d < AOT_EW_MAX_DIMS; d++) it->idx[d] = 0;
  it->off[0] = it->off[1] = it->off[2] = 0;
}

/* Number of rows (size / inner extent). */
AOT_INLINE int32_t aot_bcast_rows(const aot_bcast *b) {
  int32_t inner = b->shape[b->ndims - 1];
  return inner > 0 ? b->size / inner : 0;
}

/* Advances to the next row (odometer over dimensions 0 .. ndims-2). */
AOT_INLINE void aot_bcast_next(const aot_bcast *b, aot_bcast_it *it) {
  int32_t d, k;
  for (d = b->ndims - 2; d >= 0; d--) {
    if (++it->idx[d] < b->shape[d]) {
      for (k = 0; k < 3; k++) it->off[k] += b->stride[k][d];
      return;
    }
    it->idx[d] = 0;
    for (k = 0; k < 3; k++) it->off[k] -= b->stride[k][d] * (b->shape[d] - 1);
  }
}

/* Loop of a binary elementwise kernel: OUT[i] = FN(P, IN1[..], IN2[..]) over
 * the broadcast BC (pointer). IN1, IN2, OUT are plain pointer variables. */
#define AOT_EW_BINARY(BC, IN1, IN2, OUT, FN, P)                                   \
  do {                                                                            \
    const aot_bcast *aot_b_ = (BC);                                               \
    int32_t aot_i_;                                                               \
    if (aot_b_->ndims == 0) {                                                     \
      for (aot_i_ = 0; aot_i_ < aot_b_->size; aot_i_++)                           \
        (OUT)[aot_i_] = FN((P), (IN1)[aot_i_], (IN2)[aot_i_]);                    \
    } else {                                                                      \
      aot_bcast_it aot_it_;                                                       \
      const int32_t aot_n_ = aot_b_->shape[aot_b_->ndims - 1];                    \
      const int32_t aot_s1_ = aot_b_->stride[0][aot_b_->ndims - 1];               \
      const int32_t aot_s2_ = aot_b_->stride[1][aot_b_->ndims - 1];               \
      const int32_t aot_rows_ = aot_bcast_rows(aot_b_);                           \
      int32_t aot_r_, aot_o_ = 0;                                                 \
      aot_bcast_begin(&aot_it_);                                                  \
      for (aot_r_ = 0; aot_r_ < aot_rows_; aot_r_++) {                            \
        int32_t aot_j1_ = aot_it_.off[0], aot_j2_ = aot_it_.off[1];               \
        for (aot_i_ = 0; aot_i_ < aot_n_; aot_i_++) {                             \
          (OUT)[aot_o_ + aot_i_] = FN((P), (IN1)[aot_j1_], (IN2)[aot_j2_]);       \
          aot_j1_ += aot_s1_;                                                     \
          aot_j2_ += aot_s2_;                                                     \
        }                                                                         \
        aot_o_ += aot_n_;                                                         \
        aot_bcast_next(aot_b_, &aot_it_);                                         \
      }                                                                           \
    }                                                                             \
  } while (0)

/* A params struct that is just the broadcast (MAXIMUM, MINIMUM, logical,
 * float SQUARED_DIFFERENCE, ...). */
typedef struct aot_bcast_params {
  aot_bcast bc;
} aot_bcast_params;

/* ======================================================================= */
/* Small fixed-point helpers (gemmlowp semantics)                           */
/* ======================================================================= */

/* Arithmetic right shift defined for negative values (floor division). */
AOT_INLINE int32_t aot_asr_i32(int32_t x, int s) {
  return x >= 0 ? (x >> s) : (int32_t)~(~x >> s);
}
AOT_INLINE int64_t aot_asr_i64(int64_t x, int s) {
  return x >= 0 ? (x >> s) : (int64_t)~(~x >> s);
}

/* Wrapping int32 add (two's complement, no UB). */
AOT_INLINE int32_t aot_wrap_add_i32(int32_t a, int32_t b) {
  uint32_t u = (uint32_t)a + (uint32_t)b;
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) + INT32_MIN;
}

/* Two's complement truncation of an int64 to int32 (the low 32 bits). */
AOT_INLINE int32_t aot_wrap_i64_i32(int64_t x) {
  uint32_t u = (uint32_t)((uint64_t)x & 0xFFFFFFFFu);
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) + INT32_MIN;
}

/* Two's complement truncation of an int32 to int16 (as a C++ static_cast). */
AOT_INLINE int16_t aot_wrap_i16(int32_t x) {
  uint32_t u = (uint32_t)x & 0xFFFFu;
  return (int16_t)(u < 0x8000u ? (int32_t)u : (int32_t)u - 65536);
}

/* Count of leading zeros of a 32-bit value (32 for 0). */
AOT_INLINE int aot_clz32(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return x ? __builtin_clz(x) : 32;
#else
  int n = 0;
  if (!x) return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
#endif
}

/* gemmlowp SaturatingRoundingMultiplyByPOT: exponent > 0 saturating left
 * shift, < 0 rounding right shift. */
AOT_INLINE int32_t aot_sat_mul_pot(int32_t x, int exponent) {
  int32_t threshold;
  if (exponent == 0) return x;
  if (exponent < 0) return aot_rdbpot(x, -exponent);
  threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return aot_shl_i32(x, exponent);
}

/* gemmlowp RoundingHalfSum for int32. */
AOT_INLINE int32_t aot_rounding_half_sum(int32_t a, int32_t b) {
  int64_t sum = (int64_t)a + (int64_t)b;
  int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

/* exp(x) for x in [-1/4, 0), Q0.31 in and out. */
AOT_INLINE int32_t aot_fx_exp_quarter(int32_t a) {
  const int32_t constant_term = 1895147668;   /* exp(-1/8) */
  const int32_t one_third = 715827883;
  int32_t x = a + (1 << 28);
  int32_t x2 = aot_srdhm(x, x);
  int32_t x3 = aot_srdhm(x2, x);
  int32_t x4 = aot_srdhm(x2, x2);
  int32_t x4_over_4 = aot_rdbpot(x4, 2);
  int32_t poly = aot_rdbpot(aot_srdhm(x4_over_4 + x3, one_third) + x2, 1);
  return constant_term + aot_srdhm(constant_term, x + poly);
}

/* gemmlowp exp_on_negative_values: input raw in Q(ib).(31-ib), a <= 0;
 * result Q0.31. */
AOT_INLINE int32_t aot_fx_exp_neg(int32_t a, int ib) {
  static const int32_t mults[7] = {1672461947, 1302514674, 790015084, 290630308,
                                   39332535, 720401, 242};
  const int fb = 31 - ib;
  const int32_t one_quarter = (int32_t)1 << (fb - 2);
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod = (a & mask) - one_quarter;
  int32_t result = aot_fx_exp_quarter(aot_sat_mul_pot(a_mod, ib));
  const int32_t remainder = a_mod - a;
  int e;
  for (e = -2; e <= 4; e++) {
    if (ib > e) {
      const int shift = fb + e;
      if (remainder & ((int32_t)1 << shift)) result = aot_srdhm(result, mults[e + 2]);
    }
  }
  if (ib > 5) {
    const int32_t clamp = -((int32_t)1 << (36 - ib));
    if (a < clamp) result = 0;
  }
  if (a == 0) result = INT32_MAX;
  return result;
}

/* gemmlowp one_over_one_plus_x_for_x_in_0_1 (Q0.31 in and out). */
AOT_INLINE int32_t aot_fx_one_over_one_plus_x(int32_t a) {
  const int32_t c48_17 = 1515870810;    /* 48/17 in Q2.29 */
  const int32_t cm32_17 = -1010580540;  /* -32/17 in Q2.29 */
  const int32_t f2_one = (int32_t)1 << 29;
  const int32_t half_den = aot_rounding_half_sum(a, INT32_MAX);
  int32_t x = c48_17 + aot_srdhm(half_den, cm32_17);
  int i;
  for (i = 0; i < 3; i++) {
    int32_t hdx = aot_srdhm(half_den, x);
    int32_t one_minus = f2_one - hdx;
    x = x + aot_sat_mul_pot(aot_srdhm(x, one_minus), 2);
  }
  return aot_sat_mul_pot(x, 1);
}

/* gemmlowp one_minus_x_over_one_plus_x_for_x_in_0_1 (Q0.31). */
AOT_INLINE int32_t aot_fx_one_minus_x_over_one_plus_x(int32_t a) {
  const int32_t c48_17 = 1515870810;
  const int32_t cm32_17 = -1010580540;
  const int32_t f2_one = (int32_t)1 << 29;
  const int32_t half_den = aot_rounding_half_sum(a, INT32_MAX);
  int32_t x = c48_17 + aot_srdhm(half_den, cm32_17);
  int i;
  for (i = 0; i < 3; i++) {
    int32_t hdx = aot_srdhm(half_den, x);
    int32_t one_minus = f2_one - hdx;
    x = x + aot_sat_mul_pot(aot_srdhm(x, one_minus), 2);
  }
  return aot_sat_mul_pot(x - f2_one, 2);
}

/* gemmlowp logistic: input Q(ib), result Q0.31. */
AOT_INLINE int32_t aot_fx_logistic(int32_t a, int ib) {
  int32_t abs_a, pos;
  if (a == 0) return (int32_t)1 << 30;
  abs_a = a > 0 ? a : -a;
  pos = aot_fx_one_over_one_plus_x(aot_fx_exp_neg(-abs_a, ib));
  return a > 0 ? pos : INT32_MAX - pos;
}

/* gemmlowp tanh: input Q(ib), result Q0.31. */
AOT_INLINE int32_t aot_fx_tanh(int32_t a, int ib) {
  int32_t n, t;
  if (a == 0) return 0;
  n = a < 0 ? a : -a;
  /* ExactMulByPot<1>: same raw value read with one more integer bit */
  t = aot_fx_one_minus_x_over_one_plus_x(aot_fx_exp_neg(n, ib + 1));
  return a < 0 ? -t : t;
}

/* TFLite common.h GetReciprocal: 1/x for x in Q(x_integer_digits). */
AOT_INLINE int32_t aot_fx_reciprocal(int32_t x, int x_integer_digits, int *num_bits_over_unit) {
  const int headroom_plus_one = aot_clz32((uint32_t)x);
  const uint32_t shifted = headroom_plus_one >= 32 ? 0u : ((uint32_t)x << headroom_plus_one);
  const uint32_t minus_one = shifted - 2147483648u;
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  return aot_fx_one_over_one_plus_x(
      minus_one <= (uint32_t)INT32_MAX ? (int32_t)minus_one
                                       : (int32_t)(minus_one - 2147483648u) + INT32_MIN);
}

/* Table of sigmoid(i / 24) in unsigned Q0.16, i = 0..255, with the values of
 * the TFLite reference (common.h sigmoid_table_uint16); used by the int16
 * LOGISTIC and TANH kernels (tanh(x) = 2 sigmoid(2x) - 1). */
AOT_INLINE const uint16_t *aot_sigmoid_table_u16(void) {
  static const uint16_t table[256] = {
      32768u, 33451u, 34133u, 34813u, 35493u, 36169u, 36843u, 37513u, 38180u, 38841u, 39498u, 40149u,
      40794u, 41432u, 42064u, 42688u, 43304u, 43912u, 44511u, 45102u, 45683u, 46255u, 46817u, 47369u,
      47911u, 48443u, 48964u, 49475u, 49975u, 50464u, 50942u, 51409u, 51865u, 52311u, 52745u, 53169u,
      53581u, 53983u, 54374u, 54755u, 55125u, 55485u, 55834u, 56174u, 56503u, 56823u, 57133u, 57433u,
      57724u, 58007u, 58280u, 58544u, 58800u, 59048u, 59288u, 59519u, 59743u, 59959u, 60168u, 60370u,
      60565u, 60753u, 60935u, 61110u, 61279u, 61441u, 61599u, 61750u, 61896u, 62036u, 62172u, 62302u,
      62428u, 62549u, 62666u, 62778u, 62886u, 62990u, 63090u, 63186u, 63279u, 63368u, 63454u, 63536u,
      63615u, 63691u, 63765u, 63835u, 63903u, 63968u, 64030u, 64090u, 64148u, 64204u, 64257u, 64308u,
      64357u, 64405u, 64450u, 64494u, 64536u, 64576u, 64614u, 64652u, 64687u, 64721u, 64754u, 64786u,
      64816u, 64845u, 64873u, 64900u, 64926u, 64950u, 64974u, 64997u, 65019u, 65039u, 65060u, 65079u,
      65097u, 65115u, 65132u, 65149u, 65164u, 65179u, 65194u, 65208u, 65221u, 65234u, 65246u, 65258u,
      65269u, 65280u, 65291u, 65301u, 65310u, 65319u, 65328u, 65337u, 65345u, 65352u, 65360u, 65367u,
      65374u, 65381u, 65387u, 65393u, 65399u, 65404u, 65410u, 65415u, 65420u, 65425u, 65429u, 65433u,
      65438u, 65442u, 65445u, 65449u, 65453u, 65456u, 65459u, 65462u, 65465u, 65468u, 65471u, 65474u,
      65476u, 65479u, 65481u, 65483u, 65485u, 65488u, 65489u, 65491u, 65493u, 65495u, 65497u, 65498u,
      65500u, 65501u, 65503u, 65504u, 65505u, 65507u, 65508u, 65509u, 65510u, 65511u, 65512u, 65513u,
      65514u, 65515u, 65516u, 65517u, 65517u, 65518u, 65519u, 65520u, 65520u, 65521u, 65522u, 65522u,
      65523u, 65523u, 65524u, 65524u, 65525u, 65525u, 65526u, 65526u, 65526u, 65527u, 65527u, 65528u,
      65528u, 65528u, 65529u, 65529u, 65529u, 65529u, 65530u, 65530u, 65530u, 65530u, 65531u, 65531u,
      65531u, 65531u, 65531u, 65532u, 65532u, 65532u, 65532u, 65532u, 65532u, 65533u, 65533u, 65533u,
      65533u, 65533u, 65533u, 65533u, 65533u, 65534u, 65534u, 65534u, 65534u, 65534u, 65534u, 65534u,
      65534u, 65534u, 65534u, 65535u,
  };
  return table;
}

/* TFLite LUTLookup for int16 (513-entry table with interpolation). */
AOT_INLINE int16_t aot_lut16_lookup(int16_t value, const int16_t *lut) {
  const int32_t index = 256 + aot_asr_i32(value, 7);
  const int32_t offset = value & 0x7f;
  const int32_t base = lut[index];
  const int32_t slope = aot_wrap_i16((int32_t)lut[index + 1] - lut[index]);
  const int32_t delta = aot_asr_i32(slope * offset + 64, 7);
  return aot_wrap_i16(base + delta);
}

/* ======================================================================= */
/* ADD / SUB / MUL / DIV / SQUARED_DIFFERENCE / MAXIMUM / MINIMUM           */
/* ======================================================================= */

/* ADD and SUB, quantized general path (int8: left_shift 20, int16: 15):
 *   x_k = mbqm_lt1((in_k + in_k_offset) << left_shift, in_k_mult, in_k_shift)
 *   out = mbqm_lt1(x_1 +/- x_2, out_mult, out_shift) + out_offset, clamped. */
typedef struct aot_addsub_q_params {
  aot_bcast bc;
  int32_t left_shift;
  int32_t in1_offset, in2_offset;   /* -zero point */
  int32_t in1_mult, in1_shift;      /* shifts <= 0 */
  int32_t in2_mult, in2_shift;
  int32_t out_mult, out_shift;
  int32_t out_offset;               /* output zero point */
  int32_t act_min, act_max;
} aot_addsub_q_params;

/* Elements of a flat int8 ADD / SUB below which its rescale table (the SIMD
 * builds' aot_ews_tab_run, aot_ew_simd.h) costs more than it saves. */
#ifndef AOT_EWS_TAB_MIN
#define AOT_EWS_TAB_MIN 64
#endif
/* 1 when the int8 rescale table path takes an ADD / SUB of parameters p
 * (whatever its size): left shift 20, offsets within [-128, 128], shifts in
 * [-31, 0] with multipliers >= 0, one input at the common scale (multiplier
 * 2^30, shift 0), the output constant within 2^30, and no sign correction
 * with an output multiplier of 2^30 or less unless the output may clamp
 * away every negative value. aot_ews_tab_setup's test, and aotc's for
 * AOT_F_EW_S8_FLATP (host code too). */
AOT_INLINE int aot_ews_tab_applies(const aot_addsub_q_params *p) {
  const int32_t e = -p->out_shift;
  int64_t add;
  int fast, cm;
  if (p->left_shift != 20 || p->in1_offset < -128 || p->in1_offset > 128 ||
      p->in2_offset < -128 || p->in2_offset > 128 || p->act_min > p->act_max)
    return 0;
  if (p->in1_mult < 0 || p->in1_shift > 0 || p->in1_shift < -31 || p->in2_mult < 0 ||
      p->in2_shift > 0 || p->in2_shift < -31 || p->out_mult < 0 || p->out_shift > 0 ||
      p->out_shift < -31)
    return 0;
  if (!(p->in2_shift == 0 && p->in2_mult == (int32_t)1 << 30) &&
      !(p->in1_shift == 0 && p->in1_mult == (int32_t)1 << 30))
    return 0;
  add = (int64_t)p->out_offset * ((int64_t)1 << e) + (e > 0 ? (int64_t)1 << (e - 1) : 0);
  if (add > ((int64_t)1 << 30) || add < -((int64_t)1 << 30)) return 0;
  fast = p->out_offset <= p->act_min && p->act_min == -128 && p->act_max == 127;
  cm = p->out_offset > p->act_min && e > 0;
  return fast || !cm || p->out_mult > (int32_t)1 << 30;
}

/* Scratch bytes of the flat int8 ADD / SUB kernels aot_add_s8_tab /
 * aot_sub_s8_tab for a layer of parameters p: the SIMD builds' rescale
 * table (256 int32) when the layer takes it (equal shapes, at least
 * AOT_EWS_TAB_MIN elements, aot_ews_tab_applies), else 0 (aotc then calls
 * aot_add_s8_flat / aot_sub_s8_flat, which need none). One plan serves the
 * portable build too, which ignores the buffer. aotc plans the buffer from
 * this function and the kernels test it. */
#define AOT_EWS_TAB_BYTES 1024u
AOT_INLINE size_t aot_addsub_s8_scratch_size(const aot_addsub_q_params *p) {
  return p->bc.ndims == 0 && p->bc.size >= AOT_EWS_TAB_MIN && aot_ews_tab_applies(p)
             ? (size_t)AOT_EWS_TAB_BYTES
             : 0u;
}

int32_t aot_add_s8(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                   int8_t *out);
int32_t aot_add_s16(const aot_addsub_q_params *p, const int16_t *in1, const int16_t *in2,
                    int16_t *out);
int32_t aot_sub_s8(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                   int8_t *out);
int32_t aot_sub_s16(const aot_addsub_q_params *p, const int16_t *in1, const int16_t *in2,
                    int16_t *out);
/* the same for inputs of the output's shape (bc.ndims 0; else
 * AOT_KERNEL_BAD_PARAM): no broadcast walk */
int32_t aot_add_s8_flat(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                        int8_t *out);
int32_t aot_add_s16_flat(const aot_addsub_q_params *p, const int16_t *in1, const int16_t *in2,
                         int16_t *out);
int32_t aot_sub_s8_flat(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                        int8_t *out);
int32_t aot_sub_s16_flat(const aot_addsub_q_params *p, const int16_t *in1, const int16_t *in2,
                         int16_t *out);
/* the same for int8 layers that take the rescale table
 * (aot_addsub_s8_scratch_size(p) > 0; else AOT_KERNEL_BAD_PARAM in the
 * SIMD builds): scratch holds aot_addsub_s8_scratch_size(p) bytes, 4-byte
 * aligned, its contents on entry unused */
int32_t aot_add_s8_tab(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                       int8_t *out, void *scratch);
int32_t aot_sub_s8_tab(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                       int8_t *out, void *scratch);

/* ADD / SUB int16 with power-of-two scales and zero points 0 (TFLite
 * pot_scale_int16 path): out = clamp(rdbpot(in1, -in1_shift) +/-
 * rdbpot(in2, -in2_shift)). Shifts are <= 0. */
typedef struct aot_addsub_pot_params {
  aot_bcast bc;
  int32_t in1_shift, in2_shift;
  int32_t act_min, act_max;
} aot_addsub_pot_params;

int32_t aot_add_s16_pot(const aot_addsub_pot_params *p, const int16_t *in1,
                        const int16_t *in2, int16_t *out);
int32_t aot_sub_s16_pot(const aot_addsub_pot_params *p, const int16_t *in1,
                        const int16_t *in2, int16_t *out);

/* MUL quantized (int8, int16): out = mbqm((in1 + o1) * (in2 + o2), mult,
 * shift) + out_offset, clamped. */
typedef struct aot_mul_q_params {
  aot_bcast bc;
  int32_t in1_offset, in2_offset;
  int32_t out_offset;
  int32_t out_mult, out_shift;
  int32_t act_min, act_max;
} aot_mul_q_params;

int32_t aot_mul_s8(const aot_mul_q_params *p, const int8_t *in1, const int8_t *in2,
                   int8_t *out);
int32_t aot_mul_s16(const aot_mul_q_params *p, const int16_t *in1, const int16_t *in2,
                    int16_t *out);

/* float32 / int32 arithmetic with an activation clamp. */
typedef struct aot_arith_f32_params {
  aot_bcast bc;
  float act_min, act_max;
} aot_arith_f32_params;

typedef struct aot_arith_s32_params {
  aot_bcast bc;
  int32_t act_min, act_max;
} aot_arith_s32_params;

int32_t aot_add_f32(const aot_arith_f32_params *p, const float *in1, const float *in2,
                    float *out);
int32_t aot_sub_f32(const aot_arith_f32_params *p, const float *in1, const float *in2,
                    float *out);
int32_t aot_mul_f32(const aot_arith_f32_params *p, const float *in1, const float *in2,
                    float *out);
int32_t aot_div_f32(const aot_arith_f32_params *p, const float *in1, const float *in2,
                    float *out);
/* int32 wraps on overflow (two's complement) before the clamp. */
int32_t aot_add_s32(const aot_arith_s32_params *p, const int32_t *in1, const int32_t *in2,
                    int32_t *out);
int32_t aot_sub_s32(const aot_arith_s32_params *p, const int32_t *in1, const int32_t *in2,
                    int32_t *out);
int32_t aot_mul_s32(const aot_arith_s32_params *p, const int32_t *in1, const int32_t *in2,
                    int32_t *out);

/* SQUARED_DIFFERENCE float32: (a - b)^2. */
int32_t aot_squared_diff_f32(const aot_bcast_params *p, const float *in1, const float *in2,
                             float *out);

/* SQUARED_DIFFERENCE int8 (left_shift 7) / int16 (left_shift 0, zero points
 * 0), TFLM: out = mbqm((x_1 - x_2)^2, out_mult, out_shift) + out_offset with
 * x_k as for ADD; out_shift may be positive. */
int32_t aot_squared_diff_s8(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                            int8_t *out);
int32_t aot_squared_diff_s16(const aot_addsub_q_params *p, const int16_t *in1,
                             const int16_t *in2, int16_t *out);

/* MAXIMUM / MINIMUM on raw values (as TFLite: no requantization). */
int32_t aot_maximum_s8(const aot_bcast_params *p, const int8_t *in1, const int8_t *in2,
                       int8_t *out);
int32_t aot_minimum_s8(const aot_bcast_params *p, const int8_t *in1, const int8_t *in2,
                       int8_t *out);
int32_t aot_maximum_s16(const aot_bcast_params *p, const int16_t *in1, const int16_t *in2,
                        int16_t *out);
int32_t aot_minimum_s16(const aot_bcast_params *p, const int16_t *in1, const int16_t *in2,
                        int16_t *out);
int32_t aot_maximum_s32(const aot_bcast_params *p, const int32_t *in1, const int32_t *in2,
                        int32_t *out);
int32_t aot_minimum_s32(const aot_bcast_params *p, const int32_t *in1, const int32_t *in2,
                        int32_t *out);
/* float: std::max / std::min semantics (a < b ? b : a, b < a ? b : a). */
int32_t aot_maximum_f32(const aot_bcast_params *p, const float *in1, const float *in2,
                        float *out);
int32_t aot_minimum_f32(const aot_bcast_params *p, const float *in1, const float *in2,
                        float *out);

/* ======================================================================= */
/* Comparisons, logical operators, SELECT_V2                                */
/* ======================================================================= */

#define AOT_CMP_EQUAL 0
#define AOT_CMP_NOT_EQUAL 1
#define AOT_CMP_LESS 2
#define AOT_CMP_LESS_EQUAL 3
#define AOT_CMP_GREATER 4
#define AOT_CMP_GREATER_EQUAL 5

/* Output is bool (uint8 0/1). For int8 the TFLite scaling applies:
 *   v_k = mbqm_lt1((in_k + in_k_offset) << left_shift, in_k_mult, in_k_shift)
 * and the comparison is on v_1, v_2. Other types compare raw values. */
typedef struct aot_compare_params {
  aot_bcast bc;
  int32_t op;                       /* AOT_CMP_* */
  int32_t left_shift;               /* int8: 8 */
  int32_t in1_offset, in1_mult, in1_shift;
  int32_t in2_offset, in2_mult, in2_shift;
} aot_compare_params;

int32_t aot_compare_f32(const aot_compare_params *p, const float *in1, const float *in2,
                        uint8_t *out);
int32_t aot_compare_s32(const aot_compare_params *p, const int32_t *in1,
                        const int32_t *in2, uint8_t *out);
int32_t aot_compare_s8(const aot_compare_params *p, const int8_t *in1, const int8_t *in2,
                       uint8_t *out);
/* raw uint8 / bool values */
int32_t aot_compare_u8(const aot_compare_params *p, const uint8_t *in1, const uint8_t *in2,
                       uint8_t *out);

/* bool (uint8) logical operators; results are 0 or 1. */
int32_t aot_logical_and(const aot_bcast_params *p, const uint8_t *in1, const uint8_t *in2,
                        uint8_t *out);
int32_t aot_logical_or(const aot_bcast_params *p, const uint8_t *in1, const uint8_t *in2,
                       uint8_t *out);

/* SELECT_V2: out = cond ? x : y, elements of elem_size bytes (1, 2, 4, 8);
 * bc has three inputs (cond, x, y). */
typedef struct aot_select_params {
  aot_bcast bc;
  int32_t elem_size;
} aot_select_params;

int32_t aot_select(const aot_select_params *p, const uint8_t *cond, const void *x,
                   const void *y, void *out);

/* ======================================================================= */
/* Unary float math and activations                                         */
/* ======================================================================= */

typedef struct aot_unary_params {
  int32_t size;
} aot_unary_params;

/* float32 unary functions (one kernel per file). */
int32_t aot_exp_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_log_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_sqrt_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_rsqrt_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_abs_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_neg_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_floor_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_square_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_logistic_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_tanh_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_hard_swish_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_elu_f32(const aot_unary_params *p, const float *in, float *out);
/* int32 negation (wrapping). */
int32_t aot_neg_s32(const aot_unary_params *p, const int32_t *in, int32_t *out);
/* SIGN: 1, -1 or 0 (0 also for NaN). */
int32_t aot_sign_f32(const aot_unary_params *p, const float *in, float *out);
int32_t aot_sign_s32(const aot_unary_params *p, const int32_t *in, int32_t *out);
/* bool NOT */
int32_t aot_logical_not(const aot_unary_params *p, const uint8_t *in, uint8_t *out);

/* RELU / RELU6 / RELU_N1_TO_1 float: clamp to [lo, hi] (lo/hi may be
 * infinite). */
typedef struct aot_act_clamp_f32_params {
  int32_t size;
  float lo, hi;
} aot_act_clamp_f32_params;

int32_t aot_act_clamp_f32(const aot_act_clamp_f32_params *p, const float *in, float *out);

/* Quantized clamp without requantization (TFLM RELU6 int8/int16). */
typedef struct aot_act_clamp_q_params {
  int32_t size;
  int32_t lo, hi;
} aot_act_clamp_q_params;

int32_t aot_act_clamp_s8(const aot_act_clamp_q_params *p, const int8_t *in, int8_t *out);
int32_t aot_act_clamp_s16(const aot_act_clamp_q_params *p, const int16_t *in, int16_t *out);

/* Requantize then clamp (TFLite ReluQuantized, also RELU_N1_TO_1 and RELU6
 * when input and output quantization differ):
 *   out = clamp(out_zp + mbqm(in - in_zp, mult, shift), act_min, act_max). */
typedef struct aot_relu_q_params {
  int32_t size;
  int32_t in_zp, out_zp;
  int32_t mult, shift;
  int32_t act_min, act_max;
} aot_relu_q_params;

int32_t aot_relu_s8(const aot_relu_q_params *p, const int8_t *in, int8_t *out);
int32_t aot_relu_s16(const aot_relu_q_params *p, const int16_t *in, int16_t *out);
/* ABS quantized (same params): out = clamp(out_zp + mbqm(|in - in_zp|, mult,
 * shift), act_min, act_max). */
int32_t aot_abs_s8(const aot_relu_q_params *p, const int8_t *in, int8_t *out);
int32_t aot_abs_s16(const aot_relu_q_params *p, const int16_t *in, int16_t *out);

/* LEAKY_RELU quantized: identity multiplier for in >= zp, alpha multiplier
 * below; clamped to the type range. */
typedef struct aot_leaky_relu_q_params {
  int32_t size;
  int32_t in_zp, out_zp;
  int32_t mult_identity, shift_identity;
  int32_t mult_alpha, shift_alpha;
} aot_leaky_relu_q_params;

typedef struct aot_leaky_relu_f32_params {
  int32_t size;
  float alpha;
} aot_leaky_relu_f32_params;

int32_t aot_leaky_relu_s8(const aot_leaky_relu_q_params *p, const int8_t *in, int8_t *out);
int32_t aot_leaky_relu_s16(const aot_leaky_relu_q_params *p, const int16_t *in,
                           int16_t *out);
int32_t aot_leaky_relu_f32(const aot_leaky_relu_f32_params *p, const float *in, float *out);

/* LOGISTIC / TANH int8 (gemmlowp fixed point, input Q4.27): inputs with
 * |in - in_zp| >= range_radius saturate. LOGISTIC output zp -128 scale 1/256;
 * TANH output zp 0 scale 1/128. */
typedef struct aot_sigmoid_s8_params {
  int32_t size;
  int32_t in_zp;
  int32_t range_radius;
  int32_t mult, left_shift;     /* aot_mbqm(in - in_zp, mult, left_shift) */
} aot_sigmoid_s8_params;

int32_t aot_logistic_s8(const aot_sigmoid_s8_params *p, const int8_t *in, int8_t *out);
int32_t aot_tanh_s8(const aot_sigmoid_s8_params *p, const int8_t *in, int8_t *out);

/* LOGISTIC / TANH int16 (TFLite table interpolation, output Q0.15). mult 0
 * means the power-of-two input scale case. */
typedef struct aot_sigmoid_s16_params {
  int32_t size;
  int32_t mult, left_shift;
} aot_sigmoid_s16_params;

int32_t aot_logistic_s16(const aot_sigmoid_s16_params *p, const int16_t *in, int16_t *out);
int32_t aot_tanh_s16(const aot_sigmoid_s16_params *p, const int16_t *in, int16_t *out);

/* HARD_SWISH int8 (TFLite reference fixed-point algorithm). */
typedef struct aot_hard_swish_s8_params {
  int32_t size;
  int32_t in_zp, out_zp;
  int32_t out_mult16, out_exp;          /* int16 multiplier, exponent <= 0 */
  int32_t reluish_mult16, reluish_exp;
} aot_hard_swish_s8_params;

int32_t aot_hard_swish_s8(const aot_hard_swish_s8_params *p, const int8_t *in, int8_t *out);

/* PRELU quantized: bc has input 0 = input, input 1 = alpha. */
typedef struct aot_prelu_q_params {
  aot_bcast bc;
  int32_t in_offset, alpha_offset, out_offset;
  int32_t mult1, shift1;     /* input >= 0 */
  int32_t mult2, shift2;     /* input < 0: (in * alpha) */
} aot_prelu_q_params;

int32_t aot_prelu_s8(const aot_prelu_q_params *p, const int8_t *in, const int8_t *alpha,
                     int8_t *out);
int32_t aot_prelu_s16(const aot_prelu_q_params *p, const int16_t *in, const int8_t *alpha,
                      int16_t *out);
int32_t aot_prelu_f32(const aot_bcast_params *p, const float *in, const float *alpha,
                      float *out);

/* int8 -> int8 table lookup (ELU int8 and other LUT activations): out =
 * table[(uint8_t)in]. */
typedef struct aot_lut_s8_params {
  int32_t size;
  const int8_t *table;     /* 256 entries, indexed by the input's bit pattern */
} aot_lut_s8_params;

int32_t aot_lut_s8(const aot_lut_s8_params *p, const int8_t *in, int8_t *out);

/* ======================================================================= */
/* SOFTMAX / LOG_SOFTMAX                                                    */
/* ======================================================================= */

typedef struct aot_softmax_params {
  int32_t outer, depth;             /* rows x last dimension */
  /* int8 input (gemmlowp exp, Q5.26 diffs) */
  int32_t input_mult, input_left_shift;
  int32_t diff_min;
  /* int8 SOFTMAX: exp_tab[d] = the Q0.31 exp of the difference -d to the row
   * maximum, d < exp_tab_n (the differences at or above diff_min; below, the
   * output is the type minimum), made at compile time by
   * aot_softmax_s8_exp_table; NULL: computed per element */
  const int32_t *exp_tab;
  int32_t exp_tab_n;
  /* LOG_SOFTMAX int8 */
  int32_t reverse_scaling_divisor, reverse_scaling_right_shift;
  /* float */
  float beta;
  /* int16 input: 513-entry tables of exp on [-10, 0] and 1/(1+x) on [0, 1]
   * (TFLM gen_lut), input_mult/input_left_shift scale diffs to [-65535, 0] */
  const int16_t *exp_lut;
  const int16_t *one_over_one_plus_x_lut;
} aot_softmax_params;

int32_t aot_softmax_s8(const aot_softmax_params *p, const int8_t *in, int8_t *out);
int32_t aot_softmax_s8_s16(const aot_softmax_params *p, const int8_t *in, int16_t *out);
int32_t aot_softmax_s16(const aot_softmax_params *p, const int16_t *in, int16_t *out);
int32_t aot_softmax_f32(const aot_softmax_params *p, const float *in, float *out);
int32_t aot_log_softmax_f32(const aot_softmax_params *p, const float *in, float *out);
/* LOG_SOFTMAX int8: output scale 16/256, zero point 127. */
int32_t aot_log_softmax_s8(const aot_softmax_params *p, const int8_t *in, int8_t *out);

/* ======================================================================= */
/* QUANTIZE / DEQUANTIZE / requantization                                   */
/* ======================================================================= */

/* float32 -> integer: out = clamp(round_half_away(in / scale) + zp). */
typedef struct aot_quantize_params {
  int32_t size;
  float scale;
  int32_t zero_point;
} aot_quantize_params;

int32_t aot_quantize_f32_s8(const aot_quantize_params *p, const float *in, int8_t *out);
int32_t aot_quantize_f32_s16(const aot_quantize_params *p, const float *in, int16_t *out);
int32_t aot_quantize_f32_u8(const aot_quantize_params *p, const float *in, uint8_t *out);

/* integer -> integer (TFLite Requantize): out = clamp(mbqm(in - in_zp, mult,
 * shift) + out_zp). in_type / out_type are AOT_RQ_* codes. */
#define AOT_RQ_S8 0
#define AOT_RQ_U8 1
#define AOT_RQ_S16 2
#define AOT_RQ_S32 3

typedef struct aot_requant_params {
  int32_t size;
  int32_t in_type, out_type;
  int32_t in_zp, out_zp;
  int32_t mult, shift;
} aot_requant_params;

/* one entry point per type pair: aot_requantize_<in>_<out> */
int32_t aot_requantize_s8_s8(const aot_requant_params *p, const int8_t *in, int8_t *out);
int32_t aot_requantize_s8_u8(const aot_requant_params *p, const int8_t *in, uint8_t *out);
int32_t aot_requantize_s8_s16(const aot_requant_params *p, const int8_t *in, int16_t *out);
int32_t aot_requantize_s8_s32(const aot_requant_params *p, const int8_t *in, int32_t *out);
int32_t aot_requantize_u8_s8(const aot_requant_params *p, const uint8_t *in, int8_t *out);
int32_t aot_requantize_s16_s8(const aot_requant_params *p, const int16_t *in, int8_t *out);
int32_t aot_requantize_s16_s16(const aot_requant_params *p, const int16_t *in, int16_t *out);
int32_t aot_requantize_s16_s32(const aot_requant_params *p, const int16_t *in, int32_t *out);
int32_t aot_requantize_s32_s8(const aot_requant_params *p, const int32_t *in, int8_t *out);
int32_t aot_requantize_s32_s16(const aot_requant_params *p, const int32_t *in, int16_t *out);

/* integer -> float32: out = scale * (in - zp) (exact product, rounded once). */
typedef struct aot_dequantize_params {
  int32_t size;
  float scale;
  int32_t zero_point;
} aot_dequantize_params;

int32_t aot_dequantize_s8(const aot_dequantize_params *p, const int8_t *in, float *out);
int32_t aot_dequantize_s16(const aot_dequantize_params *p, const int16_t *in, float *out);
int32_t aot_dequantize_u8(const aot_dequantize_params *p, const uint8_t *in, float *out);
/* per-channel: the tensor as [outer, channels, inner], one scale and zero
 * point per channel. */
typedef struct aot_dequantize_pc_params {
  int32_t outer, channels, inner;
  const float *scales;
  const int32_t *zero_points;
} aot_dequantize_pc_params;

int32_t aot_dequantize_pc_s8(const aot_dequantize_pc_params *p, const int8_t *in, float *out);
int32_t aot_dequantize_pc_s16(const aot_dequantize_pc_params *p, const int16_t *in,
                              float *out);
/* IEEE binary16 bit patterns -> float32, exact (subnormals, inf, NaN). */
int32_t aot_dequantize_f16(const aot_unary_params *p, const uint16_t *in, float *out);

#endif
