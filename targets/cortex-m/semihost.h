/* semihost.h - minimal ARM semihosting interface for Cortex-M under QEMU.
 *
 * The calls trap with "bkpt 0xab" (M-profile semihosting); QEMU must run with
 * -semihosting-config enable=on,target=native. Operation numbers are those of
 * the Arm semihosting specification. */
#ifndef TARGET_SEMIHOST_H
#define TARGET_SEMIHOST_H

#include <stdint.h>

#define SH_SYS_OPEN 0x01u
#define SH_SYS_CLOSE 0x02u
#define SH_SYS_WRITEC 0x03u
#define SH_SYS_WRITE0 0x04u
#define SH_SYS_WRITE 0x05u
#define SH_SYS_READ 0x06u
#define SH_SYS_ISTTY 0x09u
#define SH_SYS_FLEN 0x0Cu
#define SH_SYS_CLOCK 0x10u
#define SH_SYS_ERRNO 0x13u
#define SH_SYS_EXIT 0x18u
#define SH_SYS_EXIT_EXTENDED 0x20u

/* angel_SWIreason_ReportException reason codes. */
#define SH_ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define SH_ADP_STOPPED_RUNTIME_ERROR 0x20023u

static __inline__ __attribute__((always_inline)) uint32_t
sh_call(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

/* Write a NUL-terminated string to the host console. */
void sh_write0(const char *s);
/* Write len bytes to the host's stdout (fd 1) or stderr (fd 2). Returns the
 * number of bytes NOT written (semihosting convention), 0 on success. */
uint32_t sh_write_fd(int fd, const void *buf, uint32_t len);
/* Terminate the emulator with the given exit status (0..255). */
void sh_exit(int status) __attribute__((noreturn));

#endif
