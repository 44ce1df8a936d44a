// hetvp — a Verilated C++ model (Verilator output without --sc, built with TRACE) as a
// VerilatedBlock: it owns the model and its context, evaluates it and writes its full waveform.
// Include only where the model's header is included (it needs Verilator's include path).
// Derived blocks add the pins of their own ports (e.g. make_rtl_dut in
// rtl/rtl_invalidation_engine.h); clk and rst (the model's rst_n, active low) are set here.
#pragma once

#include <memory>
#include <string>

#include "rtl/bridges/verilated_block.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace hetvp::rtl {

template <class V, class Base = VerilatedBlock>
class VerilatedModel : public Base {
 public:
  explicit VerilatedModel(const char* instance) {
    ctx_.traceEverOn(true);
    top_ = std::make_unique<V>(&ctx_, instance);
    this->clk = make_pin(top_->clk);
    this->rst = make_pin(top_->rst_n);  // active low
  }
  ~VerilatedModel() override {
    trace_close();
    top_->final();
  }
  V& top() { return *top_; }
  void eval() override { top_->eval(); }
  void trace_open(const std::string& file) override {
    if (vcd_) return;
    vcd_ = std::make_unique<VerilatedVcdC>();
    top_->trace(vcd_.get(), 99);
    vcd_->open(file.c_str());
  }
  void trace_dump(uint64_t time_ps) override {
    if (vcd_) vcd_->dump(time_ps);
  }
  void trace_close() override {
    if (vcd_) vcd_->close();
    vcd_.reset();
  }

 private:
  VerilatedContext ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
};

}  // namespace hetvp::rtl
