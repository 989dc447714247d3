/* aot_version.c - runtime version tag. */
#include "aot_common.h"

const char *aot_runtime_version(void);
const char *aot_runtime_version(void) { return "aotc-runtime 0.1"; }
