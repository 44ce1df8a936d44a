#include "models/pcie/root_complex.h"

#include <cinttypes>
#include <cstring>

#include "models/pcie/tlp.h"
#include "platform/registry.h"
#include "platform/format.h"
#include "platform/json.h"
#include "platform/trace.h"
#include "platform/sim_time.h"

namespace hetvp {

HETVP_REGISTER_COMPONENT("pcie_root_complex", RootComplex,
                         "PCIe root complex: ECAM, root ports with bridge windows, MMIO forwarding, MSI, DMA");

RootComplex::RootComplex(sc_core::sc_module_name n, const RootComplexConfig& c) : Component(n) {
  latency_ = c.latency;
  msi_base_ = c.msi_base;
  msi_size_ = c.msi_size;
  up_info_.initiator = basename();
  ecam.register_b_transport(this, &RootComplex::b_ecam);
  mmio.register_transport_dbg(&RootComplex::dbg_mmio);
  expose_target("ecam", ecam);
  expose_target("mmio", mmio);
  expose_initiator("host", host);
  expose_irq_out("irq", irq, /*optional=*/true);
  const unsigned n_ports = c.ports;
  ports_.resize(n_ports);
  for (unsigned i = 0; i < n_ports; ++i) {
    auto& rp = ports_[i];
    std::string d = "down" + std::to_string(i), u = "up" + std::to_string(i);
    rp.down = std::make_unique<tlm_utils::simple_initiator_socket_tagged<RootComplex>>(d.c_str());
    rp.up = std::make_unique<tlm_utils::simple_target_socket_tagged<RootComplex>>(u.c_str());
    rp.up->register_b_transport(this, &RootComplex::b_up, static_cast<int>(i));
    rp.up->register_transport_dbg(this, &RootComplex::dbg_up, static_cast<int>(i));
    expose_initiator(d, *rp.down);
    expose_target(u, *rp.up);
  }
  declare_stats();
}

// ---------------------------------------------------------------- root port (Type 1 header)
void RootComplex::RootPort::update_windows() {
  mem_lo = pref_lo = 1;
  mem_hi = pref_hi = 0;
  if (!(command & pcie::kCmdMemoryEnable)) return;
  uint64_t base = uint64_t(mem_base_limit & 0xfff0) << 16;
  uint64_t limit = (uint64_t(mem_base_limit >> 16 & 0xfff0) << 16) | 0xfffff;
  if (base <= limit) mem_lo = base, mem_hi = limit;
  uint64_t pbase = (uint64_t(pref_base_upper) << 32) | (uint64_t(pref_base_limit & 0xfff0) << 16);
  uint64_t plimit = (uint64_t(pref_limit_upper) << 32) | (uint64_t(pref_base_limit >> 16 & 0xfff0) << 16) | 0xfffff;
  if (pbase <= plimit) pref_lo = pbase, pref_hi = plimit;
}

uint32_t RootComplex::RootPort::read32(unsigned reg, unsigned index) const {
  switch (reg & ~3u) {
    case pcie::kCfgVendorDevice:
      return 0x8086u | (0x3420u << 16) | (index & 0);  // an X58-era root port
    case pcie::kCfgCommandStatus:
      return command;
    case pcie::kCfgClassRev:
      return 0x060400u << 8;  // PCI-to-PCI bridge
    case pcie::kCfgHeaderType:
      return 0x01u << 16;  // Type 1
    case pcie::kCfgBusNumbers:
      return primary | (uint32_t(secondary) << 8) | (uint32_t(subordinate) << 16);
    case pcie::kCfgMemBaseLimit:
      return mem_base_limit;
    case pcie::kCfgPrefBaseLimit:
      return pref_base_limit | 0x00010001;  // 64-bit prefetchable window
    case pcie::kCfgPrefBaseUpper:
      return pref_base_upper;
    case pcie::kCfgPrefLimitUpper:
      return pref_limit_upper;
    default:
      return 0;
  }
}

void RootComplex::RootPort::write32(unsigned reg, uint32_t v, uint32_t mask) {
  write_register(reg, v, mask);
  update_windows();
}

void RootComplex::RootPort::write_register(unsigned reg, uint32_t v, uint32_t mask) {
  auto merge = [&](uint32_t old) { return (old & ~mask) | (v & mask); };
  switch (reg & ~3u) {
    case pcie::kCfgCommandStatus:
      command = static_cast<uint16_t>(merge(command) & 0x0547);
      break;
    case pcie::kCfgBusNumbers: {
      uint32_t b = merge(primary | (uint32_t(secondary) << 8) | (uint32_t(subordinate) << 16));
      primary = b & 0xff;
      secondary = b >> 8 & 0xff;
      subordinate = b >> 16 & 0xff;
      break;
    }
    case pcie::kCfgMemBaseLimit:
      mem_base_limit = merge(mem_base_limit) & 0xfff0fff0;
      break;
    case pcie::kCfgPrefBaseLimit:
      pref_base_limit = merge(pref_base_limit) & 0xfff0fff0;
      break;
    case pcie::kCfgPrefBaseUpper:
      pref_base_upper = merge(pref_base_upper);
      break;
    case pcie::kCfgPrefLimitUpper:
      pref_limit_upper = merge(pref_limit_upper);
      break;
    default:
      break;  // read-only
  }
}

int RootComplex::port_for_bus(unsigned bus) const {
  for (size_t i = 0; i < ports_.size(); ++i)
    if (ports_[i].secondary != 0 && bus >= ports_[i].secondary && bus <= ports_[i].subordinate)
      return static_cast<int>(i);
  return -1;
}

int RootComplex::port_for_address(uint64_t addr) const {
  for (size_t i = 0; i < ports_.size(); ++i)
    if (ports_[i].claims_memory(addr)) return static_cast<int>(i);
  return -1;
}

// ---------------------------------------------------------------- transports
namespace {
// A span on `track` for one access forwarded through the root complex, from its arrival (t0) to
// its completion.
void trace_access(Tracer& tracer, TraceTrack& track, const char* what, tlm::tlm_generic_payload& gp,
                  const sc_core::sc_time& t0, const sc_core::sc_time& delay) {
  const sc_core::sc_time end = hetvp::sim_now() + delay;
  tracer.span(track.name(), what, t0, end - t0,
              TraceArgs()
                  .add("addr", static_cast<uint64_t>(gp.get_address()))
                  .add("size", gp.get_data_length())
                  .add("by", initiator_of(gp)));
}
}  // namespace

void RootComplex::b_ecam(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  ++config_requests_;
  delay += latency_;
  uint64_t off = gp.get_address();
  unsigned len = gp.get_data_length();
  if (len != 4 || (off & 3)) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);  // ECAM accesses are aligned dwords here
    return;
  }
  uint32_t value = 0xffffffff;
  unsigned bus = pcie::ecam_bus(off), dev = pcie::ecam_device(off), fn = pcie::ecam_function(off);
  unsigned reg = pcie::ecam_register(off);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (bus == 0) {
    if (dev < ports_.size() && fn == 0) {
      if (gp.is_read()) {
        value = ports_[dev].read32(reg, dev);
      } else {
        std::memcpy(&value, gp.get_data_ptr(), 4);
        ports_[dev].write32(reg, value, 0xffffffff);
      }
    } else {
      ++unclaimed_;
    }
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &value, 4);
    return;
  }
  int p = port_for_bus(bus);
  if (p < 0 || bus != ports_[p].secondary || dev != 0) {
    // No device: Unsupported Request. Reads return all-ones, writes are dropped.
    ++unclaimed_;
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &value, 4);
    return;
  }
  pcie::ConfigRequest cfg;
  gp.set_extension(&cfg);
  const sc_core::sc_time t0 = hetvp::sim_now() + delay;
  ports_[p].send_down(gp, delay);
  if (config_track_.on(tracer()))
    trace_access(tracer(), config_track_, gp.is_read() ? "config read" : "config write", gp, t0, delay);
  HETVP_DEBUG(PCIe, "config %s bus %u device %u function %u register 0x%03x by %s: %s", gp.is_read() ? "read" : "write",
              bus, dev, fn, reg, initiator_of(gp), gp.get_response_string().c_str());
  gp.clear_extension(&cfg);
  if (!gp.is_response_ok()) {
    ++unclaimed_;
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &value, 4);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
}

void RootComplex::b_mmio(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  ++mmio_requests_;
  delay += latency_;
  int p = port_for_address(gp.get_address());
  if (p < 0) {
    ++unclaimed_;
    std::string buf = format("%s: no root port claims address 0x%" PRIx64 " (access by %s; is the device enumerated?)",
                             name(), static_cast<uint64_t>(gp.get_address()), initiator_of(gp));
    SC_REPORT_WARNING("hetvp/pcie", buf.c_str());
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // t0 only when a trace is written: one library call less per access (#31)
  const sc_core::sc_time t0 = tracer().active() ? hetvp::sim_now() + delay : sc_core::SC_ZERO_TIME;
  ports_[p].send_down(gp, delay);
  if (mmio_track_.on(tracer()))  // the CPU's word-by-word accesses: runs of them (Tracer::span_run)
    tracer().span_run(mmio_track_, gp.is_read() ? "MMIO read" : "MMIO write", t0,
                      hetvp::sim_now() + delay - t0, gp.get_address(), gp.get_data_length());
  HETVP_DEBUG(PCIe, "MMIO %s 0x%" PRIx64 " (%u B) by %s through port %d, done at %s: %s",
              gp.is_read() ? "read" : "write", static_cast<uint64_t>(gp.get_address()), gp.get_data_length(),
              initiator_of(gp), p, (hetvp::sim_now() + delay).to_string().c_str(), gp.get_response_string().c_str());
}

unsigned RootComplex::dbg_mmio(tlm::tlm_generic_payload& gp) {
  int p = port_for_address(gp.get_address());
  if (p < 0) return 0;
  return (*ports_[p].down)->transport_dbg(gp);
}

void RootComplex::b_up(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += latency_;
  uint64_t addr = gp.get_address();
  if (gp.is_write() && addr >= msi_base_ && addr - msi_base_ < msi_size_) {
    ++msis_;
    uint32_t data = 0;
    std::memcpy(&data, gp.get_data_ptr(), std::min(4u, gp.get_data_length()));
    if (dma_track_.on(tracer()))
      tracer().instant(dma_track_.name(), "MSI", hetvp::sim_now() + delay,
                       format("\"vector\":%u", data & 0xffff));
    HETVP_DEBUG(PCIe, "MSI vector %u from port %d", data & 0xffff, port);
    irq->raise(data & 0xffff, delay);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!(ports_[port].command & pcie::kCmdBusMaster)) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  ++dma_requests_;
  const sc_core::sc_time t0 = tracer().active() ? hetvp::sim_now() + delay : sc_core::SC_ZERO_TIME;
  host.b_transport(gp, delay);
  if (dma_track_.on(tracer()))
    trace_access(tracer(), dma_track_, gp.is_read() ? "DMA read" : "DMA write", gp, t0, delay);
  HETVP_DEBUG(PCIe, "DMA %s 0x%" PRIx64 " (%u B) by %s from port %d, done at %s: %s", gp.is_read() ? "read" : "write",
              static_cast<uint64_t>(gp.get_address()), gp.get_data_length(), initiator_of(gp), port,
              (hetvp::sim_now() + delay).to_string().c_str(), gp.get_response_string().c_str());
}

unsigned RootComplex::dbg_up(int, tlm::tlm_generic_payload& gp) { return host->transport_dbg(gp); }

void RootComplex::declare_stats() {
  stats()
      .counter("config_requests", "count", "configuration requests from the CPU (ECAM window)", config_requests_)
      .counter("mmio_requests", "count", "memory requests from the CPU into the PCIe window", mmio_requests_)
      .counter("dma_requests", "count", "requests from endpoints to host memory (upstream)", dma_requests_)
      .counter("msis", "count", "MSI writes turned into CPU interrupts", msis_)
      .counter("unclaimed", "count", "requests no device or window claimed (unsupported request)", unclaimed_);
}

}  // namespace hetvp
