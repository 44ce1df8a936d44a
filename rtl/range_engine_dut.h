// hetvp — make_rtl_dut<V>: a Verilated range_inval_engine model V (C++ output) as a
// RangeEngineModel, for RtlInvalidationEngine's RtlDutFactory. Needs Verilator's include path and
// V's header (the model in hetvp_lib, or a test-only FAULT variant in tests/rtl), both included
// before anything includes <systemc> (verilated.h would take its SystemC path).
#pragma once

#include "rtl/bridges/verilated_model.h"
#include "rtl/rtl_invalidation_engine.h"

namespace hetvp::rtl {

template <class V>
std::unique_ptr<RangeEngineModel> make_rtl_dut(const char* name) {
  auto m = std::make_unique<VerilatedModel<V, RangeEngineModel>>(name);
  auto& t = m->top();
  m->pins = {make_pin(t.cfg_max_len), make_pin(t.cfg_runs),  make_pin(t.in_valid),  make_pin(t.in_ready),
             make_pin(t.in_line),     make_pin(t.in_last),   make_pin(t.in_empty),  make_pin(t.out_valid),
             make_pin(t.out_ready),   make_pin(t.out_first), make_pin(t.out_count), make_pin(t.done)};
  return m;
}

}  // namespace hetvp::rtl
