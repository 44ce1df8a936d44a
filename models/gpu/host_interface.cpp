#include "models/gpu/host_interface.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include "models/gpu/gpu_regs.h"
#include "models/pcie/tlp.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/format.h"

namespace hetvp::gpu {

// TLP size limits: the link's (asked through `upstream`, see pcie::LinkQuery), the payload
// capped at what the device supports (Device Capabilities Max_Payload_Size_Supported). With
// nothing answering (a test harness in place of a link) the PCIe reset values 128/512 stay.
void HostInterface::end_of_elaboration() {
  if (upstream.get_base_port().size() == 0) return;
  tlm::tlm_generic_payload gp;
  pcie::LinkQuery q;
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  gp.set_data_length(0);
  gp.set_extension(&q);
  upstream->transport_dbg(gp);
  gp.clear_extension(&q);
  if (q.max_payload == 0) return;
  max_payload_ = std::min(q.max_payload, kMaxPayloadSupported);
  max_read_request_ = q.max_read_request;
}

HostInterface::HostInterface(sc_core::sc_module_name n, const HostInterfaceConfig& c, unsigned num_gpcs,
                             uint64_t vram_size, uint16_t pci_device)
    : sc_core::sc_module(n),
      pmc_("pmc", [this](const sc_core::sc_time& d) { send_msi(d); }),
      ptop_("ptop", num_gpcs, vram_size),
      cfg_(kVendorNvidia, pci_device, kClassVga,
           {pcie::BarSpec{c.bar0_size, false, false}, pcie::BarSpec{c.bar1_size, true, true}}) {
  bar0_size_ = c.bar0_size;
  vram_size_ = vram_size;
  bar0_latency_ = c.bar0_latency;
  bar1_read_latency_ = c.bar1_read_latency;
  bar1_write_latency_ = c.bar1_write_latency;
  pcie.register_transport_dbg(&HostInterface::dbg_pcie);
  dma.register_transport_dbg(&HostInterface::dbg_dma);
  intr.bind(pmc_);

  msi_info_->initiator = "gpu.msi";
  msi_gp_.set_extension(msi_info_);
  declare_stats();
}

void HostInterface::b_pcie(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (gp.get_extension<pcie::ConfigRequest>()) {
    ++cfg_accesses_;
    unsigned reg = pcie::ecam_register(gp.get_address());
    if (pcie::ecam_function(gp.get_address()) != 0) {  // single-function device
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint32_t v = 0;
    if (gp.is_read()) {
      v = cfg_.read32(reg);
      std::memcpy(gp.get_data_ptr(), &v, 4);
    } else {
      std::memcpy(&v, gp.get_data_ptr(), 4);
      cfg_.write32(reg, v);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  uint64_t offset = 0;
  int bar = cfg_.decode(gp.get_address(), offset);
  if (bar < 0) {
    ++refused_;
    std::string buf =
        format("%s: memory request to 0x%" PRIx64 " by %s not claimed (%s)", name(),
               static_cast<uint64_t>(gp.get_address()), initiator_of(gp),
               cfg_.memory_enabled() ? "outside BAR0/BAR1" : "memory space disabled in the command register");
    SC_REPORT_WARNING("hetvp/gpu", buf.c_str());
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint64_t addr = gp.get_address();
  gp.set_address(offset);
  if (bar == 0) {
    ++bar0_accesses_;
    delay += bar0_latency_;
    bar0.b_transport(gp, delay);
  } else {
    ++bar1_accesses_;
    if (offset >= vram_size_ || gp.get_data_length() > vram_size_ - offset) {
      std::string buf =
          format("%s: BAR1 access at offset 0x%" PRIx64 " (%u bytes) by %s lies beyond VRAM (%" PRIu64 " bytes)",
                 name(), offset, gp.get_data_length(), initiator_of(gp), vram_size_);
      SC_REPORT_WARNING("hetvp/gpu", buf.c_str());
      gp.set_address(addr);
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    delay += gp.is_read() ? bar1_read_latency_ : bar1_write_latency_;
    bar1.b_transport(gp, delay);
  }
  gp.set_address(addr);
}

unsigned HostInterface::dbg_pcie(tlm::tlm_generic_payload& gp) {
  uint64_t offset = 0;
  int bar = cfg_.decode(gp.get_address(), offset);
  if (bar < 0) return 0;
  uint64_t addr = gp.get_address();
  gp.set_address(offset);
  unsigned n = bar == 0 ? bar0->transport_dbg(gp) : bar1->transport_dbg(gp);
  gp.set_address(addr);
  return n;
}

void HostInterface::b_dma(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  ++dma_requests_;
  if (!cfg_.bus_master()) {
    ++refused_;
    std::string buf = format("%s: DMA to host address 0x%" PRIx64 " by %s refused: bus mastering is disabled", name(),
                             static_cast<uint64_t>(gp.get_address()), initiator_of(gp));
    SC_REPORT_WARNING("hetvp/gpu", buf.c_str());
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // Split into TLP-sized requests. Writes are posted: the caller is done when the last TLP has
  // left. Reads of several requests are issued back to back; the caller waits for the last.
  const unsigned limit = gp.is_write() ? max_payload_ : max_read_request_;
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  uint8_t* data = gp.get_data_ptr();
  if (len <= limit) {
    ++dma_tlps_;
    upstream.b_transport(gp, delay);
    return;
  }
  sc_core::sc_time issue = delay, done = delay;
  for (unsigned off = 0; off < len; off += limit) {
    unsigned n = std::min(limit, len - off);
    gp.set_address(addr + off);
    gp.set_data_ptr(data + off);
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    sc_core::sc_time d = issue;
    ++dma_tlps_;
    upstream.b_transport(gp, d);
    if (!gp.is_response_ok()) break;
    if (gp.is_write()) issue = d;  // next TLP follows on the wire
    if (d > done) done = d;
  }
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  delay = done;
}

unsigned HostInterface::dbg_dma(tlm::tlm_generic_payload& gp) { return upstream->transport_dbg(gp); }

void HostInterface::send_msi(const sc_core::sc_time& delay) {
  if (!cfg_.msi_enabled() || !cfg_.bus_master()) return;  // the driver polls PMC_INTR instead
  ++msis_;
  msi_data_buf_ = cfg_.msi_data();
  set_access(msi_gp_, tlm::TLM_WRITE_COMMAND, cfg_.msi_address(), &msi_data_buf_, 4);
  sc_core::sc_time d = delay;
  upstream.b_transport(msi_gp_, d);
}

void HostInterface::declare_stats() {
  stats_.set_name(basename());
  stats_.counter("config_accesses", "count", "configuration-space accesses from the link", cfg_accesses_)
      .counter("bar0_accesses", "count", "BAR0 (register) accesses from the link", bar0_accesses_)
      .counter("bar1_accesses", "count", "BAR1 (VRAM aperture) accesses from the link", bar1_accesses_)
      .counter("dma_requests", "count", "GPU-initiated requests to host memory", dma_requests_)
      .counter("dma_tlps", "count", "TLPs those requests were split into", dma_tlps_)
      .counter("msis", "count", "MSI writes sent upstream", msis_)
      .counter("refused", "count", "accesses refused (BAR disabled, bus mastering off, out of range)", refused_)
      .value("register_errors", "count", "illegal PMC and PTOP register accesses",
             [this] { return pmc_.errors() + ptop_.errors(); });
}

}  // namespace hetvp::gpu
