/* Executes an illegal instruction with no trap handler installed: the ISS must stop with a fatal
 * trap naming the instruction and pc. */
#include "hetvp_rt.h"
int main(void) {
  __asm__ volatile(".word 0xffffffff");
  return 0;
}
