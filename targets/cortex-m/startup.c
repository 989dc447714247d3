/* startup.c - vector table, reset handler and fault reporting for the aotc
 * Cortex-M QEMU targets (mps2-an386 / Cortex-M4F, mps3-an547 / Cortex-M55).
 *
 * Reset: set the stack limit (v8-M), enable the FPU (and with it MVE on the
 * M55) through CPACR, enable the separate fault handlers, copy .data from its
 * load address, zero .bss, run the C library initialisers, call main() and
 * exit() with its status (exit() ends in _exit(), which reports the status to
 * QEMU through semihosting SYS_EXIT_EXTENDED).
 *
 * Any fault or unexpected exception prints a report on the semihosting
 * console and terminates QEMU with status 200 + exception number (HardFault
 * 203, MemManage 204, BusFault 205, UsageFault 206, SecureFault 207), so a
 * crash is never silent and never hangs. Built with -std=gnu99. */
#include <stdint.h>
#include <stdlib.h>

#ifndef AOTC_TARGET_CORTEX_M
#define AOTC_TARGET_CORTEX_M 1
#endif
#include "semihost.h"
#include "target.h"

#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define TARGET_V8M 1
#else
#define TARGET_V8M 0
#endif

/* Linker script symbols. */
extern uint32_t __data_load__[], __data_start__[], __data_end__[];
extern uint32_t __bss_start__[], __bss_end__[];
extern uint32_t __bss_big_start__[], __bss_big_end__[]; /* .bss spilled to the big memory */
extern uint32_t __stack_limit__[], __stack_top__[];
extern uint32_t __ram_start__[], __ram_end__[];
extern uint32_t __text_region_start__[], __text_region_end__[];
extern uint32_t __rodata_region_start__[], __rodata_region_end__[];

extern int main(void);
extern void __libc_init_array(void);

#define REG32(a) (*(volatile uint32_t *)(a))
#define SCB_CPACR 0xE000ED88u
#define SCB_SHCSR 0xE000ED24u
#define SCB_CCR 0xE000ED14u
#define SCB_CFSR 0xE000ED28u
#define SCB_HFSR 0xE000ED2Cu
#define SCB_MMFAR 0xE000ED34u
#define SCB_BFAR 0xE000ED38u
#define SCB_SFSR 0xE000EDE4u
#define SCB_SFAR 0xE000EDE8u
#define MPU_CTRL 0xE000ED94u
#define MPU_RNR 0xE000ED98u
#define MPU_RBAR 0xE000ED9Cu
#define MPU_RASR 0xE000EDA0u /* v7-M */
#define MPU_RLAR 0xE000EDA0u /* v8-M */
#define MPU_MAIR0 0xE000EDC0u /* v8-M */

void Reset_Handler(void) __attribute__((noreturn, used));
void Fault_Handler(void) __attribute__((naked, used));
void fault_report(uint32_t msp, uint32_t psp, uint32_t exc_return,
                  uint32_t ipsr) __attribute__((noreturn, used));

/* Stack used while reporting a fault (the faulting stack may be unusable). */
uint32_t target_fault_stack[256] __attribute__((aligned(8)));

/* MPU: code and constants read-only (a stray write faults instead of
 * silently corrupting code or being ignored by ROM); on v7-M also a
 * no-access guard of 256 MiB below RAM, where the stack (at the bottom of
 * RAM) overflows to (v8-M uses MSPLIM instead). Privileged default map
 * elsewhere. */
static void mpu_setup(void) {
#if TARGET_V8M
  uint32_t n = 0;
  REG32(MPU_MAIR0) = 0xFFu; /* attr 0: normal memory, write-back */
  REG32(MPU_RNR) = n++;
  REG32(MPU_RBAR) = ((uint32_t)__text_region_start__ & ~0x1Fu) | (3u << 1);
  REG32(MPU_RLAR) = (((uint32_t)__text_region_end__ - 1u) & ~0x1Fu) | 1u;
  if ((uint32_t)__rodata_region_start__ != (uint32_t)__text_region_start__) {
    REG32(MPU_RNR) = n++;
    REG32(MPU_RBAR) =
        ((uint32_t)__rodata_region_start__ & ~0x1Fu) | (3u << 1) | 1u;
    REG32(MPU_RLAR) = (((uint32_t)__rodata_region_end__ - 1u) & ~0x1Fu) | 1u;
  }
#else
  uint32_t size = (uint32_t)__text_region_end__ - (uint32_t)__text_region_start__;
  uint32_t log2 = 5;
  while (log2 < 31 && (1u << log2) < size) log2++;
  /* Region 0: code + constants, read-only (AP=110), normal memory. */
  REG32(MPU_RNR) = 0;
  REG32(MPU_RBAR) = (uint32_t)__text_region_start__;
  REG32(MPU_RASR) = (6u << 24) | (1u << 17) | ((log2 - 1u) << 1) | 1u;
  /* Region 1: stack-overflow guard below RAM, no access, execute-never. */
  REG32(MPU_RNR) = 1;
  REG32(MPU_RBAR) = (uint32_t)__ram_start__ - 0x10000000u;
  REG32(MPU_RASR) = (1u << 28) | (27u << 1) | 1u;
#endif
  REG32(MPU_CTRL) = (1u << 2) | 1u; /* PRIVDEFENA | ENABLE */
  __asm__ volatile("dsb\n\tisb" : : : "memory");
}

void Reset_Handler(void) {
  volatile uint32_t *src, *dst;
#if TARGET_V8M
  __asm__ volatile("msr msplim, %0" : : "r"(__stack_limit__));
#endif
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  /* CP10 and CP11 full access: FPU (and MVE on v8.1-M). */
  REG32(SCB_CPACR) |= (0xFu << 20);
  __asm__ volatile("dsb\n\tisb" : : : "memory");
#endif
  /* Separate MemManage/BusFault/UsageFault (and SecureFault) handlers. */
  REG32(SCB_SHCSR) |= (1u << 16) | (1u << 17) | (1u << 18)
#if TARGET_V8M
                      | (1u << 19)
#endif
      ;
  /* Trap integer division by zero (UB in C; the host would crash too). */
  REG32(SCB_CCR) |= (1u << 4);
  __asm__ volatile("dsb\n\tisb" : : : "memory");
  mpu_setup();

  for (src = __data_load__, dst = __data_start__; dst < __data_end__;)
    *dst++ = *src++;
  for (dst = __bss_start__; dst < __bss_end__;) *dst++ = 0;
  for (dst = __bss_big_start__; dst < __bss_big_end__;) *dst++ = 0;

  __libc_init_array();
  exit(main());
}

/* Entry of every fault/unexpected exception: capture the state, switch to
 * the private fault stack and report. */
void Fault_Handler(void) {
  __asm__ volatile(
      "mrs r0, msp\n\t"
      "mrs r1, psp\n\t"
      "mov r2, lr\n\t"
      "mrs r3, ipsr\n\t"
#if TARGET_V8M
      "movs r12, #0\n\t"
      "msr msplim, r12\n\t"
#endif
      "ldr r12, =target_fault_stack + 1024\n\t"
      "msr msp, r12\n\t"
      "b fault_report\n\t"
      ".ltorg\n\t");
}

/* ---- fault report (no C library: only semihosting SYS_WRITE0) ---- */

static char *put_str(char *p, const char *s) {
  while (*s) *p++ = *s++;
  return p;
}

static char *put_hex(char *p, uint32_t v) {
  int i;
  *p++ = '0';
  *p++ = 'x';
  for (i = 28; i >= 0; i -= 4) *p++ = "0123456789abcdef"[(v >> i) & 0xFu];
  return p;
}

static char *put_dec(char *p, uint32_t v) {
  char tmp[12];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  while (n) *p++ = tmp[--n];
  return p;
}

static const char *const cfsr_names[32] = {
    "IACCVIOL", "DACCVIOL", 0, "MUNSTKERR", "MSTKERR", "MLSPERR", 0,
    "MMARVALID", "IBUSERR", "PRECISERR", "IMPRECISERR", "UNSTKERR",
    "STKERR", "LSPERR", 0, "BFARVALID", "UNDEFINSTR", "INVSTATE", "INVPC",
    "NOCP", "STKOF", 0, 0, 0, "UNALIGNED", "DIVBYZERO", 0, 0, 0, 0, 0, 0};

static int in_ram(uint32_t a, uint32_t n) {
  return (a & 3u) == 0 && a >= (uint32_t)__ram_start__ &&
         a + n <= (uint32_t)__ram_end__;
}

void fault_report(uint32_t msp, uint32_t psp, uint32_t exc_return,
                  uint32_t ipsr) {
  static char buf[512];
  static const char *const exc_names[16] = {
      "?",          "Reset",       "NMI",         "HardFault",
      "MemManage",  "BusFault",    "UsageFault",  "SecureFault",
      "Reserved8",  "Reserved9",   "Reserved10",  "SVCall",
      "DebugMon",   "Reserved13",  "PendSV",      "SysTick"};
  uint32_t exc = ipsr & 0x1FFu;
  uint32_t frame = (exc_return & 4u) ? psp : msp;
  uint32_t cfsr = REG32(SCB_CFSR);
  char *p = buf;
  int i;

  p = put_str(p, "\n*** FAULT: ");
  p = put_str(p, exc < 16 ? exc_names[exc] : "external interrupt");
  p = put_str(p, " (exception ");
  p = put_dec(p, exc);
  p = put_str(p, ")\n");
  if (in_ram(frame, 32)) {
    const uint32_t *f = (const uint32_t *)frame;
    p = put_str(p, "  PC=");
    p = put_hex(p, f[6]);
    p = put_str(p, " LR=");
    p = put_hex(p, f[5]);
    p = put_str(p, " xPSR=");
    p = put_hex(p, f[7]);
    p = put_str(p, "\n  R0=");
    p = put_hex(p, f[0]);
    p = put_str(p, " R1=");
    p = put_hex(p, f[1]);
    p = put_str(p, " R2=");
    p = put_hex(p, f[2]);
    p = put_str(p, " R3=");
    p = put_hex(p, f[3]);
    p = put_str(p, " R12=");
    p = put_hex(p, f[4]);
    p = put_str(p, "\n");
  } else {
    p = put_str(p, "  (exception frame not readable, SP=");
    p = put_hex(p, frame);
    p = put_str(p, " - stack overflow?)\n");
  }
  p = put_str(p, "  EXC_RETURN=");
  p = put_hex(p, exc_return);
  p = put_str(p, " CFSR=");
  p = put_hex(p, cfsr);
  p = put_str(p, " HFSR=");
  p = put_hex(p, REG32(SCB_HFSR));
  if (cfsr & (1u << 7)) {
    p = put_str(p, " MMFAR=");
    p = put_hex(p, REG32(SCB_MMFAR));
  }
  if (cfsr & (1u << 15)) {
    p = put_str(p, " BFAR=");
    p = put_hex(p, REG32(SCB_BFAR));
  }
#if TARGET_V8M
  if (exc == 7u) {
    p = put_str(p, " SFSR=");
    p = put_hex(p, REG32(SCB_SFSR));
    p = put_str(p, " SFAR=");
    p = put_hex(p, REG32(SCB_SFAR));
  }
#endif
  p = put_str(p, "\n ");
  for (i = 0; i < 32; i++) {
    if ((cfsr & (1u << i)) && cfsr_names[i]) {
      p = put_str(p, " ");
      p = put_str(p, cfsr_names[i]);
    }
  }
  if (REG32(SCB_HFSR) & (1u << 30)) p = put_str(p, " FORCED");
  if (REG32(SCB_HFSR) & (1u << 1)) p = put_str(p, " VECTTBL");
  p = put_str(p, "\n");
  *p = '\0';
  sh_write0(buf);
  sh_exit(200 + (int)(exc > 55u ? 55u : exc));
}

/* ---- instruction-count markers (see target.h) ---- */

/* The plugin recognises the first instruction of each function by address
 * (build-run.sh looks the symbols up); noipa and different bodies keep the
 * two functions distinct. */
void __attribute__((noinline, noipa, used)) target_count_start(void) {
  __asm__ volatile("nop" : : : "memory");
}

void __attribute__((noinline, noipa, used)) target_count_stop(void) {
  __asm__ volatile("nop\n\tnop" : : : "memory");
}

/* ---- vector table ---- */

#define TARGET_NUM_IRQ 96

typedef void (*vector_t)(void);

__attribute__((section(".vectors"), used))
const vector_t target_vectors[16 + TARGET_NUM_IRQ] = {
    (vector_t)(uintptr_t)__stack_top__, /* initial MSP */
    Reset_Handler,
    [2 ... 16 + TARGET_NUM_IRQ - 1] = Fault_Handler,
};
