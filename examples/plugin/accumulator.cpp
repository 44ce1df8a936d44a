// The accumulator (accumulator.h) as a hetvp component type "accumulator".
#include "accumulator.h"

#include <cstring>

#include <tlm_utils/simple_target_socket.h>

#include "platform/component.h"
#include "platform/plugin.h"
#include "platform/registry.h"
#include "platform/trace.h"

namespace example {

class Accumulator : public hetvp::Component {
 public:
  tlm_utils::simple_target_socket<Accumulator> regs{"regs"};

  static std::shared_ptr<hetvp::Schema> schema() {
    auto s = std::make_shared<hetvp::Schema>();
    s->time("latency", std::string("20 ns"), "cost of one register access");
    return s;
  }

  Accumulator(sc_core::sc_module_name n, const hetvp::Params& p) : Component(n), latency_(p.time("latency")) {
    regs.register_b_transport(this, &Accumulator::b_transport);
    expose_target("regs", regs);
    stats()
        .counter("adds", "count", "stores to ADD", adds_)
        .counter("reads", "count", "register reads", reads_)
        .value("sum", "", "SUM at the end of the run", [this] { return sum_; });
  }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const sc_core::sc_time start = sc_core::sc_time_stamp() + delay;
    delay += latency_;
    if (gp.get_data_length() != 4 || gp.get_address() >= ACC_SIZE) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint32_t v = 0;
    if (gp.is_write()) {
      std::memcpy(&v, gp.get_data_ptr(), 4);
      if (gp.get_address() == ACC_ADD) {
        sum_ += v;
        ++count_;
        ++adds_;
      } else if (gp.get_address() == ACC_CLEAR) {
        sum_ = count_ = 0;
      }
    } else {
      ++reads_;
      v = gp.get_address() == ACC_SUM ? sum_ : gp.get_address() == ACC_COUNT ? count_ : 0;
      std::memcpy(gp.get_data_ptr(), &v, 4);
    }
    if (hetvp::Tracer::get().enabled())
      hetvp::Tracer::get().span(name(), gp.is_write() ? "write" : "read", start, latency_);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  sc_core::sc_time latency_;
  uint32_t sum_ = 0, count_ = 0;
  uint64_t adds_ = 0, reads_ = 0;
};

}  // namespace example

HETVP_PLUGIN("accumulator example")
HETVP_REGISTER_COMPONENT("accumulator", example::Accumulator, "example plugin: a register that adds what is stored");
