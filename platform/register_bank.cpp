#include "platform/register_bank.h"

#include <cinttypes>
#include <cstring>
#include <stdexcept>

#include <systemc>

#include "platform/access_info.h"
#include "platform/arrival_queue.h"
#include "platform/format.h"
#include "platform/sim_time.h"

namespace hetvp {

Register& RegisterBank::add(const std::string& name, uint32_t offset, RegAccess access, uint32_t reset) {
  if (offset & 3) throw std::logic_error(block_ + ": register " + name + " is not 32-bit aligned");
  if (regs_.count(offset)) throw std::logic_error(block_ + ": two registers at one offset (" + name + ")");
  index_.clear();
  Register& r = regs_[offset];
  r.name = name;
  r.offset = offset;
  r.access = access;
  r.reset = reset;
  r.value = reset;
  return r;
}

void RegisterBank::build_index() const {
  const uint64_t words = regs_.rbegin()->first / 4 + 1;
  indexed_ = words <= kMaxIndexed;
  index_.assign(indexed_ ? words : 1, nullptr);  // non-empty: built
  if (indexed_)
    for (auto& [off, r] : regs_) index_[off / 4] = const_cast<Register*>(&r);
}

Register& RegisterBank::at(uint32_t offset) {
  Register* r = lookup(offset);
  if (!r) throw std::logic_error(block_ + ": no register at offset " + std::to_string(offset));
  return *r;
}

Register& RegisterBank::named(const std::string& name) {
  for (auto& [off, r] : regs_)
    if (r.name == name) return r;
  throw std::logic_error(block_ + ": no register named " + name);
}

void RegisterBank::reset() {
  for (auto& [o, r] : regs_) r.value = r.reset;
}

bool RegisterBank::reject(tlm::tlm_generic_payload& gp, tlm::tlm_response_status st, const std::string& why) {
  ++errors_;
  std::string buf = format(" (offset 0x%" PRIx64 ", %u bytes, by %s)", static_cast<uint64_t>(gp.get_address()),
                           gp.get_data_length(), initiator_of(gp));
  SC_REPORT_WARNING("hetvp/registers", (block_ + ": " + why + buf).c_str());
  gp.set_response_status(st);
  return false;
}

bool RegisterBank::transport(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
  sc_core::sc_time d = delay;
  return serve(gp, d, 0);
}

bool RegisterBank::serve(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay, unsigned index) {
  // This access's context lives here; a nested access (a callback whose work writes back into
  // this block) gets its own, so a reference to this one's delay stays valid and unaliased.
  AccessContext mine;
  const AccessInfo* info = gp.get_extension<AccessInfo>();
  mine.initiator = info ? info->initiator : "unknown initiator";
  mine.delay = delay;
  mine.side = info ? info->side : Side::Other;
  mine.index = index;
  AccessContext* outer = ctx_;
  ctx_ = &mine;
  const bool ok = rules(gp, delay);
  ctx_ = outer;
  delay = mine.delay;
  return ok;
}

bool RegisterBank::rules(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
  uint64_t off = gp.get_address();
  if (gp.get_data_length() != 4 || (off & 3) || gp.get_byte_enable_ptr())
    return reject(gp, tlm::TLM_BURST_ERROR_RESPONSE, "registers take aligned 32-bit accesses only");
  Register* found = lookup(off);
  if (!found)
    return reject(gp, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                  gp.is_read() ? "read of an unmapped register" : "write to an unmapped register");
  Register& r = *found;
  if (r.indices && ctx_->index >= r.indices)
    return reject(gp, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                  format("index %u of indexed register %s (0..%u)", ctx_->index, r.name.c_str(), r.indices - 1));
  if (gp.is_read()) {
    if (r.access == RegAccess::WO)
      return reject(gp, tlm::TLM_COMMAND_ERROR_RESPONSE, "read of write-only register " + r.name);
    uint32_t v = r.on_read ? r.on_read(r) : r.value;
    if (!r.on_read && ctx_->initiator != owner_ && ctx_->arrival() < r.visible_at) v = r.before;
    std::memcpy(gp.get_data_ptr(), &v, 4);
  } else if (gp.is_write()) {
    if (r.access == RegAccess::RO)
      return reject(gp, tlm::TLM_COMMAND_ERROR_RESPONSE, "write to read-only register " + r.name);
    uint32_t v;
    std::memcpy(&v, gp.get_data_ptr(), 4);
    if (owner_ && ctx_->initiator == owner_ && delay > sc_core::SC_ZERO_TIME) {
      if (hetvp::sim_now() >= r.visible_at) r.before = r.value;  // the last write is visible by now
      r.visible_at = ctx_->arrival();
    }
    if (arrivals_ && delay > sc_core::SC_ZERO_TIME) {
      AccessContext at_arrival = *ctx_;
      at_arrival.delay = sc_core::SC_ZERO_TIME;
      arrivals_->at(delay, [this, &r, v, at_arrival]() mutable {
        AccessContext* outer = ctx_;
        ctx_ = &at_arrival;
        apply_write(r, v);
        ctx_ = outer;
      });
    } else {
      apply_write(r, v);
    }
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void RegisterBank::apply_write(Register& r, uint32_t v) {
  if (r.access == RegAccess::W1C)
    r.value &= ~v;
  else
    r.value = v;
  if (r.on_write) r.on_write(r, v);
}

bool RegisterBank::transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay, ReadTiming reads,
                             unsigned index) {
  if (reads == ReadTiming::CatchUp && gp.is_read() && delay > sc_core::SC_ZERO_TIME) {
    const AccessInfo* info = gp.get_extension<AccessInfo>();
    if ((!info || info->may_wait) && sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_THREAD_PROC_) {
      sc_core::wait(delay);
      delay = sc_core::SC_ZERO_TIME;
    }
  }
  return serve(gp, delay, index);
}

unsigned RegisterBank::debug(tlm::tlm_generic_payload& gp) {
  uint64_t off = gp.get_address();
  if (gp.get_data_length() != 4 || (off & 3)) return 0;
  auto it = regs_.find(static_cast<uint32_t>(off));
  if (it == regs_.end()) return 0;
  if (gp.is_read()) {
    const Register& r = it->second;
    uint32_t v = r.on_read ? r.on_read(r) : r.value;  // on_read computes, it has no side effects
    std::memcpy(gp.get_data_ptr(), &v, 4);
  } else {
    std::memcpy(&it->second.value, gp.get_data_ptr(), 4);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return 4;
}

bool RegisterBank::peek(uint32_t offset, uint32_t& v, unsigned index) {
  auto it = regs_.find(offset);
  if (it == regs_.end()) return false;
  const Register& r = it->second;
  if (r.access == RegAccess::WO || (r.indices && index >= r.indices)) return false;
  // on_read sees the index through its own context, as in a real access.
  AccessContext mine;
  mine.initiator = "peek";
  mine.index = index;
  AccessContext* outer = ctx_;
  ctx_ = &mine;
  v = r.on_read ? r.on_read(r) : r.value;
  ctx_ = outer;
  return true;
}

}  // namespace hetvp
