#include "platform/run_context.h"

#include <stdexcept>
#include <string>

namespace hetvp {

void RunMember::no_run() const {
  const auto* o = dynamic_cast<const sc_core::sc_object*>(this);
  throw std::logic_error(std::string("hetvp: ") + (o ? o->name() : "a model") +
                         " is not part of a run (it was built outside the builder and join_run was not called)");
}

void join_run(sc_core::sc_object& top, RunContext& run) {
  if (auto* m = dynamic_cast<RunMember*>(&top)) m->run_ = &run;
  for (sc_core::sc_object* child : top.get_child_objects()) join_run(*child, run);
}

}  // namespace hetvp
