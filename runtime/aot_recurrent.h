/* aot_recurrent.h */
#ifndef AOT_RECURRENT_H
#define AOT_RECURRENT_H

#include "aot_common.h"

#endif
