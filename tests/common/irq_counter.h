// An interrupt sink for unit tests: records every vector raised on it, in order.
#pragma once

#include <vector>

#include <systemc>

#include "platform/irq.h"

namespace hetvp::test {

struct IrqCounter : sc_core::sc_module, IrqIf {
  IrqExport in{"in"};
  std::vector<unsigned> bits;
  explicit IrqCounter(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.bind(*this); }
  void raise(unsigned bit, const sc_core::sc_time&) override { bits.push_back(bit); }
};

}  // namespace hetvp::test
