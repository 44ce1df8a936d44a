// Collects the SystemC warnings reported while a Warnings object lives (their messages, in order),
// so a test can check the exact text of the error a bad input gets.
#pragma once

#include <string>
#include <vector>

#include <systemc>

namespace hetvp::test {

class Warnings {
 public:
  Warnings() {
    seen().clear();
    sc_core::sc_report_handler::set_handler(&Warnings::keep);
  }
  ~Warnings() { sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler); }
  Warnings(const Warnings&) = delete;
  Warnings& operator=(const Warnings&) = delete;

  const std::vector<std::string>& messages() const { return seen(); }

 private:
  static std::vector<std::string>& seen() {
    static std::vector<std::string> s;
    return s;
  }
  static void keep(const sc_core::sc_report& r, const sc_core::sc_actions&) {
    if (r.get_severity() == sc_core::SC_WARNING) seen().push_back(r.get_msg());
  }
};

}  // namespace hetvp::test
