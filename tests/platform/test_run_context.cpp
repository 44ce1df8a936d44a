// The run passed explicitly (platform/run_context.h): join_run gives a run to a module and every
// RunMember below it; two runs stay apart; a model never given a run fails with a clear error
// instead of reporting to a process-wide one.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "platform/component.h"
#include "platform/run_context.h"

using namespace hetvp;

namespace {

// A block inside a component that reports to the run (like a GPU block).
struct Block : sc_core::sc_module, RunMember {
  explicit Block(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};
// A plain module between the component and the block.
struct Group : sc_core::sc_module {
  Block block{"block"};
  explicit Group(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};
struct Top : Component {
  Group group{"group"};
  explicit Top(sc_core::sc_module_name n) : Component(n) {}
};

// A run-wide service: one per run, made from the run.
struct Counter {
  explicit Counter(RunContext& r) : run(&r) {}
  RunContext* run;
  int n = 0;
};

}  // namespace

TEST(RunContext, AModelOutsideARunIsAClearError) {
  Top top("top");
  EXPECT_FALSE(top.in_run());
  try {
    top.group.block.run_state().progress();
    FAIL() << "no run: must throw";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "hetvp: top.group.block is not part of a run (it was built outside the builder and join_run was not "
              "called)");
  }
  EXPECT_THROW(top.tracer(), std::logic_error);
}

TEST(RunContext, JoinReachesEveryMemberBelowAndTwoRunsStayApart) {
  Top a("a"), b("b");
  RunContext run_a, run_b;
  join_run(a, run_a);
  join_run(b, run_b);
  EXPECT_EQ(&a.group.block.run_context(), &run_a) << "through a plain module in between";
  EXPECT_EQ(&b.run_context(), &run_b);
  a.group.block.run_state().add_summary("from a");
  a.run_state().progress();
  EXPECT_EQ(run_a.run_state.summary(), std::vector<std::string>{"from a"});
  EXPECT_EQ(run_a.run_state.progress_count(), 1u);
  EXPECT_TRUE(run_b.run_state.summary().empty());
  EXPECT_EQ(run_b.run_state.progress_count(), 0u);
}

TEST(RunContext, AServiceIsOnePerRun) {
  RunContext r1, r2;
  Counter& c1 = r1.service<Counter>();
  ++c1.n;
  EXPECT_EQ(&r1.service<Counter>(), &c1);
  EXPECT_EQ(r1.service<Counter>().n, 1);
  EXPECT_EQ(r2.service<Counter>().n, 0) << "another run has its own";
  EXPECT_EQ(c1.run, &r1);
}
