/* aot_elementwise.h */
#ifndef AOT_ELEMENTWISE_H
#define AOT_ELEMENTWISE_H

#include "aot_common.h"

#endif
