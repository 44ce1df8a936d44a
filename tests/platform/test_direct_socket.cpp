// DirectTargetSocket and DirectInitiator (platform/direct_target_socket.h): an initiator's direct
// b_transport reaches a DirectTargetSocket's member function without the interface's virtual
// dispatch, reaches any other target through its interface, and both behave as `socket->` calls:
// same payload, same delay, same response, once per call; debug transport and DMI unchanged.
#include <gtest/gtest.h>

#include <cstring>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/direct_target_socket.h"

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// A word of memory at address 0; anything else is an address error. Costs 5 ns per access.
struct WordTarget {
  uint32_t word = 0x11223344;
  unsigned calls = 0;
  void serve(tlm::tlm_generic_payload& gp, sc_time& delay) {
    ++calls;
    delay += sc_time(5, SC_NS);
    if (gp.get_address() != 0 || gp.get_data_length() != 4) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (gp.is_read())
      std::memcpy(gp.get_data_ptr(), &word, 4);
    else
      std::memcpy(&word, gp.get_data_ptr(), 4);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct DirectTarget : sc_core::sc_module, WordTarget {
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) { serve(gp, delay); }
  unsigned dbg(tlm::tlm_generic_payload& gp) {
    std::memcpy(gp.get_data_ptr(), &word, 4);
    return 4;
  }
  hetvp::DirectTargetSocket<DirectTarget, &DirectTarget::b_transport> in{"in", this};
  explicit DirectTarget(sc_core::sc_module_name n) : sc_module(n) { in.register_transport_dbg(&DirectTarget::dbg); }
};

struct PlainTarget : sc_core::sc_module, WordTarget {
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) { serve(gp, delay); }
  tlm_utils::simple_target_socket<PlainTarget> in{"in"};
  explicit PlainTarget(sc_core::sc_module_name n) : sc_module(n) {
    in.register_b_transport(this, &PlainTarget::b_transport);
  }
};

struct Initiator : sc_core::sc_module {
  hetvp::DirectInitiator<tlm_utils::simple_initiator_socket<Initiator>> out{"out"};
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {}
  // One access; returns the response and the delay it came back with.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& v, sc_time& delay) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    out.b_transport(gp, delay);
    return gp.get_response_status();
  }
};

template <class Target>
void check_calls(Initiator& ini, Target& tgt) {
  uint32_t v = 0;
  sc_time d(10, SC_NS);
  EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0, v, d), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0x11223344u);
  EXPECT_EQ(d, sc_time(15, SC_NS));  // the target's cost added to the caller's delay
  v = 0xcafef00d;
  EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0, v, d), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tgt.word, 0xcafef00du);
  EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, 8, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(d, sc_time(25, SC_NS));
  EXPECT_EQ(tgt.calls, 3u);  // one call of the target per access
}

}  // namespace

TEST(DirectInitiator, CallsADirectTargetSocketsMemberFunction) {
  Initiator ini("ini");
  DirectTarget tgt("tgt");
  ini.out.bind(tgt.in);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  // The bound interface offers its member function as a direct entry: the call skips the vtable.
  auto* src = dynamic_cast<hetvp::DirectEntrySource*>(ini.out.operator->());
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->direct_entry().obj, static_cast<void*>(&tgt));
  check_calls(ini, tgt);
  EXPECT_TRUE(ini.out.calls_directly());
  // Debug transport still goes through the interface, to the registered function.
  uint32_t v = 0;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(0);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  gp.set_data_length(4);
  EXPECT_EQ(ini.out->transport_dbg(gp), 4u);
  EXPECT_EQ(v, 0xcafef00du);
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(ini.out->get_direct_mem_ptr(gp, dmi));  // none registered: no DMI
}

TEST(DirectInitiator, CallsAnyOtherTargetThroughItsInterface) {
  Initiator ini("ini");
  PlainTarget tgt("tgt");
  ini.out.bind(tgt.in);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  EXPECT_EQ(dynamic_cast<hetvp::DirectEntrySource*>(ini.out.operator->()), nullptr);
  check_calls(ini, tgt);
  EXPECT_FALSE(ini.out.calls_directly());
}
