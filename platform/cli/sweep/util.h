// hetvp sweep — helpers shared by the runner (runner.cpp) and the plotter (plot.cpp).
#pragma once

#include <string>
#include <vector>

namespace hetvp::sweep::util {

// Writes `text` to `p` through a temporary file and a rename (a reader never sees half of it).
void write_atomic(const std::string& p, const std::string& text);
// `s` quoted for a POSIX shell.
std::string shell_quote(const std::string& s);
// Runs a command, returns its exit status and stdout.
int capture(const std::vector<std::string>& argv, std::string& out);
// One CSV line into its cells ("" quoting).
std::vector<std::string> split_csv_line(const std::string& l);

}  // namespace hetvp::sweep::util
