/* op_custom.h - CUSTOM operators: refusals (Flex, Vela's ethos-u, unknown
 * codes) and user kernels registered with custom_operators (op_custom.c). */
#ifndef AOTC_OP_CUSTOM_H
#define AOTC_OP_CUSTOM_H

#include "../config/config.h"
#include "../litert/litert.h"
#include "ops.h"

/* Checks the model as read, in every subgraph, before any other analysis:
 * refuses Flex ops, registers c's custom_operators (checking their source
 * and function and applying their output rules to m), then refuses CUSTOM
 * ops without a kernel (only `ethos-u` when check_unknown is 0). c may be
 * NULL. 0, or -1 with a one-line message in d. */
int custom_ops_prepare(const aotc_config *c, litert_model *m, int check_unknown, aotc_diag *d);

/* The implementation of a registered user custom code, or NULL. */
const op_impl *custom_ops_find(const char *code);

/* -1 with a message when m has a user custom op (which the host reference
 * interpreter cannot run), else 0. */
int custom_ops_refuse_ref(const litert_model *m, aotc_diag *d);

extern const op_impl op_user_custom;

#endif
