// A minimal TLM test bench: an initiator whose SC_THREAD runs a test body, with helpers for
// timed reads/writes. Each gtest that simulates runs in its own process under ctest.
#pragma once

#include <cstring>
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "platform/access_info.h"
#include "platform/payload.h"
#include "platform/param_set.h"
#include "platform/params.h"

namespace hetvp::test {

struct TestInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TestInitiator> socket{"socket"};
  std::function<void(TestInitiator&)> body;
  AccessInfo* info = new AccessInfo;

  TestInitiator(sc_core::sc_module_name n, std::function<void(TestInitiator&)> b)
      : sc_core::sc_module(n), body(std::move(b)) {
    info->initiator = "test";
    SC_HAS_PROCESS(TestInitiator);
    SC_THREAD(run);
  }
  ~TestInitiator() override { delete info; }
  void run() { body(*this); }

  // One timed access at local offset `delay`; returns the response status, updates delay.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len,
                                  sc_core::sc_time& delay) {
    tlm::tlm_generic_payload gp;
    set_access(gp, cmd, addr, data, len);
    gp.set_extension(info);
    socket->b_transport(gp, delay);
    gp.clear_extension(info);
    return gp.get_response_status();
  }
  tlm::tlm_response_status write32(uint64_t addr, uint32_t v, sc_core::sc_time& d) {
    return access(tlm::TLM_WRITE_COMMAND, addr, &v, 4, d);
  }
  tlm::tlm_response_status read32(uint64_t addr, uint32_t& v, sc_core::sc_time& d) {
    return access(tlm::TLM_READ_COMMAND, addr, &v, 4, d);
  }
};

// Params for a component from a YAML snippet, validated against its schema.
inline Params params_from(const std::string& yaml, std::shared_ptr<const Schema> schema,
                          const std::string& path = "test") {
  return Params(YAML::Load(yaml), std::move(schema), path);
}

// A model's parameter set (platform/param_set.h) from a YAML snippet.
template <class Config>
Config config_from(const std::string& yaml, const std::string& path = "test") {
  return load<Config>(params_from(yaml, Config{}.schema(), path));
}

}  // namespace hetvp::test
