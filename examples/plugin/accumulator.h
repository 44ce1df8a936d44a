// An accumulator peripheral: a store to ADD adds the value to SUM; SUM reads back the total and
// COUNT the number of additions; a store to CLEAR zeroes both. Every access costs `latency`.
#pragma once

#include <cstdint>

// Register offsets, shared by the model and the host program.
enum : uint32_t { ACC_ADD = 0x0, ACC_SUM = 0x4, ACC_COUNT = 0x8, ACC_CLEAR = 0xc, ACC_SIZE = 0x10 };
