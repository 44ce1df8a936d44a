// Diagnostics: the errors of one configuration, collected so that `hetvp check` reports all of
// them at once (each located "file:line:col: ..."), up to kMaxErrors, the rest counted.
//
// Whoever validates a configuration (Config::validate, a parameter set's validate(), a GPU
// block's checks) is handed the Diagnostics object explicitly; nothing collects through hidden
// state. collect() runs a check and turns a thrown ConfigError into entries, so that code that
// stops at its first error (a model constructor) and code that goes on (validate_node) share one
// list.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hetvp {

class Diagnostics {
 public:
  static constexpr size_t kMaxErrors = 20;

  // A located message ("file:line:col: what"); a message already reported is not repeated.
  void error(const std::string& located_message);
  // Runs `check`; a ConfigError it throws becomes this object's entries (every message of it).
  template <class F>
  void collect(F&& check) {
    try {
      check();
    } catch (const std::exception& e) {
      if (!add_config_error(e)) throw;
    }
  }
  // Errors so far, those not kept (beyond kMaxErrors) included.
  size_t count() const { return messages_.size() + dropped_; }
  bool empty() const { return count() == 0; }
  const std::vector<std::string>& messages() const { return messages_; }
  // Throws one ConfigError with every message (and a line counting those not kept, naming
  // `file`); does nothing when there are none.
  void throw_if_any(const std::string& file) const;

 private:
  bool add_config_error(const std::exception& e);  // false: not a ConfigError
  std::vector<std::string> messages_;
  size_t dropped_ = 0;
};

}  // namespace hetvp
