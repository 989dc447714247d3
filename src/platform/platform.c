/* platform.c - the built-in platforms and the platform of a config. Sizes are
 * the data-sheet figures of each SoC (bytes); the module may use the whole of
 * each memory unless memory.constraints caps it. */
#include "platform/platform.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define KB 1024LL
#define MB (1024LL * 1024LL)

typedef struct builtin {
  const char *name, *cpu;
  struct { const char *name; long long size; } mems[PLATFORM_MAX_MEMS];
  const char *order[PLATFORM_MAX_MEMS];
} builtin;

/* Apollo3 Blue Plus: Cortex-M4F, 2 MB flash (kept as "mram", the non-volatile
 * memory), 768 KB SRAM of which 64 KB TCM. Apollo4 Plus / Lite: Cortex-M4F,
 * 2 MB MRAM, 384 KB TCM, 1 MB shared SRAM. Apollo510 / 510B: Cortex-M55,
 * 4 MB MRAM, 256 KB ITCM, 512 KB DTCM, 3 MB SRAM. */
static const builtin BUILTINS[] = {
    {"apollo3p_evb", "cortex-m4", {{"dtcm", 64 * KB}, {"sram", 704 * KB}, {"mram", 2 * MB}}, {"dtcm", "sram"}},
    {"apollo4p_evb", "cortex-m4", {{"dtcm", 384 * KB}, {"sram", 1 * MB}, {"mram", 2 * MB}}, {"dtcm", "sram"}},
    {"apollo4p_blue_kbr_evb", "cortex-m4", {{"dtcm", 384 * KB}, {"sram", 1 * MB}, {"mram", 2 * MB}}, {"dtcm", "sram"}},
    {"apollo4p_blue_kxr_evb", "cortex-m4", {{"dtcm", 384 * KB}, {"sram", 1 * MB}, {"mram", 2 * MB}}, {"dtcm", "sram"}},
    {"apollo4l_evb", "cortex-m4", {{"dtcm", 384 * KB}, {"sram", 1 * MB}, {"mram", 2 * MB}}, {"dtcm", "sram"}},
    {"apollo4l_blue_evb", "cortex-m4", {{"dtcm", 384 * KB}, {"sram", 1 * MB}, {"mram", 2 * MB}}, {"dtcm", "sram"}},
    {"apollo510_evb", "cortex-m55",
     {{"dtcm", 512 * KB}, {"itcm", 256 * KB}, {"sram", 3 * MB}, {"mram", 4 * MB}}, {"dtcm", "sram"}},
    {"apollo510b_evb", "cortex-m55",
     {{"dtcm", 512 * KB}, {"itcm", 256 * KB}, {"sram", 3 * MB}, {"mram", 4 * MB}}, {"dtcm", "sram"}},
    {"generic_cortex_m4", "cortex-m4", {{"sram", 1 * MB}, {"mram", 2 * MB}}, {"sram"}},
    {"generic_cortex_m55", "cortex-m55", {{"dtcm", 512 * KB}, {"sram", 2 * MB}, {"mram", 4 * MB}}, {"dtcm", "sram"}},
};
#define NBUILTINS (sizeof BUILTINS / sizeof BUILTINS[0])

const char *const platform_builtin_names[] = {
    "apollo3p_evb", "apollo4p_evb", "apollo4p_blue_kbr_evb", "apollo4p_blue_kxr_evb", "apollo4l_evb",
    "apollo4l_blue_evb", "apollo510_evb", "apollo510b_evb", "generic_cortex_m4", "generic_cortex_m55", NULL};

const char *platform_mem_canon(const char *name) {
  if (!name) return name;
  if (!strcmp(name, "dram")) return "sram";
  if (!strcmp(name, "tcm")) return "dtcm";
  if (!strcmp(name, "flash")) return "mram";
  return name;
}

int platform_mem_nonvolatile(const char *name) { return !strcmp(platform_mem_canon(name), "mram"); }

const platform_mem *platform_find_mem(const platform *p, const char *name) {
  name = platform_mem_canon(name);
  for (int i = 0; i < p->nmems; i++)
    if (!strcmp(p->mems[i].name, name)) return &p->mems[i];
  return NULL;
}

static platform_mem *mem_slot(platform *p, const char *name, aotc_diag *d) {
  name = platform_mem_canon(name);
  for (int i = 0; i < p->nmems; i++)
    if (!strcmp(p->mems[i].name, name)) return &p->mems[i];
  static const char *const known[] = {"dtcm", "itcm", "sram", "mram", "psram", NULL};
  int ok = 0;
  for (int i = 0; known[i]; i++) ok |= !strcmp(known[i], name);
  if (!ok) {
    diag_error(d, "unknown memory '%s'; memories are dtcm, itcm, sram (dram), mram, psram", name);
    return NULL;
  }
  if (p->nmems == PLATFORM_MAX_MEMS) {
    diag_error(d, "too many memories in platform '%s'", p->name);
    return NULL;
  }
  platform_mem *m = &p->mems[p->nmems++];
  snprintf(m->name, sizeof m->name, "%s", name);
  m->size = -1;
  return m;
}

int platform_from_config(const aotc_config *c, platform *p, aotc_diag *d) {
  memset(p, 0, sizeof *p);
  p->min_alignment = 16;
  const char *name = c->platform_name;
  if (!name) {
    snprintf(p->name, sizeof p->name, "host");
    snprintf(p->cpu, sizeof p->cpu, "%s", c->platform_cpu ? c->platform_cpu : "host");
    p->nmems = 2;
    snprintf(p->mems[0].name, sizeof p->mems[0].name, "sram");
    p->mems[0].size = -1;
    snprintf(p->mems[1].name, sizeof p->mems[1].name, "mram");
    p->mems[1].size = -1;
    p->norder = 1;
    snprintf(p->order[0], sizeof p->order[0], "sram");
  } else {
    char lname[64];
    snprintf(lname, sizeof lname, "%s", name);
    for (char *q = lname; *q; q++) *q = (char)tolower((unsigned char)*q);
    const builtin *b = NULL;
    for (size_t i = 0; i < NBUILTINS; i++)
      if (!strcmp(BUILTINS[i].name, lname)) b = &BUILTINS[i];
    snprintf(p->name, sizeof p->name, "%s", lname);
    if (b) {
      p->builtin = 1;
      snprintf(p->cpu, sizeof p->cpu, "%s", b->cpu);
      for (int i = 0; i < PLATFORM_MAX_MEMS && b->mems[i].name; i++) {
        snprintf(p->mems[i].name, sizeof p->mems[i].name, "%s", b->mems[i].name);
        p->mems[i].size = b->mems[i].size;
        p->nmems++;
      }
      for (int i = 0; i < PLATFORM_MAX_MEMS && b->order[i]; i++)
        snprintf(p->order[p->norder++], sizeof p->order[0], "%s", b->order[i]);
    } else if (!c->platform_n_memories || !c->platform_cpu) {
      strbuf l = {0};
      for (int i = 0; platform_builtin_names[i]; i++) sb_printf(&l, "%s%s", i ? ", " : "", platform_builtin_names[i]);
      diag_error(d, "unknown platform '%s': use one of %s, or describe it with platform.cpu and platform.memories", name, l.s);
      sb_free(&l);
      return -1;
    }
  }
  if (c->platform_cpu) {
    if (strcmp(c->platform_cpu, "cortex-m4") && strcmp(c->platform_cpu, "cortex-m55") &&
        strcmp(c->platform_cpu, "cortex-m4f") && strcmp(c->platform_cpu, "host"))
      return diag_error(d, "platform.cpu '%s' is not supported: aotc targets cortex-m4 (DSP kernels) and cortex-m55 (Helium kernels)",
                        c->platform_cpu);
    snprintf(p->cpu, sizeof p->cpu, "%s", strcmp(c->platform_cpu, "cortex-m4f") ? c->platform_cpu : "cortex-m4");
  }
  if (c->platform_n_memories) {
    /* a description replaces the built-in memories */
    p->nmems = 0;
    for (int i = 0; i < c->platform_n_memories; i++) {
      platform_mem *m = mem_slot(p, c->platform_memories[i].name, d);
      if (!m) return -1;
      m->size = c->platform_memories[i].size;
    }
  }
  if (c->platform_n_preferred_memory_order) {
    p->norder = 0;
    for (int i = 0; i < c->platform_n_preferred_memory_order && i < PLATFORM_MAX_MEMS; i++) {
      const char *mn = platform_mem_canon(c->platform_preferred_memory_order[i]);
      if (!platform_find_mem(p, mn))
        return diag_error(d, "platform.preferred_memory_order names '%s', which platform '%s' does not have", mn, p->name);
      snprintf(p->order[p->norder++], sizeof p->order[0], "%s", mn);
    }
  } else if (c->platform_n_memories) {
    p->norder = 0;
    for (int i = 0; i < p->nmems; i++)
      if (!platform_mem_nonvolatile(p->mems[i].name)) snprintf(p->order[p->norder++], sizeof p->order[0], "%s", p->mems[i].name);
  }
  if (c->platform_min_alignment > 0) {
    int a = c->platform_min_alignment;
    if (a & (a - 1)) return diag_error(d, "platform.min_alignment %d is not a power of two", a);
    p->min_alignment = a < 16 ? 16 : a;
  }
  for (int i = 0; i < c->memory_n_constraints; i++) {
    const char *mn = platform_mem_canon(c->memory_constraints[i].name);
    platform_mem *m = NULL;
    for (int k = 0; k < p->nmems; k++)
      if (!strcmp(p->mems[k].name, mn)) m = &p->mems[k];
    if (!m) {
      if (strcmp(p->name, "host") != 0)
        return diag_error(d, "memory.constraints names '%s', which platform '%s' does not have", mn, p->name);
      m = mem_slot(p, mn, d);
      if (!m) return -1;
    }
    if (c->memory_constraints[i].size >= 0 && (m->size < 0 || c->memory_constraints[i].size < m->size))
      m->size = c->memory_constraints[i].size;
  }
  return 0;
}
