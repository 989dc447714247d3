/* aotc.c - command line (placeholder until the stages land). */
#include <stdio.h>

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("aotc: no command\n", stderr);
  return 1;
}
