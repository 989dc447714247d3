/* fuzz_convert.c - libFuzzer target for the whole conversion: reader, LiteRT
 * hooks, IR, transforms, memory plan, operator checks and code generation into
 * a temporary directory. Property: no crash, no sanitizer report, and every
 * refusal comes with a non-empty one-line message. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static aotc_config cfg;
static int cfg_ready;

static void check_msg(const aotc_diag *d) {
  if (!d->msg[0] || strchr(d->msg, '\n')) {
    fprintf(stderr, "bad diagnostic: '%s'\n", d->msg);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!cfg_ready) {
    config_init(&cfg);
    compile_register_switches(&cfg);
    cfg_ready = 1;
  }
  aotc_diag d;
  memset(&d, 0, sizeof d);
  d.quiet = 1;
  litert_model *m = litert_read(data, size, &d);
  if (!m) {
    check_msg(&d);
    return 0;
  }
  compiled cm;
  if (compile_litert(&cfg, m, NULL, 1, &cm, &d) != 0) {
    check_msg(&d);
    return 0;
  }
  char tmpl[] = "/tmp/aotc-fuzz-XXXXXX";
  if (mkdtemp(tmpl)) {
    char dir[64];
    snprintf(dir, sizeof dir, "%s/m", tmpl);
    if (compile_write_module(&cfg, &cm, dir, &d) != 0) check_msg(&d);
    remove_tree(tmpl);
  }
  compiled_free(&cm);
  return 0;
}
