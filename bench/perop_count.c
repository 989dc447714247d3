/* perop_count.c - QEMU TCG plugin for bench/perop.sh: like
 * targets/qemu-plugin/insn_count.c (same arguments start=, stop=, out=) but
 * writes the instruction count of every start..stop region on its own line
 * ("region=N") instead of their sum, so one run of a firmware whose op
 * callback brackets each operator gives the count of every operator. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_REGIONS 4096
static uint64_t insn_total, region_begin, counts[MAX_REGIONS];
static size_t nregions;
static int in_region;
static uint64_t start_addr = UINT64_MAX, stop_addr = UINT64_MAX;
static char *out_path;

static void on_start(unsigned int vcpu, void *udata) {
  (void)vcpu;
  (void)udata;
  if (!in_region) {
    in_region = 1;
    region_begin = insn_total;
  }
}

static void on_stop(unsigned int vcpu, void *udata) {
  uint64_t now = insn_total - (uint64_t)(uintptr_t)udata;
  (void)vcpu;
  if (in_region) {
    in_region = 0;
    if (nregions < MAX_REGIONS) counts[nregions++] = now - region_begin;
  }
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  size_t n = qemu_plugin_tb_n_insns(tb), i;
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insn_total,
                                           (uint64_t)n);
  for (i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t va = qemu_plugin_insn_vaddr(insn);
    if (va == start_addr)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
    else if (va == stop_addr)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)(uintptr_t)(n - i));
  }
}

static void at_exit(qemu_plugin_id_t id, void *udata) {
  FILE *f = out_path ? fopen(out_path, "w") : NULL;
  size_t i;
  (void)id;
  (void)udata;
  if (!f) return;
  fprintf(f, "insns_total=%" PRIu64 "\n", insn_total);
  for (i = 0; i < nregions; i++) fprintf(f, "region=%" PRIu64 "\n", counts[i]);
  fclose(f);
}

static int parse_addr(const char *s, uint64_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  if (*s == '\0' || *end != '\0') return -1;
  *out = (uint64_t)v & ~(uint64_t)1;
  return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv) {
  int i;
  (void)info;
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "start=", 6) == 0) {
      if (parse_addr(a + 6, &start_addr)) return -1;
    } else if (strncmp(a, "stop=", 5) == 0) {
      if (parse_addr(a + 5, &stop_addr)) return -1;
    } else if (strncmp(a, "out=", 4) == 0) {
      out_path = strdup(a + 4);
    } else {
      fprintf(stderr, "perop_count: bad argument '%s'\n", a);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
