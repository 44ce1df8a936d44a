// hetvp — BlockLockstep (block_lockstep.h).
#include "rtl/bridges/block_lockstep.h"

#include <cinttypes>

#include "platform/format.h"
#include "platform/run_state.h"

namespace hetvp::rtl {

namespace {

std::string hex_bytes(const std::vector<uint8_t>& v, const std::vector<uint8_t>* be = nullptr) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (be && !(*be)[i]) ? std::string("--") : format("%02x", v[i]);
  return s;
}

uint64_t le_value(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

const char* edge(bool level) { return level ? "rising" : "falling"; }

}  // namespace

BlockLockstep::BlockLockstep(const RunMember& owner, std::string block, std::string instance, Clock clock, std::function<void()> write_ring,
                             std::function<unsigned(tlm::tlm_generic_payload&)> debug_read)
    : owner_(owner),
      instance_(std::move(instance)),
      clock_(clock),
      debug_read_(std::move(debug_read)),
      monitor_(std::move(block), [w = std::move(write_ring)] {
        if (w) w();
        return std::string();
      }) {}

void BlockLockstep::mismatch(const char* field, uint64_t index, const std::string& detail) {
  // The first divergence stops the run (the RTL's ring buffer is written once, by the monitor).
  if (monitor_.diverge(field, index, detail)) {
    counts_.divergences = 1;
    owner_.run_state().fail(instance_, monitor_.first().report());
  }
}

void BlockLockstep::compare_access(const tlm::tlm_generic_payload& rtl, const uint8_t* tlm_data, uint64_t cycle,
                                   uint64_t rtl_cycles, uint64_t tlm_cycles) {
  const uint64_t k = counts_.accesses++;
  if (failed()) return;
  const unsigned len = rtl.get_data_length();
  if (rtl.is_read()) {
    ++counts_.reads;
    if (!std::equal(tlm_data, tlm_data + len, rtl.get_data_ptr()))
      return mismatch("register access", k,
                      format("read at offset 0x%" PRIx64 " (cycle %" PRIu64 "): RTL 0x%" PRIx64 ", TLM 0x%" PRIx64,
                             rtl.get_address(), cycle, le_value(rtl.get_data_ptr(), len), le_value(tlm_data, len)));
  }
  if (latency_tolerance_ < 0) return;
  ++counts_.latencies;
  const uint64_t diff = rtl_cycles > tlm_cycles ? rtl_cycles - tlm_cycles : tlm_cycles - rtl_cycles;
  if (diff > uint64_t(latency_tolerance_))
    mismatch(
        "register access", k,
        format("%s at offset 0x%" PRIx64 " (presented at cycle %" PRIu64 "): RTL response after %" PRIu64
               " cycles, TLM after %" PRIu64 " (latency tolerance %" PRId64 " cycles)",
               rtl.is_read() ? "read" : "write", rtl.get_address(), cycle, rtl_cycles, tlm_cycles, latency_tolerance_));
}

void BlockLockstep::rtl_transaction(uint64_t cycle, const tlm::tlm_generic_payload& gp,
                                    const sc_core::sc_time& latency) {
  rtl_tx_.push_back({cycle, gp.is_read(), gp.get_address(), gp.get_data_length(), latency});
  rtl_tx_ev_.notify(sc_core::SC_ZERO_TIME);
}

// The reference's n-th transaction is matched with the RTL's n-th (same command, address, length
// and cycle, else a divergence) and takes the latency the RTL's took, so the two stay cycle for
// cycle; reads get their data by debug transport, writes are compared and go nowhere.
void BlockLockstep::tlm_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
  const uint64_t cycle = now_cycle();
  while (rtl_tx_.empty()) {
    if (failed()) sc_core::wait(never_);
    sc_core::wait(rtl_tx_ev_);
  }
  const Transaction r = rtl_tx_.front();
  rtl_tx_.pop_front();
  if (r.read != gp.is_read() || r.addr != gp.get_address() || r.len != gp.get_data_length() || r.cycle != cycle) {
    mismatch("bus transaction", counts_.transactions,
             format("RTL %s 0x%" PRIx64 " (%u bytes) at cycle %" PRIu64 ", TLM %s 0x%" PRIx64
                    " (%u bytes) at cycle %" PRIu64,
                    r.read ? "read" : "write", r.addr, r.len, r.cycle, gp.is_read() ? "read" : "write",
                    gp.get_address(), gp.get_data_length(), cycle));
    sc_core::wait(never_);
  }
  ++counts_.transactions;
  d += r.latency;
  if (gp.is_read()) {
    const unsigned got = debug_read_(gp);
    gp.set_response_status(got == gp.get_data_length() ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  MemWrite w{cycle, gp.get_address(), {gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length()}, {}};
  w.be.assign(w.data.size(), 0xff);
  if (gp.get_byte_enable_ptr())
    for (size_t i = 0; i < w.be.size(); ++i)
      w.be[i] = gp.get_byte_enable_ptr()[i % gp.get_byte_enable_length()] ? 0xff : 0;
  tlm_writes_.push_back(std::move(w));
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  compare_writes();
}

void BlockLockstep::rtl_wrote(uint64_t cycle, uint64_t addr, const std::vector<uint8_t>& data,
                              const std::vector<uint8_t>& be) {
  rtl_writes_.push_back({cycle, addr, data, be});
  compare_writes();
}

void BlockLockstep::compare_writes() {
  while (!failed() && !rtl_writes_.empty() && !tlm_writes_.empty()) {
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
    if (ra != t.addr || rd != t.data || rb != t.be)
      return mismatch(
          "memory write", counts_.writes,
          format("RTL 0x%" PRIx64 " <- %s (strobes %zu bytes), TLM 0x%" PRIx64 " <- %s (%zu bytes)", ra,
                 hex_bytes(rd).c_str(), rd.size(), t.addr, hex_bytes(t.data, &t.be).c_str(), t.data.size()));
    if (r.cycle != t.cycle)
      return mismatch("memory write", counts_.writes,
                      format("RTL 0x%" PRIx64 " <- %s at cycle %" PRIu64 ", TLM the same at cycle %" PRIu64, ra,
                             hex_bytes(rd).c_str(), r.cycle, t.cycle));
    ++counts_.writes;
    rtl_writes_.pop_front();
    tlm_writes_.pop_front();
  }
}

void BlockLockstep::push_irq(std::deque<IrqEdge>& q, IrqEdge e) {
  q.push_back(e);
  compare_irqs();
}

void BlockLockstep::compare_irqs() {
  while (!failed() && !rtl_irqs_.empty() && !tlm_irqs_.empty()) {
    const IrqEdge &r = rtl_irqs_.front(), &t = tlm_irqs_.front();
    if (r.index != t.index || r.level != t.level || r.cycle != t.cycle)
      return mismatch("interrupt edge", counts_.irqs,
                      format("RTL irq %u %s at cycle %" PRIu64 ", TLM irq %u %s at cycle %" PRIu64, r.index,
                             edge(r.level), r.cycle, t.index, edge(t.level), t.cycle));
    ++counts_.irqs;
    rtl_irqs_.pop_front();
    tlm_irqs_.pop_front();
  }
}

void BlockLockstep::end_of_run() {
  if (!failed()) compare_leftovers();
  const Counts& c = counts_;
  owner_.run_state().add_summary(format(
      "%s: lockstep compared %" PRIu64 " register accesses (%" PRIu64 " reads' data, %" PRIu64 " latencies), %" PRIu64
      " bus transactions, %" PRIu64 " memory writes, %" PRIu64 " interrupt edges: %" PRIu64 " divergence%s",
      instance_.c_str(), c.accesses, c.reads, c.latencies, c.transactions, c.writes, c.irqs, c.divergences,
      c.divergences == 1 ? " (the first stops the run)" : "s"));
}

void BlockLockstep::compare_leftovers() {
  if (!rtl_writes_.empty() || !tlm_writes_.empty()) {
    const bool rtl = !rtl_writes_.empty();
    const MemWrite& w = rtl ? rtl_writes_.front() : tlm_writes_.front();
    mismatch("memory write", counts_.writes,
             format("the %s wrote 0x%" PRIx64 " <- %s at cycle %" PRIu64 ", the %s wrote nothing", rtl ? "RTL" : "TLM",
                    w.addr, hex_bytes(w.data, &w.be).c_str(), w.cycle, rtl ? "TLM" : "RTL"));
  } else if (!rtl_irqs_.empty() || !tlm_irqs_.empty()) {
    const bool rtl = !rtl_irqs_.empty();
    const IrqEdge& e = rtl ? rtl_irqs_.front() : tlm_irqs_.front();
    mismatch("interrupt edge", counts_.irqs,
             format("the %s %s irq %u at cycle %" PRIu64 ", the %s did not", rtl ? "RTL" : "TLM",
                    e.level ? "raised" : "lowered", e.index, e.cycle, rtl ? "TLM" : "RTL"));
  }
}

}  // namespace hetvp::rtl
