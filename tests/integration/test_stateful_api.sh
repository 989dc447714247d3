#!/usr/bin/env bash
# test_stateful_api.sh AOTC - on the int8 LSTM model (persistent state):
# init after some runs reproduces the first-run output (reset), and two
# contexts with their own arenas, fed different streams interleaved, give the
# same outputs as each stream run alone. Also checks the bind_arenas errors.
set -eu
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
[ -d "$S/models" ] || { echo "SKIP stateful api: $S/models not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-state-XXXXXX); trap 'rm -rf "$W"' EXIT
"$AOTC" convert --model.path "$S/models/tflm/trained_lstm_int8.tflite" --module.path "$W" --module.name "m" --module.prefix ks >/dev/null
cat > "$W/main.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "ks_model.h"
#define STEPS 6
static unsigned char scr_a[ks_arena_sram_size] __attribute__((aligned(16)));
static unsigned char scr_b[ks_arena_sram_size] __attribute__((aligned(16)));
static unsigned char per_a[ks_arena_persistent_sram_size] __attribute__((aligned(16)));
static unsigned char per_b[ks_arena_persistent_sram_size] __attribute__((aligned(16)));
static unsigned char out_alone[2][STEPS][4096], out_mixed[2][STEPS][4096];
static void feed(ks_model_context_t *c, int stream, int step) {
  unsigned char *p = (unsigned char *)c->inputs[0].data; size_t i;
  for (i = 0; i < c->inputs[0].bytes; i++) p[i] = (unsigned char)((i * (7 + 4 * stream) + step * 31 + stream * 101) & 0xff);
}
static int run(ks_model_context_t *c, int stream, int step, unsigned char *out) {
  feed(c, stream, step);
  if (ks_model_run(c) != ks_status_ok) return 1;
  memcpy(out, c->outputs[0].data, c->outputs[0].bytes);
  return 0;
}
int main(void) {
  ks_model_context_t a, b, z;
  size_t ob; int s, k, fails = 0;
  unsigned char first[4096], again[4096];
  memset(&a, 0, sizeof a); memset(&b, 0, sizeof b); memset(&z, 0, sizeof z);
  if (ks_num_arena_buffers < 3) { printf("model has no persistent state\n"); return 1; }
  /* argument checks, each with its own status */
  if (ks_model_run(NULL) != ks_status_null_context) fails++;
  if (ks_model_run(&z) != ks_status_not_initialized) fails++;
  if (ks_context_bind_arenas(&z, NULL, sizeof scr_a, per_a, sizeof per_a) != ks_status_bind_null_buffer) fails++;
  if (ks_context_bind_arenas(&z, scr_a, sizeof scr_a - 1, per_a, sizeof per_a) != ks_status_bind_undersized) fails++;
  if (ks_context_bind_arenas(&z, scr_a + 1, sizeof scr_a - 1 + 1, per_a, sizeof per_a) != ks_status_bind_misaligned) fails++;
  if (fails) { printf("FAIL status checks (%d)\n", fails); return 1; }
  /* each stream alone */
  for (s = 0; s < 2; s++) {
    if (ks_context_bind_arenas(&a, scr_a, sizeof scr_a, per_a, sizeof per_a) || ks_model_init(&a)) return 1;
    for (k = 0; k < STEPS; k++) if (run(&a, s, k, out_alone[s][k])) return 1;
  }
  ob = a.outputs[0].bytes;
  /* state matters: a later step differs from what a fresh model gives */
  {
    int differ = 0;
    for (k = 1; k < STEPS; k++) {
      if (ks_model_init(&a)) return 1;
      run(&a, 0, k, first);
      differ += memcmp(first, out_alone[0][k], ob) != 0;
    }
    if (!differ) { printf("FAIL state has no effect\n"); return 1; }
  }
  /* reset: init after runs reproduces the first-run output */
  if (ks_model_init(&a)) return 1;
  run(&a, 0, 0, first);
  run(&a, 0, 1, again);
  if (ks_model_init(&a)) return 1;
  run(&a, 0, 0, again);
  if (memcmp(first, again, ob) != 0 || memcmp(first, out_alone[0][0], ob) != 0) { printf("FAIL reset\n"); return 1; }
  /* two contexts interleaved */
  if (ks_context_bind_arenas(&a, scr_a, sizeof scr_a, per_a, sizeof per_a) || ks_model_init(&a)) return 1;
  if (ks_context_bind_arenas(&b, scr_b, sizeof scr_b, per_b, sizeof per_b) || ks_model_init(&b)) return 1;
  for (k = 0; k < STEPS; k++) {
    if (run(&a, 0, k, out_mixed[0][k]) || run(&b, 1, k, out_mixed[1][k])) return 1;
  }
  for (s = 0; s < 2; s++)
    for (k = 0; k < STEPS; k++)
      if (memcmp(out_alone[s][k], out_mixed[s][k], ob) != 0) { printf("FAIL stream %d step %d differs when interleaved\n", s, k); return 1; }
  printf("PASS reset, status checks, and two interleaved contexts (%d steps)\n", STEPS);
  return 0;
}
C
cc -std=c99 -Wall -Wextra -Werror -I"$W/m/includes-api" -I"$W/m/src" "$W/m/src"/*.c "$W/main.c" -lm -o "$W/t"
"$W/t"
