/* Exits with a known non-zero code through the crt0 halt convention. */
#include "hetvp_rt.h"
static volatile int base = 40;
int main(void) { return base + 2; }
