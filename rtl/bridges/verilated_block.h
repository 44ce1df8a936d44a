// hetvp — what hetvp_add_rtl_block (cmake/HetvpRtl.cmake) generates for one SystemVerilog block:
// a VerilatedBlock (pointers to the Verilated model's pins, eval, waveform tracing) and the
// registration of the block under its name, from which the component type `rtl.<name>`
// (rtl/bridges/rtl_component.cpp) is made. docs/rtl_blocks.md names the pins a top module has.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "platform/registry.h"

namespace hetvp::rtl {

// One pin of a Verilated C++ model: the address of its CData/SData/IData/QData member and its
// width in bits (a bus pin's width follows from the bus; see each bridge's trace(), e.g. axi4lite_target.cpp).
struct Pin {
  void* p = nullptr;
  uint8_t bytes = 0;
  uint64_t get() const {
    switch (bytes) {
      case 1:
        return *static_cast<const uint8_t*>(p);
      case 2:
        return *static_cast<const uint16_t*>(p);
      case 4:
        return *static_cast<const uint32_t*>(p);
      default:
        return *static_cast<const uint64_t*>(p);
    }
  }
  void set(uint64_t v) const {
    switch (bytes) {
      case 1:
        *static_cast<uint8_t*>(p) = static_cast<uint8_t>(v);
        break;
      case 2:
        *static_cast<uint16_t*>(p) = static_cast<uint16_t>(v);
        break;
      case 4:
        *static_cast<uint32_t*>(p) = static_cast<uint32_t>(v);
        break;
      default:
        *static_cast<uint64_t*>(p) = v;
    }
  }
  explicit operator bool() const { return p != nullptr; }
};

template <class T>
Pin make_pin(T& member) {
  static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "hetvp RTL bridges take pins of at most 64 bits");
  return Pin{&member, static_cast<uint8_t>(sizeof(T))};
}

// The pins of the bus ports (naming convention: s_axil_*, s_apb_*, m_axi_*; docs/rtl_blocks.md).
struct AxiLitePins {
  Pin awvalid, awready, awaddr, wvalid, wready, wdata, wstrb, bvalid, bready, bresp, arvalid, arready, araddr, rvalid,
      rready, rdata, rresp;
};
struct ApbPins {
  Pin psel, penable, pwrite, paddr, pwdata, pstrb, pready, prdata, pslverr;
};
struct AxiPins {
  Pin awvalid, awready, awid, awaddr, awlen, awsize, awburst, wvalid, wready, wdata, wstrb, wlast, bvalid, bready, bid,
      bresp, arvalid, arready, arid, araddr, arlen, arsize, arburst, rvalid, rready, rid, rdata, rresp, rlast;
};

// A Verilated model (C++ output, evaluated directly: no SystemC signals, no delta cycles).
class VerilatedBlock {
 public:
  virtual ~VerilatedBlock() = default;
  // rst: the reset pin (rst_n, active low, unless RtlBlockType::reset and reset_active_high say
  // otherwise; the stream bridge's blocks: rst_n); irq: IRQS bits; busy optional.
  Pin clk, rst, irq, busy;
  AxiLitePins axil;           // BUS axi4lite
  ApbPins apb;                // BUS apb
  AxiPins axi;                // MASTER axi4
  virtual void eval() = 0;
  // Full waveform of every signal (Verilator --trace): open, dump at a time in ps, close.
  virtual void trace_open(const std::string& file) = 0;
  virtual void trace_dump(uint64_t time_ps) = 0;
  virtual void trace_close() = 0;
};

// What hetvp_add_rtl_block registers for a block.
struct RtlBlockType {
  static constexpr const char* kKind = "RTL block";
  std::string name;  // NAME: the component type is "rtl." + name
  std::string top;   // TOP module
  std::string bus;   // "axi4lite" | "apb"
  bool master = false;
  unsigned irqs = 0;
  bool has_busy = false;
  std::string reference;  // block name whose TLM reference model serves this block (default: name)
  std::string reset = "rst_n";     // the reset pin (hetvp_add_rtl_block RESET)
  bool reset_active_high = false;  // ACTIVE_HIGH: the pin is 1 while in reset
  std::string waves = "vcd";  // format of the full waveform (`waves:`): "vcd" or "fst" (hetvp_add_rtl_block WAVES)
  std::function<std::unique_ptr<VerilatedBlock>(const char* instance)> create;
};
using RtlBlockRegistry = Registry<RtlBlockType>;

// Registers `rtl.<name>` as a component type (called by the generated glue from its static
// registration object, `registrar`, whose library is the type's origin: a plugin or built in).
void register_rtl_component(const RtlBlockType& t, const void* registrar);

template <class V, class = void>
struct HasBusyPin : std::false_type {};
template <class V>
struct HasBusyPin<V, std::void_t<decltype(std::declval<V&>().busy)>> : std::true_type {};
// The optional `busy` pin (an empty Pin when the top module has none).
template <class V>
Pin busy_pin(V& top) {
  if constexpr (HasBusyPin<V>::value)
    return make_pin(top.busy);
  else
    return Pin{};
}

}  // namespace hetvp::rtl
