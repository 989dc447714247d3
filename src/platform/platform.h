/* platform.h - target platforms: the built-in Ambiq boards and generic
 * Cortex-M parts (CPU, memories with their datasheet sizes, preferred order,
 * alignment), a user platform described in the config, and the memory kinds
 * (which are RAM, which keep constants, their PUT_IN macro names). */
#ifndef AOTC_PLATFORM_H
#define AOTC_PLATFORM_H

#include "aotc.h"
#include "config/config.h"

#define PLATFORM_MAX_MEMS 8

typedef struct platform_mem {
  char name[16];       /* lower case: dtcm, sram, mram, psram, itcm */
  long long size;      /* bytes available to the module */
} platform_mem;

typedef struct platform {
  char name[64];
  char cpu[32];        /* cortex-m4 | cortex-m55 | ... */
  int nmems;
  platform_mem mems[PLATFORM_MAX_MEMS];
  int norder;
  char order[PLATFORM_MAX_MEMS][16]; /* preferred order of writable memories */
  int min_alignment;
  int builtin;         /* 1: from the built-in table */
} platform;

/* Names of the built-in platforms, NULL-terminated. */
extern const char *const platform_builtin_names[];

/* The platform of the config: platform.name (built-in, or a new name fully
 * described by platform.cpu/memories), with platform.* keys and
 * memory.constraints applied on top. No platform.name: "host" (one "sram"
 * memory without a size limit). Returns 0, or -1 with one line in d. */
int platform_from_config(const aotc_config *c, platform *p, aotc_diag *d);

/* The memory named (aliases: dram -> sram, tcm -> dtcm); NULL when absent. */
const platform_mem *platform_find_mem(const platform *p, const char *name);
/* Canonical lower-case memory name for an alias, or name itself. */
const char *platform_mem_canon(const char *name);
/* 1 for memories that keep their content without power (mram, flash). */
int platform_mem_nonvolatile(const char *name);

#endif
