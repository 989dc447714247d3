/* lower.h - the lowering step: an operator lowers, once, to a short list of
 * kernel calls described as data, and everything downstream works on that
 * list only.
 *
 * A kernel is a row of kernels.def; its descriptor (lower_kernel) gives the C
 * symbol, the runtime file the module must carry, the params struct type and
 * the fields printed for it (through its LP_* kind), the number of tensor
 * inputs and a host function pointer to the very function the module calls.
 * Operators name kernels by id, LK(aot_add_s8), so a misspelt kernel fails
 * the build. A call (lower_call) is a kernel, its parameter values, its
 * tensor (or scratch) arguments and the constant tables its params point to;
 * an operator's `lower` entry fills a lower_list of them.
 * The code generator prints any list with lower_emit (one params struct and
 * one kernel call per entry) and the reference interpreter and the constant
 * folder run it with lower_eval (the descriptor's function pointer), so the
 * module and the host evaluate the same parameters with the same kernels.
 *
 * Kernel variants: which paths of a kernel a layer reaches (the AOT_F_<name>
 * switches of runtime/aot_features.h, e.g. the clipped-window path of the
 * int8 convolution) is decided in the lowering, and only there: the
 * operator's lower entry sets the call's features (LF(<name>) bits, from the
 * same parameters it gives the kernel) and lower_emit names them for the
 * module (emit_feature), which keeps every other path out of its runtime. */
#ifndef AOTC_LOWER_H
#define AOTC_LOWER_H

#include "aot_conv.h"
#include "aot_elementwise.h"
#include "aot_movement.h"
#include "aot_recurrent.h"
#include "ops.h"

/* Params struct kinds (which member of lower_call.u a kernel reads). */
enum {
  /* convolution family (lower_conv.c): in[] = input, filter / weights, bias
   * (-1 none), out = output; the hybrid kinds are wide calls f(params, argv)
   * with argv = {&hybrid params, input, filter, bias, output, scratch} */
  LP_CONV, LP_CONV_HYB, LP_FC, LP_FC_HYB, LP_BMM,
  LP_ADDSUB, LP_POT, LP_MUL, LP_ARITH_F32, LP_ARITH_S32, LP_BCAST, LP_COMPARE, LP_SELECT,
  LP_UNARY, LP_ACT_CLAMP_F32, LP_ACT_CLAMP_Q, LP_RELU_Q, LP_LEAKY_Q, LP_LEAKY_F32, LP_SIG_S8,
  LP_SIG_S16, LP_HSWISH, LP_PRELU_Q, LP_LUT_S8, LP_SOFTMAX, LP_QUANTIZE, LP_REQUANT, LP_DEQUANT,
  LP_DEQUANT_PC, LP_POOL, LP_REDUCE, LP_ARG, LP_GRU,
  LP_SVDF, LP_LSTM_F32, LP_LSTM_Q, /* recurrent: printed by lower_rec.c */
  LP_STEP /* a movement step: the step engine (mv_engine.c) prints its params */
};

/* Kernel ids, one per kernels.def row: LK_aot_add_s8, ... */
enum {
  LK_none = -1, /* LK(none): no kernel */
#define AOT_KERNEL(NAME, FILE, KIND, NIN) LK_##NAME,
#include "kernels.def"
#undef AOT_KERNEL
  LK_COUNT
};
/* The id of kernel NAME (a C identifier, checked by the compiler). */
#define LK(NAME) LK_##NAME

/* Kernel variant paths a call may reach: AOT_F_<name> of
 * runtime/aot_features.h (its comments say what each one means). */
#define LOWER_FEATURES(X)                                                                   \
  X(CONV_S8_BIG) X(CONV_S8_CLIP) X(DW_S8_CLIP) X(DW_S8_TAIL) X(DW_S8_DM1) X(DW_S8_FEW)     \
  X(DW_S8_DM) X(DW_S8_BIG) X(FC_S8_LONG) X(FC_S8_ROWS4) X(FC_S8_ROWS3) X(DW_S8_GEN) \
  X(DW_S8_3S1) X(DW_S8_3S2) X(EW_S8_FLATP) X(POOL_S8_TAIL) \
  X(CONV_S8_NOKB) X(DW_S8_3SLOW) X(CONV_S8_G4) \
  X(CONV_S8_FPAD) \
  X(CONV_S8_NARROW) X(CONV_S8_PWK) X(SOFTMAX_S8_TAB) X(CONV_S8_FIRST) \
  X(CONV_S8_GW) X(CONV_S8_FSPREAD) X(CONV_S8_FEVEN) X(CONV_S8_FSLOW) X(CONV_S8_FMVE)
enum {
#define LOWER_FEATURE_ID(NAME) LF_##NAME,
  LOWER_FEATURES(LOWER_FEATURE_ID)
#undef LOWER_FEATURE_ID
  LF_COUNT
};
/* The bit of feature NAME in lower_call.features (checked by the compiler). */
#define LF(NAME) (1u << LF_##NAME)

/* Uniform host call of a kernel: f(params, in0, in1, in2, out), the inputs
 * past the kernel's count ignored. A wide kernel (more than 3 tensor
 * arguments, as the GRU's) is called f(params, argv, NULL, NULL, NULL) with
 * argv its nin arguments in order (void *const *). */
typedef int32_t (*lower_fn)(const void *p, const void *a, const void *b, const void *c, void *y);

typedef struct lower_kernel {
  const char *name;      /* C function, e.g. "aot_add_s8" */
  const char *file;      /* runtime file relative to runtime/ */
  int kind;              /* LP_*: params struct type and printed fields */
  int nin;               /* tensor inputs of the call (1..3), or more than 3:
                            a wide call, its arguments in lower_call.arg */
  lower_fn fn;           /* calls the function `name` itself */
} lower_kernel;

/* The descriptor of kernel id k (LK_*). */
const lower_kernel *lower_kernel_get(int k);
/* The C type of the params struct of kind LP_* ("aot_addsub_q_params"). */
const char *lower_params_ctype(int kind);

/* Entries of one int32 array argument. */
#define LOWER_MAX_IA 16

/* Arguments of a wide call. */
#define LOWER_MAX_ARGS 27

/* One argument of a wide call: a tensor (t: its id, LOWER_SCRATCH, or -1 for
 * NULL) or, when adt is set, a constant array of the op computed at compile
 * time (repacked weights), emitted as "<opname>_<name>". cast, when set,
 * prints before the argument: "(const float *)". */
typedef struct lower_arg {
  int t;
  const char *cast;
  char adt;         /* 0 tensor; 'f' float, 'b' int8, 'h' int16, 'w' int32, 'l' int64 array */
  const char *name; /* array name suffix ("w_packed") */
  void *data;       /* the array (heap; released by lower_release) */
  size_t n;         /* its elements */
} lower_arg;

typedef struct lower_call {
  const lower_kernel *k;
  int in[3];             /* tensor ids passed as inputs (-1 = NULL,
                            LOWER_SCRATCH = the op's scratch buffer) */
  int out;
  uint32_t features;     /* LF(...) bits: the kernel variant paths this call reaches */
  int mve_pack;          /* int8 CONV_2D: its filter is stored packed for the Helium
                            build (aot_conv_params.filter_packed; op_conv.c) */
  union {
    /* LP_CONV / LP_CONV_HYB (h: hybrid kernels only), LP_FC / LP_FC_HYB,
     * LP_BMM; their constant arrays sit in arg[] by role (LOWER_CA_*) */
    struct {
      aot_conv_params p;
      aot_hybrid_params h;
    } conv;
    struct {
      aot_fc_params p;
      aot_hybrid_params h;
    } fc;
    aot_bmm_params bmm;
    aot_addsub_q_params addsub;
    aot_addsub_pot_params pot;
    aot_mul_q_params mul;
    aot_arith_f32_params af;
    aot_arith_s32_params ai;
    aot_bcast_params bp;
    aot_compare_params cmp;
    aot_select_params sel;
    aot_unary_params un;
    aot_act_clamp_f32_params cf;
    aot_act_clamp_q_params cq;
    aot_relu_q_params relu;
    aot_leaky_relu_q_params lq;
    aot_leaky_relu_f32_params lf;
    aot_sigmoid_s8_params s8;
    aot_sigmoid_s16_params s16;
    aot_hard_swish_s8_params hs;
    aot_prelu_q_params prelu;
    aot_lut_s8_params lut;
    aot_softmax_params sm;
    aot_quantize_params q;
    aot_requant_params rq;
    aot_dequantize_params dq;
    aot_dequantize_pc_params dpc;
    aot_pool_params pool;
    aot_reduce_params rd;
    aot_arg_minmax_params arg;
    aot_gru_params gru;
    aot_svdf_params svdf;
    aot_lstm_f32_params lstm_f;
    aot_lstm_q_params lstm_q;
  } u;
  /* constant tables the params point to (softmax int16, LUT activations),
   * emitted as arrays of the op */
  int nlut16;
  int16_t lut16[2][513];
  int nlut8;
  int8_t lut8[256];
  int nlut32;            /* int8 SOFTMAX's exponential table */
  int32_t lut32[256];
  /* int32 arrays the params point to, in the order of their pointer
   * members (reduction counts and strides), emitted as arrays of the op
   * named after the member */
  int nia[2];
  int32_t ia[2][LOWER_MAX_IA];
  /* per-channel arrays (heap; released by lower_release) */
  int nchan;
  float *chan_scale;
  int32_t *chan_zp;
  /* a wide call's arguments (k->nin of them): the params print first, then
   * the arrays in argument order, then the call */
  lower_arg arg[LOWER_MAX_ARGS];
} lower_call;

/* The constant arrays of a convolution-family call, by their place in arg[]
 * (adt 0: absent): requantization multipliers and shifts ('w', the params'
 * out_mult / out_shift), an int64 bias replacing the bias tensor ('l'), the
 * hybrid filter scales ('f', filter_scale), the folded int8 FC bias ('w',
 * kbias) and the few-channel path's constants ('w', first). lower_conv.c
 * prints them before the params and points the params at them for the host
 * call. */
enum { LOWER_CA_MULT, LOWER_CA_SHIFT, LOWER_CA_BIAS64, LOWER_CA_SCALE, LOWER_CA_KBIAS,
       LOWER_CA_FIRST };

/* An input argument that is the op's scratch buffer (its scratch() bytes). */
#define LOWER_SCRATCH (-2)

/* At most this many kernel calls per operator. */
#define LOWER_MAX_CALLS 4

struct lower_list { /* typedef lower_list in ops.h */
  int n;
  lower_call call[LOWER_MAX_CALLS];
};

/* Starts call c of kernel k (LK_*) with inputs in0..in2 (-1 for none) and the
 * output tensor; the params are zero. */
void lower_call_init(lower_call *c, int k, int in0, int in1, int in2, int out);
/* Prints every call: a static const params struct "<opname>_p" (the second
 * call "<opname>_p1", ...), its tables, the call and its runtime file. */
int lower_emit(emit_ctx *e, lower_list *L);
/* Runs every call on host buffers (data[t] = storage of tensor t, scratch =
 * the op's scratch buffer); 0 or the first non-zero kernel status. */
int lower_eval(lower_list *L, void *const *data, void *scratch);
/* Frees the heap parts of a list (safe on a failed or empty one). */
void lower_release(lower_list *L);

/* ---- the operator's side ---------------------------------------------------- */

/* Lowers an op through its `lower` entry into L (released by the caller
 * with lower_release, also on failure). 0, or -1 with a reason. */
int lower_op(const op_impl *impl, const ir_graph *g, const ir_op *op, lower_list *L, char *why,
             size_t n);
/* op_emit, op_eval and op_has_eval (ops.h) are defined in lower.c. */

/* lower_conv.c: printing and host call of the convolution-family kinds
 * (LP_CONV .. LP_BMM), reached from lower_emit / lower_eval. */
int lower_conv_emit(emit_ctx *e, lower_call *c, const char *pname);
int lower_conv_eval(lower_call *c, void *const *data, void *scratch);
/* Puts constant array data (heap, n elements of type adt, emitted as
 * "<opname>_<name>") at place role (LOWER_CA_*) of call c. */
void lower_conv_array(lower_call *c, int role, char adt, const char *name, void *data,
                      size_t n);
/* The scratch bytes of the op lowered by f (one call): the size function of
 * its kernel (int8 CONV_2D / DEPTHWISE_CONV_2D SIMD windows and tables, the
 * hybrid kernels' quantized input, the int8 ADD / SUB rescale table), 0 for
 * the others. The one place that maps a lowered call to its scratch. */
size_t lower_scratch(lower_op_fn f, const ir_graph *g, const ir_op *op);

/* check of a lowered op: 0 if its lower entry succeeds, else -1 and why. */
int lower_check(lower_op_fn f, const ir_graph *g, const ir_op *op, char *why, size_t n);

/* Defines op_VAR, an operator entry whose check is "LOWER lowers it" and
 * whose emit and eval are the generic ones (lower_emit, lower_eval);
 * LOWER_OPDEF_SCRATCH also gives it a scratch entry. */
#define LOWER_OPDEF(VAR, CODE, NAME, LOWER, INPLACE, DTYPES, CONSTRAINTS)                 \
  LOWER_OPDEF_SCRATCH(VAR, CODE, NAME, LOWER, INPLACE, NULL, DTYPES, CONSTRAINTS)
#define LOWER_OPDEF_SCRATCH(VAR, CODE, NAME, LOWER, INPLACE, SCRATCH, DTYPES, CONSTRAINTS) \
  static int VAR##_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {        \
    return lower_check(LOWER, g, op, why, n);                                             \
  }                                                                                       \
  const op_impl op_##VAR = {.builtin = CODE,                                              \
                            .name = NAME,                                                 \
                            .dtypes = DTYPES,                                             \
                            .constraints = CONSTRAINTS,                                   \
                            .check = VAR##_check,                                         \
                            .scratch = SCRATCH,                                           \
                            .inplace = INPLACE,                                           \
                            .lower = LOWER};

#endif
