// A TLM-2.0 target socket whose b_transport is a direct call of one member function (issue #31).
//
// tlm_utils::simple_target_socket reaches a model's b_transport through a member-function pointer
// stored at registration (an indirect call and a null test per transaction). On the hops every
// uncached BAR1 read crosses (root complex, PCIe link, GPU host interface, VRAM) that is one
// indirect call per hop of ~100 ns of host time per read; here the function is a template
// argument, so the socket's implementation of the interface calls it directly. Everything else is
// a plain tlm_target_socket: initiators bind to it and call it as before; transport_dbg and
// get_direct_mem_ptr are registered as with simple_target_socket (unregistered: 0 bytes, no DMI);
// nb_transport_fw is not offered (no model here uses the non-blocking protocol).
//
// The initiator's side, DirectInitiator<Socket>: an initiator socket whose b_transport(gp, t)
// calls the bound target through a plain function pointer found once, at the first call. When the
// target is a DirectTargetSocket that pointer is the target member function's trampoline, and a
// hop costs one well-predicted indirect call instead of the interface's virtual dispatch (a
// virtual-base adjustment, two vtable loads and a virtual thunk; the four thunks on an uncached
// BAR1 read's path were 4-5 % of the main job's profile, #31). Any other target (a
// simple_target_socket, an RTL bridge, a test's socket) is called through its interface, as
// `socket->b_transport` would.
//
//     DirectInitiator<tlm_utils::simple_initiator_socket<PcieLink>> down_out{"down_out"};
//     down_out.b_transport(gp, delay);
//
//     DirectTargetSocket<Memory, &Memory::b_transport> in{"in", this};
//
// (the member function must be declared before the socket member that names it). With N = 0 any
// number of initiators bind to it, each through its own binding of the backward path (operator[]
// and size() reach them, e.g. to invalidate DMI), as with a multi-socket — for a target such as a
// router that does not need to know which initiator called.
#pragma once

#include <tlm>

namespace hetvp {

// A target's b_transport as a function of (object, payload, delay).
struct DirectEntry {
  void* obj = nullptr;
  void (*fn)(void*, tlm::tlm_generic_payload&, sc_core::sc_time&) = nullptr;
};

// What a DirectTargetSocket's interface offers besides TLM: its b_transport as a DirectEntry.
class DirectEntrySource {
 public:
  virtual DirectEntry direct_entry() = 0;

 protected:
  ~DirectEntrySource() = default;
};

// One initiator-side binding's b_transport, resolved once (see DirectInitiator).
class FwCall {
 public:
  bool resolved() const { return e_.fn != nullptr; }
  void resolve(tlm::tlm_fw_transport_if<>* fw) {
    if (auto* src = dynamic_cast<DirectEntrySource*>(fw))
      e_ = src->direct_entry();
    else
      e_ = DirectEntry{fw, &through_interface};
  }
  void operator()(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) const { e_.fn(e_.obj, gp, t); }
  // Resolved to a DirectTargetSocket's member function (false: through the interface, or not yet).
  bool direct() const { return resolved() && e_.fn != &through_interface; }

 private:
  static void through_interface(void* fw, tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
    static_cast<tlm::tlm_fw_transport_if<>*>(fw)->b_transport(gp, t);
  }
  DirectEntry e_;
};

// An initiator socket (any single-binding socket type) with a direct b_transport (see above).
template <class Socket>
class DirectInitiator : public Socket {
 public:
  using Socket::Socket;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
    if (!call_.resolved()) call_.resolve(Socket::operator->());
    call_(gp, t);
  }
  bool calls_directly() const { return call_.direct(); }  // after the first call (tests, diagnostics)

 private:
  FwCall call_;
};

template <class MOD, void (MOD::*BTransport)(tlm::tlm_generic_payload&, sc_core::sc_time&), unsigned N = 1,
          sc_core::sc_port_policy POL = sc_core::SC_ONE_OR_MORE_BOUND>
class DirectTargetSocket : public tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, N, POL> {
  using Base = tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, N, POL>;

 public:
  using Dbg = unsigned (MOD::*)(tlm::tlm_generic_payload&);
  using Dmi = bool (MOD::*)(tlm::tlm_generic_payload&, tlm::tlm_dmi&);

  DirectTargetSocket(const char* name, MOD* mod) : Base(name), fw_(mod) { Base::bind(fw_); }

  void register_transport_dbg(Dbg f) { fw_.dbg = f; }
  void register_get_direct_mem_ptr(Dmi f) { fw_.dmi = f; }

 private:
  struct Fw final : tlm::tlm_fw_transport_if<>, DirectEntrySource {
    explicit Fw(MOD* m) : mod(m) {}
    static void call(void* m, tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
      (static_cast<MOD*>(m)->*BTransport)(gp, t);
    }
    DirectEntry direct_entry() override { return DirectEntry{mod, &call}; }
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override { call(mod, gp, t); }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
      SC_REPORT_ERROR("hetvp/socket", "nb_transport_fw on a target that serves b_transport only");
      return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) override {
      if (dmi) return (mod->*dmi)(gp, d);
      d.allow_read_write();  // as simple_target_socket answers: no DMI anywhere
      d.set_start_address(0);
      d.set_end_address(~sc_dt::uint64(0));
      return false;
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& gp) override { return dbg ? (mod->*dbg)(gp) : 0; }
    MOD* mod;
    Dbg dbg = nullptr;
    Dmi dmi = nullptr;
  } fw_;
};

}  // namespace hetvp
