/* writer.c - serializes a litert_model to a .tflite flatbuffer (in progress). */
#include "litert.h"

#include <stdlib.h>

int litert_write(const litert_model *m, uint8_t **out, size_t *len, aotc_diag *d) {
  (void)m;
  *out = NULL;
  *len = 0;
  return diag_error(d, "litert_write: not implemented yet");
}

int litert_write_file(const litert_model *m, const char *path, aotc_diag *d) {
  uint8_t *buf;
  size_t len;
  if (litert_write(m, &buf, &len, d)) return -1;
  int rc = write_file_all(path, buf, len, d);
  free(buf);
  return rc;
}
