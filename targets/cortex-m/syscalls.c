/* syscalls.c - newlib system call stubs on top of semihosting.
 *
 * stdout/stderr go to the host's stdout/stderr; stdin reads EOF; the heap
 * (used by stdio buffers only; aotc modules never allocate) lies between the
 * end of .bss and the end of RAM; _exit reports the status to QEMU. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>

#include "semihost.h"

#undef errno
extern int errno;

extern char __heap_start__[], __heap_end__[];

void _init(void) {}
void _fini(void) {}

void _exit(int status) { sh_exit(status & 0xFF); }

int _write(int fd, const char *buf, int len) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  if (len <= 0) return 0;
  return len - (int)sh_write_fd(fd, buf, (uint32_t)len);
}

int _read(int fd, char *buf, int len) {
  (void)buf;
  (void)len;
  if (fd != 0) {
    errno = EBADF;
    return -1;
  }
  return 0;
}

int _close(int fd) {
  (void)fd;
  return 0;
}

int _lseek(int fd, int off, int whence) {
  (void)fd;
  (void)off;
  (void)whence;
  errno = ESPIPE;
  return -1;
}

int _fstat(int fd, struct stat *st) {
  (void)fd;
  st->st_mode = S_IFCHR;
  return 0;
}

int _isatty(int fd) { return fd >= 0 && fd <= 2; }

void *_sbrk(int incr) {
  static char *brk = __heap_start__;
  char *prev = brk;
  if (incr < 0 || (uint32_t)incr > (uint32_t)(__heap_end__ - brk)) {
    errno = ENOMEM;
    return (void *)-1;
  }
  brk += incr;
  return prev;
}

int _getpid(void) { return 1; }

int _kill(int pid, int sig) {
  (void)pid;
  /* abort() and raise(): exit with the shell convention 128 + signal. */
  _exit(128 + sig);
  return -1;
}

int _gettimeofday(void *tv, void *tz) {
  (void)tv;
  (void)tz;
  errno = ENOSYS;
  return -1;
}
