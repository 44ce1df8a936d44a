// The run a model belongs to, passed explicitly: its outcome (RunState), its timeline (Tracer)
// and the run-wide services models share (e.g. the coherence checker's shadow memory).
//
// The builder gives each component it builds, and every module below it, the run's context
// (join_run) before the platform is connected; a model reaches it through run_state(), tracer()
// and run_context() of its RunMember base (Component is one). Nothing in the process is current: two
// platforms built one after the other (the Python module) each have their own context, and a
// model that was never given one fails with a clear error instead of reporting to a stray run.
#pragma once

#include <map>
#include <memory>
#include <typeindex>

#include "platform/debug.h"
#include "platform/format.h"
#include "platform/run_state.h"
#include "platform/trace.h"

namespace hetvp {

struct RunContext {
  RunContext() = default;
  RunContext(const RunContext&) = delete;
  RunContext& operator=(const RunContext&) = delete;

  RunState run_state;
  Tracer tracer;
  DebugLog debug;  // --debug-flags, X.log=debug (platform/debug.h)

  // The run's one object of type T, made on first use as T(*this): state shared by several
  // models of one run that lives no longer than the run.
  template <class T>
  T& service() {
    std::shared_ptr<void>& s = services_[std::type_index(typeid(T))];
    if (!s) s = std::make_shared<T>(*this);
    return *static_cast<T*>(s.get());
  }

 private:
  std::map<std::type_index, std::shared_ptr<void>> services_;
};

// A module that reports to its run. Component derives from it; a block inside a component
// (a GPU block, an RTL core) derives from it too when it needs the run.
class RunMember {
 public:
  virtual ~RunMember() = default;
  RunContext& run_context() const {
    if (!run_) no_run();
    return *run_;
  }
  RunState& run_state() const { return run_context().run_state; }
  Tracer& tracer() const { return run_context().tracer; }
  bool in_run() const { return run_ != nullptr; }
  // Debug categories (platform/debug.h): whether this module prints `f`'s messages; one load and
  // one branch while no category is on anywhere. Use HETVP_DEBUG(Flag, fmt, ...).
  bool debug_on(DebugFlag f) const { return run_ && run_->debug.any() && run_->debug.on(f, debug_object()); }
  void debug_print(DebugFlag f, const std::string& text) const { run_->debug.print(f, debug_object(), text); }

 private:
  friend void join_run(sc_core::sc_object& top, RunContext& run);
  [[noreturn]] void no_run() const;  // throws std::logic_error naming the module
  const sc_core::sc_object* debug_object() const { return dynamic_cast<const sc_core::sc_object*>(this); }
  RunContext* run_ = nullptr;
};

// Gives `run` to `top` and to every module below it that is a RunMember. The builder does this for
// each component it builds; a test that builds models by hand does it before simulating them.
void join_run(sc_core::sc_object& top, RunContext& run);

}  // namespace hetvp

// A debug message of category `flag` (DebugFlag::flag) from a RunMember's member function: the
// printf-style arguments are formatted only when the category is on for this module.
#define HETVP_DEBUG(flag, ...)                                                                  \
  do {                                                                                          \
    if (this->debug_on(::hetvp::DebugFlag::flag))                                               \
      this->debug_print(::hetvp::DebugFlag::flag, ::hetvp::format(__VA_ARGS__));                \
  } while (0)

