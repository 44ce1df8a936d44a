// `hetvp stats-doc`: the declared statistics of every component type, as docs/stats.md's tables.
#pragma once

#include <ostream>
#include <string>

namespace hetvp {

class Builder;

// Markdown tables (path, kind, unit, description) of one instance of each type in a built platform.
std::string stats_markdown(const Builder& b);
// Loads and builds `config` (without simulating) and prints stats_markdown; returns 0, or 2 on a config error.
int stats_doc_platform(const std::string& config, std::ostream& out, std::ostream& err);

}  // namespace hetvp
