/* aot_conv.h */
#ifndef AOT_CONV_H
#define AOT_CONV_H

#include "aot_common.h"

#endif
