/* codegen_svg.c - the scratch arena over time, for users to see at a glance
 * what dominates memory: the lifetime of every storage root (first and last
 * op position, as the planner computes them) and a deterministic SVG (x:
 * operator position, y: offset in the arena, one box per tensor lifetime,
 * operator scratch buffers as boxes one op wide, the peak marked). Used by
 * the module README and `aotc inspect --memory`. */
#include "codegen_internal.h"

#include "../plan/plan.h"

#include <stdlib.h>
#include <string.h>

int cg_lifetimes(const ir_graph *g, cg_life **out) {
  int nt = g->nt, nops = g->nops, n = 0;
  int *first = xmalloc(sizeof(int) * (size_t)(nt + 1)), *last = xmalloc(sizeof(int) * (size_t)(nt + 1));
  for (int i = 0; i < nt; i++) first[i] = nops, last[i] = -1;
  for (int i = 0; i < g->nin; i++) first[ir_root(g, g->inputs[i])] = -1;
  for (int p = 0; p < nops; p++) {
    const ir_op *op = &g->ops[p];
    if (op->dead) continue;
    for (int pass = 0; pass < 2; pass++) {
      int cnt = pass ? op->nin : op->nout;
      const int *ts = pass ? op->in : op->out;
      for (int k = 0; k < cnt; k++) {
        if (ts[k] < 0) continue;
        int r = ir_root(g, ts[k]);
        if (p < first[r]) first[r] = p;
        if (p > last[r]) last[r] = p;
      }
    }
  }
  for (int i = 0; i < g->nout; i++) last[ir_root(g, g->outputs[i])] = nops;
  cg_life *v = xcalloc((size_t)(nt + nops + 1), sizeof *v);
  for (int t = 0; t < nt; t++) {
    const ir_tensor *x = &g->t[t];
    if (!x->used || x->arena != 0 || x->role == ROLE_CONST || ir_root(g, t) != t || last[t] < first[t]) continue;
    if (x->offset >= PLAN_WINDOW(1)) continue; /* placed in another memory */
    v[n++] = (cg_life){t, first[t] < 0 ? 0 : first[t], last[t] >= nops ? nops - 1 : last[t],
                       g->scratch_base + x->offset, ir_bytes(x)};
  }
  for (int p = 0; p < nops; p++)
    if (!g->ops[p].dead && g->ops[p].scratch_bytes > 0 && g->ops[p].scratch_offset < PLAN_WINDOW(1))
      v[n++] = (cg_life){-1 - p, p, p, g->scratch_base + g->ops[p].scratch_offset, g->ops[p].scratch_bytes};
  free(first);
  free(last);
  *out = v;
  return n;
}

void gen_memory_svg(const ir_graph *g, strbuf *s) {
  cg_life *v;
  int n = cg_lifetimes(g, &v);
  int nops = g->nops > 0 ? g->nops : 1;
  size_t arena = g->scratch_arena_bytes ? g->scratch_arena_bytes : 1;
  const int W = 800, H = 400, L = 60, T = 20;
  /* peak: the op position where live bytes are largest */
  int peak_p = 0;
  size_t peak = 0;
  for (int p = 0; p < nops; p++) {
    size_t live = 0;
    for (int i = 0; i < n; i++)
      if (v[i].first <= p && p <= v[i].last) live += v[i].size;
    if (live > peak) peak = live, peak_p = p;
  }
  sb_printf(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", W + L + 20,
            H + T + 40, W + L + 20, H + T + 40);
  sb_printf(s, "<title>scratch arena over time: %zu bytes, peak %zu live bytes at op position %d</title>\n", arena, peak,
            peak_p);
  sb_printf(s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", L, T, W, H);
  for (int i = 0; i < n; i++) {
    long x0 = L + (long)v[i].first * W / nops, x1 = L + (long)(v[i].last + 1) * W / nops;
    long y0 = T + (long)((double)v[i].offset * H / (double)arena), h = (long)((double)v[i].size * H / (double)arena);
    if (h < 1) h = 1;
    const char *fill = v[i].t < 0 ? "#f4a261" : (i % 2 ? "#2a9d8f" : "#8ab17d");
    sb_printf(s, "<rect x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%ld\" fill=\"%s\" stroke=\"#264653\" stroke-width=\"0.5\">",
              x0, y0, x1 - x0 > 0 ? x1 - x0 : 1, h, fill);
    if (v[i].t >= 0) {
      sb_puts(s, "<title>");
      for (const char *p = g->t[v[i].t].name; *p; p++) {
        if (*p == '<') sb_puts(s, "&lt;");
        else if (*p == '>') sb_puts(s, "&gt;");
        else if (*p == '&') sb_puts(s, "&amp;");
        else if ((unsigned char)*p >= 32 && (unsigned char)*p < 127) sb_putc(s, *p);
      }
      sb_printf(s, ": %zu bytes at %zu, ops %d..%d</title>", v[i].size, v[i].offset, v[i].first, v[i].last);
    } else {
      sb_printf(s, "<title>op %d scratch: %zu bytes at %zu</title>", g->ops[-1 - v[i].t].id, v[i].size, v[i].offset);
    }
    sb_puts(s, "</rect>\n");
  }
  long px = L + (long)peak_p * W / nops + W / nops / 2;
  sb_printf(s, "<line x1=\"%ld\" y1=\"%d\" x2=\"%ld\" y2=\"%d\" stroke=\"#e63946\" stroke-dasharray=\"4 2\"/>\n", px, T, px,
            T + H);
  sb_printf(s, "<text x=\"%ld\" y=\"%d\" font-size=\"11\" fill=\"#e63946\">peak %zu B</text>\n", px + 3, T + 12, peak);
  sb_printf(s, "<text x=\"%d\" y=\"%d\" font-size=\"11\">operator position (0..%d)</text>\n", L, T + H + 16, nops - 1);
  sb_printf(s, "<text x=\"2\" y=\"%d\" font-size=\"11\">offset</text>\n<text x=\"2\" y=\"%d\" font-size=\"11\">%zu B</text>\n",
            T + 12, T + H, arena);
  sb_puts(s, "</svg>\n");
  free(v);
}
