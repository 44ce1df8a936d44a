// hetvp — the component type `rtl.<name>` of every block built with hetvp_add_rtl_block:
// `mode: rtl` runs the Verilated block through RtlCore, `mode: tlm` its reference model,
// `mode: lockstep` both on the same inputs, comparing register read data, memory writes
// (address, data, strobes) and interrupt edges; the first divergence stops the run
// (docs/rtl_blocks.md, "Lockstep").
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cinttypes>
#include <deque>
#include <stdexcept>
#include <unistd.h>

#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/format.h"
#include "platform/implementation.h"
#include "platform/run_state.h"
#include "rtl/bridges/lockstep.h"
#include "rtl/bridges/rtl_block.h"

namespace hetvp::rtl {

namespace {

std::string hex_bytes(const std::vector<uint8_t>& v, const std::vector<uint8_t>* be = nullptr) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (be && !(*be)[i]) ? std::string("--") : format("%02x", v[i]);
  return s;
}

// The directory a file would be written to exists and is writable.
bool writable_dir(const std::string& file) {
  const size_t slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
  return access(dir.c_str(), W_OK) == 0;
}

uint64_t le_value(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

struct MemWrite {
  uint64_t addr;
  std::vector<uint8_t> data, be;
};
struct IrqEdge {
  unsigned index;
  bool level;
};

class RtlComponent final : public Component {
 public:
  tlm_utils::simple_target_socket<RtlComponent> regs{"regs"};
  tlm_utils::simple_initiator_socket<RtlComponent> mem{"mem"};

  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    implementation_param(*s, "mode", "rtl",
                         "rtl: the Verilated block; tlm: its TLM reference model; lockstep: both, compared (needs a "
                         "reference)");
    s->freq("clock", std::string("100 MHz"), "block clock (runs only while the block has work)");
    s->integer("reset_cycles", 4, "cycles rst_n is held low at time 0").range(1, 1000);
    s->integer("irq_vector", 0, "interrupt vector raised by irq output 0 (output k raises irq_vector + k)")
        .range(0, 1023);
    s->integer("timeout_cycles", 100000,
               "a register access without READY or response, or a response the block does not take, after this "
               "many cycles stops the run")
        .min(1);
    s->integer("max_outstanding", 4, "AXI4 master: read and write bursts the bridge accepts in flight").range(1, 64);
    s->string("waves", std::string(""), "full waveform (VCD) of every signal of the block; empty = none");
    s->time("waves_start", std::string("0 s"), "waveform window start");
    s->time("waves_stop", std::string("0 s"), "waveform window end (0 = end of the run)");
    s->integer("ring_cycles", 256, "cycles kept in the ring buffer written when the run fails (0 = none)")
        .range(0, 1 << 20);
    s->string("ring_file", std::string(""), "ring buffer VCD file (empty: <instance>_last_cycles.vcd)");
    s->integer("test_ready_delay", 0,
               "TEST ONLY: the AXI4 master bridge raises ARREADY/AWREADY/WREADY only after VALID was high this many "
               "cycles")
        .range(0, 1000);
    return s;
  }

  RtlComponent(sc_core::sc_module_name n, const Params& p, const RtlBlockType& t)
      : Component(n), type_(t), mode_(p.string("mode")) {
    initiator_ = instance_name();
    env_.instance = instance_name();
    env_.type = "rtl." + t.name;
    env_.initiator = initiator_.c_str();
    env_.clock.period_ps = Clock::ps(p.period("clock"));
    if (env_.clock.period_ps < 2)
      throw std::invalid_argument(p.where("clock") + ": clock too fast (the period must be at least 2 ps)");
    irq_vector_ = p.u32("irq_vector");
    regs.register_b_transport(this, &RtlComponent::b_transport);
    expose_target("regs", regs);
    if (t.master) expose_initiator("mem", mem);
    for (unsigned k = 0; k < t.irqs; ++k) {
      irq_.push_back(std::make_unique<IrqPort>(t.irqs == 1 ? "irq" : format("irq%u", k).c_str()));
      expose_irq_out(t.irqs == 1 ? "irq" : format("irq%u", k), *irq_.back(), true);
    }
    const RtlReferenceType* ref = RtlReferenceRegistry::get().find(t.reference);
    if (mode_ != "rtl" && !ref)
      throw std::invalid_argument(p.where("mode") + ": mode " + mode_ + " needs a TLM reference model of rtl." +
                                  t.name + ", and none is registered (HETVP_REGISTER_RTL_REFERENCE)");
    RtlOptions o;
    o.reset_cycles = reset_cycles_ = p.u32("reset_cycles");
    o.timeout_cycles = p.u64("timeout_cycles");
    o.max_outstanding = p.u32("max_outstanding");
    o.test_ready_delay = p.u32("test_ready_delay");
    o.waves = p.string("waves");
    o.waves_start = p.time("waves_start");
    o.waves_stop = p.time("waves_stop");
    o.ring_cycles = p.u32("ring_cycles");
    o.ring_file = p.string("ring_file");
    if (!o.waves.empty() && !writable_dir(o.waves))
      throw std::invalid_argument(p.where("waves") + ": cannot write '" + o.waves + "' (no such directory)");
    if (!o.ring_file.empty() && !writable_dir(o.ring_file))
      throw std::invalid_argument(p.where("ring_file") + ": cannot write '" + o.ring_file + "' (no such directory)");
    if (o.waves_stop > sc_core::SC_ZERO_TIME && o.waves_stop < o.waves_start)
      throw std::invalid_argument(p.where("waves_stop") + ": the window ends (" + o.waves_stop.to_string() +
                                  ") before it starts (" + o.waves_start.to_string() + ")");

    lockstep_ = LockstepMonitor(env_.type + " '" + instance_name() + "'", [this] {
      if (core_) core_->write_ring_now();
      return std::string();
    });
    BlockEnv real = env_;  // what reaches the platform
    real.mem = [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { count_and_send(gp, d); };
    real.irq = [this](unsigned k, bool level) { irq_edge(k, level); };
    if (mode_ == "tlm") {
      ref_ = ref->create("tlm", real);
    } else {
      if (mode_ == "lockstep") {
        real.wrote = [this](uint64_t a, const std::vector<uint8_t>& d, const std::vector<uint8_t>& be) {
          rtl_writes_.push_back({a, d, be});
          compare_writes();
        };
        BlockEnv shadow = env_;  // the reference reads the same memory, writes nothing, raises nothing
        shadow.mem = [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { shadow_mem(gp, d); };
        shadow.irq = [this](unsigned k, bool level) {
          tlm_irqs_.push_back({k, level});
          compare_irqs();
        };
        ref_ = ref->create("tlm", shadow);
      }
      core_ = std::make_unique<RtlCore>("rtl", t, real, o);
    }
    declare_stats();
  }

  void end_of_run() override {
    if (core_) {
      core_->end_of_run();
      // Not a statistic (the stats are the same in every mode): how much the RTL clock ran.
      RunState::get().add_summary(
          format("%s: RTL clock ran %" PRIu64 " cycles (%" PRIu64 " after reset), woke %" PRIu64 " times",
                 instance_name().c_str(), core_->counters().cycles, core_->bus_cycles(), core_->counters().wakeups));
    }
    if (mode_ != "lockstep" || lockstep_.failed()) return;
    if (!rtl_writes_.empty() || !tlm_writes_.empty()) {
      const bool rtl = !rtl_writes_.empty();
      const MemWrite& w = rtl ? rtl_writes_.front() : tlm_writes_.front();
      mismatch("memory write", writes_compared_,
               format("the %s wrote 0x%" PRIx64 " <- %s, the %s wrote nothing", rtl ? "RTL" : "TLM", w.addr,
                      hex_bytes(w.data, &w.be).c_str(), rtl ? "TLM" : "RTL"));
    } else if (!rtl_irqs_.empty() || !tlm_irqs_.empty()) {
      const bool rtl = !rtl_irqs_.empty();
      const IrqEdge& e = rtl ? rtl_irqs_.front() : tlm_irqs_.front();
      mismatch("interrupt edge", irqs_compared_,
               format("the %s %s irq %u, the %s did not", rtl ? "RTL" : "TLM", e.level ? "raised" : "lowered", e.index,
                      rtl ? "TLM" : "RTL"));
    }
  }

 private:
  void declare_stats() {
    stats()
        .counter("reg_reads", "accesses", "register reads", reg_reads_)
        .counter("reg_writes", "accesses", "register writes", reg_writes_)
        .counter("mem_reads", "transactions", "memory reads the block issued (one per AXI4 burst)", mem_reads_)
        .counter("mem_writes", "transactions", "memory writes the block issued", mem_writes_)
        .counter("bytes_read", "bytes", "bytes the block read", bytes_read_)
        .counter("bytes_written", "bytes", "bytes the block wrote", bytes_written_)
        .counter("interrupts", "edges", "rising edges of the block's interrupt outputs", irqs_);
  }

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    sc_core::wait(delay);  // the access is presented to the block at its arrival
    delay = sc_core::SC_ZERO_TIME;
    (gp.is_write() ? reg_writes_ : reg_reads_) += 1;
    if (mode_ == "tlm") {
      // presented at the next rising edge, and not before the reset is over (as the RTL)
      const uint64_t g = std::max<uint64_t>(env_.clock.next_after(sc_core::sc_time_stamp()), reset_cycles_ + 1);
      ref_->access(gp, g);
      env_.clock.wait_until(g + 1);
      return;
    }
    std::vector<uint8_t> copy(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length());
    const uint64_t g = core_->access(gp);
    if (mode_ != "lockstep" || lockstep_.failed() || !gp.is_response_ok()) return;
    tlm::tlm_generic_payload t;
    t.set_command(gp.get_command());
    t.set_address(gp.get_address());
    t.set_data_ptr(copy.data());
    t.set_data_length(unsigned(copy.size()));
    t.set_streaming_width(unsigned(copy.size()));
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ref_->access(t, g);
    const uint64_t k = reads_compared_++;
    if (gp.is_read() && !std::equal(copy.begin(), copy.end(), gp.get_data_ptr()))
      mismatch(
          "register access", k,
          format("read at offset 0x%" PRIx64 " (cycle %" PRIu64 "): RTL 0x%" PRIx64 ", TLM 0x%" PRIx64,
                 gp.get_address(), g, le_value(gp.get_data_ptr(), copy.size()), le_value(copy.data(), copy.size())));
  }

  void count_and_send(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
    if (gp.is_read()) {
      ++mem_reads_;
      bytes_read_ += gp.get_data_length();
    } else {
      ++mem_writes_;
      bytes_written_ += gp.get_data_length();
    }
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    mem->b_transport(gp, d);
    if (mode_ == "lockstep") {
      rtl_tx_.push_back({gp.is_read(), gp.get_address(), gp.get_data_length(), sc_core::sc_time_stamp() - t0 + d});
      rtl_tx_ev_.notify(sc_core::SC_ZERO_TIME);
    }
  }

  // lockstep: the reference's memory port. Its n-th transaction is matched with the RTL's n-th
  // (same command, address and length, else a divergence) and takes the latency the RTL's took,
  // so the two stay cycle for cycle; reads get their data by debug transport, writes are compared.
  void shadow_mem(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
    while (rtl_tx_.empty()) {
      if (lockstep_.failed()) sc_core::wait(never_);
      sc_core::wait(rtl_tx_ev_);
    }
    const Tx r = rtl_tx_.front();
    rtl_tx_.pop_front();
    if (r.read != gp.is_read() || r.addr != gp.get_address() || r.len != gp.get_data_length()) {
      mismatch("bus transaction", tx_compared_,
               format("RTL %s 0x%" PRIx64 " (%u bytes), TLM %s 0x%" PRIx64 " (%u bytes)", r.read ? "read" : "write",
                      r.addr, r.len, gp.is_read() ? "read" : "write", gp.get_address(), gp.get_data_length()));
      sc_core::wait(never_);
    }
    ++tx_compared_;
    d += r.latency;
    if (gp.is_read()) {
      const unsigned got = mem->transport_dbg(gp);
      gp.set_response_status(got == gp.get_data_length() ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    MemWrite w{gp.get_address(), {gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length()}, {}};
    w.be.assign(w.data.size(), 0xff);
    if (gp.get_byte_enable_ptr())
      for (size_t i = 0; i < w.be.size(); ++i)
        w.be[i] = gp.get_byte_enable_ptr()[i % gp.get_byte_enable_length()] ? 0xff : 0;
    tlm_writes_.push_back(std::move(w));
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    compare_writes();
  }

  void irq_edge(unsigned k, bool level) {
    if (level) {
      ++irqs_;
      if (irq_[k]->size()) (*irq_[k])->raise(irq_vector_ + k, sc_core::SC_ZERO_TIME);
    }
    if (mode_ == "lockstep") {
      rtl_irqs_.push_back({k, level});
      compare_irqs();
    }
  }

  void compare_writes() {
    while (!lockstep_.failed() && !rtl_writes_.empty() && !tlm_writes_.empty()) {
      const MemWrite &r = rtl_writes_.front(), &t = tlm_writes_.front();
      // The RTL's write covers whole beats; compare the bytes it enabled.
      std::vector<uint8_t> rd, rb;
      uint64_t ra = r.addr;
      bool first = true;
      for (size_t i = 0; i < r.data.size(); ++i)
        if (r.be[i]) {
          if (first) ra = r.addr + i;
          first = false;
          rd.push_back(r.data[i]);
          rb.push_back(0xff);
        }
      if (ra != t.addr || rd != t.data || rb != t.be) {
        mismatch("memory write", writes_compared_,
                 format("RTL 0x%" PRIx64 " <- %s (strobes %zu bytes), TLM 0x%" PRIx64 " <- %s (%zu bytes)", ra,
                        hex_bytes(rd).c_str(), rd.size(), t.addr, hex_bytes(t.data, &t.be).c_str(), t.data.size()));
        return;
      }
      ++writes_compared_;
      rtl_writes_.pop_front();
      tlm_writes_.pop_front();
    }
  }
  void compare_irqs() {
    while (!lockstep_.failed() && !rtl_irqs_.empty() && !tlm_irqs_.empty()) {
      const IrqEdge &r = rtl_irqs_.front(), &t = tlm_irqs_.front();
      if (r.index != t.index || r.level != t.level) {
        mismatch("interrupt edge", irqs_compared_,
                 format("RTL irq %u %s, TLM irq %u %s", r.index, r.level ? "rising" : "falling", t.index,
                        t.level ? "rising" : "falling"));
        return;
      }
      ++irqs_compared_;
      rtl_irqs_.pop_front();
      tlm_irqs_.pop_front();
    }
  }
  // The first divergence stops the run (the RTL's ring buffer is written once, by the monitor).
  void mismatch(const char* field, uint64_t index, const std::string& detail) {
    if (lockstep_.diverge(field, index, detail)) RunState::get().fail(instance_name(), lockstep_.first().report());
  }

  const RtlBlockType& type_;
  std::string mode_, initiator_;
  BlockEnv env_;
  unsigned irq_vector_ = 0, reset_cycles_ = 0;
  std::vector<std::unique_ptr<IrqPort>> irq_;
  std::unique_ptr<RtlCore> core_;
  std::unique_ptr<ReferenceModel> ref_;
  uint64_t reg_reads_ = 0, reg_writes_ = 0, mem_reads_ = 0, mem_writes_ = 0, bytes_read_ = 0, bytes_written_ = 0,
           irqs_ = 0;
  // lockstep
  LockstepMonitor lockstep_{""};  // named in the constructor
  std::deque<MemWrite> rtl_writes_, tlm_writes_;
  std::deque<IrqEdge> rtl_irqs_, tlm_irqs_;
  struct Tx {
    bool read;
    uint64_t addr;
    unsigned len;
    sc_core::sc_time latency;
  };
  std::deque<Tx> rtl_tx_;
  sc_core::sc_event rtl_tx_ev_, never_;
  uint64_t tx_compared_ = 0;
  uint64_t reads_compared_ = 0, writes_compared_ = 0, irqs_compared_ = 0;
};

}  // namespace

void register_rtl_component(const RtlBlockType& t) {
  RtlBlockRegistry::get().add(t);
  std::string ports = "ports: regs (target, " + std::string(t.bus == "apb" ? "APB" : "AXI4-Lite") + " slave)";
  if (t.master) ports += ", mem (initiator, AXI4 master)";
  if (t.irqs == 1) ports += ", irq (interrupt out)";
  for (unsigned k = 0; t.irqs > 1 && k < t.irqs; ++k) ports += format(", irq%u", k);
  if (t.irqs > 1) ports += " (interrupts out)";
  const std::string name = t.name;
  ComponentRegistry::get().add(ComponentType{
      "rtl." + t.name, "Verilated RTL block " + t.name + " (top " + t.top + "; modes rtl, tlm, lockstep); " + ports,
      [] { return RtlComponent::schema(); },
      [name](const char* n, const Params& p) -> Component* {
        return new RtlComponent(n, p, *RtlBlockRegistry::get().find(name));
      }});
}

}  // namespace hetvp::rtl
