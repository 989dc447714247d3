/* ref.h - the host reference interpreter: runs the ORIGINAL LiteRT graph
 * (before any hook, transform or fusion; all subgraphs; WHILE / IF /
 * CALL_ONCE; resource variables and variable tensors) with the portable
 * runtime kernels, tensors allocated one by one. It checks the compiler: it
 * uses none of the transforms, fusions, memory plan or optimized kernels. */
#ifndef AOTC_REF_H
#define AOTC_REF_H

#include "../io/npy.h"
#include "../litert/litert.h"

typedef struct ref_options {
  int iterations;              /* runs per step (>= 1); state carried between runs */
  int nfeedback;
  const int (*feedback)[2];    /* [output position, input position] pairs: after each
                                  run the output is copied into the input */
  int sequence;                /* 1: every input has a leading steps axis; outputs get one */
  int nresets;
  const int *resets;           /* sequence steps before which the state is reset
                                  (sequence mode only; a reset re-creates the
                                  instance state and reloads fed inputs from
                                  that step's slice) */
} ref_options;

/* Runs subgraph 0 of m. inputs[i] is model input i (native dtype; with a
 * leading steps axis in sequence mode). On success *outputs (npz_free) holds
 * one array per model output, named "output_<i>": the outputs after the last
 * iteration, or in sequence mode after the last iteration of every step
 * (stacked on a leading steps axis). */
int ref_run(const litert_model *m, const npy_array *inputs, int nin, const ref_options *o,
            npy_array **outputs, int *nout, aotc_diag *d);

#endif
