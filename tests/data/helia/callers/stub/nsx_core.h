/* Host stand-in for neuralspotx's nsx_core.h: what resnet_example/src/main.c uses. */
#ifndef NSX_CORE_H
#define NSX_CORE_H
#include <stdio.h>
#include <stdlib.h>
#define NSX_STATUS_SUCCESS 0
typedef struct { int major; } nsx_core_api_t;
typedef struct { const nsx_core_api_t *api; } nsx_core_config_t;
static const nsx_core_api_t nsx_core_V1_0_0 = {1};
static inline int nsx_core_init(const nsx_core_config_t *c) { (void)c; return 0; }
static inline void nsx_itm_printf_enable(void) {}
#define nsx_printf printf
/* the example idles forever after printing; the host stand-in ends the run */
static inline void nsx_delay_us(unsigned us) { (void)us; fflush(stdout); exit(0); }
#endif
