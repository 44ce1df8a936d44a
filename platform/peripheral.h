// A register-bearing model: owns its target socket `regs`, its RegisterBank (filled from the
// block's table in firmware/include/hetvp, see regdef.h there) and the timing rules every
// access follows (RegisterBank::transport): a read catches up to its arrival time, and a write
// that starts work sees its arrival in this_access().delay. A model binds behaviour to register names
// with member functions, e.g.
//     on_write("LAUNCH", &CopyEngine::launch);     // void CopyEngine::launch(uint32_t value)
// and keeps references to the registers it reads or sets (Register& status_ = reg("STATUS")).
//
// What a 32-bit register table cannot express is declared beside it, also by name:
//   * on_port(name, offset, size, &T::f): accesses inside [offset, offset + size) go to
//     `bool T::f(gp, delay)` first (a bulk data window, a 16-byte probe, an upload port with an
//     auto-incrementing index, a who-may-write rule); it returns false to let the table serve it.
//   * on_unmapped(&T::f): an access to an offset the table has no register for, and no port took,
//     goes to `bool T::f(gp, delay)` (a block that forwards the rest of its window to another);
//     false lets the table refuse it. One flat-index test per access instead of a port spanning
//     the whole window, whose std::function ran on every access (#31).
//   * bad_access(gp, why): a model for which a broken register rule ends the run overrides it.
//   * read_timing(ReadTiming::AsIssued): reads are served as of SystemC time (see register_bank.h).
//
// The module base is a parameter: a top-level YAML component derives from
// PeripheralOf<Component>, a block inside the GPU from Peripheral (= PeripheralOf<sc_module>).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "platform/register_table.h"

namespace hetvp {

template <class Base = sc_core::sc_module>
class PeripheralOf : public Base {
 public:
  tlm_utils::simple_target_socket<PeripheralOf> regs{"regs"};

  const RegisterBank& bank() const { return bank_; }

 protected:
  template <size_t N>
  PeripheralOf(sc_core::sc_module_name name, const RegSpec (&table)[N]) : Base(name), bank_(this->basename()) {
    add_table(bank_, table);
    regs.register_b_transport(this, &PeripheralOf::b_transport);
    regs.register_transport_dbg(this, &PeripheralOf::transport_dbg);
  }

  Register& reg(const char* name) { return bank_.named(name); }
  template <class T>
  void on_write(const char* name, void (T::*f)(uint32_t)) {
    bank_.on_write(name, static_cast<T*>(this), f);
  }
  template <class T>
  void on_read(const char* name, uint32_t (T::*f)() const) {
    bank_.on_read(name, static_cast<const T*>(this), f);
  }
  template <class T>
  void on_port(const char* name, uint32_t offset, uint32_t size,
               bool (T::*f)(tlm::tlm_generic_payload&, sc_core::sc_time&)) {
    T* self = static_cast<T*>(this);
    ports_.push_back({name, offset, size,
                      [self, f](tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { return (self->*f)(gp, d); }});
  }
  template <class T>
  void on_unmapped(bool (T::*f)(tlm::tlm_generic_payload&, sc_core::sc_time&)) {
    T* self = static_cast<T*>(this);
    unmapped_ = [self, f](tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { return (self->*f)(gp, d); };
  }
  void read_timing(ReadTiming t) { reads_ = t; }
  // A register access the table refused (already answered with an error response and a warning).
  virtual void bad_access(const tlm::tlm_generic_payload&) {}

  // Serves one access as b_transport does (ports, then the table), with its own read timing:
  // for a model whose own core reaches its registers without the socket. `index`: the access's
  // AccessContext::index, for indexed registers.
  void serve(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay, ReadTiming reads, unsigned index = 0) {
    const uint64_t off = gp.get_address();
    for (Port& p : ports_)
      if (off >= p.offset && off - p.offset < p.size && p.serve(gp, delay)) return;
    if (unmapped_ && !bank_.has(static_cast<uint32_t>(off & ~uint64_t(3))) && unmapped_(gp, delay)) return;
    if (!bank_.transport(gp, delay, reads, index)) bad_access(gp);
  }

  // The access being served: who made it, its side and its delay to arrival (inside a callback);
  // a callback that blocks its caller adds the time to this_access().delay.
  AccessContext& this_access() { return bank_.context(); }
  const AccessContext& this_access() const { return bank_.context(); }

  RegisterBank bank_;

 private:
  struct Port {
    const char* name;
    uint32_t offset, size;
    std::function<bool(tlm::tlm_generic_payload&, sc_core::sc_time&)> serve;
  };
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { serve(gp, delay, reads_); }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) { return bank_.debug(gp); }

  std::vector<Port> ports_;
  std::function<bool(tlm::tlm_generic_payload&, sc_core::sc_time&)> unmapped_;
  ReadTiming reads_ = ReadTiming::CatchUp;
};

using Peripheral = PeripheralOf<>;

}  // namespace hetvp
