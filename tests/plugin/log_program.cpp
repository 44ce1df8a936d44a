// A plugin host program that reports through SC_REPORT at every level, to test the log levels
// and the warning cut-off (tests/python/test_run_record.py): its messages name the CPU instance.
#include "models/host/host_api.h"
#include "platform/plugin.h"
#include "platform/program.h"

namespace {
class LogBurst : public hetvp::HostProgram {
 public:
  static std::shared_ptr<hetvp::Schema> schema() {
    auto s = std::make_shared<hetvp::Schema>();
    s->integer("warnings", 3, "warnings to report").range(0, 1000);
    s->integer("infos", 2, "informational messages to report").range(0, 1000);
    s->integer("debugs", 1, "debug messages to report").range(0, 1000);
    return s;
  }
  int run(hetvp::HostApi& api, const hetvp::Params& a) override {
    for (int i = 0; i < a.integer("warnings"); ++i)
      SC_REPORT_WARNING("hetvp/test", (api.name() + ": warning " + std::to_string(i)).c_str());
    for (int i = 0; i < a.integer("infos"); ++i)
      SC_REPORT_INFO("hetvp/test", (api.name() + ": info " + std::to_string(i)).c_str());
    for (int i = 0; i < a.integer("debugs"); ++i)
      SC_REPORT_INFO_VERB("hetvp/test", (api.name() + ": debug " + std::to_string(i)).c_str(), sc_core::SC_DEBUG);
    return 0;
  }
};
}  // namespace

HETVP_PLUGIN("log test")
HETVP_REGISTER_PROGRAM("log_burst", LogBurst, "test plugin: SC_REPORT messages at every level");
