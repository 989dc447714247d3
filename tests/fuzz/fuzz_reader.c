/* fuzz_reader.c - libFuzzer target for the .tflite reader and writer.
 *
 * Property checked beyond "no crash / no sanitizer report": every input the
 * reader accepts must survive write -> read unchanged (and the second write
 * must be byte-identical), and every rejected input must come with a one-line
 * "malformed/unsupported .tflite:" message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litert/litert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  aotc_diag d;
  memset(&d, 0, sizeof d);
  d.quiet = 1;
  litert_model *m = litert_read(data, size, &d);
  if (!m) {
    if (strncmp(d.msg, "malformed .tflite: ", 19) != 0 &&
        strncmp(d.msg, "unsupported .tflite: ", 21) != 0) {
      fprintf(stderr, "bad diagnostic: '%s'\n", d.msg);
      abort();
    }
    if (strchr(d.msg, '\n')) abort();
    return 0;
  }
  size_t total = 0;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int t = 0; t < m->subgraphs[s].ntensors; t++)
      total += litert_tensor_bytes(&m->subgraphs[s].tensors[t]);
  (void)total;
  uint8_t *out = NULL, *out2 = NULL;
  size_t len = 0, len2 = 0;
  if (litert_write(m, &out, &len, &d) != 0) {
    fprintf(stderr, "write failed: %s\n", d.msg);
    abort();
  }
  litert_model *m2 = litert_read(out, len, &d);
  if (!m2) {
    fprintf(stderr, "re-read of written model failed: %s\n", d.msg);
    abort();
  }
  char why[256];
  if (!litert_model_equal(m, m2, why, sizeof why)) {
    fprintf(stderr, "roundtrip differs: %s\n", why);
    abort();
  }
  if (litert_write(m2, &out2, &len2, &d) != 0 || len2 != len || memcmp(out, out2, len) != 0) {
    fprintf(stderr, "second write differs\n");
    abort();
  }
  free(out);
  free(out2);
  litert_model_free(m2);
  litert_model_free(m);
  return 0;
}
