/* codegen_place.c - scratch storage that placement rules put in other
 * memories (memory.tensors rules by tensor id, operators' scratch_placement):
 * the plan gives it offsets in per-memory windows (PLAN_WINDOW); the
 * operators' code addresses every tensor as S + offset, so the addresses in a
 * window are renamed here to the region of that window's memory. */
#include "codegen_internal.h"

#include "../plan/plan.h"

#include <stdlib.h>
#include <string.h>

/* Scratch storage the plan put in window k >= 1 (another memory): each
 * "(S + N)" address with N in that window names the region of its memory. */
int cg_relocate_scratch_refs(const cg_layout *L, int nwindows, char **text) {
  if (!*text) return 0;
  strbuf r = {0};
  int moved = 0;
  const char *p = *text, *q;
  while ((q = strstr(p, "(S + ")) != NULL) {
    const char *num = q + 5;
    char *end;
    unsigned long long n = strtoull(num, &end, 10);
    if (end == num || *end != ')' || n < PLAN_WINDOW(1)) {
      sb_printf(&r, "%.*s", (int)(num - p), p);
      p = num;
      continue;
    }
    size_t k = (size_t)(n >> PLAN_WINDOW_SHIFT);
    if (k >= (size_t)nwindows) {
      sb_free(&r);
      return -1;
    }
    const cg_region *R = &L->regions[L->r_scratch_group[k]];
    sb_printf(&r, "%.*s((uint8_t *)ctx->arena_buffers[%s] + %zu)", (int)(q - p), p, R->name,
              (size_t)n - PLAN_WINDOW(k));
    p = end + 1;
    moved++;
  }
  sb_puts(&r, p);
  free(*text);
  *text = r.s ? r.s : xstrdup("");
  return moved;
}
