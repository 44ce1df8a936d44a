/* A small image linked for the GPC memory map (8 KiB IMEM at 0, 2 KiB DMEM at 0x10000). */
#include "hetvp_rt.h"
static uint32_t counter = 5;
static uint32_t scratch[16];
int main(void) {
  for (int i = 0; i < 16; ++i) scratch[i] = counter * i;
  return (int)(scratch[15] - 75); /* 0 */
}
