#include "models/memory/memory.h"

#include <cinttypes>
#include <cstring>
#include <new>

#include "platform/access_info.h"
#include "platform/registry.h"
#include "platform/sim_time.h"

namespace hetvp {

HETVP_REGISTER_COMPONENT("memory", Memory, "RAM with sparse storage, fixed latency, bandwidth and DMI");

Memory::Memory(sc_core::sc_module_name name, const MemoryConfig& c) : Component(name) {
  size_ = c.size;
  size_origin_ = c.size.where();
  latency_ = c.latency;
  write_latency_ = c.write_latency.given() ? c.write_latency() : latency_;
  const double bw = c.bandwidth;
  seconds_per_byte_ = bw > 0 ? 1.0 / bw : 0.0;
  if (seconds_per_byte_ > 0)
    for (unsigned len = 0; len <= 4096; ++len)
      stream_table_.push_back(sc_core::sc_time(len * seconds_per_byte_, sc_core::SC_SEC));
  dmi_ = c.dmi;
  chunks_.resize((size_ + kChunk - 1) / kChunk);
  written_.resize(((size_ + kPage - 1) / kPage + 63) / 64);
  in.register_transport_dbg(&Memory::transport_dbg);
  in.register_get_direct_mem_ptr(&Memory::get_direct_mem_ptr);
  expose_target("in", in);
  declare_target_extent("in", size_);  // a router's map entry may not reach past it
  declare_stats();
}

uint8_t* Memory::chunk(uint64_t index) {
  auto& c = chunks_[index];
  if (!c) {
    c.reset(static_cast<uint8_t*>(std::calloc(kChunk, 1)));
    if (!c) throw std::bad_alloc();
    ++chunks_allocated_;
  }
  return c.get();
}

bool Memory::access(tlm::tlm_generic_payload& gp) {
  uint64_t addr = gp.get_address();
  unsigned len = gp.get_data_length();
  if (addr >= size_ || len > size_ - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  uint8_t* data = gp.get_data_ptr();
  bool rd = gp.is_read();
  if (!rd && !gp.is_write()) {  // TLM_IGNORE_COMMAND
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }
  if (len <= 8 && addr % kPage + len <= kPage) {
    // A register-sized access inside one page (an uncached BAR1 read, a microcontroller's
    // word): a fixed-size copy instead of the run walk below. Same bytes, same written bits.
    uint8_t* p = chunk(addr / kChunk) + addr % kChunk;
    const uint64_t page = addr / kPage;
    if (!rd) mark_written(page, page);
    uint8_t* src = rd ? p : data;
    uint8_t* dst = rd ? data : p;
    if (rd && !written(page))
      std::memset(dst, 0, len);
    else if (len == 4)
      std::memcpy(dst, src, 4);
    else if (len == 8)
      std::memcpy(dst, src, 8);
    else
      std::memcpy(dst, src, len);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }
  while (len > 0) {
    const uint64_t off = addr % kChunk;
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, kChunk - off));
    uint8_t* p = chunk(addr / kChunk) + off;
    if (rd) {
      // Runs of pages written / never written: one copy or one fill each (never written: zeros,
      // without faulting the host page in). A run, not a page, per call: with a page's bound the
      // compiler inlines the copy as a slow `rep movsq` (5 % of the main job).
      for (unsigned done = 0; done < n;) {
        const uint64_t a = addr + done;
        const bool w = written(a / kPage);
        uint64_t end = (a / kPage + 1) * kPage;
        while (end < addr + n && written(end / kPage) == w) end += kPage;
        const unsigned m = static_cast<unsigned>(std::min<uint64_t>(end, addr + n) - a);
        if (w)
          std::memcpy(data + done, p + done, m);
        else
          std::memset(data + done, 0, m);
        done += m;
      }
    } else {
      std::memcpy(p, data, n);
      mark_written(addr / kPage, (addr + n - 1) / kPage);
    }
    addr += n;
    data += n;
    len -= n;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Memory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!access(gp)) return;
  unsigned len = gp.get_data_length();
  if (gp.is_read()) {
    ++reads_;
    bytes_read_ += len;
    delay += latency_;
  } else {
    ++writes_;
    bytes_written_ += len;
    delay += write_latency_;
  }
  if (seconds_per_byte_ > 0)
    delay += len < stream_table_.size() ? stream_table_[len] : sc_core::sc_time(len * seconds_per_byte_, sc_core::SC_SEC);
  gp.set_dmi_allowed(dmi_);
  HETVP_DEBUG(Memory, "%s 0x%" PRIx64 " (%u B) by %s, done at %s", gp.is_read() ? "read" : "write",
              static_cast<uint64_t>(gp.get_address()), len, initiator_of(gp),
              (hetvp::sim_now() + delay).to_string().c_str());
}

unsigned Memory::transport_dbg(tlm::tlm_generic_payload& gp) { return access(gp) ? gp.get_data_length() : 0; }

bool Memory::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  uint64_t addr = gp.get_address();
  if (!dmi_ || addr >= size_) return false;
  uint64_t index = addr / kChunk;
  uint64_t start = index * kChunk, end = std::min(start + kChunk, size_) - 1;
  dmi.set_dmi_ptr(chunk(index));
  // The initiator may write any page of the chunk directly: reads must see its storage.
  mark_written(start / kPage, end / kPage);
  dmi.set_start_address(start);
  dmi.set_end_address(end);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(write_latency_);
  ++dmi_grants_;
  return true;
}

void Memory::declare_stats() {
  stats()
      .counter("reads", "count", "read transactions (b_transport)", reads_)
      .counter("writes", "count", "write transactions (b_transport)", writes_)
      .counter("bytes_read", "bytes", "bytes read by b_transport", bytes_read_)
      .counter("bytes_written", "bytes", "bytes written by b_transport", bytes_written_)
      .value("resident_bytes", "bytes", "host memory backing the touched chunks (sparse storage)",
             [this] { return chunks_allocated_ * kChunk; })
      .counter("dmi_grants", "count", "DMI requests granted (one chunk each)", dmi_grants_);
}

}  // namespace hetvp
