// Interrupt lines between components: a declared port, not a reach into another object.
// An interrupt source holds an IrqPort; the sink exports an IrqIf. The builder binds them from
// YAML (`connect: {irq: cpu.irq}`). `raise` carries the source's local time offset so a
// temporally decoupled source can deliver an interrupt "in its future".
#pragma once

#include <systemc>

namespace hetvp {

class IrqIf : public virtual sc_core::sc_interface {
 public:
  virtual void raise(unsigned vector, const sc_core::sc_time& delay) = 0;
};

using IrqPort = sc_core::sc_port<IrqIf>;
using IrqExport = sc_core::sc_export<IrqIf>;

}  // namespace hetvp
