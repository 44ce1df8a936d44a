// A plugin host program that reports through SC_REPORT at every level, to test the log levels
// and the warning cut-off (tests/python/test_run_record.py): its messages name the CPU instance.
#include "models/host/host_api.h"
#include "platform/plugin.h"
#include "platform/program.h"

namespace {
struct LogBurstArgs : hetvp::ParamSet {
  hetvp::Int<int> warnings{this, "warnings", 3, "warnings to report", hetvp::Range{0, 1000}};
  hetvp::Int<int> infos{this, "infos", 2, "informational messages to report", hetvp::Range{0, 1000}};
  hetvp::Int<int> debugs{this, "debugs", 1, "debug messages to report", hetvp::Range{0, 1000}};
};

class LogBurst : public hetvp::ProgramWithArgs<LogBurstArgs> {
 public:
  int run(hetvp::HostApi& api, const LogBurstArgs& a) override {
    for (int i = 0; i < a.warnings; ++i)
      SC_REPORT_WARNING("hetvp/test", (api.name() + ": warning " + std::to_string(i)).c_str());
    for (int i = 0; i < a.infos; ++i)
      SC_REPORT_INFO("hetvp/test", (api.name() + ": info " + std::to_string(i)).c_str());
    for (int i = 0; i < a.debugs; ++i)
      SC_REPORT_INFO_VERB("hetvp/test", (api.name() + ": debug " + std::to_string(i)).c_str(), sc_core::SC_DEBUG);
    return 0;
  }
};
}  // namespace

HETVP_PLUGIN("log test")
HETVP_REGISTER_PROGRAM("log_burst", LogBurst, "test plugin: SC_REPORT messages at every level");
