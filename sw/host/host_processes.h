// Several host processes on the one host CPU (issue #41: several applications at once).
//
// The host CPU model runs one program in one SystemC thread. HostProcesses lets that program run
// N process bodies as separate SystemC threads that share the CPU the way one core's scheduler
// shares it: exactly one process runs at a time, on the CPU's one timeline (its local time
// carries over from one process to the next: a hand-over is a delta cycle, SystemC time does not
// move), and every HostApi call a process makes goes to the CPU while it holds it.
//
// The scheduling model (HostSchedulerOptions), preemptive round robin:
//  - a process runs until it blocks or its time slice is used up. It blocks in a sleep outside the
//    kernel driver, or in one the driver marks as a wait for the GPU (GpuWait: a fence poll) unless
//    `gpu_wait` is `spin`; the CPU then goes to the next ready
//    process (round robin by process index), or, if none is ready, to the one whose sleep ends
//    first (the CPU is idle until then). Any other sleep in the driver (waiting for the
//    firmware's answer) keeps the CPU, as a short in-kernel delay does.
//  - `slice`: a process that has run that long (CPU time since it was dispatched) while another is
//    ready is preempted at its next HostApi call made outside the kernel driver (KernelSection:
//    driver code is not preempted, so the driver's shared state needs no lock). One call is never
//    split: a 16 MiB store is one call.
//  - every switch between two processes costs `switch_cost` of CPU time.
//  - an interrupt wait keeps the CPU (no interrupt-driven wake-up of another process).
// With one process nothing of this runs: its calls go straight to the CPU.
//
// A process body that throws a HostError ends that process; the others go on. run() returns each
// process's error ("" when it returned normally).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/host/host_api.h"
#include "platform/param_set.h"

namespace hetvp::sw {

// What a process waiting for the GPU does with the CPU (HostSchedulerOptions::gpu_wait).
HETVP_ENUM(GpuWaitPolicy, yield, spin);

struct HostSchedulerOptions : ParamSet {
  Time slice{this, "slice", "3 ms",
             "CPU time a process runs while another is ready before it is preempted (Linux CFS: "
             "sysctl_sched_latency 6 ms shared by two runnable tasks, kernel/sched/fair.c; a fixed slice here)"};
  Time switch_cost{this, "switch_cost", "2 us",
                   "CPU time of one switch between two processes (assumption: the order of a Linux context "
                   "switch's direct cost)"};
  Enum<GpuWaitPolicy> gpu_wait{
      this, "gpu_wait", GpuWaitPolicy::yield,
      "a process waiting for the GPU (a fence): `yield` gives the CPU to another process between polls (on the "
      "papers' four-core host each application had a core of its own while it waited); `spin` keeps it, as Gdev's "
      "gdev_poll spins in the kernel (yielding only after 100 ms)"};
};

class HostProcesses : public HostApi {
  // The scheduler's state lives apart from this object: a process thread still suspended when a
  // run is cut short is unwound after the program's frame (and this object) is gone, and its
  // KernelSection / GpuWait destructors then touch only this shared state.
  struct State;

 public:
  HostProcesses(HostApi& cpu, const HostSchedulerOptions& opt);
  ~HostProcesses() override;

  // Runs body(0) .. body(n-1) as processes, from the program's thread (which waits meanwhile);
  // returns when every one has ended: per process "" or the message of the HostError it ended with.
  // `at_exit(i)` runs in process i after its body ended (normally or not), still holding the CPU:
  // the kernel's release of what the process left open.
  std::vector<std::string> run(unsigned n, const std::function<void(unsigned)>& body,
                               const std::function<void(unsigned)>& at_exit);
  // The running process (0 .. n-1), or -1 outside run().
  int current() const;
  // The calling process waits until every process still running has called barrier() as often
  // (the CPU goes to the others meanwhile). No-op outside run().
  void barrier();

  // Kernel driver code: not preempted; a sleep inside keeps the CPU unless within a GpuWait.
  // Both nest; a null HostProcesses makes them no-ops.
  class KernelSection {
   public:
    // `depth`: the caller's own nesting count, used when there are no processes.
    KernelSection(HostProcesses* p, int& depth);
    ~KernelSection();
    KernelSection(const KernelSection&) = delete;
    KernelSection& operator=(const KernelSection&) = delete;
    // The outermost section of the running process: a call into the driver (an ioctl), not a
    // call the driver makes to itself.
    bool outermost() const { return outermost_; }

   private:
    std::shared_ptr<State> s_;
    int* depth_;
    bool outermost_ = true;
  };
  class GpuWait {
   public:
    explicit GpuWait(HostProcesses* p);
    ~GpuWait();
    GpuWait(const GpuWait&) = delete;
    GpuWait& operator=(const GpuWait&) = delete;

   private:
    std::shared_ptr<State> s_;
    int proc_ = -1;
  };

  uint64_t switches() const;     // CPU switches between two processes
  uint64_t preemptions() const;  // of them, at the end of a time slice

  // HostApi: to the CPU, for whichever process holds it.
  void read(uint64_t addr, void* dst, size_t len, Access a) override;
  void write(uint64_t addr, const void* src, size_t len, Access a) override;
  void mmio_write_strobed(uint64_t addr, const void* src, size_t len, uint32_t strobe) override;
  void peek(uint64_t addr, void* dst, size_t len) override { cpu_.peek(addr, dst, len); }
  void poke(uint64_t addr, const void* src, size_t len) override { cpu_.poke(addr, src, len); }
  sc_core::sc_time now() override { return cpu_.now(); }
  void spend(const sc_core::sc_time& t) override;
  void sleep(const sc_core::sc_time& t) override;
  bool wait_interrupt(unsigned vector, const sc_core::sc_time& timeout) override {
    return cpu_.wait_interrupt(vector, timeout);
  }
  uint64_t alloc_pinned(uint64_t size, uint64_t align) override { return cpu_.alloc_pinned(size, align); }
  void free_pinned(uint64_t addr) override { cpu_.free_pinned(addr); }
  const PlatformInfo& platform() const override { return cpu_.platform(); }
  std::mt19937_64& rng() override { return cpu_.rng(); }
  ResultTable& results() override { return cpu_.results(); }
  void log(const std::string& line) override { cpu_.log(line); }
  void stat(const std::string& key, double value) override { cpu_.stat(key, value); }
  void progress(uint64_t done, uint64_t total) override { cpu_.progress(done, total); }
  const std::string& name() const override { return cpu_.name(); }

 private:
  void maybe_preempt();
  void block(const sc_core::sc_time& t);
  HostApi& cpu_;
  std::shared_ptr<State> s_;
};

}  // namespace hetvp::sw
