#include "platform/simulation.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <tlm>

#include "platform/builder.h"
#include "platform/program.h"
#include "platform/results.h"
#include "platform/run_state.h"
#include "platform/trace.h"

namespace hetvp {

namespace {

uint64_t g_warnings = 0;
std::ostream* g_err = nullptr;

// Warnings go to stderr as one line each; errors throw (the run fails with their text).
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if (rep.get_severity() == sc_core::SC_INFO) return;
  if (rep.get_severity() == sc_core::SC_WARNING) {
    ++g_warnings;
    // SystemC's own deprecation chatter is not the user's business.
    if (std::string(rep.get_msg_type()).rfind("hetvp", 0) != 0) return;
    if (g_err && g_warnings <= 50) *g_err << "warning: " << rep.get_msg() << " [" << sc_core::sc_time_stamp() << "]\n";
    if (g_err && g_warnings == 51) *g_err << "warning: further warnings suppressed\n";
    return;
  }
  if (actions & sc_core::SC_THROW) throw rep;
  sc_core::sc_report_handler::default_handler(rep, actions);
}

Config load(const RunOptions& opt) {
  Config cfg = Config::load_file(opt.config);
  if (!opt.workload.empty()) {
    // The YAML's args belong to the YAML's workload: another program starts from its defaults
    // (then --set workload.args.X=... applies to it).
    const YAML::Node& w = cfg.root["workload"];
    bool same = w && w["name"] && w["name"].Scalar() == opt.workload;
    if (!same && w && w["args"]) cfg.root["workload"].remove("args");
    cfg.apply_override("workload.name=" + opt.workload);
  }
  for (auto& o : opt.overrides) cfg.apply_override(o);
  return cfg;
}

std::string fmt_time(const sc_core::sc_time& t) {
  std::ostringstream s;
  double ns = t.to_seconds() * 1e9;
  if (ns < 1e3)
    s << std::fixed << std::setprecision(1) << ns << " ns";
  else if (ns < 1e6)
    s << std::fixed << std::setprecision(3) << ns / 1e3 << " us";
  else if (ns < 1e9)
    s << std::fixed << std::setprecision(3) << ns / 1e6 << " ms";
  else
    s << std::fixed << std::setprecision(3) << ns / 1e9 << " s";
  return s.str();
}

}  // namespace

int check_platform(const RunOptions& opt, std::ostream& out, std::ostream& err) {
  try {
    Config cfg = load(opt);
    Builder b(cfg);
    b.build();
    if (!opt.quiet) out << opt.config << ": OK (" << b.components().size() << " instances)\n";
    return kExitOk;
  } catch (const ConfigError& e) {
    err << "error: " << e.what() << "\n";
    return kExitUsage;
  }
}

int run_platform(const RunOptions& opt, std::ostream& out, std::ostream& err) {
  g_err = &err;
  sc_core::sc_report_handler::set_handler(report_handler);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);

  Config cfg;
  std::unique_ptr<Builder> builder;
  uint64_t seed = 0;
  sc_core::sc_time limit;
  std::string workload;
  ProgramHost* host = nullptr;
  try {
    cfg = load(opt);
    builder = std::make_unique<Builder>(cfg);
    builder->build();
    Params sim = cfg.simulation();
    seed = sim.u64("seed");
    limit = sim.time("time_limit");
    tlm::tlm_global_quantum::instance().set(sim.time("quantum"));
    Params w = cfg.workload();
    workload = w.string("name");
    Component* cpu = builder->find(w.string("cpu"));
    host = dynamic_cast<ProgramHost*>(cpu);
    if (!host)
      throw ConfigError(config_location(w.node("cpu")) + ": workload.cpu: '" + w.string("cpu") +
                        "' cannot run host programs (it is not a host_cpu)");
    YAML::Node args = w.has("args") ? w.node("args") : YAML::Node(YAML::NodeType::Map);
    host->load_program(workload, Params(args, nullptr, "workload.args"), seed);
    if (!opt.trace_path.empty()) Tracer::get().open(opt.trace_path);
  } catch (const ConfigError& e) {
    err << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return kExitUsage;
  }

  auto wall0 = std::chrono::steady_clock::now();
  std::string sim_error;
  try {
    sc_core::sc_start(limit);
  } catch (const sc_core::sc_report& rep) {
    sim_error = rep.get_msg();
  } catch (const std::exception& e) {
    sim_error = e.what();
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const sc_core::sc_time end = sc_core::sc_time_stamp();
  for (auto* c : builder->components()) c->end_of_run();
  Tracer::get().close();

  RunState& rs = RunState::get();
  int status = kExitOk;
  std::vector<std::string> problems = rs.failures();
  if (!sim_error.empty()) problems.push_back(sim_error);
  if (problems.empty() && !rs.finished()) {
    if (end >= limit)
      problems.push_back("the workload did not finish within simulation.time_limit (" + fmt_time(limit) + ")");
    else
      problems.push_back("deadlock: nothing left to simulate at " + fmt_time(end) +
                         " and the workload has not finished");
  }
  if (!problems.empty())
    status = kExitSimFailure;
  else if (rs.workload_code() != 0) {
    status = kExitSimFailure;
    problems.push_back("workload '" + workload + "' reported failure (code " + std::to_string(rs.workload_code()) +
                       ")");
  }

  if (!opt.quiet) {
    out << "hetvp: " << opt.config << ", workload " << workload << ", seed " << seed << "\n";
    for (auto& l : rs.summary()) out << "  " << l << "\n";
    out << "simulated " << fmt_time(end) << " in " << std::fixed << std::setprecision(2) << wall << " s wall\n";
  }
  for (auto& p : problems) err << "FAILED: " << p << "\n";
  if (status == kExitOk && !opt.quiet) out << "result: PASS\n";

  if (!opt.stats_path.empty()) {
    std::ofstream f(opt.stats_path);
    if (!f) {
      err << "error: cannot write stats to " << opt.stats_path << "\n";
      return kExitUsage;
    }
    JsonWriter w(f);
    w.begin_object();
    w.begin_object("run");
    // What produced these numbers: the version, the file and every --set, in command-line order.
    w.value("hetvp", opt.version);
    w.value("config", opt.config);
    w.begin_array("overrides");
    for (const auto& o : opt.overrides) w.value("", o);
    w.end_array();
    w.value("workload", workload);
    w.value("seed", seed);
    w.value("simulated_ns", end.to_seconds() * 1e9);
    w.value("status", status == kExitOk ? "pass" : "fail");
    w.begin_array("failures");
    for (auto& p : problems) w.value("", p);
    w.end_array();
    w.end_object();
    w.begin_object("components");
    for (auto* c : builder->components()) {
      w.begin_object(c->instance_name());
      c->dump_stats(w);
      w.end_object();
    }
    w.end_object();
    w.end_object();
  }
  if (!opt.csv_path.empty()) {
    std::ofstream f(opt.csv_path);
    if (!f) {
      err << "error: cannot write CSV to " << opt.csv_path << "\n";
      return kExitUsage;
    }
    host->result_table().write_csv(f);
  }
  return status;
}

}  // namespace hetvp
