/* yaml_limits.h - size, depth and node-count limits checked on a YAML config
 * before libyaml builds its document (see yaml_limits.c). */
#ifndef AOTC_YAML_LIMITS_H
#define AOTC_YAML_LIMITS_H
#include "../aotc.h"

#define CONFIG_YAML_MAX_BYTES (1 << 20)
#define CONFIG_YAML_MAX_DEPTH 32
#define CONFIG_YAML_MAX_EVENTS 100000

/* Reads a config file (a regular file of at most CONFIG_YAML_MAX_BYTES). */
int config_yaml_read(const char *path, unsigned char **buf, size_t *len, aotc_diag *d);
/* 0 if the YAML text is within the limits, else -1 with a one-line reason. */
int config_yaml_check(const unsigned char *buf, size_t len, const char *name, aotc_diag *d);

#endif
