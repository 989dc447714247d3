/* ref_f16.c - float16 operators in the host reference interpreter.
 *
 * A compiled module runs a float16 operator that has no float16 kernel as
 * the float32 operator over the float16 values, its results rounded to
 * binary16 (transform lower_fp16, src/ir/fp16_lower.c). The reference
 * interpreter runs the original graph, so it applies the same rule itself,
 * one op at a time: every float16 tensor the op reads or writes is seen as a
 * float32 tensor for the duration of the op (inputs and constants decoded
 * exactly, every binary16 value being a binary32 value), the op's float32
 * check() and eval() run, and each float16 output is rounded to binary16
 * (round to nearest even, aot_f32_to_f16). Ops the module leaves alone are
 * left alone here too: CAST, DEQUANTIZE, QUANTIZE, control flow, resource
 * variables, ops on persistent (variable) or quantized float16 tensors. */
#include "ref_f16.h"

#include <stdlib.h>
#include <string.h>

#include "aot_f16.h"

typedef struct f16_slot {
  int t;
  int is_out;
  void *orig;                 /* data[t] before */
  const uint8_t *orig_const;  /* tensor data before (constants) */
  size_t orig_bytes;
  float *buf;
} f16_slot;

static int leaves_alone(int b) {
  switch (b) {
    case OP_CAST: case OP_DEQUANTIZE: case OP_QUANTIZE: case OP_WHILE: case OP_IF:
    case OP_CALL: case OP_CALL_ONCE: case OP_VAR_HANDLE: case OP_READ_VARIABLE:
    case OP_ASSIGN_VARIABLE:
      return 1;
    default:
      return 0;
  }
}

static int add_slot(f16_slot *s, int *n, int max, int t, int is_out) {
  for (int i = 0; i < *n; i++)
    if (s[i].t == t) {
      s[i].is_out |= is_out;
      return 0;
    }
  if (*n >= max) return -1;
  memset(&s[*n], 0, sizeof s[*n]);
  s[*n].t = t;
  s[*n].is_out = is_out;
  (*n)++;
  return 0;
}

int ref_f16_run(ir_graph *g, const ir_op *op, const op_impl *impl, void **data, void **scratch,
                size_t *scratch_cap, int *status) {
  enum { MAXS = 64 };
  f16_slot s[MAXS];
  int ns = 0;
  *status = 0;
  if (!impl || !op_has_eval(impl) || leaves_alone(op->builtin)) return 1;
  for (int k = 0; k < op->nin + op->nout; k++) {
    int is_out = k >= op->nin;
    int t = is_out ? op->out[k - op->nin] : op->in[k];
    if (t < 0 || g->t[t].dtype != DT_FLOAT16) continue;
    const ir_tensor *x = &g->t[t];
    if (x->role == ROLE_PERSISTENT || x->nq > 0) return 1;
    if (add_slot(s, &ns, MAXS, t, is_out)) return 1;
  }
  if (ns == 0) return 1;
  /* float32 twins */
  for (int i = 0; i < ns; i++) {
    ir_tensor *x = &g->t[s[i].t];
    size_t n = ir_numel(x);
    const uint16_t *h = data[s[i].t];
    s[i].buf = xcalloc(n ? n : 1, sizeof(float));
    for (size_t e = 0; h && e < n; e++) s[i].buf[e] = aot_f16_to_f32(h[e]);
    s[i].orig = data[s[i].t];
    s[i].orig_const = x->data;
    s[i].orig_bytes = x->data_bytes;
    x->dtype = DT_FLOAT32;
    if (x->role == ROLE_CONST) {
      x->data = (const uint8_t *)s[i].buf;
      x->data_bytes = n * sizeof(float);
    }
    data[s[i].t] = s[i].buf;
  }
  char why[256];
  int rc = 1;
  if (!impl->check || impl->check(g, op, why, sizeof why) == 0) {
    size_t sb = impl->scratch ? impl->scratch(g, op) : 0;
    if (sb > *scratch_cap) {
      free(*scratch);
      *scratch = xmalloc(sb);
      *scratch_cap = sb;
    }
    if (sb) memset(*scratch, 0xA5, sb);
    *status = op_eval(impl, g, op, data, sb ? *scratch : NULL);
    rc = 0;
  }
  for (int i = ns - 1; i >= 0; i--) {
    ir_tensor *x = &g->t[s[i].t];
    x->dtype = DT_FLOAT16;
    x->data = s[i].orig_const;
    x->data_bytes = s[i].orig_bytes;
    data[s[i].t] = s[i].orig;
    if (rc == 0 && *status == 0 && s[i].is_out) {
      size_t n = ir_numel(x);
      uint16_t *h = s[i].orig;
      for (size_t e = 0; e < n; e++) h[e] = aot_f32_to_f16(s[i].buf[e]);
    }
    free(s[i].buf);
  }
  return rc;
}
