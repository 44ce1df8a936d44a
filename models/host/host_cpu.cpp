#include "models/host/host_cpu.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include "platform/config.h"
#include "platform/payload.h"
#include "platform/registry.h"
#include "platform/run_state.h"
#include "platform/trace.h"
#include "platform/work_progress.h"
#include "platform/format.h"
#include "platform/sim_time.h"

namespace hetvp {

HETVP_REGISTER_COMPONENT("host_cpu", HostCpu, "host CPU running a host program (sw/) through the host API");

HostCpu::HostCpu(sc_core::sc_module_name n, const HostCpuConfig& c) : Component(n), name_(basename()) {
  info_.ecam_base = c.ecam_base;
  info_.ecam_size = c.ecam_size;
  info_.mmio_base = c.mmio_base;
  info_.mmio_size = c.mmio_size;
  info_.msi_address = c.msi_address;
  info_.pinned_base = c.pinned_base;
  info_.pinned_size = c.pinned_size;
  info_.cpu_hz = c.clock;
  cached_access_ = c.cached_access;
  uncached_store_ = c.uncached_store;
  uncached_load_ = c.uncached_load;
  wc_line_ = c.write_combine_line;
  mmio_width_ = c.mmio_width;
  line_bytes_ = c.line_bytes;
  use_dmi_ = c.dmi;
  info_ext_->initiator = basename();
  info_ext_->side = Side::Host;
  gp_.set_extension(info_ext_);
  irq.bind(*this);
  mem.register_invalidate_direct_mem_ptr(this, &HostCpu::invalidate_dmi);
  expose_initiator("mem", mem);
  expose_irq_in("irq", irq);
  SC_HAS_PROCESS(HostCpu);
  SC_THREAD(run_program);
  declare_stats();
}

void HostCpu::load_program(const std::string& program, const Params& args, uint64_t seed) {
  const ProgramType* t = ProgramRegistry::get().find(program);
  if (!t) throw ConfigError("unknown workload '" + program + "'");
  program_name_ = program;
  program_ = t->create();
  program_args_ = Params(args.node() ? args.node() : YAML::Node(YAML::NodeType::Map), t->schema(), "workload.args",
                         args.source());
  rng_.seed(seed);
}

void HostCpu::run_program() {
  if (!program_) return;
  int code = 1;
  HETVP_DEBUG(Cpu, "workload %s starts", program_name_.c_str());
  try {
    code = program_->run(*this, program_args_);
    qk_.sync();
  } catch (const HostError& e) {
    if (slept_until_ > hetvp::sim_now()) sc_core::wait(slept_until_ - hetvp::sim_now());
    run_state().fail(name_, std::string("workload '") + program_name_ + "': " + e.what());
    return;
  } catch (const sc_core::sc_report&) {
    throw;  // a model's SC_REPORT_ERROR: the simulation layer reports it
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // the run has ended and this thread is being killed (end_unfinished_threads): let it unwind
  } catch (const std::exception& e) {
    if (slept_until_ > hetvp::sim_now()) sc_core::wait(slept_until_ - hetvp::sim_now());
    run_state().fail(name_, std::string("workload '") + program_name_ + "' aborted: " + e.what());
    return;
  }
  HETVP_DEBUG(Cpu, "workload %s returned %d at %s", program_name_.c_str(), code, now().to_string().c_str());
  run_state().finish(code, program_name_);
}

// ---------------------------------------------------------------- memory access
bool HostCpu::try_dmi(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
  for (auto& d : dmi_) {
    if (addr < d.get_start_address() || addr + len - 1 > d.get_end_address()) continue;
    bool ok = cmd == tlm::TLM_READ_COMMAND ? d.is_read_allowed() : d.is_write_allowed();
    if (!ok) continue;
    uint8_t* p = d.get_dmi_ptr() + (addr - d.get_start_address());
    if (cmd == tlm::TLM_READ_COMMAND)
      std::memcpy(data, p, len);
    else
      std::memcpy(p, data, len);
    ++dmi_accesses_;
    return true;
  }
  return false;
}

void HostCpu::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  revoke_direct(start, end);  // pointers the program holds (host_cpu_direct.cpp)
  dmi_.erase(std::remove_if(
                 dmi_.begin(), dmi_.end(),
                 [&](const tlm::tlm_dmi& d) { return d.get_start_address() <= end && start <= d.get_end_address(); }),
             dmi_.end());
}

void HostCpu::transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, Access a, uint8_t* be) {
  bool uncached = a != Access::Cached;
  if (!uncached && use_dmi_ && try_dmi(cmd, addr, data, len)) {
    qk_.inc(cached_access_);
    qk_.sync_if_needed();
    return;
  }
  // An uncached access to the PCIe windows books a shared link whose slots go in call order: it is
  // made at the CPU's own time when another process could make one before it (#43,
  // docs/reliability.md "Time that does not depend on the quantum"). Other devices (the Pi's V3D
  // registers) keep the decoupled order their models are written for.
  if (uncached && on_pcie(addr)) catch_up_if_observed();
  set_access(gp_, cmd, addr, data, len);  // no byte enables unless given
  if (be) {
    gp_.set_byte_enable_ptr(be);
    gp_.set_byte_enable_length(len);
  }
  info_ext_->uncached = uncached;
  sc_core::sc_time local = qk_.get_local_time();
  if (a == Access::WriteCombined && cmd == tlm::TLM_WRITE_COMMAND)
    local += wc_line_;
  else if (uncached)
    local += cmd == tlm::TLM_READ_COMMAND ? uncached_load_ : uncached_store_;
  mem.b_transport(gp_, local);
  qk_.set(local);
  if (!gp_.is_response_ok()) {
    std::string buf =
        format("%s %s of %u bytes at 0x%" PRIx64 " failed: %s",
               a == Access::Cached     ? "cached"
               : a == Access::Uncached ? "uncached"
                                       : "write-combined",
               cmd == tlm::TLM_READ_COMMAND ? "load" : "store", len, addr, gp_.get_response_string().c_str());
    throw HostError(buf);
  }
  if (!uncached && use_dmi_ && gp_.is_dmi_allowed()) {
    tlm::tlm_dmi d;
    if (mem->get_direct_mem_ptr(gp_, d)) dmi_.push_back(d);
  }
  qk_.sync_if_needed();
}

namespace {
const char* access_name(Access a) {
  return a == Access::Cached ? "cached" : a == Access::Uncached ? "uncached" : "write-combined";
}
}  // namespace

// One span per host API call on the CPU's track (the program's view: from the call to its return
// in the CPU's local time).
void HostCpu::trace_call(const char* what, uint64_t addr, size_t len, Access a, const sc_core::sc_time& t0) {
  tracer().span(track_.name(), what, t0, now() - t0,
                TraceArgs().add("addr", addr).add("size", uint64_t{len}).add("access", access_name(a)));
}

void HostCpu::read(uint64_t addr, void* dst, size_t len, Access a) {
  const bool tracing = track_.on(tracer());
  const sc_core::sc_time t0 = tracing ? now() : sc_core::SC_ZERO_TIME;
  const uint64_t addr0 = addr;
  const size_t len0 = len;
  auto* p = static_cast<uint8_t*>(dst);
  unsigned unit = a == Access::Cached ? line_bytes_ : mmio_width_;  // WC loads are uncached loads
  while (len > 0) {
    unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, unit - addr % unit));
    transport(tlm::TLM_READ_COMMAND, addr, p, n, a);
    if (a == Access::Cached)
      ++loads_;
    else
      ++uncached_loads_;
    addr += n;
    p += n;
    len -= n;
  }
  if (tracing) trace_call("read", addr0, len0, a, t0);
}

void HostCpu::write(uint64_t addr, const void* src, size_t len, Access a) {
  const bool tracing = track_.on(tracer());
  const sc_core::sc_time t0 = tracing ? now() : sc_core::SC_ZERO_TIME;
  const uint64_t addr0 = addr;
  const size_t len0 = len;
  auto* p = const_cast<uint8_t*>(static_cast<const uint8_t*>(src));
  unsigned unit = a == Access::Uncached ? mmio_width_ : 64;  // cache line or write-combining line
  while (len > 0) {
    unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, unit - addr % unit));
    transport(tlm::TLM_WRITE_COMMAND, addr, p, n, a);
    if (a == Access::Cached)
      ++stores_;
    else if (a == Access::Uncached)
      ++uncached_stores_;
    else
      ++wc_lines_;
    addr += n;
    p += n;
    len -= n;
  }
  if (tracing) trace_call("write", addr0, len0, a, t0);
}

void HostCpu::mmio_write_strobed(uint64_t addr, const void* src, size_t len, uint32_t strobe) {
  if (len == 0 || len > 8 || addr % 8 + len > 8)
    throw HostError(
        format("strobed store of %zu bytes at 0x%" PRIx64 ": 1..8 bytes within one aligned 8-byte unit", len, addr));
  const bool tracing = track_.on(tracer());
  const sc_core::sc_time t0 = tracing ? now() : sc_core::SC_ZERO_TIME;
  uint8_t data[8] = {}, be[8] = {};
  std::copy_n(static_cast<const uint8_t*>(src), len, data);
  for (size_t i = 0; i < len; ++i) be[i] = ((strobe >> i) & 1) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  transport(tlm::TLM_WRITE_COMMAND, addr, data, unsigned(len), Access::Uncached, be);
  ++uncached_stores_;
  if (tracing) trace_call("write", addr, len, Access::Uncached, t0);
}

void HostCpu::debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t len) {
  while (len > 0) {
    unsigned n = static_cast<unsigned>(std::min<size_t>(len, 1u << 20));
    tlm::tlm_generic_payload g;
    set_access(g, cmd, addr, data, n);
    unsigned done = mem->transport_dbg(g);
    if (done != n) {
      std::string buf = format("debug %s of %u bytes at 0x%" PRIx64 " failed",
                               cmd == tlm::TLM_READ_COMMAND ? "read" : "write", n, addr);
      throw HostError(buf);
    }
    addr += n;
    data += n;
    len -= n;
  }
}
void HostCpu::peek(uint64_t addr, void* dst, size_t len) {
  debug(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t*>(dst), len);
}
void HostCpu::poke(uint64_t addr, const void* src, size_t len) {
  debug(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), len);
}

// ---------------------------------------------------------------- time
sc_core::sc_time HostCpu::now() { return qk_.get_current_time(); }

bool HostCpu::on_pcie(uint64_t addr) const {
  return (addr >= info_.mmio_base && addr - info_.mmio_base < info_.mmio_size) ||
         (addr >= info_.ecam_base && addr - info_.ecam_base < info_.ecam_size);
}

void HostCpu::catch_up_if_observed() {
  static const sc_core::sc_time max_lag(100, sc_core::SC_US);  // RunAheadKeeper's bound
  const sc_core::sc_time ahead = qk_.get_local_time();
  if (ahead == sc_core::SC_ZERO_TIME || (ahead <= max_lag && unobserved_for(ahead))) return;
  qk_.sync();
}

void HostCpu::spend(const sc_core::sc_time& t) {
  busy_ += t;
  qk_.inc(t);
  qk_.sync_if_needed();
}

void HostCpu::sleep(const sc_core::sc_time& t) {
  // A sleep no other process could see (nobody has anything to do before its end: a poll loop
  // whose device is busy until later) passes in local time, within RunAheadKeeper's bound; the
  // keeper's next sync point decides when SystemC time catches up (#31).
  static const sc_core::sc_time max_lag(100, sc_core::SC_US);
  const sc_core::sc_time ahead = qk_.get_local_time() + t;
  if (ahead <= max_lag && unobserved_for(ahead)) {
    const sc_core::sc_time t0 = now();
    qk_.set(ahead);
    slept_until_ = t0 + t;
    if (track_.on(tracer())) tracer().span(track_.name(), "sleep", t0, t);
    HETVP_DEBUG(Cpu, "slept %s from %s (in local time)", t.to_string().c_str(), t0.to_string().c_str());
    return;
  }
  qk_.sync();
  const sc_core::sc_time t0 = hetvp::sim_now();
  sc_core::wait(t);
  qk_.reset();
  if (track_.on(tracer())) tracer().span(track_.name(), "sleep", t0, t);
  HETVP_DEBUG(Cpu, "slept %s from %s", t.to_string().c_str(), t0.to_string().c_str());
}

void HostCpu::raise(unsigned vector, const sc_core::sc_time& delay) {
  ++irqs_;
  pending_irq_[vector].push_back(hetvp::sim_now() + delay);
  irq_event_.notify(delay);
  HETVP_DEBUG(Cpu, "interrupt vector %u raised, arriving at %s", vector,
              (hetvp::sim_now() + delay).to_string().c_str());
}

bool HostCpu::wait_interrupt(unsigned vector, const sc_core::sc_time& timeout) {
  qk_.sync();
  const sc_core::sc_time t0 = hetvp::sim_now();
  sc_core::sc_time deadline = t0 + timeout;
  auto traced = [&](bool got) {
    HETVP_DEBUG(Cpu, "interrupt vector %u %s after waiting %s", vector, got ? "taken" : "not raised (time-out)",
                (hetvp::sim_now() - t0).to_string().c_str());
    if (track_.on(tracer()))
      tracer().span(track_.name(), got ? "wait interrupt" : "wait interrupt (timeout)", t0, hetvp::sim_now() - t0,
                    format("\"vector\":%u", vector));
    return got;
  };
  for (;;) {
    auto& q = pending_irq_[vector];
    sc_core::sc_time t = hetvp::sim_now();
    for (size_t i = 0; i < q.size(); ++i) {
      if (q[i] <= t) {
        q.erase(q.begin() + static_cast<long>(i));
        qk_.reset();
        return traced(true);
      }
    }
    if (t >= deadline) return traced(false);
    // One persistent watchdog instead of wait(timeout, event): a wait with a timeout that an
    // interrupt ends leaves its cancelled timeout in SystemC's timed-event heap until the
    // deadline (1 s for a copy), and a run of copies filled the heap with them (#31). The
    // watchdog stays armed; a later wait whose deadline is later lets it fire (a spurious wake:
    // the loop re-checks and re-arms) instead of cancelling it.
    if (watchdog_at_ <= t || watchdog_at_ > deadline) {
      watchdog_.notify(deadline - t);
      watchdog_at_ = deadline;
    }
    sc_core::wait(irq_event_ | watchdog_);
  }
}

bool HostApi::poll32(uint64_t addr, uint32_t mask, uint32_t expect, const sc_core::sc_time& interval,
                     const sc_core::sc_time& timeout, Access a) {
  sc_core::sc_time deadline = now() + timeout;
  for (;;) {
    if ((read32(addr, a) & mask) == expect) return true;
    if (now() >= deadline) return false;
    sleep(interval);
  }
}

// ---------------------------------------------------------------- pinned memory
uint64_t HostCpu::alloc_pinned(uint64_t size, uint64_t align) {
  if (size == 0) throw HostError("alloc_pinned: size 0");
  if (align == 0 || (align & (align - 1))) throw HostError("alloc_pinned: alignment must be a power of two");
  uint64_t cur = info_.pinned_base;
  auto fits = [&](uint64_t at) { return at + size <= info_.pinned_base + info_.pinned_size; };
  for (auto& [base, sz] : allocations_) {
    uint64_t at = (cur + align - 1) & ~(align - 1);
    if (at + size <= base) break;
    cur = base + sz;
  }
  uint64_t at = (cur + align - 1) & ~(align - 1);
  if (!fits(at)) {
    std::string buf = format("alloc_pinned: out of pinned memory (asked %" PRIu64 " bytes, pool %" PRIu64 " bytes)",
                             size, info_.pinned_size);
    throw HostError(buf);
  }
  allocations_[at] = size;
  return at;
}

void HostCpu::free_pinned(uint64_t addr) {
  if (!allocations_.erase(addr)) {
    std::string buf = format("free_pinned: 0x%" PRIx64 " was not allocated", addr);
    throw HostError(buf);
  }
}

void HostCpu::log(const std::string& line) { run_state().add_summary(line); }

void HostCpu::progress(uint64_t done, uint64_t total) { run_context().service<WorkProgress>().set(done, total); }

void HostCpu::declare_stats() {
  stats()
      .counter("cached_loads", "count", "cached loads by the workload", loads_)
      .counter("cached_stores", "count", "cached stores by the workload", stores_)
      .counter("uncached_loads", "count", "uncached (MMIO) loads", uncached_loads_)
      .counter("uncached_stores", "count", "uncached (MMIO) stores", uncached_stores_)
      .counter("write_combined_lines", "lines", "write-combined lines flushed", wc_lines_)
      .counter("dmi_accesses", "count", "accesses served through DMI", dmi_accesses_)
      .counter("interrupts", "count", "interrupts taken", irqs_)
      .time("busy_ns", "simulated time the CPU spent (HostApi::spend: accesses and compute)", busy_)
      .record("program", "",
              "the workload's own results (only when it reported any): `name`, then each key it "
              "reported with HostApi::stat, in key order",
              [this](JsonWriter& w, const std::string& key) {
                w.begin_object(key);
                w.value("name", program_name_);
                for (auto& [k, v] : program_stats_) w.value(k, v);
                w.end_object();
              })
      .when([this] { return !program_stats_.empty(); });
}

}  // namespace hetvp
