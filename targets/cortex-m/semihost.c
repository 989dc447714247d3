/* semihost.c - semihosting console and exit (see semihost.h). */
#include "semihost.h"

void sh_write0(const char *s) { (void)sh_call(SH_SYS_WRITE0, s); }

/* Host handles of the console streams, opened lazily with the special file
 * name ":tt" (mode 4 = "w" -> stdout, mode 8 = "a" -> stderr). */
static int32_t sh_handles[3] = {-2, -2, -2};

static int32_t sh_console(int fd) {
  if (fd < 1 || fd > 2) return -1;
  if (sh_handles[fd] == -2) {
    uint32_t args[3];
    args[0] = (uint32_t)":tt";
    args[1] = fd == 1 ? 4u : 8u;
    args[2] = 3u;
    sh_handles[fd] = (int32_t)sh_call(SH_SYS_OPEN, args);
  }
  return sh_handles[fd];
}

uint32_t sh_write_fd(int fd, const void *buf, uint32_t len) {
  int32_t h = sh_console(fd);
  uint32_t args[3];
  if (h < 0) {
    /* No console handle: fall back to character output. */
    const char *c = (const char *)buf;
    uint32_t i;
    for (i = 0; i < len; i++) (void)sh_call(SH_SYS_WRITEC, c + i);
    return 0;
  }
  args[0] = (uint32_t)h;
  args[1] = (uint32_t)buf;
  args[2] = len;
  return sh_call(SH_SYS_WRITE, args);
}

void sh_exit(int status) {
  uint32_t args[2];
  args[0] = SH_ADP_STOPPED_APPLICATION_EXIT;
  args[1] = (uint32_t)status;
  /* SYS_EXIT_EXTENDED passes the full status on AArch32. */
  (void)sh_call(SH_SYS_EXIT_EXTENDED, args);
  /* Fallback (host without the extension): plain SYS_EXIT only tells
   * success (ApplicationExit) from failure. */
  (void)sh_call(SH_SYS_EXIT, (const void *)(status == 0
                                                ? SH_ADP_STOPPED_APPLICATION_EXIT
                                                : SH_ADP_STOPPED_RUNTIME_ERROR));
  for (;;) __asm__ volatile("bkpt 0");
}
