/* Exits with code 256 through the crt0 halt convention: a code whose low 8 bits are 0, so a
   process status of `code % 256` would read as a pass (`hetvp iss` maps it to 120, docs/iss.md). */
#include "hetvp_rt.h"
static volatile int base = 200;
int main(void) { return base + 56; }
