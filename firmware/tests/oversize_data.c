/* Deliberately too much .bss for gpc.ld (2 KiB data memory, 256 B minimum stack). */
#include "hetvp_rt.h"
uint8_t oversize_buffer[1900];
int main(void) {
  volatile uint8_t* p = oversize_buffer;
  p[1899] = 1;
  return p[1899] - 1;
}
