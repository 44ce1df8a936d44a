// A table of results a workload produces (written as CSV with --csv, summarised in stats).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace hetvp {

class ResultTable {
 public:
  void set_columns(std::vector<std::string> cols) { columns_ = std::move(cols); }
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  bool empty() const { return rows_.empty(); }
  void write_csv(std::ostream& out) const {
    auto line = [&](const std::vector<std::string>& r) {
      for (size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << r[i];
      out << "\n";
    };
    line(columns_);
    for (auto& r : rows_) line(r);
  }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace hetvp
