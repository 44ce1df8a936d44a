# --strict-traps (a debugging aid, off by default): the nested trap of trap_nested.S stops the run.
# iss-args: --strict-traps
# expect-log: fatal trap: fault in trap handler: illegal instruction 0xffffffff at pc 0x[0-9a-f]+ \(handling mcause 0x0000000b
#include "trap_nested.S"
