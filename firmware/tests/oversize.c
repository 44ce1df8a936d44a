/* Deliberately too big for gpc.ld (8 KiB code memory): used by a test that expects the link to fail. */
#include "hetvp_rt.h"
static const uint32_t table[3000] = {1, 2, 3};
int main(void) {
  volatile uint32_t i = 2999;
  return (int)table[i];
}
