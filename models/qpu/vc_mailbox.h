// The Raspberry Pi's ARM <-> VideoCore mailbox with the VideoCore firmware's property interface
// (firmware/include/hetvp/vc_mailbox.h), as a platform device: component type `vc_mailbox`.
//
// The ARM writes a message (16-byte-aligned bus address of a property buffer | channel 8) to
// MAIL1_WRT; the "firmware" (this model's thread) reads the buffer from SDRAM through its `mem`
// port, answers the tags in order, writes the buffer back, and after `latency` puts the same
// message in MAIL0 for the ARM to read (MAIL0_STA shows it). Tags answered: firmware revision,
// board model/revision/serial, ARM and VC memory, allocate/lock/unlock/release memory (from the
// GPU's memory split `gpu_mem`, handed out as bus addresses with the cache alias the flags ask
// for), enable_qpu and execute_qpu. execute_qpu does what the Pi firmware does through the V3D's
// own registers over `mem` (it never touches the V3D object): flush the caches unless noflush,
// queue (uniforms, code) pairs with SRQUA/SRQPC, poll SRQCS until every program ended or the
// timeout in ms passed.
//
// Malformed buffers (size, end tag, a tag's value buffer too small for its request) answer
// MBOX_RESPONSE_ERROR; unknown tags are left unanswered (the wiki's rule); bad execute_qpu or
// memory arguments answer a non-zero status. Each is also a warning naming the field.
#pragma once

#include <deque>
#include <map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "platform/component.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"

namespace hetvp::qpu {

// The parameters of the mailbox (YAML type `vc_mailbox`).
struct VcMailboxConfig : ParamSet {
  Size sdram_size{this,       "sdram_size",
                  nullptr,    "SDRAM behind `mem` from address 0 (property buffers and memory must be inside)",
                  Required{}, Range{4096, 1073741824.0}};
  Int<uint32_t> gpu_mem_base{this, "gpu_mem_base", 0x1c000000,
                             "physical base of the GPU memory split the allocate tag hands out (Pi 1, "
                             "gpu_mem=64 of 512 MiB: 0x1C000000)",
                             Range{0, 0xffffffffll}};
  Size gpu_mem_size{this, "gpu_mem_size", "64 MiB", "size of the GPU memory split (config.txt gpu_mem; default 64)",
                    Range{4096, 1073741824.0}};
  Int<uint32_t> v3d_base{this, "v3d_base", 0x20c00000,
                         "address of the V3D registers on `mem` (execute_qpu drives them)", Range{0, 0xffffffffll}};
  Int<uint32_t> firmware_revision{
      this, "firmware_revision", 1600000000,
      "answer to get firmware revision (assumption: the firmware answers its build time; any value)",
      Range{0, 0xffffffffll}};
  Int<uint32_t> board_model{this, "board_model", 0, "answer to get board model", Range{0, 0xffffffffll}};
  Int<uint32_t> board_revision{
      this, "board_revision", 0x000e,
      "answer to get board revision (0x000e: Pi 1 Model B rev 2.0, 512 MB, the Pi revision-code table)",
      Range{0, 0xffffffffll}};
  Int<uint64_t> serial{this, "serial", 0, "answer to get board serial", Min{0}};
  Time latency{this, "latency", "1 us",
               "from a message's arrival to its answer in MAIL0 besides the memory accesses (assumption: the "
               "firmware's time is not documented)"};
  Time poll_interval{this, "poll_interval", "1 us", "how often execute_qpu reads SRQCS while programs run"};
  void validate(Diagnostics& d) const override;
};

class VcMailbox : public PeripheralOf<Component> {
 public:
  tlm_utils::simple_initiator_socket<VcMailbox> mem{"mem"};

  using Config = VcMailboxConfig;
  VcMailbox(sc_core::sc_module_name name, const VcMailboxConfig& c);

 private:
  struct Block {
    uint32_t phys, size, flags;
    unsigned locks = 0;
  };
  struct Buffer;  // a property buffer being answered

  void write_mail1(uint32_t v);
  uint32_t read_mail0();
  uint32_t mail0_status() const;
  void firmware();  // SC_THREAD: answers messages in order
  void property(uint32_t msg);
  bool tag(uint32_t id, std::vector<uint32_t>& value, uint32_t req_len, uint32_t& resp_len);
  uint32_t execute_qpu(uint32_t num, uint32_t control, uint32_t noflush, uint32_t timeout_ms);
  uint32_t alloc(uint32_t size, uint32_t align, uint32_t flags);
  void warn(const std::string& what);
  // Timed accesses through `mem` (the firmware's time advances by each access's delay).
  uint32_t rd32(uint32_t phys);
  void wr32(uint32_t phys, uint32_t v);
  // `local`: the firmware's time offset to issue at and add to (decoupled), else it waits.
  void access(bool write, uint32_t phys, void* data, unsigned len, sc_core::sc_time* local = nullptr);
  void declare_stats();

  uint64_t sdram_size_;
  uint32_t gpu_mem_base_, gpu_mem_size_, v3d_base_;
  uint32_t fw_revision_, board_model_, board_revision_;
  uint64_t serial_;
  sc_core::sc_time latency_, poll_interval_;
  std::deque<uint32_t> inbox_, outbox_;
  sc_core::sc_event arrived_;
  std::map<uint32_t, Block> blocks_;  // handle -> block
  uint32_t next_handle_ = 1;
  bool qpu_enabled_ = false;
  uint64_t messages_ = 0, tags_ = 0, errors_ = 0, qpu_jobs_ = 0, allocated_ = 0;
};

}  // namespace hetvp::qpu
