// sc_spawn (one SystemC thread per process) needs the dynamic-process part of the headers.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "sw/host/host_processes.h"

#include "platform/format.h"

namespace hetvp::sw {

namespace {
enum class St { Ready, Running, Sleeping, AtBarrier, Done };
struct Proc {
  St st = St::Ready;
  sc_core::sc_time wake;  // a Sleeping process's end of sleep (CPU time)
  sc_core::sc_event go;   // notified when the CPU is handed to it
  int kernel = 0;         // KernelSection depth
  int gpu_wait = 0;       // GpuWait depth
};
}  // namespace

struct HostProcesses::State {
  HostApi* cpu = nullptr;
  sc_core::sc_time slice, switch_cost;
  bool yield_gpu_waits = true;
  std::vector<std::unique_ptr<Proc>> procs;
  int cur = -1;                 // the process holding the CPU; -1: the program's own thread
  sc_core::sc_time dispatched;  // when `cur` got the CPU
  unsigned alive = 0, at_barrier = 0;
  sc_core::sc_event all_done;
  uint64_t switches = 0, preemptions = 0;

  bool ready(int j, const sc_core::sc_time& t) const {
    const Proc& p = *procs[size_t(j)];
    return p.st == St::Ready || (p.st == St::Sleeping && p.wake <= t);
  }
  // The next process to run after `me` (which stops running now): the next ready one in round
  // robin (`me` last), else the one whose sleep ends first; -1 when every process has ended.
  int pick(int me) const {
    const int n = int(procs.size());
    const sc_core::sc_time t = cpu->now();
    for (int i = 1; i <= n; ++i) {
      const int j = (me + i) % n;
      if (ready(j, t)) return j;
    }
    int best = -1;
    for (int i = 1; i <= n; ++i) {
      const int j = (me + i) % n;
      const Proc& p = *procs[size_t(j)];
      if (p.st == St::Sleeping && (best < 0 || p.wake < procs[size_t(best)]->wake)) best = j;
    }
    return best;
  }
  // Gives the CPU to `next` (after the switch's cost) and, unless `me` has ended, waits until it
  // comes back; then `me` sleeps out what is left of its sleep and runs.
  void hand_over(int me, int next) {
    if (next != me) {
      if (next >= 0) {
        cpu->spend(switch_cost);
        ++switches;
      }
      cur = next;
      if (next >= 0)
        procs[size_t(next)]->go.notify(sc_core::SC_ZERO_TIME);
      else
        all_done.notify(sc_core::SC_ZERO_TIME);
      if (procs[size_t(me)]->st == St::Done) return;
      while (cur != me) sc_core::wait(procs[size_t(me)]->go);
    }
    resume(me);
  }
  // Every process still running is at the barrier: all go on.
  void release_barrier() {
    if (!at_barrier || at_barrier < alive) return;
    for (auto& p : procs)
      if (p->st == St::AtBarrier) p->st = St::Ready;
    at_barrier = 0;
  }
  void resume(int me) {
    Proc& p = *procs[size_t(me)];
    if (p.st == St::Sleeping && p.wake > cpu->now()) cpu->sleep(p.wake - cpu->now());  // the CPU idles
    p.st = St::Running;
    dispatched = cpu->now();
  }
};

HostProcesses::HostProcesses(HostApi& cpu, const HostSchedulerOptions& opt) : cpu_(cpu), s_(std::make_shared<State>()) {
  s_->cpu = &cpu;
  s_->slice = opt.slice;
  s_->switch_cost = opt.switch_cost;
  s_->yield_gpu_waits = opt.gpu_wait == GpuWaitPolicy::yield;
}

HostProcesses::~HostProcesses() { s_->cpu = nullptr; }

int HostProcesses::current() const { return s_->cur; }
uint64_t HostProcesses::switches() const { return s_->switches; }
uint64_t HostProcesses::preemptions() const { return s_->preemptions; }

std::vector<std::string> HostProcesses::run(unsigned n, const std::function<void(unsigned)>& body,
                                            const std::function<void(unsigned)>& at_exit) {
  if (s_->cur >= 0) throw HostError("HostProcesses::run: called from a process");
  std::vector<std::string> errors(n);
  if (n == 0) return errors;
  std::shared_ptr<State> s = s_;
  s->procs.clear();
  s->at_barrier = 0;
  for (unsigned i = 0; i < n; ++i) s->procs.push_back(std::make_unique<Proc>());
  s->alive = n;
  s->cur = 0;
  for (unsigned i = 0; i < n; ++i) {
    sc_core::sc_spawn_options thread;
    sc_core::sc_spawn(
        [s, i, &body, &at_exit, &errors] {
          const int me = int(i);
          while (s->cur != me) sc_core::wait(s->procs[i]->go);
          s->resume(me);
          // A process's error ends it; a model's error or the end of the run goes on up.
          auto guarded = [&](const std::function<void(unsigned)>& f) {
            try {
              f(i);
            } catch (const HostError& e) {
              errors[i] += (errors[i].empty() ? "" : "; ") + std::string(e.what());
            } catch (const sc_core::sc_unwind_exception&) {
              throw;
            } catch (const sc_core::sc_report&) {
              throw;
            }
          };
          guarded(body);
          s->procs[i]->kernel = s->procs[i]->gpu_wait = 0;
          guarded(at_exit);
          s->procs[i]->st = St::Done;
          --s->alive;
          s->release_barrier();
          s->hand_over(me, s->pick(me));
        },
        sc_core::sc_gen_unique_name("process"), &thread);
  }
  while (s->alive) sc_core::wait(s->all_done);
  s->cur = -1;
  s->procs.clear();
  return errors;
}

void HostProcesses::barrier() {
  State& s = *s_;
  if (s.cur < 0) return;
  const int me = s.cur;
  ++s.at_barrier;
  if (s.at_barrier >= s.alive) {  // the last one: everyone goes on, this one first
    s.release_barrier();
    return;
  }
  s.procs[size_t(me)]->st = St::AtBarrier;
  s.hand_over(me, s.pick(me));
}

// ---------------------------------------------------------------- scheduling points
void HostProcesses::maybe_preempt() {
  State& s = *s_;
  if (s.cur < 0 || s.alive <= 1) return;
  const int me = s.cur;
  if (s.procs[size_t(me)]->kernel > 0 || cpu_.now() - s.dispatched < s.slice) return;
  const int next = s.pick(me);
  if (next < 0 || next == me || !s.ready(next, cpu_.now())) return;
  ++s.preemptions;
  s.procs[size_t(me)]->st = St::Ready;
  s.hand_over(me, next);
}

void HostProcesses::block(const sc_core::sc_time& t) {
  State& s = *s_;
  const int me = s.cur;
  Proc& p = *s.procs[size_t(me)];
  p.wake = cpu_.now() + t;
  p.st = St::Sleeping;
  s.hand_over(me, s.pick(me));
}

void HostProcesses::sleep(const sc_core::sc_time& t) {
  State& s = *s_;
  if (s.cur >= 0 && s.alive > 1) {
    const Proc& p = *s.procs[size_t(s.cur)];
    if (p.kernel == 0 || (p.gpu_wait > 0 && s.yield_gpu_waits)) return block(t);
  }
  cpu_.sleep(t);
}

void HostProcesses::read(uint64_t addr, void* dst, size_t len, Access a) {
  maybe_preempt();
  cpu_.read(addr, dst, len, a);
}
void HostProcesses::write(uint64_t addr, const void* src, size_t len, Access a) {
  maybe_preempt();
  cpu_.write(addr, src, len, a);
}
void HostProcesses::mmio_write_strobed(uint64_t addr, const void* src, size_t len, uint32_t strobe) {
  maybe_preempt();
  cpu_.mmio_write_strobed(addr, src, len, strobe);
}
void HostProcesses::spend(const sc_core::sc_time& t) {
  maybe_preempt();
  cpu_.spend(t);
}

// ---------------------------------------------------------------- sections
HostProcesses::KernelSection::KernelSection(HostProcesses* p, int& depth) : depth_(&depth) {
  if (p && p->s_->cur >= 0) {
    s_ = p->s_;
    depth_ = &s_->procs[size_t(s_->cur)]->kernel;
  }
  outermost_ = (*depth_)++ == 0;
}
HostProcesses::KernelSection::~KernelSection() {
  // A process's section: its depth lives in the shared state, which outlives the program's frame.
  --*depth_;
}

HostProcesses::GpuWait::GpuWait(HostProcesses* p) {
  if (!p || p->s_->cur < 0) return;
  s_ = p->s_;
  proc_ = s_->cur;
  ++s_->procs[size_t(proc_)]->gpu_wait;
}
HostProcesses::GpuWait::~GpuWait() {
  if (s_ && size_t(proc_) < s_->procs.size()) --s_->procs[size_t(proc_)]->gpu_wait;
}

}  // namespace hetvp::sw
