// hetvp sweep plot — draws a sweep's results.csv with gnuplot (docs/sweeps.md).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
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

// A cell as a number: plain, or a size ("4 KiB", bytes), a frequency ("1.4 GHz", Hz) or a time
// ("250 ns", seconds), the way sweep values are written.
bool number(const std::string& t, double& v) {
  for (int k = 0; k < 4; ++k) try {
      v = k == 0   ? parse_double(t)
          : k == 1 ? double(parse_size(t))
          : k == 2 ? parse_freq(t)
                   : parse_time(t).to_seconds();
      return true;
    } catch (const std::exception&) {
    }
  return false;
}

}  // namespace

int plot_command(const std::vector<std::string>& args) {
  auto app = cli::make_parser(
      "usage: hetvp sweep plot DIR --x COLUMN --y COLUMN [--series COLUMN] [--where COLUMN=VALUE]...\n"
      "                       [--output FILE.png] [--logx] [--logy]",
      "  draws DIR/results.csv with gnuplot: one line per value of --series; rows whose other columns\n"
      "  differ must be told apart with --where (default output DIR/plot.png)\n");
  std::string dir, x, y, series, output;
  std::vector<std::string> where_text;
  bool logx = false, logy = false;
  app->add_option("DIR", dir, "the sweep's output folder (holding results.csv)")->type_name("");
  app->add_option("--x", x, "the column on the x axis")->type_name("COLUMN");
  app->add_option("--y", y, "the column on the y axis")->type_name("COLUMN");
  app->add_option("--series", series, "one line per value of this column")->type_name("COLUMN");
  app->add_option("--where", where_text, "keep only the rows with this value (repeatable)")
      ->type_name("COLUMN=VALUE")
      ->allow_extra_args(false)
      ->check([](const std::string& w) {
        return w.find('=') == std::string::npos ? std::string("--where needs COLUMN=VALUE") : std::string();
      });
  app->add_option("--output", output, "the picture (default DIR/plot.png)")->type_name("FILE.png");
  app->add_flag("--logx", logx, "logarithmic x axis");
  app->add_flag("--logy", logy, "logarithmic y axis");
  std::vector<std::string> rest(args.begin() + 1, args.end());  // "plot" stands for the command's name
  if (int parsed = cli::parse_args(*app, rest); parsed >= 0) return parsed;
  std::vector<std::pair<std::string, std::string>> where;
  for (const std::string& w : where_text) where.emplace_back(w.substr(0, w.find('=')), w.substr(w.find('=') + 1));
  if (dir.empty() || x.empty() || y.empty()) return cli::usage_error("plot needs DIR, --x and --y", app->help());
  const std::string csv = dir + "/results.csv";
  std::ifstream f(csv);
  std::string line;
  if (!f || !std::getline(f, line)) {
    std::cerr << "error: " << csv << ": cannot read (run the sweep first)\n";
    return kExitUsage;
  }
  const auto cols = split_csv_line(line);
  auto col = [&](const std::string& name) -> int {
    auto it = std::find(cols.begin(), cols.end(), name);
    if (it != cols.end()) return int(it - cols.begin());
    std::string near = nearest_name(name, cols), all;
    for (auto& c : cols) all += (all.empty() ? "" : ", ") + c;
    throw ConfigError(csv + ":1: no column '" + name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                      "; columns: " + all);
  };
  std::map<std::string, std::vector<std::pair<double, double>>> lines;
  std::vector<std::string> order;
  try {
    int xi = col(x), yi = col(y), si = series.empty() ? -1 : col(series);
    std::vector<std::pair<int, std::string>> w;
    for (auto& [c, v] : where) w.emplace_back(col(c), v);
    for (int ln = 2; std::getline(f, line); ++ln) {
      auto cells = split_csv_line(line);
      if (int(cells.size()) != int(cols.size())) continue;
      bool keep = true;
      for (auto& [c, v] : w) keep = keep && cells[size_t(c)] == v;
      if (!keep || cells[size_t(xi)].empty() || cells[size_t(yi)].empty()) continue;
      double xv = 0, yv = 0;
      if (!number(cells[size_t(xi)], xv))
        throw ConfigError(csv + ":" + std::to_string(ln) + ": " + x + " = '" + cells[size_t(xi)] + "' is not a number");
      if (!number(cells[size_t(yi)], yv))
        throw ConfigError(csv + ":" + std::to_string(ln) + ": " + y + " = '" + cells[size_t(yi)] + "' is not a number");
      const std::string s = si < 0 ? y : series + "=" + cells[size_t(si)];
      if (!lines.count(s)) order.push_back(s);
      lines[s].emplace_back(xv, yv);
    }
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (lines.empty()) {
    std::cerr << "error: " << csv << ": no row has numbers in both " << x << " and " << y << "\n";
    return kExitUsage;
  }
  for (auto& [s, pts] : lines) {
    std::sort(pts.begin(), pts.end());
    for (size_t i = 1; i < pts.size(); ++i)
      if (pts[i].first == pts[i - 1].first) {
        std::cerr << "warning: several rows of line '" << s << "' share " << x << " = " << pts[i].first
                  << ": another column varies too (add --series or --where)\n";
        break;
      }
  }
  if (output.empty()) output = dir + "/plot.png";
  const std::string dat = dir + "/plot.dat", gp = dir + "/plot.gp";
  std::ostringstream d, g;
  g << "set terminal pngcairo size 900,600 noenhanced\nset output " << shell_quote(output) << "\n";
  g << "set xlabel " << shell_quote(x) << "\nset ylabel " << shell_quote(y) << "\nset key outside right\nset grid\n";
  if (logx) g << "set logscale x\n";
  if (logy) g << "set logscale y\n";
  g << "plot ";
  for (size_t i = 0; i < order.size(); ++i) {
    for (auto& [xv, yv] : lines[order[i]]) d << format("%.17g %.17g\n", xv, yv);
    d << "\n\n";
    g << (i ? ", " : "") << shell_quote(dat) << " index " << i << " with linespoints title " << shell_quote(order[i]);
  }
  g << "\n";
  write_atomic(dat, d.str());
  write_atomic(gp, g.str());
  std::string o;
  int rc = capture({"gnuplot", gp}, o);
  if (rc != 0) {
    std::cerr << "error: gnuplot " << gp << " failed (exit " << rc << "; is gnuplot installed?)\n";
    return kExitSimFailure;
  }
  std::cout << "wrote " << output << " (" << order.size() << " line" << (order.size() == 1 ? "" : "s") << ")\n";
  return 0;
}

}  // namespace hetvp::sweep
