// The heliaAOT parts of helia-profiler's firmware/templates/main_aot.cc.j2,
// rendered by hand for one model (prefix hpx, allocate_arenas true): the
// engine includes, the per-operator callback keyed on
// hpx_op_state_run_started / run_finished, the static context built with
// designated initializers, and model init/run with the I/O views. The board,
// PMU and transport blocks of the template are left out (they need Ambiq's
// SDK); this is C++, as the template is.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "hpx_model.h"
#include "hpx_common.h"

static constexpr int kMaxLayers = 64;
static int g_num_layers = 0;
static uint32_t g_fake_cycles = 0;
static uint32_t g_start[kMaxLayers];
static int32_t g_ids[kMaxLayers];

static void model_operator_cb(int32_t op, hpx_operator_state_t state, int32_t status, void *user_data) {
  (void)status;
  (void)user_data;
  if (state == hpx_op_state_run_started) {
    if (g_num_layers < kMaxLayers) g_start[g_num_layers] = g_fake_cycles;
  } else if (state == hpx_op_state_run_finished) {
    if (g_num_layers >= kMaxLayers) return;
    g_ids[g_num_layers] = op;
    g_num_layers++;
  }
  g_fake_cycles += 10;
}

static hpx_model_context_t hpx_model_ctx = {
    .callback = model_operator_cb,
    .user_data = nullptr
};

int main() {
  if (hpx_model_init(&hpx_model_ctx) != hpx_status_ok) return 1;
  for (int i = 0; i < hpx_num_inputs; i++)
    std::memset(hpx_model_ctx.inputs[i].data, 0, hpx_model_ctx.inputs[i].size);
  for (int iter = 0; iter < 2; iter++) {
    g_num_layers = 0;
    if (hpx_model_run(&hpx_model_ctx) != hpx_status_ok) return 2;
  }
  std::printf("\"Layer\",\"Op\"\n");
  for (int i = 0; i < g_num_layers; i++) std::printf("%d,op:%ld\n", i, (long)g_ids[i]);
  const int8_t *out = hpx_model_ctx.outputs[0].data;
  std::printf("layers=%d first_output=%d\n", g_num_layers, out[0]);
  return g_num_layers > 0 ? 0 : 3;
}
