/* aot_movement.h */
#ifndef AOT_MOVEMENT_H
#define AOT_MOVEMENT_H

#include "aot_common.h"

#endif
