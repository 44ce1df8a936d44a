// The global directory controller on its own: its history protocol against a scripted CPU cache
// controller (the platform tests drive it only through well-behaved controllers).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "models/coherence/coherence_regs.h"
#include "models/coherence/directory.h"
#include "platform/run_state.h"

using namespace hetvp;
using namespace hetvp::coherence;
using namespace hetvp::test;

namespace {

// Answers the directory's HIST_REQ by sending `lines` in one chunk and announcing `announce`.
struct ScriptedCacheController : sc_core::sc_module {
  tlm_utils::simple_target_socket<ScriptedCacheController> regs{"regs"};
  tlm_utils::simple_initiator_socket<ScriptedCacheController> dir{"dir"};
  std::vector<uint64_t> lines;
  uint32_t announce = 0;
  unsigned confirms = 0;

  explicit ScriptedCacheController(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    regs.register_b_transport(this, &ScriptedCacheController::b);
  }
  void write_dir(uint64_t off, void* data, unsigned len, sc_core::sc_time& d) {
    tlm::tlm_generic_payload gp;
    set_access(gp, tlm::TLM_WRITE_COMMAND, off, data, len);
    dir->b_transport(gp, d);
  }
  void b(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
    uint32_t v = 0;
    std::memcpy(&v, gp.get_data_ptr(), 4);
    if (gp.is_write() && gp.get_address() == CC_HIST_REQ && v == 1) {
      write_dir(DIR_HIST_DATA, lines.data(), static_cast<unsigned>(lines.size() * 8), d);
      write_dir(DIR_HIST_END, &announce, 4, d);
    } else if (gp.is_write() && gp.get_address() == CC_HIST_CONFIRM) {
      ++confirms;
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct NullTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<NullTarget> in{"in"};
  explicit NullTarget(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &NullTarget::b);
  }
  void b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) { gp.set_response_status(tlm::TLM_OK_RESPONSE); }
};

// The host bus in front of the directory: the CPU and the cache controller both write to it.
struct FanIn : sc_core::sc_module {
  tlm_utils::simple_target_socket<FanIn> a{"a"}, b{"b"};
  tlm_utils::simple_initiator_socket<FanIn> out{"out"};
  explicit FanIn(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    a.register_b_transport(this, &FanIn::fwd);
    b.register_b_transport(this, &FanIn::fwd);
  }
  void fwd(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { out->b_transport(gp, d); }
};

// Runs: CPU takes the lock, asks for its history (the scripted controller answers) and polls
// HIST_STATUS; returns the last status and the controller's confirm count.
void history_exchange(uint32_t announce, uint32_t& status, unsigned& confirms) {
  auto dir = std::make_unique<Directory>("directory", config_from<DirectoryConfig>("mode: range"));
  auto cc = std::make_unique<ScriptedCacheController>("cpu_cc");
  auto gpu_side = std::make_unique<NullTarget>("host_bus");
  cc->lines = {0x100, 0x101, 0x102};
  cc->announce = announce;
  auto cpu = std::make_unique<TestInitiator>("cpu", [&](TestInitiator& t) {
    t.info->side = Side::Host;
    sc_core::sc_time d;
    ASSERT_EQ(t.write32(DIR_LOCK, 1, d), tlm::TLM_OK_RESPONSE);
    t.write32(DIR_HISTORY, 1, d);
    for (int i = 0; i < 100 && !status && !hetvp::test::run_state().failed(); ++i) {  // poll, as the runtime does
      d += sc_core::sc_time(10, sc_core::SC_NS);
      t.read32(DIR_HIST_STATUS, status, d);
    }
  });
  auto bus = std::make_unique<FanIn>("bus");
  cpu->socket.bind(bus->a);
  cc->dir.bind(bus->b);
  bus->out.bind(dir->regs);
  dir->cpu_cc.bind(cc->regs);
  dir->host.bind(gpu_side->in);
  hetvp::test::start();
  confirms = cc->confirms;
}

}  // namespace

TEST(Directory, CompleteHistoryIsConfirmed) {
  uint32_t status = 0;
  unsigned confirms = 0;
  history_exchange(3, status, confirms);
  EXPECT_FALSE(hetvp::test::run_state().failed());
  EXPECT_EQ(status, 1u);
  EXPECT_EQ(confirms, 1u);
}

// HIST_END must announce exactly what arrived (3 lines): 2 or 4 fails and is not confirmed.
class DirectoryHistoryCount : public ::testing::TestWithParam<uint32_t> {};
INSTANTIATE_TEST_SUITE_P(Announced, DirectoryHistoryCount, ::testing::Values(2u, 4u));

TEST_P(DirectoryHistoryCount, WrongCountFailsTheRun) {
  uint32_t status = 0;
  unsigned confirms = 0;
  history_exchange(GetParam(), status, confirms);
  ASSERT_TRUE(hetvp::test::run_state().failed());
  const std::string want = "announced " + std::to_string(GetParam()) + " entries, 3 arrived";
  EXPECT_NE(hetvp::test::run_state().failures().front().find(want), std::string::npos) << hetvp::test::run_state().failures().front();
  EXPECT_EQ(confirms, 0u) << "an incomplete history is not confirmed";
  EXPECT_EQ(status, 0u);
}

// The directory's parameters, declared once in DirectoryConfig: the per-side chains share one set
// whose defaults to_gpu changes, the serial_ack chain is a group as they are, and the engine's
// parameters are built from the same set (per_line: one line per request).
TEST(DirectoryConfig, GroupsAndEngineParamsComeFromOneDeclaration) {
  const DirectoryConfig d = config_from<DirectoryConfig>("");
  EXPECT_EQ(d.probe_timing(), ProbeTiming::pipelined);
  EXPECT_EQ(d.to_cpu.wait(), ProbeWait::ack);
  EXPECT_EQ(d.to_gpu.wait(), ProbeWait::receiver);
  EXPECT_EQ(d.to_cpu.ack(), sc_core::sc_time(60, sc_core::SC_NS));
  EXPECT_EQ(d.to_gpu.ack(), sc_core::sc_time(1, sc_core::SC_NS));
  EXPECT_EQ(d.to_gpu.occupancy(), sc_core::sc_time(2.5, sc_core::SC_NS));
  EXPECT_EQ(d.serial_ack.gpu_ack(), sc_core::sc_time(1.5, sc_core::SC_NS));
  const EngineParams defaults;
  EXPECT_EQ(defaults.line_bytes, 64u);
  EXPECT_EQ(defaults.max_range, 256u);
  EXPECT_EQ(defaults.open_runs, 4u);
  EXPECT_EQ(defaults.clock_hz, 1e9);
  EXPECT_EQ(defaults.lockstep_timing, LockstepTiming::error);

  const DirectoryConfig c = config_from<DirectoryConfig>(
      "{mode: per_line, max_range: 16, probe_timing: serial_ack, serial_ack: {hops: 6}, lockstep_timing: warning}");
  EXPECT_EQ(c.probe_timing.word(), "serial_ack");
  EXPECT_EQ(c.serial_ack.hops(), 6u);
  EXPECT_EQ(c.serial_ack.response_cycles(), 30u);
  const EngineParams e(c);
  EXPECT_EQ(e.max_range, 1u) << "per_line mode: one line per request, whatever max_range says";
  EXPECT_EQ(e.lockstep_timing, LockstepTiming::warning);
}

// The engine's own rule (a line size the schema's range lets through but the engine refuses) is
// reported when the configuration is checked, at the engine key.
TEST(DirectoryConfig, EngineRulesAreCheckedWithTheConfiguration) {
  Diagnostics ok;
  config_from<DirectoryConfig>("line: 128").validate(ok);
  EXPECT_TRUE(ok.empty());
  Diagnostics d;
  config_from<DirectoryConfig>("line: 48", "dir").validate(d);
  ASSERT_EQ(d.count(), 1u);
  EXPECT_NE(d.messages()[0].find("dir.engine"), std::string::npos) << d.messages()[0];
  EXPECT_NE(d.messages()[0].find("EngineParams.line_bytes must be a power of two, got 48"), std::string::npos)
      << d.messages()[0];
}
