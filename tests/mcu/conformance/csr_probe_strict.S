# --strict-traps does not call the optional-CSR probing idiom a fault: an illegal-instruction trap of
# a CSR instruction inside a handler is how software finds an absent CSR (riscv-tests' env/p start-up
# does the same), not a handler that faults. strict_traps.S shows a real nested fault still stops.
# iss-args: --strict-traps
#include "csr_probe.S"
