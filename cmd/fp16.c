/* fp16.c - `aotc fp16 IN.tflite OUT.tflite [--io fp16|float32]`: rewrites a
 * float32 (or float16-weights) model into a fully float16 model. */
#include "litert/fp16.h"

#include <stdlib.h>
#include <string.h>

int cmd_fp16(int argc, char **argv);

static void fp16_usage(FILE *f) {
  fputs("usage: aotc fp16 IN.tflite OUT.tflite [--io fp16|float32]\n\n"
        "Rewrites a float32 (or float16-weights) model into a fully float16 model:\n"
        "float16 weights, activations and state in every subgraph (loop bodies too);\n"
        "DEQUANTIZE of float16 / int8 weights is folded into float16 constants.\n"
        "Model inputs and outputs stay float32 behind CAST ops unless --io fp16.\n",
        f);
}

int cmd_fp16(int argc, char **argv) {
  aotc_diag d = {0};
  const char *in = NULL, *out = NULL;
  int io_fp16 = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fp16_usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--io") || !strncmp(a, "--io=", 5)) {
      const char *v = a[4] == '=' ? a + 5 : (i + 1 < argc ? argv[++i] : NULL);
      if (v && (!strcmp(v, "fp16") || !strcmp(v, "float16"))) io_fp16 = 1;
      else if (v && (!strcmp(v, "fp32") || !strcmp(v, "float32"))) io_fp16 = 0;
      else {
        fprintf(stderr, "aotc: error: --io takes fp16 or float32 (got '%s')\n", v ? v : "");
        return 1;
      }
      continue;
    }
    if (a[0] == '-' && a[1]) {
      fprintf(stderr, "aotc: error: unknown option '%s' for fp16 (valid: --io fp16|float32)\n", a);
      return 1;
    }
    if (!in) in = a;
    else if (!out) out = a;
    else {
      fprintf(stderr, "aotc: error: unexpected argument '%s'\n", a);
      return 1;
    }
  }
  if (!in || !out) {
    fp16_usage(stderr);
    return 1;
  }
  litert_model *m = litert_read_file(in, &d);
  if (!m) {
    fprintf(stderr, "aotc: error: %s\n", d.msg);
    return d.code ? d.code : 1;
  }
  litert_fp16_stats st;
  int rc = litert_to_fp16_ex(m, io_fp16, &st, &d);
  if (rc == 0) rc = litert_write_file(m, out, &d);
  litert_model_free(m);
  if (rc != 0) {
    fprintf(stderr, "aotc: error: %s\n", d.msg[0] ? d.msg : "failed");
    return d.code ? d.code : 1;
  }
  printf("aotc: wrote float16 model %s (%d tensors float16, %d constants converted, %d "
         "DEQUANTIZE folded, %d ops removed, %d casts for float32 I/O)\n",
         out, st.tensors, st.constants, st.folded, st.removed, st.casts);
  return 0;
}
