// `hetvp sweep`: the local and Slurm backends, the merge into results.csv and the plot (sweep.h).
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "platform/config.h"
#include "platform/format.h"
#include "platform/params.h"
#include "platform/simulation.h"
#include "platform/cli/command.h"
#include "platform/cli/sweep/sweep.h"
#include "platform/cli/sweep/util.h"

namespace hetvp::sweep {

using namespace util;

namespace {

using Clock = std::chrono::steady_clock;

const char* kUsage =
    "usage: hetvp sweep SPEC.yaml --out DIR [options]\n"
    "       hetvp sweep plot DIR --x COLUMN --y COLUMN [--series COLUMN] [--where COLUMN=VALUE]... [--output F.png]";
const char* kAbout =
    "  runs every point of the sweep file's grid as one `hetvp run` into DIR/points/<hash>/ and merges\n"
    "  them into DIR/results.csv; finished points are never run again (resume by running it again)\n"
    "  exit status: 0 every point passed, 1 some point failed, 2 usage or sweep-file error, 130 interrupted\n";

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

std::string self_exe() {
  if (const char* e = getenv("HETVP_SWEEP_EXE"); e && *e) return e;  // tests: a stand-in program
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "hetvp";
  buf[n] = 0;
  return buf;
}

std::string abs_path(const std::string& p) {
  char buf[PATH_MAX];
  if (realpath(p.c_str(), buf)) return buf;
  return p;
}

bool exists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }

bool make_dirs(const std::string& p) {
  std::string cur;
  std::stringstream ss(p);
  if (!p.empty() && p[0] == '/') cur = "/";
  for (std::string part; std::getline(ss, part, '/');) {
    if (part.empty()) continue;
    cur += part + "/";
    if (mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string read_text(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The finished state of a point: "ok", "failed", "crashed", "timeout" ("" when not finished).
struct Status {
  std::string state, reason;
};
Status read_status(const std::string& dir) {
  Status s;
  std::ifstream f(dir + "/status");
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("state: ", 0) == 0) s.state = line.substr(7);
    if (line.rfind("reason: ", 0) == 0) s.reason = line.substr(8);
  }
  return s;
}

// One point being run: a child process writing into its point directory.
struct Job {
  pid_t pid = -1;
  std::string dir;
  Clock::time_point start;
  bool timed_out = false;
};

Job spawn(const std::string& exe, const std::vector<std::string>& args, const std::string& dir) {
  Job j;
  j.dir = dir;
  unlink((dir + "/status").c_str());
  std::vector<std::string> argv{exe};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const std::string err = dir + "/stderr.log";
  const pid_t parent = getpid();
  j.start = Clock::now();
  j.pid = fork();
  if (j.pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a killed sweep leaves no orphan writing into a point
    if (getppid() != parent) _exit(127);
    setpgid(0, 0);  // Ctrl-C reaches the sweep only, which stops its points without recording them
    int in = open("/dev/null", O_RDONLY);
    int out = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  return j;
}

// Records how a point ended: status (written last), stderr tail.
Status finish(const Job& j, int wstatus, double wall_s) {
  Status s;
  int code = -1;
  if (j.timed_out) {
    s = {"timeout", format("killed after %.1f s (the sweep's timeout)", wall_s)};
  } else if (WIFSIGNALED(wstatus)) {
    s = {"crashed", format("killed by signal %d (%s)", WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)))};
  } else {
    code = WEXITSTATUS(wstatus);
    if (code == 0)
      s = {"ok", "exit 0"};
    else if (code == 127)
      s = {"failed", "exit 127 (the program could not be started)"};
    else
      s = {"failed",
           format("exit %d (%s)", code, code == 1 ? "the simulated system failed" : "usage or configuration error")};
  }
  // Keep the last 4 KiB of the point's output, from a line start.
  std::string log = read_text(j.dir + "/stderr.log");
  if (log.size() > 4096) {
    log = log.substr(log.size() - 4096);
    auto nl = log.find('\n');
    if (nl != std::string::npos) log = log.substr(nl + 1);
  }
  write_atomic(j.dir + "/stderr.tail", log);
  unlink((j.dir + "/stderr.log").c_str());
  if (s.state != "ok") {  // the reason names the first FAILED/error line
    std::istringstream ls(log);
    for (std::string line; std::getline(ls, line);)
      if (line.rfind("FAILED: ", 0) == 0 || line.rfind("error: ", 0) == 0) {
        s.reason += ": " + line;
        break;
      }
  }
  write_atomic(j.dir + "/status", "state: " + s.state + "\nexit_code: " + std::to_string(code) +
                                      "\nreason: " + s.reason + "\nwall_s: " + format("%.3f", wall_s) + "\n");
  return s;
}

std::string fmt_duration(double s) {
  long t = long(s + 0.5);
  if (t >= 3600) return format("%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  return format("%ld:%02ld", t / 60, t % 60);
}

// Runs `to_run` (point directories with their run args) with at most `jobs` at once. Returns
// false when interrupted (SIGINT/SIGTERM): running points are killed and left unfinished.
struct PointRun {
  std::string dir;
  std::vector<std::string> args;
};
bool run_local(const std::vector<PointRun>& to_run, int jobs, double timeout_s, size_t already_done, size_t total,
               bool progress) {
  const std::string exe = self_exe();
  std::map<pid_t, Job> running;
  size_t next = 0, done = 0, failed = 0;
  const auto t0 = Clock::now();
  auto last_print = t0 - std::chrono::seconds(10);
  const bool tty = isatty(2);
  auto print = [&](bool force) {
    if (!progress) return;
    auto now = Clock::now();
    if (!force && !tty && now - last_print < std::chrono::seconds(2)) return;
    last_print = now;
    double el = std::chrono::duration<double>(now - t0).count();
    size_t left = to_run.size() - done;
    std::string eta = done ? fmt_duration(el / double(done) * double(left)) : "?";
    const size_t finished = already_done + done;
    std::cerr << (tty ? "\r" : "") << "sweep: " << finished << "/" << total << " done ("
              << (total ? 100 * finished / total : 100) << " %), " << failed
              << " failed, " << running.size() << " running, elapsed " << fmt_duration(el) << ", ETA " << eta
              << (tty ? "   " : "\n") << std::flush;
  };
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  while ((next < to_run.size() || !running.empty())) {
    if (g_stop) break;
    while (next < to_run.size() && int(running.size()) < jobs && !g_stop) {
      Job j = spawn(exe, to_run[next].args, to_run[next].dir);
      if (j.pid < 0) {
        std::cerr << "sweep: fork failed: " << strerror(errno) << "\n";
        g_stop = 1;
        break;
      }
      running[j.pid] = j;
      ++next;
    }
    bool reaped = false;
    for (;;) {
      int ws = 0;
      pid_t pid = waitpid(-1, &ws, WNOHANG);
      if (pid <= 0) break;
      auto it = running.find(pid);
      if (it == running.end()) continue;
      reaped = true;
      if (g_stop) {  // stopped by the interruption: not a result
        running.erase(it);
        continue;
      }
      double wall = std::chrono::duration<double>(Clock::now() - it->second.start).count();
      Status s = finish(it->second, ws, wall);
      ++done;
      if (s.state != "ok") ++failed;
      running.erase(it);
    }
    if (timeout_s > 0)
      for (auto& [pid, j] : running)
        if (!j.timed_out && std::chrono::duration<double>(Clock::now() - j.start).count() > timeout_s) {
          j.timed_out = true;
          kill(pid, SIGKILL);
        }
    print(reaped && done == to_run.size());
    print(false);
    if (!reaped && !running.empty()) {
      timespec ts{0, 20 * 1000 * 1000};
      sigtimedwait(&chld, nullptr, &ts);  // SIGCHLD is blocked: wakes as soon as a child ends
    }
  }
  if (g_stop) {
    for (auto& [pid, j] : running) kill(pid, SIGKILL);  // their point directories get no status
    for (auto& [pid, j] : running) waitpid(pid, nullptr, 0);
    if (progress)
      std::cerr << (tty ? "\n" : "") << "sweep: interrupted; running points were stopped and will run again\n";
    return false;
  }
  if (progress && tty) std::cerr << "\n";
  return true;
}

// ---- merge -------------------------------------------------------------------------------

std::string csv_cell(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The statistic at "instance.stat[.sub]" of a stats JSON (JSON is YAML), as text.
std::string stat_value(const YAML::Node& root, const std::string& path) {
  YAML::Node n = root["components"];
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) {
    if (!n || !n.IsMap()) return "";
    const YAML::Node& cn = n;  // a const lookup: a missing key adds nothing
    n.reset(cn[k]);            // rebind (operator= would overwrite the node's content)
  }
  return n && n.IsScalar() ? n.Scalar() : "";
}

// Writes DIR/results.csv; returns the number of unfinished points.
size_t merge(const Spec& spec, const std::vector<Point>& points, const std::string& out) {
  std::vector<std::string> axis_cols;
  if (!points.empty())
    for (auto& av : points[0].axis_values) axis_cols.push_back(av.first);
  struct Rows {
    std::vector<std::string> cols;
    std::vector<std::vector<std::string>> rows;
  };
  std::vector<std::string> wl_cols;  // union of the workloads' columns, first seen first
  std::map<std::string, Rows> tables;
  size_t unfinished = 0;
  for (auto& p : points) {
    if (tables.count(p.hash)) continue;
    Rows t;
    std::ifstream f(out + "/points/" + p.hash + "/results.csv");
    std::string line;
    if (spec.keep_csv && std::getline(f, line) && !line.empty()) {  // a workload without a table: "\n"
      t.cols = split_csv_line(line);
      for (auto& c : t.cols)
        if (std::find(wl_cols.begin(), wl_cols.end(), c) == wl_cols.end()) wl_cols.push_back(c);
      while (std::getline(f, line))
        if (!line.empty()) t.rows.push_back(split_csv_line(line));
    }
    tables[p.hash] = t;
  }
  std::ostringstream o;
  std::vector<std::string> header = axis_cols;
  header.push_back("status");
  header.insert(header.end(), spec.columns.begin(), spec.columns.end());
  for (auto& c : wl_cols)  // a workload column named like an axis would be ambiguous
    header.push_back(std::find(header.begin(), header.end(), c) == header.end() ? c : "result." + c);
  for (size_t i = 0; i < header.size(); ++i) o << (i ? "," : "") << csv_cell(header[i]);
  o << "\n";
  for (auto& p : points) {
    const std::string dir = out + "/points/" + p.hash;
    Status st = read_status(dir);
    if (st.state.empty()) {
      ++unfinished;
      st.state = "pending";
    }
    std::vector<std::string> prefix;
    for (auto& av : p.axis_values) prefix.push_back(av.second);
    prefix.push_back(st.state);
    if (!spec.columns.empty()) {
      YAML::Node js;
      if (st.state == "ok") try {
          js = YAML::LoadFile(dir + "/stats.json");
        } catch (const std::exception&) {
        }
      for (auto& c : spec.columns) prefix.push_back(js ? stat_value(js, c) : "");
    }
    const Rows& t = tables[p.hash];
    auto emit = [&](const std::vector<std::string>* row) {
      std::vector<std::string> cells = prefix;
      for (auto& c : wl_cols) {
        std::string v;
        if (row && st.state == "ok")
          for (size_t i = 0; i < t.cols.size() && i < row->size(); ++i)
            if (t.cols[i] == c) v = (*row)[i];
        cells.push_back(v);
      }
      for (size_t i = 0; i < cells.size(); ++i) o << (i ? "," : "") << csv_cell(cells[i]);
      o << "\n";
    };
    if (st.state != "ok" || t.rows.empty())
      emit(nullptr);
    else
      for (auto& r : t.rows) emit(&r);
  }
  write_atomic(out + "/results.csv", o.str());
  return unfinished;
}

// ---- slurm -------------------------------------------------------------------------------

struct SlurmFlags {
  bool wait = true;
  double poll_s = 2, wait_timeout_s = 0;
};

// Writes DIR/slurm/sweep.sbatch and the task list, submits, waits. Returns false on an error.
bool run_slurm(const Spec& spec, const std::vector<PointRun>& to_run, const std::string& out, double timeout_s,
               const SlurmFlags& fl) {
  const std::string sdir = out + "/slurm";
  make_dirs(sdir);
  std::string tasks;
  for (auto& t : to_run) tasks += t.dir + "\n";
  write_atomic(sdir + "/tasks", tasks);
  for (auto& t : to_run) {  // the task reads its `hetvp run` arguments from its point directory
    std::string a;
    for (auto& s : t.args) a += s + "\n";
    write_atomic(t.dir + "/command", a);
  }
  const SlurmOptions& so = spec.slurm;
  std::ostringstream sh;
  sh << "#!/bin/sh\n# hetvp sweep " << spec.file << ": one array task per unfinished point (" << to_run.size() << ")\n";
  sh << "#SBATCH --job-name=hetvp-sweep\n";
  sh << "#SBATCH --array=0-" << to_run.size() - 1 << (so.max_parallel > 0 ? "%" + std::to_string(so.max_parallel) : "")
     << "\n";
  sh << "#SBATCH --output=" << sdir << "/task-%a.out\n";
  sh << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" << so.cpus_per_task << "\n";
  if (!so.partition.empty()) sh << "#SBATCH --partition=" << so.partition << "\n";
  if (!so.time.empty()) sh << "#SBATCH --time=" << so.time << "\n";
  if (!so.mem.empty()) sh << "#SBATCH --mem=" << so.mem << "\n";
  if (!so.account.empty()) sh << "#SBATCH --account=" << so.account << "\n";
  for (auto& l : so.sbatch) sh << "#SBATCH " << l << "\n";
  for (auto& l : so.setup) sh << l << "\n";
  sh << "exec " << shell_quote(self_exe()) << " sweep task " << shell_quote(sdir + "/tasks")
     << " \"$SLURM_ARRAY_TASK_ID\"" << (timeout_s > 0 ? " --timeout " + format("%.3fs", timeout_s) : "") << "\n";
  const std::string script = sdir + "/sweep.sbatch";
  write_atomic(script, sh.str());
  std::string o;
  int rc = capture({"sbatch", "--parsable", script}, o);
  if (rc != 0) {
    std::cerr << "sweep: sbatch " << script << " failed (exit " << rc << "); is Slurm installed and SLURM_CONF set?\n";
    return false;
  }
  const std::string job = o.substr(0, o.find_first_of(";\n"));
  write_atomic(sdir + "/job", job + "\n");
  std::cerr << "sweep: submitted job array " << job << " (" << to_run.size() << " tasks, " << script << ")\n";
  if (!fl.wait) return true;
  const auto t0 = Clock::now();
  std::string last;
  for (;;) {
    if (g_stop) {
      std::cerr << "sweep: interrupted; job " << job << " keeps running (scancel " << job << " to stop it)\n";
      return false;
    }
    rc = capture({"squeue", "-h", "-j", job, "-o", "%T"}, o);
    std::map<std::string, int> states;
    std::istringstream ls(o);
    for (std::string l; std::getline(ls, l);)
      if (!l.empty()) ++states[l];
    if (rc == 0 && states.empty()) break;  // the job has left the queue
    std::string shown;
    for (auto& [s, n] : states) shown += (shown.empty() ? "" : ", ") + std::to_string(n) + " " + s;
    size_t done = 0;
    for (auto& t : to_run) done += exists(t.dir + "/status");
    shown = std::to_string(done) + "/" + std::to_string(to_run.size()) +
            " points done; queue: " + (rc == 0 ? shown : "squeue failed");
    if (shown != last) std::cerr << "sweep: job " << job << ": " << shown << "\n";
    last = shown;
    double el = std::chrono::duration<double>(Clock::now() - t0).count();
    if (fl.wait_timeout_s > 0 && el > fl.wait_timeout_s) {
      std::cerr << "sweep: gave up waiting for job " << job << " after " << fmt_duration(el) << "\n";
      return false;
    }
    usleep(useconds_t(fl.poll_s * 1e6));
  }
  // A task that ended without writing its status (killed by Slurm: time limit, node failure).
  for (size_t k = 0; k < to_run.size(); ++k)
    if (!exists(to_run[k].dir + "/status"))
      write_atomic(to_run[k].dir + "/status",
                   "state: failed\nexit_code: -1\nreason: the Slurm task ended without a result (see " + sdir +
                       "/task-" + std::to_string(k) + ".out)\nwall_s: 0\n");
  return true;
}

// `hetvp sweep task TASKS K [--timeout T]`: array task K runs the K-th point of TASKS.
int task_command(const std::vector<std::string>& args) {
  auto app = cli::make_parser("usage: hetvp sweep task TASKS-FILE INDEX [--timeout TIME]",
                              "  runs the INDEX-th point of TASKS-FILE (one Slurm array task; the array script calls it)\n");
  std::string tasks, index, timeout_text;
  app->add_option("TASKS-FILE", tasks, "the list of point folders")->type_name("");
  app->add_option("INDEX", index, "which of them")->type_name("");
  app->add_option("--timeout", timeout_text, "wall-clock limit of the point")->type_name("TIME");
  if (int parsed = cli::parse_args(*app, std::vector<std::string>(args.begin() + 1, args.end())); parsed >= 0)
    return parsed;
  if (index.empty()) return cli::usage_error("task needs TASKS-FILE and INDEX", app->help());
  double timeout_s = 0;
  try {
    if (!timeout_text.empty()) timeout_s = parse_time(timeout_text).to_seconds();
  } catch (const std::exception& e) {
    return cli::usage_error("--timeout needs a time such as '600 s': " + std::string(e.what()), app->help());
  }
  std::ifstream f(tasks);
  std::vector<std::string> dirs;
  for (std::string l; std::getline(f, l);)
    if (!l.empty()) dirs.push_back(l);
  size_t k = 0;
  try {
    k = std::stoul(index);
  } catch (const std::exception&) {
    k = dirs.size();
  }
  if (k >= dirs.size()) {
    std::cerr << "sweep task: index " << index << " is not in " << tasks << " (" << dirs.size() << " tasks)\n";
    return kExitUsage;
  }
  if (exists(dirs[k] + "/status")) return 0;  // finished meanwhile
  std::vector<std::string> run;
  std::ifstream c(dirs[k] + "/command");
  for (std::string l; std::getline(c, l);) run.push_back(l);
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, nullptr);
  return run_local({{dirs[k], run}}, 1, timeout_s, 0, 1, false) ? 0 : 130;
}

}  // namespace

int command(const std::vector<std::string>& args) {
  if (args.size() >= 2 && args[1] == "plot") return plot_command(args);
  if (args.size() >= 2 && args[1] == "task") return task_command(args);
  std::string spec_file, out, backend = "local";
  int jobs = int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  bool dry = false, retry = false, merge_only = false, no_wait = false;
  double timeout_s = -1;
  SlurmFlags fl;
  std::string partition, time, max_parallel, timeout_text, wait_timeout_text;
  auto app = cli::make_parser(kUsage, kAbout);
  app->add_option("SPEC", spec_file, "the sweep file (docs/sweeps.md)")->type_name("");
  app->add_option("-o,--out", out, "where points and results.csv go (required)")->type_name("DIR");
  app->add_option("--backend", backend, "local: processes on this machine (default); slurm: one sbatch job array")
      ->type_name("local|slurm")
      ->check([](const std::string& b) {
        return b == "local" || b == "slurm" ? std::string() : "--backend is local or slurm, not '" + b + "'";
      });
  app->add_option("-j,--jobs", jobs, "local: points run at once (default: the number of CPUs)")
      ->type_name("N")
      ->check(CLI::Range(1, 4096));
  app->add_option("--timeout", timeout_text, "wall-clock limit of one point, e.g. '600 s' (overrides the file's)")
      ->type_name("TIME");
  app->add_flag("--retry-failed", retry, "run failed, crashed and timed-out points again");
  app->add_flag("--dry-run", dry, "validate every point and list them (done or pending); run nothing");
  app->add_flag("--no-wait", no_wait, "slurm: submit and return; `hetvp sweep SPEC --out DIR --merge-only` merges later");
  app->add_flag("--merge-only", merge_only, "run nothing, merge what is finished into results.csv");
  app->add_option("--poll", fl.poll_s, "slurm: how often squeue is asked, in seconds (default 2)")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  app->add_option("--wait-timeout", wait_timeout_text, "slurm: give up waiting after TIME (default: none)")
      ->type_name("TIME");
  app->add_option("--partition", partition, "override the file's slurm.partition")->type_name("P");
  app->add_option("--time", time, "override the file's slurm.time")->type_name("T");
  app->add_option("--max-parallel", max_parallel, "override the file's slurm.max_parallel")->type_name("M");
  if (int parsed = cli::parse_args(*app, args); parsed >= 0) return parsed;
  if (no_wait) fl.wait = false;
  try {
    if (!timeout_text.empty()) timeout_s = parse_time(timeout_text).to_seconds();
  } catch (const std::exception& e) {
    return cli::usage_error("--timeout needs a time such as '600 s': " + std::string(e.what()), app->help());
  }
  try {
    if (!wait_timeout_text.empty()) fl.wait_timeout_s = parse_time(wait_timeout_text).to_seconds();
  } catch (const std::exception& e) {
    return cli::usage_error("--wait-timeout needs a time such as '3600 s': " + std::string(e.what()), app->help());
  }
  if (spec_file.empty()) return cli::usage_error("no sweep file given", app->help());
  if (out.empty()) return cli::usage_error("--out DIR is required", app->help());
  Spec spec;
  std::vector<Point> points;
  try {
    spec = load_spec(spec_file);
    if (!partition.empty()) spec.slurm.partition = partition;
    if (!time.empty()) spec.slurm.time = time;
    if (!max_parallel.empty()) {
      try {
        spec.slurm.max_parallel = std::stoi(max_parallel);
      } catch (const std::exception&) {
        throw ConfigError("--max-parallel needs a number, not '" + max_parallel + "'");
      }
    }
    if (timeout_s >= 0) spec.timeout_s = timeout_s;
    points = expand(spec);
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (!dry && !make_dirs(out + "/points")) {
    std::cerr << "error: cannot create " << out << "/points: " << strerror(errno) << "\n";
    return kExitUsage;
  }
  out = abs_path(out);
  // Unique points (two grid cells may resolve to the same configuration), in grid order.
  std::vector<PointRun> to_run;
  std::set<std::string> seen;
  size_t done = 0, unique = 0;
  for (auto& p : points) {
    if (!seen.insert(p.hash).second) continue;
    ++unique;
    const std::string dir = out + "/points/" + p.hash;
    Status st = read_status(dir);
    if (!st.state.empty() && (st.state == "ok" || !retry)) {
      ++done;
      continue;
    }
    to_run.push_back({dir, run_args(spec, p, dir)});
    if (dry) continue;
    make_dirs(dir);
    std::ostringstream pt;  // what the point is, for people reading the tree
    pt << "# hetvp sweep " << spec.file << ", point " << p.index << "\nbase: " << spec.base << "\n";
    if (!p.workload.empty()) pt << "workload: " << p.workload << "\n";
    pt << "set:\n";
    for (auto& s : p.sets) pt << "  - " << csv_cell(s) << "\n";
    write_atomic(dir + "/point.yaml", pt.str());
  }
  if (dry) {
    std::cout << "sweep " << spec.file << ": " << points.size() << " points (" << unique << " distinct), " << done
              << " finished, " << to_run.size() << " to run; every point's configuration is valid\n";
    std::set<std::string> pending;
    for (auto& t : to_run) pending.insert(t.dir.substr(t.dir.rfind('/') + 1));
    for (auto& p : points) {
      std::cout << "  " << p.index << " " << p.hash << " " << (pending.count(p.hash) ? "pending " : "finished");
      for (auto& av : p.axis_values) std::cout << " " << av.first << "=" << av.second;
      std::cout << "\n";
    }
    return 0;
  }
  bool completed = true;
  if (!merge_only && !to_run.empty()) {
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, nullptr);
    if (backend == "local") {
      std::cerr << "sweep: " << points.size() << " points, " << done << " already finished, running " << to_run.size()
                << " with -j " << jobs << "\n";
      completed = run_local(to_run, jobs, spec.timeout_s, done, unique, true);
    } else {
      completed = run_slurm(spec, to_run, out, spec.timeout_s, fl);
      if (!fl.wait && completed) return 0;
    }
  }
  const size_t unfinished = merge(spec, points, out);
  size_t failed = 0;
  std::set<std::string> shown;
  for (auto& p : points) {
    if (!shown.insert(p.hash).second) continue;
    Status st = read_status(out + "/points/" + p.hash);
    if (st.state.empty() || st.state == "ok") continue;
    if (++failed <= 10) {
      std::string vals;
      for (auto& av : p.axis_values) vals += (vals.empty() ? "" : " ") + av.first + "=" + av.second;
      std::cerr << "sweep: point " << p.index << " (" << vals << ") " << st.state << ": " << st.reason << " [" << out
                << "/points/" << p.hash << "]\n";
    }
  }
  std::cerr << "sweep: " << unique - unfinished << "/" << unique << " points finished, " << failed
            << " failed; merged into " << out << "/results.csv\n";
  if (g_stop) return 130;
  if (!completed) return backend == "slurm" ? kExitSimFailure : 130;
  return failed || unfinished ? kExitSimFailure : kExitOk;
}

}  // namespace hetvp::sweep

HETVP_REGISTER_COMMAND("sweep", 100,
                       "  sweep SPEC     run a grid of configurations (local processes or a Slurm job array), merge, "
                       "plot\n",
                       [](std::vector<std::string> args) { return hetvp::sweep::command(args); });
