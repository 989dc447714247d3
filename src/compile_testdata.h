/* compile_testdata.h - the test case's data for compile_write_module (see
 * compile_testdata.c). Private to the driver. */
#ifndef AOTC_COMPILE_TESTDATA_H
#define AOTC_COMPILE_TESTDATA_H

#include "compile.h"

/* Checks the state-feedback pairs (test.state_feedback) against g's I/O. */
int compile_check_feedback(const aotc_config *c, const ir_graph *g, aotc_diag *d);

/* Loads the test stimulus/expectation from the golden npz, or computes the
 * expectation with the reference interpreter. fb: the feedback pairs as
 * {out, in}. Arrays are returned in ins and outs (npz_free); *ref_used_out
 * is set when the reference interpreter gave the expectation. */
int compile_load_test_data(const aotc_config *c, const compiled *cm, const int (*fb)[2],
                           npy_array **ins, npy_array **outs, int *steps, int *ref_used_out,
                           aotc_diag *d);

#endif
