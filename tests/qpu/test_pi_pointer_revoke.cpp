// #42: a pointer hetvp::pi::mapmem gave does not go stale silently. A test-only memory grants DMI
// and revokes it (invalidate_direct_mem_ptr) at `revoke_at`; the host CPU warns at once, naming the
// pointer, and the Pi API's next call stops the program saying why. One run, in this process.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "common/run_hetvp.h"
#include "models/host/direct_memory.h"
#include "platform/component.h"
#include "platform/param_set.h"
#include "platform/program.h"
#include "platform/registry.h"
#include "platform/simulation.h"
#include "sw/qpu/mailbox.h"

using namespace hetvp;

namespace {

struct RevokingMemoryConfig : ParamSet {
  Time revoke_at{this, "revoke_at", "1 us", "when the memory revokes every DMI grant"};
};

// 64 KiB of memory that grants DMI for all of it and revokes it once, at revoke_at.
class RevokingMemory : public Component {
 public:
  using Config = RevokingMemoryConfig;
  tlm_utils::simple_target_socket<RevokingMemory> in{"in"};
  RevokingMemory(sc_core::sc_module_name n, const Config& c) : Component(n), bytes_(65536), at_(c.revoke_at) {
    in.register_b_transport(this, &RevokingMemory::b_transport);
    in.register_get_direct_mem_ptr(this, &RevokingMemory::dmi);
    expose_target("in", in);
    SC_HAS_PROCESS(RevokingMemory);
    SC_THREAD(revoke);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    const uint64_t a = gp.get_address();
    if (a + gp.get_data_length() > bytes_.size()) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (gp.is_read())
      std::copy_n(bytes_.data() + a, gp.get_data_length(), gp.get_data_ptr());
    else
      std::copy_n(gp.get_data_ptr(), gp.get_data_length(), bytes_.data() + a);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool dmi(tlm::tlm_generic_payload&, tlm::tlm_dmi& d) {
    d.set_dmi_ptr(bytes_.data());
    d.set_start_address(0);
    d.set_end_address(bytes_.size() - 1);
    d.allow_read_write();
    return true;
  }
  void revoke() {
    sc_core::wait(at_);
    in->invalidate_direct_mem_ptr(0, bytes_.size() - 1);
  }
  std::vector<uint8_t> bytes_;
  sc_core::sc_time at_;
};
HETVP_REGISTER_COMPONENT("test_revoking_memory", RevokingMemory, "TEST ONLY: memory that revokes its DMI grants");

// Maps 256 bytes, writes through the pointer, sleeps past the revocation, and maps again: the Pi
// API's call stops the program naming the stale pointer.
class PointerRevokeProgram : public ProgramWithArgs<NoArgs> {
 public:
  int run(HostApi& api, const NoArgs&) override {
    pi::ApiScope scope(api);
    volatile unsigned* p = static_cast<volatile unsigned*>(pi::mapmem(0x1000, 256));
    p[0] = 0x12345678;
    if (api.read32(0x1000, Access::Uncached) != 0x12345678) return 2;  // the platform sees the write
    api.sleep(sc_core::sc_time(2, sc_core::SC_US));
    pi::mapmem(0x2000, 16);  // the API's next call
    return 0;
  }
};
HETVP_REGISTER_PROGRAM("test_pi_pointer_revoke", PointerRevokeProgram, "TEST ONLY: a mapmem pointer whose DMI is revoked");

}  // namespace

TEST(PiPointer, RevokedDmiStopsTheProgramNamingThePointer) {
  const std::string cfg = hetvp::test::write_file("revoke.yaml", R"(
simulation: {seed: 1, quantum: 100 ns, time_limit: 1 ms}
workload: {name: test_pi_pointer_revoke, cpu: cpu}
cpu: {type: host_cpu, connect: {mem: bus}}
bus:
  type: router
  map:
    - {to: mem.in, base: 0x0, size: 64 KiB}
mem: {type: test_revoking_memory, revoke_at: 1 us}
)");
  RunOptions opt;
  opt.config = cfg;
  std::ostringstream out, err;
  const int st = run_platform(opt, out, err);
  const std::string text = out.str() + err.str();
  EXPECT_EQ(st, 1) << text;
  EXPECT_NE(text.find("cpu: the memory revoked its DMI grant for [0x0, 0xffff] at 1 us while the host program holds "
                      "a pointer to 0x1000 (256 bytes) from it: accesses through that pointer would bypass the "
                      "platform; map it again"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("FAILED: cpu: workload 'test_pi_pointer_revoke': Pi mailbox API: the pointer mapmem(0x00001000, "
                      "256) gave is stale: the memory revoked its DMI grant for [0x0, 0xffff] at 1 us; unmapmem it "
                      "and map the memory again"),
            std::string::npos)
      << text;
  // nothing else failed: one FAILED line
  EXPECT_EQ(text.find("FAILED:"), text.rfind("FAILED:")) << text;
}
