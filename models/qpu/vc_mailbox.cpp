// The VideoCore mailbox and property interface (vc_mailbox.h).
#include "models/qpu/vc_mailbox.h"

#include <algorithm>

#include "firmware/include/hetvp/v3d_regs.h"
#include "firmware/include/hetvp/vc_mailbox.h"
#include "platform/access_info.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/run_state.h"

namespace hetvp::qpu {

HETVP_REGISTER_COMPONENT("vc_mailbox", VcMailbox,
                         "Raspberry Pi ARM<->VideoCore mailbox + firmware property interface (memory, execute_qpu)");

namespace {
const RegSpec kMboxRegs[] = {HETVP_REG_TABLE(HETVP_VCMBOX_REGS)};

const char* tag_name(uint32_t id) {
  switch (id) {
    case MBOX_TAG_GET_FIRMWARE_REVISION:
      return "get firmware revision";
    case MBOX_TAG_GET_BOARD_MODEL:
      return "get board model";
    case MBOX_TAG_GET_BOARD_REVISION:
      return "get board revision";
    case MBOX_TAG_GET_BOARD_SERIAL:
      return "get board serial";
    case MBOX_TAG_GET_ARM_MEMORY:
      return "get ARM memory";
    case MBOX_TAG_GET_VC_MEMORY:
      return "get VC memory";
    case MBOX_TAG_ALLOCATE_MEMORY:
      return "allocate memory";
    case MBOX_TAG_LOCK_MEMORY:
      return "lock memory";
    case MBOX_TAG_UNLOCK_MEMORY:
      return "unlock memory";
    case MBOX_TAG_RELEASE_MEMORY:
      return "release memory";
    case MBOX_TAG_EXECUTE_QPU:
      return "execute_qpu";
    case MBOX_TAG_ENABLE_QPU:
      return "enable_qpu";
    default:
      return nullptr;
  }
}

// Request words each tag needs (the value buffer must hold at least these).
unsigned request_words(uint32_t id) {
  switch (id) {
    case MBOX_TAG_ALLOCATE_MEMORY:
      return 3;
    case MBOX_TAG_EXECUTE_QPU:
      return 4;
    case MBOX_TAG_LOCK_MEMORY:
    case MBOX_TAG_UNLOCK_MEMORY:
    case MBOX_TAG_RELEASE_MEMORY:
    case MBOX_TAG_ENABLE_QPU:
      return 1;
    default:
      return 0;
  }
}

uint32_t alias_of(uint32_t flags) {  // bits 3:2 of the allocate flags -> the bus alias (the wiki)
  switch ((flags >> 2) & 3) {
    case 1:
      return VC_BUS_UNCACHED;
    case 2:
      return VC_BUS_L2_CACHED;
    case 3:
      return VC_BUS_L2_COHERENT;
    default:
      return VC_BUS_L1_L2_CACHED;
  }
}
}  // namespace

void VcMailboxConfig::validate(Diagnostics& d) const {
  if (uint64_t(gpu_mem_base) + gpu_mem_size > sdram_size)
    d.error(gpu_mem_base.where() + format(": the GPU memory 0x%08x + %u bytes reaches past SDRAM (%s)", gpu_mem_base(),
                                          uint32_t(gpu_mem_size), sdram_size.path().c_str()));
}

VcMailbox::VcMailbox(sc_core::sc_module_name name, const VcMailboxConfig& c)
    : PeripheralOf<Component>(name, kMboxRegs) {
  sdram_size_ = c.sdram_size;
  gpu_mem_base_ = c.gpu_mem_base;
  gpu_mem_size_ = uint32_t(c.gpu_mem_size);
  v3d_base_ = c.v3d_base;
  fw_revision_ = c.firmware_revision;
  board_model_ = c.board_model;
  board_revision_ = c.board_revision;
  serial_ = c.serial;
  latency_ = c.latency;
  poll_interval_ = c.poll_interval;
  on_write("MAIL1_WRT", &VcMailbox::write_mail1);
  reg("MAIL0_RD").read([this](const Register&) { return read_mail0(); });
  reg("MAIL0_POL").read([this](const Register&) { return outbox_.empty() ? 0u : outbox_.front(); });
  reg("MAIL0_STA").read([this](const Register&) { return mail0_status(); });
  reg("MAIL1_STA").read([this](const Register&) {
    return inbox_.size() >= MBOX_FIFO_DEPTH ? MBOX_STA_FULL : (inbox_.empty() ? MBOX_STA_EMPTY : 0u);
  });
  expose_target("regs", regs);
  expose_initiator("mem", mem);
  declare_stats();
  SC_HAS_PROCESS(VcMailbox);
  SC_THREAD(firmware);
}

void VcMailbox::declare_stats() {
  stats()
      .counter("messages", "count", "property messages answered", messages_)
      .counter("tags", "count", "tags answered", tags_)
      .counter("errors", "count", "malformed buffers and failed tags (each also a warning)", errors_)
      .counter("qpu_jobs", "count", "execute_qpu requests", qpu_jobs_)
      .counter("allocated_bytes", "bytes", "GPU memory handed out by allocate memory", allocated_);
}

void VcMailbox::warn(const std::string& what) {
  ++errors_;
  const std::string m = std::string(name()) + ": " + what;
  SC_REPORT_WARNING("hetvp/vc_mailbox", m.c_str());
}

// --- registers -------------------------------------------------------------------------------

void VcMailbox::write_mail1(uint32_t v) {
  // The message arrives with the write; the firmware picks it up then.
  const sc_core::sc_time d = this_access().delay;
  if (inbox_.size() >= MBOX_FIFO_DEPTH) {
    warn(format("MAIL1_WRT 0x%08x written while %u messages wait (MAIL1_STA full): dropped", v, MBOX_FIFO_DEPTH));
    return;
  }
  inbox_.push_back(v);
  arrived_.notify(d);
}

uint32_t VcMailbox::read_mail0() {
  if (outbox_.empty()) {
    warn("MAIL0_RD read with no message waiting (MAIL0_STA has MBOX_STA_EMPTY): reads 0");
    return 0;
  }
  const uint32_t v = outbox_.front();
  outbox_.pop_front();
  return v;
}

uint32_t VcMailbox::mail0_status() const {
  return outbox_.empty() ? MBOX_STA_EMPTY : (outbox_.size() >= MBOX_FIFO_DEPTH ? MBOX_STA_FULL : 0u);
}

// --- memory through `mem` ------------------------------------------------------------------------

void VcMailbox::access(bool write, uint32_t phys, void* data, unsigned len, sc_core::sc_time* local) {
  tlm::tlm_generic_payload gp;
  AccessInfo info;
  info.initiator = name();
  info.side = Side::Gpu;
  gp.set_extension(&info);
  set_access(gp, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, phys, data, len);
  sc_core::sc_time d = local ? *local : sc_core::SC_ZERO_TIME;
  mem->b_transport(gp, d);
  gp.clear_extension(&info);
  if (!gp.is_response_ok())
    throw std::runtime_error(
        format("%s of 0x%08x failed: %s", write ? "write" : "read", phys, gp.get_response_string().c_str()));
  if (local)
    *local = d;  // decoupled: the caller waits for the sum later
  else
    sc_core::wait(d);
}

uint32_t VcMailbox::rd32(uint32_t phys) {
  uint32_t v;
  access(false, phys, &v, 4);
  return v;
}

void VcMailbox::wr32(uint32_t phys, uint32_t v) { access(true, phys, &v, 4); }

// --- the firmware ------------------------------------------------------------------------------

void VcMailbox::firmware() {
  for (;;) {
    while (inbox_.empty()) sc_core::wait(arrived_);
    const uint32_t msg = inbox_.front();
    inbox_.pop_front();
    try {
      if (MBOX_CHANNEL(msg) == MBOX_CHAN_PROPERTY)
        property(msg);
      else
        warn(format("message 0x%08x on channel %u: only the property channel (8) is modelled; answered unchanged", msg,
                    MBOX_CHANNEL(msg)));
    } catch (const std::exception& e) {
      run_state().fail(name(), e.what());
      return;
    }
    sc_core::wait(latency_);
    outbox_.push_back(msg);
    run_state().progress();
  }
}

void VcMailbox::property(uint32_t msg) {
  ++messages_;
  const uint32_t buf = VC_BUS_TO_PHYS(MBOX_DATA(msg));
  if (uint64_t(buf) + 12 > sdram_size_) {
    warn(format("property buffer at bus address 0x%08x: outside SDRAM (0x0..0x%llx); not answered", MBOX_DATA(msg),
                static_cast<unsigned long long>(sdram_size_ - 1)));
    return;
  }
  const uint32_t size = rd32(buf);
  auto fail_buffer = [&](const std::string& why) {
    warn(format("property buffer at 0x%08x: ", buf) + why);
    wr32(buf + 4, MBOX_RESPONSE_ERROR);
  };
  if (size < 12 || size % 4 || size > 65536 || uint64_t(buf) + size > sdram_size_)
    return fail_buffer(format("buffer size %u (word 0) is not a multiple of 4 in 12..65536 bytes inside SDRAM", size));
  std::vector<uint32_t> w(size / 4);
  access(false, buf, w.data(), size);
  if (w[1] != MBOX_REQUEST) return fail_buffer(format("request code 0x%08x (word 1) is not 0 (process request)", w[1]));
  bool ok = true, ended = false;
  size_t pos = 2;
  while (pos < w.size()) {
    const uint32_t id = w[pos];
    if (id == MBOX_TAG_END) {
      ended = true;
      break;
    }
    if (pos + 3 > w.size()) {
      ok = false;
      warn(format("property buffer at 0x%08x: tag 0x%08x at byte %zu: its header runs past the buffer size %u", buf, id,
                  pos * 4, size));
      break;
    }
    const uint32_t vlen = w[pos + 1];
    const size_t words = (size_t(vlen) + 3) / 4;
    if (pos + 3 + words > w.size()) {
      ok = false;
      warn(format("property buffer at 0x%08x: tag 0x%08x value buffer size %u runs past the buffer size %u", buf, id,
                  vlen, size));
      break;
    }
    const char* tname = tag_name(id);
    if (!tname) {
      // The wiki: unknown tags are ignored (the response bit is not set).
      warn(format("property buffer at 0x%08x: unknown tag 0x%08x ignored (its response bit stays clear)", buf, id));
    } else if (vlen < request_words(id) * 4) {
      ok = false;
      warn(format("property buffer at 0x%08x: tag 0x%08x (%s) value buffer size %u: the request needs %u bytes", buf,
                  id, tname, vlen, request_words(id) * 4));
    } else {
      std::vector<uint32_t> value(w.begin() + long(pos + 3), w.begin() + long(pos + 3 + words));
      uint32_t resp_len = 0;
      tag(id, value, vlen, resp_len);
      ++tags_;
      // The response is truncated to the value buffer; its length says what the tag wanted.
      for (size_t k = 0; k < words && k < value.size() && k * 4 < resp_len; ++k) w[pos + 3 + k] = value[k];
      w[pos + 2] = MBOX_TAG_RESPONSE | resp_len;
    }
    pos += 3 + words;
  }
  if (!ended && ok) {
    ok = false;
    warn(format("property buffer at 0x%08x: no end tag (0) within the buffer size %u", buf, size));
  }
  w[1] = ok ? MBOX_RESPONSE_OK : MBOX_RESPONSE_ERROR;
  access(true, buf, w.data(), size);
}

bool VcMailbox::tag(uint32_t id, std::vector<uint32_t>& v, uint32_t, uint32_t& resp_len) {
  auto answer = [&](std::initializer_list<uint32_t> words) {
    resp_len = uint32_t(words.size() * 4);
    if (v.size() < words.size()) v.resize(words.size());
    size_t k = 0;
    for (uint32_t x : words) v[k++] = x;
  };
  switch (id) {
    case MBOX_TAG_GET_FIRMWARE_REVISION:
      answer({fw_revision_});
      break;
    case MBOX_TAG_GET_BOARD_MODEL:
      answer({board_model_});
      break;
    case MBOX_TAG_GET_BOARD_REVISION:
      answer({board_revision_});
      break;
    case MBOX_TAG_GET_BOARD_SERIAL:
      answer({uint32_t(serial_), uint32_t(serial_ >> 32)});
      break;
    case MBOX_TAG_GET_ARM_MEMORY:
      answer({0, gpu_mem_base_});
      break;
    case MBOX_TAG_GET_VC_MEMORY:
      answer({gpu_mem_base_, gpu_mem_size_});
      break;
    case MBOX_TAG_ALLOCATE_MEMORY:
      answer({alloc(v[0], v[1], v[2])});
      break;
    case MBOX_TAG_LOCK_MEMORY: {
      auto it = blocks_.find(v[0]);
      if (it == blocks_.end()) {
        warn(format("lock memory: handle %u (word 0) is not an allocated block: bus address 0", v[0]));
        answer({0});
        break;
      }
      ++it->second.locks;
      answer({it->second.phys | alias_of(it->second.flags)});
      break;
    }
    case MBOX_TAG_UNLOCK_MEMORY:
    case MBOX_TAG_RELEASE_MEMORY: {
      auto it = blocks_.find(v[0]);
      if (it == blocks_.end()) {
        warn(format("%s: handle %u (word 0) is not an allocated block", tag_name(id), v[0]));
        answer({MBOX_STATUS_BAD_HANDLE});
        break;
      }
      if (id == MBOX_TAG_UNLOCK_MEMORY) {
        if (it->second.locks) --it->second.locks;
      } else {
        blocks_.erase(it);
      }
      answer({MBOX_STATUS_OK});
      break;
    }
    case MBOX_TAG_ENABLE_QPU:
      qpu_enabled_ = v[0] != 0;
      answer({MBOX_STATUS_OK});
      break;
    case MBOX_TAG_EXECUTE_QPU:
      answer({execute_qpu(v[0], v[1], v[2], v[3])});
      break;
    default:
      return false;
  }
  return true;
}

uint32_t VcMailbox::alloc(uint32_t size, uint32_t align, uint32_t flags) {
  if (size == 0) {
    warn("allocate memory: size (word 0) is 0: handle 0");
    return 0;
  }
  if (align == 0) align = 1;
  if (align & (align - 1)) {
    warn(format("allocate memory: alignment %u (word 1) is not a power of two: handle 0", align));
    return 0;
  }
  align = std::max<uint32_t>(align, 16);
  // First fit in the GPU memory split, blocks ordered by address.
  std::vector<std::pair<uint32_t, uint32_t>> used;
  for (auto& [h, b] : blocks_) used.emplace_back(b.phys, b.size);
  std::sort(used.begin(), used.end());
  uint64_t at = gpu_mem_base_;
  for (auto& [p, s] : used) {
    at = (at + align - 1) / align * align;
    if (at + size <= p) break;
    at = std::max<uint64_t>(at, uint64_t(p) + s);
  }
  at = (at + align - 1) / align * align;
  if (at + size > uint64_t(gpu_mem_base_) + gpu_mem_size_) {
    warn(format("allocate memory: %u bytes (word 0) do not fit the GPU memory (%u bytes at 0x%08x): handle 0", size,
                gpu_mem_size_, gpu_mem_base_));
    return 0;
  }
  const uint32_t handle = next_handle_++;
  blocks_[handle] = Block{uint32_t(at), size, flags};
  allocated_ += size;
  if (!(flags & MEM_FLAG_NO_INIT)) {  // zeros with MEM_FLAG_ZERO, else all ones (the wiki)
    std::vector<uint8_t> fill(std::min<uint32_t>(size, 4096), (flags & MEM_FLAG_ZERO) ? 0x00 : 0xff);
    for (uint32_t off = 0; off < size; off += 4096)
      access(true, uint32_t(at) + off, fill.data(), std::min<uint32_t>(4096, size - off));
  }
  return handle;
}

uint32_t VcMailbox::execute_qpu(uint32_t num, uint32_t control, uint32_t noflush, uint32_t timeout_ms) {
  ++qpu_jobs_;
  if (!qpu_enabled_) {
    warn("execute_qpu before enable_qpu(1): the V3D is powered off");
    return MBOX_STATUS_QPU_DISABLED;
  }
  const uint32_t id1 = rd32(v3d_base_ + V3D_IDENT1);
  const unsigned have = V3D_IDENT1_NSLC(id1) * V3D_IDENT1_QUPS(id1);
  if (num == 0 || num > have || num > V3D_SRQ_MAX) {
    warn(format("execute_qpu: num_qpus %u (word 0): the V3D has %u QPUs (IDENT1)", num, have));
    return MBOX_STATUS_BAD_NUM_QPUS;
  }
  const uint32_t ctl = VC_BUS_TO_PHYS(control);
  if (uint64_t(ctl) + num * 8 > sdram_size_ || (ctl & 3)) {
    warn(format("execute_qpu: control 0x%08x (word 1): %u (uniforms, code) pairs not inside SDRAM or not aligned",
                control, num));
    return MBOX_STATUS_BAD_ADDRESS;
  }
  std::vector<uint32_t> pairs(num * 2);
  access(false, ctl, pairs.data(), num * 8);
  // The register writes go out back to back, each arriving after the one before, with the
  // firmware's time decoupled (as the host CPU's stores are): the V3D sees every request's arrival
  // before it runs any QPU ahead, so the QPUs' timing does not depend on the quantum.
  sc_core::sc_time local = sc_core::SC_ZERO_TIME;
  auto post = [&](uint32_t off, uint32_t v) { access(true, v3d_base_ + off, &v, 4, &local); };
  if (!noflush) {
    post(V3D_L2CACTL, V3D_L2CACTL_CLEAR);
    post(V3D_SLCACTL, V3D_SLCACTL_ICC | V3D_SLCACTL_UCC | V3D_SLCACTL_T0CC | V3D_SLCACTL_T1CC);
  }
  post(V3D_SRQCS, V3D_SRQCS_CLEAR_ERROR | V3D_SRQCS_CLEAR_MADE | V3D_SRQCS_CLEAR_DONE);
  for (unsigned q = 0; q < num; ++q) {
    post(V3D_SRQUA, pairs[2 * q]);
    post(V3D_SRQPC, pairs[2 * q + 1]);
  }
  sc_core::wait(local);
  const sc_core::sc_time deadline = sc_core::sc_time_stamp() + sc_core::sc_time(double(timeout_ms), sc_core::SC_MS);
  for (;;) {
    const uint32_t cs = rd32(v3d_base_ + V3D_SRQCS);
    if (V3D_SRQCS_DONE(cs) >= num) return MBOX_STATUS_OK;
    if (sc_core::sc_time_stamp() >= deadline) {
      warn(format("execute_qpu: timeout %u ms (word 3): %u of %u programs ended", timeout_ms, V3D_SRQCS_DONE(cs), num));
      return MBOX_STATUS_TIMEOUT;
    }
    sc_core::wait(poll_interval_);
  }
}

}  // namespace hetvp::qpu
