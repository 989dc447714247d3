/* run.c - `aotc run`: the host reference interpreter on .npz inputs. */
#include "compile.h"
#include "ops/op_custom.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

int ref_run(const litert_model *m, const npy_array *inputs, int nin, const ref_options *o,
            npy_array **outputs, int *nout, aotc_diag *d) __attribute__((weak));

int cmd_run(int argc, char **argv);

int cmd_run(int argc, char **argv) {
  aotc_diag d = {0};
  const char *model = NULL, *in = NULL, *out = NULL;
  int iterations = 1, sequence = 0;
  int *resets = xcalloc((size_t)argc + 1, sizeof(int));
  int nresets = 0;
  int (*fb)[2] = xcalloc((size_t)argc + 1, sizeof *fb);
  int nfb = 0;
  int rc = 1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if ((!strcmp(a, "--model.path") || !strcmp(a, "--model")) && v) model = argv[++i];
    else if (!strcmp(a, "--input") && v) in = argv[++i];
    else if (!strcmp(a, "--output") && v) out = argv[++i];
    else if (!strcmp(a, "--iterations") && v) iterations = atoi(argv[++i]);
    else if (!strcmp(a, "--sequence")) sequence = 1;
    else if (!strcmp(a, "--resets") && v) {
      const char *p = argv[++i];
      while (*p) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p || r < 0) {
          diag_error(&d, "bad --resets '%s': expected step numbers like 3,7", argv[i]);
          goto done;
        }
        resets[nresets++] = (int)r;
        p = *end == ',' ? end + 1 : end;
        if (nresets >= argc) break;
      }
    }
    else if ((!strcmp(a, "--state-feedback") || !strcmp(a, "--state_feedback")) && v) {
      const char *p = argv[++i];
      while (*p) {
        int o2, i2, n = 0;
        if (sscanf(p, "%d:%d%n", &o2, &i2, &n) != 2) {
          diag_error(&d, "bad --state-feedback '%s': expected OUT:IN pairs like 0:1,2:3", argv[i]);
          goto done;
        }
        fb[nfb][0] = o2;
        fb[nfb][1] = i2;
        nfb++;
        p += n;
        if (*p == ',') p++;
      }
    } else {
      diag_error(&d, "unknown or incomplete option '%s' for run (valid: --model.path M --input in.npz --output out.npz [--iterations N] [--state-feedback O:I,...] [--sequence] [--resets K,...])", a);
      goto done;
    }
  }
  if (!model || !in || !out) {
    diag_error(&d, "run needs --model.path M --input in.npz --output out.npz");
    goto done;
  }
  if (iterations < 1) {
    diag_error(&d, "--iterations must be >= 1");
    goto done;
  }
  if (!ref_run) {
    diag_error(&d, "this aotc was built without the reference interpreter");
    goto done;
  }
  litert_model *m = litert_read_file(model, &d);
  if (!m) goto done;
  /* Flex, Vela and unknown CUSTOM ops: the same refusal as convert */
  if (custom_ops_prepare(NULL, m, 1, &d) != 0) {
    litert_model_free(m);
    goto done;
  }
  npy_array *arrs = NULL, *outs = NULL;
  int n = 0, nout = 0;
  if (npz_read(in, &arrs, &n, &d) == 0) {
    const litert_subgraph *sg = &m->subgraphs[0];
    npy_array *ins = xcalloc((size_t)sg->ninputs + 1, sizeof(npy_array));
    int ok = 1;
    for (int i = 0; i < sg->ninputs && ok; i++) {
      char key[32];
      snprintf(key, sizeof key, "input_%d", i);
      const npy_array *a = npz_find(arrs, n, key);
      if (!a) {
        diag_error(&d, "%s: no array '%s' for model input %d", in, key, i);
        ok = 0;
      } else {
        ins[i] = *a;
      }
    }
    ref_options o = {iterations, nfb, (const int (*)[2])fb, sequence, nresets, resets};
    if (ok && ref_run(m, ins, sg->ninputs, &o, &outs, &nout, &d) == 0 &&
        npz_write(out, outs, nout, 0, &d) == 0)
      rc = 0;
    if (outs) npz_free(outs, nout);
    free(ins);
    npz_free(arrs, n);
  }
  litert_model_free(m);
done:
  free(fb);
  free(resets);
  if (rc != 0) {
    fprintf(stderr, "aotc: error: %s\n", d.msg);
    return d.code ? d.code : 1;
  }
  return 0;
}
