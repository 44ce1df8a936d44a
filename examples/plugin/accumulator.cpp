// The accumulator (accumulator.h) as a hetvp component type "accumulator": a Peripheral built
// from its register table, like hetvp's own blocks (docs/architecture.md "The register layer").
#include "accumulator.h"

#include "platform/component.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "platform/plugin.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/trace.h"

namespace example {

const hetvp::RegSpec kAccRegs[] = {HETVP_REG_TABLE(EXAMPLE_ACC_REGS)};

// A top-level YAML component with registers derives from PeripheralOf<Component>: it gets the
// target socket `regs` (exposed to `connect:`/`map:` as "regs"), a RegisterBank filled from the
// table, and hetvp's register timing rules.
// Its parameters, each declared once (platform/param_set.h): `hetvp list accumulator` shows them,
// the YAML is checked against them, and the constructor reads the typed values.
struct AccumulatorConfig : hetvp::ParamSet {
  hetvp::Time latency{this, "latency", "20 ns", "cost of one register access"};
};

class Accumulator : public hetvp::PeripheralOf<hetvp::Component> {
 public:
  using Config = AccumulatorConfig;

  Accumulator(sc_core::sc_module_name n, const AccumulatorConfig& c)
      : PeripheralOf(n, kAccRegs), latency_(c.latency), sum_(reg("SUM")), count_(reg("COUNT")) {
    expose_target("regs", regs);
    on_write("ADD", &Accumulator::add);     // behaviour bound to register names
    on_write("CLEAR", &Accumulator::clear);
    // Every access, whatever the register: a port over the whole window adds the latency and
    // returns false, so the table then serves the access.
    on_port("ACC", 0, ACC_SIZE, &Accumulator::cost);
    stats()
        .counter("adds", "count", "stores to ADD", adds_)
        .counter("reads", "count", "register reads", reads_)
        .value("sum", "", "SUM at the end of the run", [this] { return sum_.value; });
  }

 private:
  void add(uint32_t v) {
    sum_.value += v;
    ++count_.value;
    ++adds_;
  }
  void clear(uint32_t) { sum_.value = count_.value = 0; }

  bool cost(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const sc_core::sc_time start = sc_core::sc_time_stamp() + delay;
    delay += latency_;
    if (gp.is_read()) ++reads_;
    if (tracer().enabled())
      tracer().span(name(), gp.is_write() ? "write" : "read", start, latency_);
    return false;
  }

  sc_core::sc_time latency_;
  hetvp::Register& sum_;
  hetvp::Register& count_;
  uint64_t adds_ = 0, reads_ = 0;
};

}  // namespace example

HETVP_PLUGIN("accumulator example")
HETVP_REGISTER_COMPONENT("accumulator", example::Accumulator, "example plugin: a register that adds what is stored");
