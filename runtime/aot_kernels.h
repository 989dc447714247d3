/* aot_kernels.h - the one flat header of the aotc runtime kernels. */
#ifndef AOT_KERNELS_H
#define AOT_KERNELS_H

#include "aot_common.h"
#include "aot_conv.h"        /* convolution, fully connected, pooling */
#include "aot_custom.h"      /* calling convention of user CUSTOM kernels */
#include "aot_elementwise.h" /* arithmetic, comparisons, activations, softmax, (de)quantize */
#include "aot_movement.h"    /* reshape, concat, pad, slice, transpose, gather, reductions */
#include "aot_recurrent.h"   /* LSTM, SVDF, GRU */
#include "aot_softmax_q.h"   /* two-class int8 softmax by tables */

#endif
