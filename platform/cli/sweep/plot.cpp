// hetvp sweep plot — draws a sweep's results.csv with gnuplot (docs/sweeps.md).
#include <algorithm>
#include <cmath>
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

// A column name as an axis label with its unit: hetvp's result tables end a column's name with
// its unit ("size_bytes", "bandwidth_MBps", "time_us"); other names are shown as they are.
std::string axis_label(const std::string& column) {
  static const std::pair<const char*, const char*> kUnits[] = {
      {"_bytes", "B"},  {"_B", "B"},       {"_MBps", "MB/s"}, {"_GBps", "GB/s"}, {"_MiBps", "MiB/s"},
      {"_us", "µs"},    {"_ns", "ns"},     {"_ms", "ms"},     {"_s", "s"},       {"_ps", "ps"},
      {"_Hz", "Hz"},    {"_MHz", "MHz"},   {"_GHz", "GHz"},   {"_cycles", "cycles"}, {"_GFLOPs", "GFLOP/s"}};
  for (const auto& [suffix, unit] : kUnits) {
    const std::string sf = suffix;
    if (column.size() > sf.size() && column.compare(column.size() - sf.size(), sf.size(), sf) == 0) {
      std::string name = column.substr(0, column.size() - sf.size());
      std::replace(name.begin(), name.end(), '_', ' ');
      return name + " (" + unit + ")";
    }
  }
  return column;
}

bool x_is_bytes(const std::string& column) { return axis_label(column).find(" (B)") != std::string::npos; }

// Tics at powers of two labelled in binary units (4 KiB, 1 MiB: not "4 kB", which is 4000 bytes).
std::string binary_size_tics(const std::map<std::string, std::vector<std::pair<double, double>>>& lines) {
  double lo = 0, hi = 0;
  for (const auto& [s, pts] : lines)
    for (const auto& [xv, yv] : pts)
      if (xv > 0) {
        lo = lo == 0 ? xv : std::min(lo, xv);
        hi = std::max(hi, xv);
      }
  if (lo <= 0) return "";
  int e0 = 0, e1 = 0;
  while (std::ldexp(1.0, e0) < lo) ++e0;
  while (std::ldexp(1.0, e1) < hi) ++e1;
  const int step = (e1 - e0) > 12 ? 4 : (e1 - e0) > 6 ? 2 : 1;
  std::string tics = "set xtics (";
  for (int e = e0; e <= e1; e += step) {
    static const char* kUnit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    const int u = std::min(e / 10, 4);
    tics += (e == e0 ? "" : ", ") + format("\"%g %s\" %.17g", std::ldexp(1.0, e - 10 * u), kUnit[u], std::ldexp(1.0, e));
  }
  return tics + ")\n";
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
  g << "set terminal pngcairo size 900,600 font 'sans,11' noenhanced\nset output " << shell_quote(output) << "\n";
  g << "set title " << shell_quote(axis_label(y) + " against " + axis_label(x) + " (hetvp sweep " + dir + ")") << "\n";
  g << "set xlabel " << shell_quote(axis_label(x)) << "\nset ylabel " << shell_quote(axis_label(y)) << "\n";
  // The legend inside the frame, on a white box over the grid; Okabe & Ito's colour-blind-safe
  // palette (no yellow: too faint on white), solid lines, distinct point shapes.
  g << "set key inside top left box opaque Left reverse width 1\nset grid\n";
  static const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
  for (int k = 0; k < 7; ++k)
    g << "set linetype " << k + 1 << " linecolor rgb '" << kPalette[k] << "' linewidth 2 pointtype " << k + 4 << "\n";
  g << "set linetype cycle 7\n";
  if (logx) g << (x_is_bytes(x) ? "set logscale x 2\n" : "set logscale x\n");
  if (logx && x_is_bytes(x)) g << binary_size_tics(lines);
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
