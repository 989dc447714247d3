/* target.h - services of the aotc Cortex-M QEMU targets for test/benchmark
 * mains (targets/build-run.sh puts this directory on the include path and
 * defines AOTC_TARGET_CORTEX_M).
 *
 * Instruction-count markers: with build-run.sh --count-insns the QEMU plugin
 * counts the guest instructions executed between each call of
 * target_count_start() and the following target_count_stop() (summed over
 * all such pairs), in addition to the total of the whole run.
 *
 * When compiled for the host (AOTC_TARGET_CORTEX_M undefined) the markers are
 * empty inline functions, so the same main builds everywhere. */
#ifndef AOTC_TARGET_H
#define AOTC_TARGET_H

#if defined(AOTC_TARGET_CORTEX_M)
void target_count_start(void);
void target_count_stop(void);
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
static inline void target_count_start(void) {}
static inline void target_count_stop(void) {}
#else
static __inline void target_count_start(void) {}
static __inline void target_count_stop(void) {}
#endif

#endif
