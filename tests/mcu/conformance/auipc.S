# auipc: rd = pc + (imm20 << 12). The pc is taken with an absolute lui/addi pair (not auipc).
#include "test_macros.h"

#define AUIPC_CASE(n, result, imm) \
    TEST_CASE(n, x14, result, 1: auipc x14, imm; lui x1, %hi(1b); addi x1, x1, %lo(1b); sub x14, x14, x1)

RVTEST_CODE_BEGIN

    AUIPC_CASE(2, 0x00000000, 0x0)
    AUIPC_CASE(3, 0x00001000, 0x1)
    AUIPC_CASE(4, 0x00002000, 0x2)
    AUIPC_CASE(5, 0xfffff000, 0xfffff)
    AUIPC_CASE(6, 0x80000000, 0x80000)
    AUIPC_CASE(7, 0x7ffff000, 0x7ffff)
    TEST_CASE(8, x14, 0x80000000, auipc x14, 0; lui x1, 0xfffff; and x14, x14, x1) /* linked at 0x80000000 */
    TEST_CASE(9, x0, 0, auipc x0, 0x12345)

    TEST_PASSFAIL

RVTEST_CODE_END
