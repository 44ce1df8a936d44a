// A register-bearing model: owns its target socket `regs`, its RegisterBank (filled from the
// block's table in firmware/include/hetvp, see regdef.h there) and the timing rules every
// access follows (RegisterBank::transport): a read catches up to its arrival time, and a write
// that starts work sees its arrival in access().delay. A model binds behaviour to register names
// with member functions, e.g.
//     on_write("LAUNCH", &CopyEngine::launch);     // void CopyEngine::launch(uint32_t value)
// and keeps references to the registers it reads or sets (Register& status_ = reg("STATUS")).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include "platform/register_table.h"

namespace hetvp {

class Peripheral : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Peripheral> regs{"regs"};

  const RegisterBank& bank() const { return bank_; }

 protected:
  template <size_t N>
  Peripheral(sc_core::sc_module_name name, const RegSpec (&table)[N]) : sc_core::sc_module(name), bank_(basename()) {
    add_table(bank_, table);
    regs.register_b_transport(this, &Peripheral::b_transport);
    regs.register_transport_dbg(this, &Peripheral::transport_dbg);
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
  // The access being served: who made it and its delay to arrival (inside a callback).
  const AccessContext& access() const { return bank_.context(); }

  RegisterBank bank_;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { bank_.transport(gp, delay); }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) { return bank_.debug(gp); }
};

}  // namespace hetvp
