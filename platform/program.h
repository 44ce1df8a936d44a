// Host programs (drivers, workloads) run on a host CPU model and see the system only through
// the HostApi (models/host/host_api.h). They register by name, with a schema for their
// arguments, so YAML's `workload: {name: transfer, args: {...}}` can pick and validate them.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "platform/param_set.h"
#include "platform/params.h"
#include "platform/registry.h"

namespace hetvp {

class HostApi;

class HostProgram {
 public:
  virtual ~HostProgram() = default;
  // Runs to completion; 0 = success, anything else = the workload failed (exit status 1).
  virtual int run(HostApi& api, const Params& args) = 0;
};

// The arguments of a program that takes none.
struct NoArgs : ParamSet {};

// A host program whose arguments are the ParamSet ARGS (platform/param_set.h): it implements
// run(HostApi&, const ARGS&); the registration takes the schema and the cross-field rules
// (ARGS::validate) from ARGS.
// The loaded arguments belong to the program object, not to run()'s frame: a run that ends while
// the program is inside run() never unwinds that frame (LeakSanitizer, docs/reliability.md).
template <class ARGS = NoArgs>
class ProgramWithArgs : public HostProgram {
 public:
  using Args = ARGS;
  int run(HostApi& api, const Params& args) final {
    args_ = std::make_unique<ARGS>(load<ARGS>(args));
    return run(api, *args_);
  }
  virtual int run(HostApi& api, const ARGS& args) = 0;

 private:
  std::unique_ptr<ARGS> args_;
};

// Implemented by a model that can run a host program (the host CPU). The simulation hands it
// the workload named in YAML before the simulation starts.
class ProgramHost {
 public:
  virtual ~ProgramHost() = default;
  virtual void load_program(const std::string& name, const Params& args, uint64_t seed) = 0;
  virtual const class ResultTable& result_table() const = 0;
};

struct ProgramType {
  static constexpr const char* kKind = "program";
  std::string name;
  std::string doc;
  std::function<std::shared_ptr<Schema>()> schema;
  std::function<std::unique_ptr<HostProgram>()> create;
  // Optional: checks of the arguments the schema cannot express, run with the configuration's
  // validation (before the simulation), each reported into the Diagnostics at its where().
  // Registered from the program's Args (ParamSet::validate).
  std::function<void(const Params&, Diagnostics&)> validate;
  // A program that exists for the test suite (a deliberate protocol misuse, a register check):
  // `hetvp list` names it apart from the experiments.
  bool test_only = false;
};

using ProgramRegistry = Registry<ProgramType>;

namespace detail {
template <class T>
std::function<void(const Params&, Diagnostics&)> program_validator() {
  return [](const Params& p, Diagnostics& d) { d.collect([&] { load<typename T::Args>(p).validate(d); }); };
}
}  // namespace detail

}  // namespace hetvp

// CLASS derives from ProgramWithArgs<Args> (its arguments, declared once).
#define HETVP_REGISTER_PROGRAM(NAME, CLASS, DOC)                                               \
  HETVP_REGISTER_ENTRY(                                                                        \
      ::hetvp::ProgramType, NAME, DOC, [] { return typename CLASS::Args{}.schema(); },        \
      [] { return std::unique_ptr<::hetvp::HostProgram>(new CLASS()); }, ::hetvp::detail::program_validator<CLASS>())

// The same, for a program that exists for the tests (ProgramType::test_only).
#define HETVP_REGISTER_TEST_PROGRAM(NAME, CLASS, DOC)                                          \
  HETVP_REGISTER_ENTRY(                                                                        \
      ::hetvp::ProgramType, NAME, DOC, [] { return typename CLASS::Args{}.schema(); },        \
      [] { return std::unique_ptr<::hetvp::HostProgram>(new CLASS()); },                      \
      ::hetvp::detail::program_validator<CLASS>(), true)
