/* insn_count.c - QEMU TCG plugin counting executed guest instructions.
 *
 * Arguments (-plugin insn_count.so,key=value,...):
 *   start=ADDR  address of the first instruction of the "region start"
 *               marker function (target_count_start)
 *   stop=ADDR   same for the "region stop" marker (target_count_stop)
 *   out=PATH    write the result there (default: QEMU log, i.e. stderr)
 * Result (key=value lines):
 *   insns_total=N    all instructions executed by the vCPU
 *   insns_region=N   instructions executed inside start..stop regions,
 *                    summed; a region runs from the instruction after the
 *                    start marker returns to the call of the stop marker
 *                    (markers themselves excluded; an empty region counts
 *                    the call instruction only)
 *   regions=N        number of completed regions
 *   region_K=N       instructions of region K (0-based), for the first
 *                    MAX_REGIONS regions (per-operator profiles bracket
 *                    each operator with the markers)
 *
 * Counting: every translation block adds its instruction count to a 64-bit
 * counter with an inline add when it starts executing (cheap and exact
 * unless an exception interrupts a block half-way, which does not happen
 * in the firmware's normal flow). The markers get per-instruction
 * callbacks that read the counter. Single vCPU only (the MPS boards). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t insn_total;
static uint64_t region_sum;
static uint64_t region_begin;
static uint64_t regions;
static int in_region;
static uint64_t start_addr = UINT64_MAX;
static uint64_t stop_addr = UINT64_MAX;
static char *out_path;
#define MAX_REGIONS 65536
static uint64_t *region_counts; /* first MAX_REGIONS regions */

static void on_start(unsigned int vcpu, void *udata) {
  (void)vcpu;
  (void)udata;
  if (!in_region) {
    in_region = 1;
    region_begin = insn_total; /* already includes the marker's block */
  }
}

static void on_stop(unsigned int vcpu, void *udata) {
  /* udata: instructions of the current block from the marker to its end,
   * already added to insn_total but belonging to the marker. */
  uint64_t now = insn_total - (uint64_t)(uintptr_t)udata;
  (void)vcpu;
  if (in_region) {
    in_region = 0;
    region_sum += now - region_begin;
    if (regions < MAX_REGIONS) {
      if (!region_counts) region_counts = calloc(MAX_REGIONS, sizeof *region_counts);
      if (region_counts) region_counts[regions] = now - region_begin;
    }
    regions++;
  }
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  size_t n = qemu_plugin_tb_n_insns(tb);
  size_t i;
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                           &insn_total, (uint64_t)n);
  if (start_addr == UINT64_MAX && stop_addr == UINT64_MAX) return;
  for (i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t va = qemu_plugin_insn_vaddr(insn);
    if (va == start_addr)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start,
                                             QEMU_PLUGIN_CB_NO_REGS, NULL);
    else if (va == stop_addr)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop,
                                             QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)(uintptr_t)(n - i));
  }
}

static void at_exit(qemu_plugin_id_t id, void *udata) {
  char buf[256];
  (void)id;
  (void)udata;
  snprintf(buf, sizeof buf,
           "insns_total=%" PRIu64 "\ninsns_region=%" PRIu64
           "\nregions=%" PRIu64 "\n",
           insn_total, region_sum, regions);
  uint64_t k, nk = regions < MAX_REGIONS ? regions : MAX_REGIONS;
  if (out_path) {
    FILE *f = fopen(out_path, "w");
    if (f) {
      fputs(buf, f);
      for (k = 0; k < nk && region_counts; k++)
        fprintf(f, "region_%" PRIu64 "=%" PRIu64 "\n", k, region_counts[k]);
      fclose(f);
      return;
    }
  }
  qemu_plugin_outs(buf);
}

static int parse_addr(const char *s, uint64_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  if (*s == '\0' || *end != '\0') return -1;
  *out = (uint64_t)v & ~(uint64_t)1; /* drop the Thumb bit */
  return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  int i;
  (void)info;
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "start=", 6) == 0) {
      if (parse_addr(a + 6, &start_addr)) goto bad;
    } else if (strncmp(a, "stop=", 5) == 0) {
      if (parse_addr(a + 5, &stop_addr)) goto bad;
    } else if (strncmp(a, "out=", 4) == 0) {
      out_path = strdup(a + 4);
    } else {
      goto bad;
    }
    continue;
  bad:
    fprintf(stderr, "insn_count: bad argument '%s'\n", a);
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
