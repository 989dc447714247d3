/* pcprof.c - QEMU TCG plugin for bench/hotspots.sh: counts how often every
 * translated block runs and writes one line per block that ran, "VADDR
 * INSNS COUNT" (hex address, instructions of the block, executions), at
 * exit to out=FILE. The script maps the addresses to the firmware's
 * functions: a per-function (and per-block) instruction profile of the
 * whole run. Built like targets/qemu-plugin/insn_count.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_TBS (1u << 20)
typedef struct tb_count {
  uint64_t va, n, cnt;
} tb_count;
static tb_count *tbs[MAX_TBS];
static size_t ntb;
static char *out_path;

static void on_tb(unsigned int vcpu, void *udata) {
  (void)vcpu;
  ((tb_count *)udata)->cnt++;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  tb_count *t;
  (void)id;
  if (ntb >= MAX_TBS) return;   /* retranslations past the table: not counted */
  t = calloc(1, sizeof *t);
  if (!t) return;
  t->va = qemu_plugin_tb_vaddr(tb);
  t->n = qemu_plugin_tb_n_insns(tb);
  tbs[ntb++] = t;
  qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS, t);
}

static void at_exit(qemu_plugin_id_t id, void *u) {
  FILE *f = fopen(out_path, "w");
  size_t i;
  (void)id;
  (void)u;
  if (!f) return;
  for (i = 0; i < ntb; i++)
    if (tbs[i]->cnt)
      fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", tbs[i]->va, tbs[i]->n, tbs[i]->cnt);
  fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv) {
  (void)info;
  if (argc < 1 || strncmp(argv[0], "out=", 4) != 0) {
    fprintf(stderr, "pcprof: usage -plugin pcprof.so,out=FILE\n");
    return -1;
  }
  out_path = strdup(argv[0] + 4);
  qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
