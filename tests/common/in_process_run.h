// A run of the platform inside the test's own process (run_platform, platform/simulation.h): for
// tests of a test-only host program registered in the test binary. Each gtest runs in its own
// process under ctest, so each such test is one SystemC elaboration.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/run_hetvp.h"
#include "platform/simulation.h"

namespace hetvp::test {

struct InProcessRun {
  int status = 0;
  std::string out, err, stats;                           // what it printed; its --stats JSON
  std::vector<std::map<std::string, std::string>> rows;  // its --csv rows by column name (with `csv`)
  std::string all() const { return out + err; }
};

// Runs `opt` with its --stats (and, with `csv`, its --csv) written to fresh files in the test's
// scratch directory, and reads them back.
inline InProcessRun run_in_process(RunOptions opt, bool csv = false) {
  static int n = 0;
  const std::string base = scratch() + "/in_process" + std::to_string(n++);
  opt.stats_path = base + ".json";
  if (csv) opt.csv_path = base + ".csv";
  std::ostringstream out, err;
  InProcessRun r;
  r.status = run_platform(opt, out, err);
  r.out = out.str();
  r.err = err.str();
  r.stats = read_file(opt.stats_path);
  if (!csv) return r;
  const auto table = read_csv(opt.csv_path);
  for (size_t i = 1; i < table.size(); ++i) {
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < table[0].size() && c < table[i].size(); ++c) row[table[0][c]] = table[i][c];
    r.rows.push_back(std::move(row));
  }
  return r;
}

// A CSV row's number in column `col`; -1 when the column is absent or empty.
inline double column_number(const std::map<std::string, std::string>& row, const std::string& col) {
  const auto it = row.find(col);
  return it == row.end() || it->second.empty() ? -1 : std::stod(it->second);
}

}  // namespace hetvp::test
