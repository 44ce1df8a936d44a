// Memory-mapped registers declared as data: a name, an offset, an access rule, a reset value
// and optional callbacks. A model lists its registers in one place (its constructor) and hands
// every access to `RegisterBank::transport`, which enforces the rules: 32-bit aligned accesses
// only, no access to holes, no write to read-only registers, no read of write-only ones. A
// broken rule is a TLM error response plus a warning naming the block, the offset and the
// initiator, never a silent success.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "platform/access_info.h"
#include "platform/sim_time.h"

namespace hetvp {

class ArrivalQueue;

// Who made a register access and when it arrives: `delay` is the access's annotated time
// relative to SystemC's current time (the caller's local time plus the path's latency). A
// callback that starts work (a doorbell, a launch, a command) acts at `arrival()`, never at
// the current SystemC time, so that what a model measures does not depend on the quantum.
// A callback whose register blocks its caller (a read that returns when work is done) adds the
// time it blocks to `delay`: the bank hands it back to the caller's b_transport.
struct AccessContext {
  const char* initiator = "?";
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bool debug = false;
  Side side = Side::Other;  // the issuing processor side (AccessInfo::side)
  // The index an indexed access carries besides its offset (a Falcon core's I/O address holds one
  // in bits 2-7); 0 for a plain access. Only indexed registers (Register::indexed) look at it.
  unsigned index = 0;
  sc_core::sc_time arrival() const { return hetvp::sim_now() + delay; }
};

enum class RegAccess { RO, RW, WO, W1C };

// When a read is served: CatchUp waits until the access's arrival time first (when the caller
// is a thread that allows it, AccessInfo::may_wait), AsIssued serves it at SystemC's current
// time with the delay only annotated (blocks whose timing was calibrated that way).
enum class ReadTiming { CatchUp, AsIssued };

struct Register {
  std::string name;
  uint32_t offset = 0;
  RegAccess access = RegAccess::RW;
  uint32_t reset = 0;
  uint32_t value = 0;
  std::function<uint32_t(const Register&)> on_read;   // computes the value read (default: value)
  std::function<void(Register&, uint32_t)> on_write;  // after the rule applied (value already updated)
  // A write by the bank's owner that lies ahead of SystemC time (a core inside its burst) becomes
  // visible to others only at its arrival: until `visible_at` they read `before`.
  uint32_t before = 0;
  sc_core::sc_time visible_at = sc_core::SC_ZERO_TIME;
  // An indexed register accepts AccessContext::index 0 .. indices-1 (its callbacks keep one value
  // per index); an access with a larger index is refused like a hole. 0: not indexed, the index
  // is ignored.
  unsigned indices = 0;

  Register& read(std::function<uint32_t(const Register&)> f) {
    on_read = std::move(f);
    return *this;
  }
  Register& write(std::function<void(Register&, uint32_t)> f) {
    on_write = std::move(f);
    return *this;
  }
  Register& indexed(unsigned n) {
    indices = n;
    return *this;
  }
};

class RegisterBank {
 public:
  explicit RegisterBank(std::string block) : block_(std::move(block)) {}
  RegisterBank(const RegisterBank&) = delete;  // callbacks and contexts point into it
  RegisterBank& operator=(const RegisterBank&) = delete;

  Register& add(const std::string& name, uint32_t offset, RegAccess access, uint32_t reset = 0);
  Register& at(uint32_t offset);
  const Register& at(uint32_t offset) const { return const_cast<RegisterBank*>(this)->at(offset); }
  // The register called `name` (throws std::logic_error naming the block when there is none):
  // behaviour binds to names from the block's table, e.g. named("LAUNCH").write(...).
  Register& named(const std::string& name);
  // Behaviour bound to a register name: `obj->f(value)` after a write, `obj->f()` computes a read.
  template <class T>
  void on_write(const std::string& name, T* obj, void (T::*f)(uint32_t)) {
    named(name).write([obj, f](Register&, uint32_t v) { (obj->*f)(v); });
  }
  template <class T>
  void on_read(const std::string& name, const T* obj, uint32_t (T::*f)() const) {
    named(name).read([obj, f](const Register&) { return (obj->*f)(); });
  }
  // Writes by `initiator` (the bank's own core) with a delay become visible to other initiators
  // only at their arrival time; the owner reads its own writes at once.
  void set_owner(const char* initiator) { owner_ = initiator; }
  // A reset value known only from the configuration (e.g. the number of GPCs): reset and value.
  void set_reset(const std::string& name, uint32_t v) {
    Register& r = named(name);
    r.reset = r.value = v;
  }
  // Through the flat index (a window that forwards what the table lacks asks this per access, #31).
  bool has(uint32_t offset) const { return (offset & 3) == 0 && lookup(offset) != nullptr; }
  // Takes a register of the table out (one this instance does not have, e.g. a HUB-only one on
  // a GPC): its offset becomes a hole.
  void remove(const std::string& name) {
    regs_.erase(named(name).offset);
    index_.clear();
  }
  void reset();

  // Serves one access; returns false (and sets an error response) when a rule is broken.
  // Callbacks run inside it and see the access's context through context().
  bool transport(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
  // The same from a target's b_transport: a read first catches up to its arrival time (waits
  // `delay`, which becomes zero), so a poll sees the register as of the poller's own time, not
  // as of SystemC's (a decoupled initiator runs up to a quantum ahead). It waits only when the
  // caller is a thread that allows it (AccessInfo::may_wait).
  // Callbacks may add to context().delay (time the access blocks), which comes back in `delay`.
  // `index` is the access's AccessContext::index.
  bool transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay, ReadTiming reads = ReadTiming::CatchUp,
                 unsigned index = 0);
  // With a queue, a write whose arrival lies ahead (delay > 0) takes effect at its arrival,
  // value and callback alike (an interrupt acknowledge, say): it is checked and answered now.
  void set_arrival_queue(ArrivalQueue* q) { arrivals_ = q; }
  // The access being served (valid inside a callback; a nested access to the same bank, e.g. a
  // callback whose work writes back into this block, has its own and restores the outer one).
  const AccessContext& context() const { return *ctx_; }
  AccessContext& context() { return *ctx_; }
  // Untimed debug access: no side effects on read, writes go straight to `value`.
  unsigned debug(tlm::tlm_generic_payload& gp);
  // What a read of `offset` (with `index`) would return now, without side effects, errors or
  // warnings: false for a hole, a write-only register or an index out of range.
  bool peek(uint32_t offset, uint32_t& v, unsigned index = 0);

  uint64_t errors() const { return errors_; }
  const std::map<uint32_t, Register>& registers() const { return regs_; }

 private:
  bool reject(tlm::tlm_generic_payload& gp, tlm::tlm_response_status st, const std::string& why);
  // The register at `offset`, or nullptr for a hole: a flat table indexed by offset / 4, built on
  // the first access after the table changed (registers come from the blocks' C header tables,
  // so it is built once), instead of a std::map walk per access (#31). Banks whose offsets span
  // more than kMaxIndexed words keep the map lookup.
  Register* lookup(uint64_t offset) const {
    if (index_.empty() && !regs_.empty()) build_index();
    if (indexed_) return offset / 4 < index_.size() ? index_[offset / 4] : nullptr;
    auto it = regs_.find(static_cast<uint32_t>(offset));
    return it == regs_.end() ? nullptr : const_cast<Register*>(&it->second);
  }
  void build_index() const;  // a cache of regs_: built on demand, also from const lookups
  static constexpr uint64_t kMaxIndexed = 1u << 16;
  std::string block_;
  std::map<uint32_t, Register> regs_;
  mutable std::vector<Register*> index_;
  mutable bool indexed_ = false;
  uint64_t errors_ = 0;
  AccessContext idle_;             // the context outside any access
  AccessContext* ctx_ = &idle_;    // the access being served (RegisterBank::serve's own)
  ArrivalQueue* arrivals_ = nullptr;
  const char* owner_ = nullptr;
  void apply_write(Register& r, uint32_t v);
  bool serve(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay, unsigned index);
  bool rules(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay);
};

}  // namespace hetvp
