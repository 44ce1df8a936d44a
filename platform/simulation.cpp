// sc_spawn (end_unfinished_threads) needs the dynamic-process part of the SystemC headers.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "platform/simulation.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <tlm>

#include "platform/builder.h"
#include "platform/format.h"
#include "platform/params.h"
#include "platform/sha256.h"
#include "platform/stats_periodic.h"
#include "platform/stats_control.h"
#include "platform/plugin.h"
#include "platform/program.h"
#include "platform/results.h"
#include "platform/run_state.h"
#include "platform/run_stop.h"
#include "platform/trace.h"

namespace hetvp {

namespace {

std::ostream* g_err = nullptr;
SimulationContext* g_current = nullptr;  // the one alive: SystemC's report handler is process-wide
int g_contexts = 0;  // simulation contexts this process has made

// Warnings and information go to stderr as one line each, filtered by level (SimulationContext);
// errors throw (the run fails with their text).
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  const sc_core::sc_severity sev = rep.get_severity();
  SimulationContext* ctx = g_current;
  if (sev == sc_core::SC_INFO || sev == sc_core::SC_WARNING) {
    // SystemC's own chatter (deprecations, its banner notes) is not the user's business.
    if (!ctx || std::string(rep.get_msg_type()).rfind("hetvp", 0) != 0) return;
    const int need = sev == sc_core::SC_WARNING                  ? SimulationContext::kWarning
                     : rep.get_verbosity() <= sc_core::SC_MEDIUM ? SimulationContext::kInfo
                                                                 : SimulationContext::kDebug;
    if (sev == sc_core::SC_WARNING) ++ctx->warnings;
    if (need > ctx->level_for(rep.get_msg(), rep.get_process_name() ? rep.get_process_name() : "")) return;
    if (sev == sc_core::SC_WARNING && ++ctx->warnings_shown > SimulationContext::kMaxWarningsShown) {
      ++ctx->warnings_dropped;
      return;
    }
    if (g_err)
      *g_err << (need == SimulationContext::kWarning ? "warning: "
                 : need == SimulationContext::kInfo  ? "info: "
                                                     : "debug: ")
             << rep.get_msg() << " [" << sc_core::sc_time_stamp() << "]\n";
    return;
  }
  if (actions & sc_core::SC_THROW) throw rep;
  sc_core::sc_report_handler::default_handler(rep, actions);
}

// Log levels from the options and the instances' `log:` keys; SystemC's verbosity filter lets
// debug messages through only when something asks for them.
void set_log_levels(SimulationContext& ctx, const RunOptions& opt, const Config& cfg) {
  ctx.log_level = opt.quiet ? SimulationContext::kError : SimulationContext::kWarning;
  if (!opt.log_level.empty()) {
    ctx.log_level = SimulationContext::parse_level(opt.log_level);
    if (ctx.log_level < 0)
      throw ConfigError("--log-level " + opt.log_level + ": expected error, warning, info or debug");
  }
  int most = ctx.log_level;
  const YAML::Node& r = cfg.root;
  for (const auto& name : cfg.instance_names()) {
    const YAML::Node& log = r[name]["log"];
    if (!log) continue;
    ctx.instance_log_levels[name] = SimulationContext::parse_level(log.Scalar());
    most = std::max(most, ctx.instance_log_levels[name]);
  }
  sc_core::sc_report_handler::set_verbosity_level(most >= SimulationContext::kDebug ? sc_core::SC_DEBUG
                                                                                    : sc_core::SC_MEDIUM);
}

Config load(const RunOptions& opt) {
  for (auto& p : opt.plugins) load_plugin(p, "--plugin");
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

// The resolved configuration (Config::resolved) plus the --plugin libraries, as absolute paths,
// so that the tree alone rebuilds the same platform.
YAML::Node resolved_tree(const Config& cfg, const RunOptions& opt) {
  YAML::Node r = cfg.resolved();
  if (!opt.plugins.empty()) {
    YAML::Node l = r["plugins"] ? r["plugins"] : YAML::Node(YAML::NodeType::Sequence);
    for (auto& p : opt.plugins) {
      char buf[PATH_MAX];
      l.push_back(realpath(p.c_str(), buf) ? std::string(buf) : p);
    }
    r["plugins"] = l;
  }
  return r;
}

// --dump-config: the resolved tree as a configuration file.
void dump_config(const YAML::Node& tree, const RunOptions& opt) {
  YAML::Emitter e;
  e << tree;
  std::ofstream f(opt.dump_config);
  if (!f || !(f << "# hetvp " << opt.version << ": " << opt.config << " resolved (every default filled in, every --set "
                << "applied)\n"
                << e.c_str() << "\n"))
    throw ConfigError("--dump-config: cannot write " + opt.dump_config);
}

// A YAML tree as JSON: maps and lists as such; scalars that read as a decimal integer or a boolean
// as numbers and booleans, every other scalar as its text.
void write_yaml(JsonWriter& w, const std::string& key, const YAML::Node& n) {
  if (n.IsMap()) {
    w.begin_object(key);
    for (auto it = n.begin(); it != n.end(); ++it) write_yaml(w, it->first.Scalar(), it->second);
    w.end_object();
  } else if (n.IsSequence()) {
    w.begin_array(key);
    for (size_t i = 0; i < n.size(); ++i) write_yaml(w, "", n[i]);
    w.end_array();
  } else if (n.IsScalar()) {
    const std::string& t = n.Scalar();
    const bool digits = !t.empty() && t.size() < 19 &&
                        t.find_first_not_of("0123456789", t[0] == '-' ? 1 : 0) == std::string::npos && t != "-" &&
                        (t.size() == 1 || t[t[0] == '-' ? 1 : 0] != '0');
    if (n.Tag() != "!" && digits)
      w.value(key, static_cast<int64_t>(std::stoll(t)));
    else if (n.Tag() != "!" && (t == "true" || t == "false"))
      w.value(key, t == "true");
    else
      w.value(key, t);
  } else {
    w.value(key, "");
  }
}

std::string file_sha256(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return sha256_hex(s.str());
}

// What produced a stats document (--stats, a dump at the debug prompt): the version, the file and
// every --set in command-line order, the workload and the seed.
void write_run_identity(JsonWriter& w, const RunOptions& opt, const std::string& workload, uint64_t seed) {
  w.value("hetvp", opt.version);
  w.value("config", opt.config);
  w.value("config_sha256", file_sha256(opt.config));
  w.begin_array("overrides");
  for (const auto& o : opt.overrides) w.value("", o);
  w.end_array();
  w.value("workload", workload);
  w.value("seed", seed);
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

// Every (c)thread process under `objs`, spawned ones included.
void collect_threads(const std::vector<sc_core::sc_object*>& objs, std::vector<sc_core::sc_process_handle>& out) {
  for (sc_core::sc_object* o : objs) {
    const std::string kind = o->kind();
    if (kind == "sc_thread_process" || kind == "sc_cthread_process") out.emplace_back(o);
    collect_threads(o->get_child_objects(), out);
  }
}

// When a run ends (the workload finished or failed, the time limit, a deadlock) most SystemC
// threads are suspended in a wait() that will never return: the host CPU inside the workload, the
// models' service loops. Their frames are never unwound, so whatever only those frames own (a GPU
// driver inside GpuDriver::open, a copy engine's burst buffer) would never be freed: LeakSanitizer
// reports it. SystemC can end such a thread only from a process of a running simulation
// (kill() throws sc_unwind_exception into it, which unwinds its frames): a method process spawned
// here kills every unfinished thread in one more delta cycle at the end time. Called after the
// run's outputs are taken, before the platform is destroyed; whatever the threads would still do
// is not recorded. The simulation is paused at this point (RunState pauses rather than stops;
// sc_start(limit) returns paused), then stopped.
void end_unfinished_threads() {
  if (sc_core::sc_get_status() != sc_core::SC_PAUSED) return;
  std::vector<sc_core::sc_process_handle> threads;
  collect_threads(sc_core::sc_get_top_level_objects(), threads);
  sc_core::sc_spawn_options method;
  method.spawn_method();
  sc_core::sc_spawn(
      [threads] {
        for (sc_core::sc_process_handle h : threads)
          if (h.valid() && !h.terminated()) h.kill();
      },
      "hetvp_end_of_run", &method);
  try {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    sc_core::sc_stop();
  } catch (...) {
    // A model's error while its thread unwinds: the run's result is already decided.
  }
}

// --stats-every T: its period (a time with a unit, more than 0) and its file beside --stats's.
std::unique_ptr<PeriodicStats> periodic_stats(const RunOptions& opt, const std::vector<Component*>& components,
                                              sc_core::sc_time& every) {
  const std::string what = "--stats-every " + opt.stats_every;
  try {
    every = parse_time(opt.stats_every);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(what + ": " + e.what());
  }
  if (every <= sc_core::SC_ZERO_TIME) throw ConfigError(what + ": the period must be more than 0");
  if (opt.stats_path.empty())
    throw ConfigError(what + " needs --stats FILE.json (the snapshots go to FILE.periodic.jsonl)");
  return std::make_unique<PeriodicStats>(PeriodicStats::path_for(opt.stats_path), components);
}

}  // namespace

SimulationContext::SimulationContext() {
  if (g_current) throw std::logic_error("hetvp: a simulation context is already current (one platform at a time)");
  // SystemC 2.3.4 elaborates once per sc_simcontext. The first platform of a process uses the
  // default context (nothing changes for `hetvp run`); every later one gets a new context, made
  // current through the two globals sc_get_curr_simcontext() reads. The previous context is left
  // allocated: deleting it would destroy the coroutines of threads still suspended in it, which
  // SystemC 2.3.4 does not support (docs/library.md, "Several platforms in one process").
  sc_core::sc_simcontext* cur = sc_core::sc_get_curr_simcontext();
  if (g_contexts > 0 || cur->elaboration_done() || !sc_core::sc_get_top_level_objects(cur).empty()) {
    auto* fresh = new sc_core::sc_simcontext;
    sc_core::sc_curr_simcontext = fresh;
    sc_core::sc_default_global_context = fresh;
  }
  ++g_contexts;
  g_current = this;
}

SimulationContext::~SimulationContext() { g_current = nullptr; }

int SimulationContext::parse_level(const std::string& n) {
  if (n == "error") return kError;
  if (n == "warning") return kWarning;
  if (n == "info") return kInfo;
  if (n == "debug") return kDebug;
  return -1;
}

int SimulationContext::level_for(const std::string& msg, const std::string& process) const {
  if (!instance_log_levels.empty()) {
    // "gpu0.hub: ..." or "directory: ..." names its instance; else the process that reported it.
    for (const std::string* s : {&msg, &process}) {
      const std::string inst = s->substr(0, s->find_first_of(".: ["));
      auto it = instance_log_levels.find(inst);
      if (it != instance_log_levels.end()) return it->second;
    }
  }
  return log_level;
}

int check_platform(const RunOptions& opt, std::ostream& out, std::ostream& err) {
  SimulationContext ctx;
  try {
    Config cfg = load(opt);
    Builder b(cfg, ctx);
    b.build();
    if (!opt.dump_config.empty()) dump_config(resolved_tree(cfg, opt), opt);
    if (!opt.quiet) out << opt.config << ": OK (" << b.components().size() << " instances)\n";
    if (opt.outputs) opt.outputs->instances = b.components().size();
    return kExitOk;
  } catch (const ConfigError& e) {
    err << "error: " << e.what() << "\n";
    if (opt.outputs) opt.outputs->errors = e.messages();
    return kExitUsage;
  }
}

int run_platform(const RunOptions& opt, std::ostream& out_stream, std::ostream& err) {
  SimulationContext ctx;  // before the builder: the platform's modules go first
  g_err = &err;
  // The human summary goes to `out_stream` and, for RunOutputs, into a string as well.
  std::ostringstream summary;
  std::ostream& out = opt.outputs ? static_cast<std::ostream&>(summary) : out_stream;
  sc_core::sc_report_handler::set_handler(report_handler);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);

  Config cfg;
  std::unique_ptr<Builder> builder;
  uint64_t seed = 0;
  sc_core::sc_time limit;
  std::string workload;
  ProgramHost* host = nullptr;
  YAML::Node resolved;
  std::unique_ptr<PeriodicStats> periodic;  // --stats-every
  sc_core::sc_time every;
  try {
    cfg = load(opt);
    builder = std::make_unique<Builder>(cfg, ctx);
    builder->build();
    set_log_levels(ctx, opt, cfg);
    for (const auto& name : cfg.instance_names()) {  // which instances --trace follows
      const YAML::Node& t = static_cast<const YAML::Node&>(cfg.root)[name]["trace"];
      if (t) ctx.tracer.select(name, t.as<bool>());
    }
    const SimulationConfig sim = cfg.simulation();
    ctx.tracer.set_trace_routers(sim.trace_routers);
    seed = sim.seed;
    limit = sim.time_limit;
    tlm::tlm_global_quantum::instance().set(sim.quantum);
    const WorkloadConfig w = cfg.workload();
    workload = w.name();
    Component* cpu = builder->find(w.cpu());
    host = dynamic_cast<ProgramHost*>(cpu);
    if (!host)
      throw ConfigError(cfg.location(w.cpu.value_node()) + ": workload.cpu: '" + w.cpu() +
                        "' cannot run host programs (it is not a host_cpu)");
    YAML::Node args = w.args ? w.args.node() : YAML::Node(YAML::NodeType::Map);
    host->load_program(workload, Params(args, nullptr, "workload.args", cfg.source), seed);
    ctx.debug.set_stream(&err);
    if (!opt.debug_flags.empty()) ctx.debug.enable(opt.debug_flags);  // std::invalid_argument: exit 2
    for (const auto& [inst, level] : ctx.instance_log_levels)
      ctx.debug.set_instance(inst, level >= SimulationContext::kDebug);
    if (ctx.log_level >= SimulationContext::kDebug) ctx.debug.enable_all();
    if (ctx.log_level >= SimulationContext::kInfo)  // -v
      err << "info: " << opt.config << ": " << builder->components().size() << " instances built; workload "
          << workload << " on " << w.cpu() << ", seed " << seed << ", time limit " << fmt_time(limit)
          << ", quantum " << fmt_time(sim.quantum) << "\n";
    // The resolved tree (a copy of the configuration with every default) only for what writes it:
    // the run record of --stats / RunOutputs and --dump-config (#31: a plain run skips the copy).
    const bool records = !opt.stats_path.empty() || opt.outputs;
    if (records || !opt.dump_config.empty()) resolved = resolved_tree(cfg, opt);
    if (!opt.dump_config.empty()) dump_config(resolved, opt);
    if (!opt.trace_path.empty()) {
      if (!opt.trace_window.empty()) {
        const auto [from, to] = Tracer::parse_window(opt.trace_window);
        ctx.tracer.set_window(from, to);
      }
      if (!opt.trace_filter.empty()) ctx.tracer.set_filter(opt.trace_filter);
      ctx.tracer.open(opt.trace_path);
    } else if (!opt.trace_window.empty() || !opt.trace_filter.empty()) {
      throw ConfigError(std::string(opt.trace_window.empty() ? "--trace-filter" : "--trace-window") +
                        " needs --trace FILE.json");
    }
    if (!opt.stats_every.empty()) periodic = periodic_stats(opt, builder->components(), every);
    // The statistics on demand (the debug prompt's `stats`): the same components and run identity.
    StatsControl& stats = ctx.service<StatsControl>();
    stats.set_components(builder->components());
    stats.set_run_header([&opt, workload, seed](JsonWriter& w) { write_run_identity(w, opt, workload, seed); });
  } catch (const ConfigError& e) {
    err << "error: " << e.what() << "\n";
    if (opt.outputs) opt.outputs->errors = e.messages();
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    if (opt.outputs) opt.outputs->errors = {e.what()};
    return kExitUsage;
  }

  // On every way out of this function after the simulation has run, and before `builder` destroys
  // the platform: end the threads the run left suspended (end_unfinished_threads).
  struct EndThreads {
    ~EndThreads() { end_unfinished_threads(); }
  } end_threads;
  // The header when the run starts (#42: with stdout in a file, a long run showed nothing).
  if (!opt.quiet) out << "hetvp: " << opt.config << ", workload " << workload << ", seed " << seed << std::endl;
  auto wall0 = std::chrono::steady_clock::now();
  std::string sim_error;
  RunStopper stopper(opt.wall_limit_s);  // SIGINT / SIGTERM / --wall-limit end the run at a safe point
  auto simulate_to = [&](const sc_core::sc_time& until) {
    if (opt.simulate)
      opt.simulate(until, limit, ctx);
    else
      sc_core::sc_start(until - sc_core::sc_time_stamp());
  };
  try {
    if (periodic)
      periodic->run(limit, every, simulate_to);
    else
      simulate_to(limit);
  } catch (const sc_core::sc_report& rep) {
    sim_error = rep.get_msg();
  } catch (const std::exception& e) {
    sim_error = e.what();
  }
  const sc_core::sc_time end = sc_core::sc_time_stamp();
  if (ctx.log_level >= SimulationContext::kInfo)
    err << "info: simulation stopped at " << fmt_time(end) << " ("
        << (ctx.run_state.finished() ? "the workload finished" : "the workload did not finish") << ")"
        << (ctx.debug.lines() ? "; " + std::to_string(ctx.debug.lines()) + " debug lines" : "") << "\n";
  for (auto* c : builder->components()) c->end_of_run();
  if (periodic) periodic->dump(end);  // the last line: the statistics --stats gets
  std::string output_error;  // an output file that cannot be written: exit 2 after the summary
  if (!ctx.tracer.close()) output_error = "cannot write the trace to " + opt.trace_path;
  // Host time so far (the simulation and the trace); the summary's wall time below also covers
  // writing the stats and the CSV.
  const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  RunState& rs = ctx.run_state;
  int status = kExitOk;
  std::vector<std::string> problems = rs.failures();
  if (!sim_error.empty()) problems.push_back(sim_error);
  const int signo = stopper.signal();
  if (signo)
    problems.push_back(std::string("interrupted by ") + (signo == SIGINT ? "SIGINT" : "SIGTERM") + " at " +
                       fmt_time(end) + " of simulated time; the outputs hold what was done until then");
  else if (stopper.wall_limit_reached() && !rs.finished())
    problems.push_back(format("the workload did not finish within --wall-limit %g s (wall clock); simulated time "
                              "reached %s",
                              opt.wall_limit_s, fmt_time(end).c_str()));
  if (problems.empty() && !rs.finished()) {
    if (end >= limit)
      problems.push_back("the workload did not finish within simulation.time_limit (" + fmt_time(limit) + ")");
    else
      problems.push_back("deadlock: nothing left to simulate at " + fmt_time(end) +
                         " and the workload has not finished");
  }
  if (signo)
    status = 128 + signo;  // as a shell reports a process a signal ended: 130 SIGINT, 143 SIGTERM
  else if (!problems.empty())
    status = kExitSimFailure;
  else if (rs.workload_code() != 0) {
    status = kExitSimFailure;
    problems.push_back("workload '" + workload + "' reported failure (code " + std::to_string(rs.workload_code()) +
                       ")");
  }

  std::ostringstream stats_text;
  if (!opt.stats_path.empty() || opt.outputs) {
    JsonWriter w(stats_text);
    w.begin_object();
    w.begin_object("run");
    write_run_identity(w, opt, workload, seed);
    w.value("simulated_ns", end.to_seconds() * 1e9);
    // gem5's sim_seconds / host_seconds / sim rate. host_seconds and sim_rate are wall-clock
    // measures: the only values of the file that differ between two runs of the same seed.
    w.value("simulated_seconds", end.to_seconds());
    w.value("host_seconds", host_seconds);
    w.value("sim_rate", host_seconds > 0 ? end.to_seconds() / host_seconds : 0.0);
    w.value("warnings", ctx.warnings);
    w.value("status", status == kExitOk ? "pass" : "fail");
    w.value("interrupted", signo != 0);  // by SIGINT/SIGTERM: the numbers cover simulated_ns only
    const StatsControl& stats = ctx.service<StatsControl>();
    if (stats.resets())  // `stats reset` at the debug prompt: counters and times cover from then on
      w.value("stats_since_ns", stats.since().to_seconds() * 1e9);
    w.begin_array("failures");
    for (auto& p : problems) w.value("", p);
    w.end_array();
    write_yaml(w, "resolved", resolved);  // the whole configuration, every default filled in
    w.end_object();
    w.begin_object("components");
    stats.write_components(w);
    w.end_object();
    w.end_object();
  }
  if (opt.outputs) {
    opt.outputs->stats_json = stats_text.str();
    opt.outputs->results = host->result_table();
  }
  if (periodic && !periodic->ok()) output_error = "cannot write the periodic statistics to " + periodic->path();
  if (!opt.stats_path.empty()) {
    std::ofstream f(opt.stats_path);
    if (!f || !(f << stats_text.str())) output_error = "cannot write stats to " + opt.stats_path;
  }
  if (!opt.csv_path.empty()) {
    std::ofstream f(opt.csv_path);
    const bool no_table = host->result_table().columns().empty();
    if (!f)
      output_error = "cannot write CSV to " + opt.csv_path;
    else if (!no_table)
      host->result_table().write_csv(f);
    else  // boot, poke: an empty file (sweeps merge it) and why, not a lone newline (#42)
      err << "warning: workload '" << workload << "' has no result table: " << opt.csv_path
          << " is empty (its numbers are in --stats, the CPU's program record)\n";
  }
  if (ctx.log_level >= SimulationContext::kInfo)
    for (const auto& [what, path] : {std::pair<const char*, const std::string&>{"stats", opt.stats_path},
                                     {"CSV", opt.csv_path},
                                     {"trace", opt.trace_path}})
      if (!path.empty()) err << "info: wrote the " << what << " to " << path << "\n";
  // The summary last: its wall time covers the simulation and writing its outputs.
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (!opt.quiet) {
    for (auto& l : rs.summary()) out << "  " << l << "\n";
    out << "simulated " << fmt_time(end) << " in " << std::fixed << std::setprecision(2) << wall << " s wall ("
        << std::setprecision(3) << (wall > 0 ? end.to_seconds() / wall : 0.0) << " simulated s per host s)\n";
    if (!opt.trace_path.empty())
      out << "trace: " << ctx.tracer.events_written() << " events (" << ctx.tracer.async_spans()
          << " overlapping spans as async) in " << opt.trace_path << "\n";
  }
  if (ctx.warnings_dropped)
    err << "warning: " << ctx.warnings_dropped << " more warning" << (ctx.warnings_dropped == 1 ? "" : "s")
        << " not shown (only the first " << SimulationContext::kMaxWarningsShown << " are printed; " << ctx.warnings
        << " in all)\n";
  for (auto& p : problems) err << "FAILED: " << p << "\n";
  if (status == kExitOk && !opt.quiet) out << "result: PASS\n";

  if (opt.outputs) {
    opt.outputs->summary = summary.str();
    out_stream << opt.outputs->summary;
  }
  if (!output_error.empty()) {
    err << "error: " << output_error << "\n";
    return kExitUsage;
  }
  return status;
}

}  // namespace hetvp
