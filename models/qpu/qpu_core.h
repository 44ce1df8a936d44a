// One QPU: a 16-way SIMD processor (4 physical lanes x 4 cycles) issuing one 64-bit instruction
// per 4 clocks, with an add and a mul ALU, accumulators r0..r5, register files A and B of 32
// vectors, Z/N/C flags per element (Broadcom VideoCore IV 3D Architecture Reference Guide, 2013,
// section 3). Everything outside the core (uniforms, TMU, VPM and its DMA, semaphores, mutex,
// host interrupt, instruction fetch) is behind QpuIo, implemented by the V3D model (v3d.h) or a
// test harness. The 16 lanes are plain arrays and loops the compiler vectorises.
//
// Faults (illegal encodings, the regfile read-after-write rule, I/O misuse) throw QpuFault; the
// caller adds the QPU and pc (QpuCore::pc()).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "models/qpu/qpu_isa.h"

namespace hetvp::qpu {

constexpr unsigned kLanes = 16;
struct alignas(64) Vec {
  uint32_t v[kLanes];
};

class QpuFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class QpuCore;

class QpuIo {
 public:
  virtual ~QpuIo() = default;
  // The decoded instruction at byte address `pc` (throws QpuFault when it cannot be fetched).
  virtual const Instr& fetch(QpuCore& q, uint32_t pc) = 0;
  virtual uint32_t uniform(QpuCore& q) = 0;  // next uniform of the stream
  virtual void uniforms_address(QpuCore& q, uint32_t addr) = 0;
  // Direct-addressed TMU request (TMU n, S coordinate written): per-lane addresses, lanes with
  // mask[i] = 0 are not fetched.
  virtual void tmu_request(QpuCore& q, unsigned tmu, const Vec& addr, const uint8_t* mask) = 0;
  // ldtmu signal: the oldest request's data (the QPU stalls until it is there: q.cycle advances).
  virtual void tmu_load(QpuCore& q, unsigned tmu, Vec& out) = 0;
  virtual void vpm_read(QpuCore& q, Vec& out) = 0;
  virtual void vpm_write(QpuCore& q, const Vec& in, const uint8_t* mask) = 0;
  virtual void vpm_setup(QpuCore& q, bool store, uint32_t value) = 0;  // vr_setup / vw_setup
  virtual void vpm_dma(QpuCore& q, bool store, uint32_t addr) = 0;     // vr_addr / vw_addr
  virtual void vpm_wait(QpuCore& q, bool store) = 0;                   // vr_wait / vw_wait (stalls)
  virtual uint32_t vpm_busy(QpuCore& q, bool store) = 0;
  virtual bool mutex_acquire(QpuCore& q) = 0;  // false: held by another QPU (the QPU blocks)
  virtual void mutex_release(QpuCore& q) = 0;
  virtual bool semaphore(QpuCore& q, unsigned n, bool down) = 0;  // false: the QPU blocks
  virtual void host_interrupt(QpuCore& q) = 0;
};

class QpuCore {
 public:
  enum class Status { Ran, Blocked, Ended };

  QpuCore(unsigned index, QpuIo& io) : index_(index), io_(io) { reset(0); }

  // Starts a program at `pc` (registers, flags and accumulators cleared).
  void reset(uint32_t pc);
  // Executes one instruction (4 clocks plus any stall the I/O adds to `cycle`). Blocked: the
  // instruction waits on a semaphore or the mutex and has not executed; call step() again later.
  Status step();

  // A run of decoded instructions the I/O lets the core fetch from directly (no virtual call):
  // [base, base + len) in bytes. The I/O resets it when the code changes (len 0).
  void set_code_window(const Instr* code, uint32_t base, uint32_t len) {
    window_ = code;
    window_base_ = base;
    window_len_ = len;
  }

  unsigned index() const { return index_; }
  uint32_t pc() const { return pc_; }
  bool running() const { return running_; }

  // Architectural state (tests and the debug output read it).
  Vec acc[6]{};            // r0..r5
  Vec ra[32]{}, rb[32]{};  // register files A and B
  uint8_t z[kLanes]{}, n[kLanes]{}, c[kLanes]{};

  uint64_t cycle = 0;  // this QPU's clock (4 per instruction plus stalls)
  // Counters.
  uint64_t instructions = 0, flops = 0, alu_ops = 0, stall_cycles = 0;
  uint64_t tmu_stall_cycles = 0, vpm_stall_cycles = 0;  // the parts of stall_cycles (the I/O adds them)

 private:
  void exec_alu(const Instr& d);
  void exec_load_imm(const Instr& d);
  void exec_branch(const Instr& d);
  void signal(const Instr& d);
  void read_inputs(const Instr& d);
  const uint32_t* operand(const Instr& d, unsigned mux, bool float_in, Vec& tmp);
  void write(const Instr& d, unsigned waddr, bool file_b, const Vec& value, unsigned cond, bool is_mul, bool float_op);
  void set_flags(const Vec& r, unsigned kind, const uint32_t* a, const uint32_t* b);
  void read_special(unsigned raddr, bool file_b, Vec& out);
  void check_raw(unsigned raddr, bool file_b);
  void cond_mask(unsigned cond, uint8_t* m) const;
  unsigned lanes_where(unsigned cond) const;  // elements whose condition holds
  void check_coupled_accesses(const Instr& d);

  unsigned index_;
  QpuIo& io_;
  const Instr* window_ = nullptr;
  uint32_t window_base_ = 0, window_len_ = 0;
  uint32_t pc_ = 0;
  bool running_ = false;
  int branch_countdown_ = 0;  // delay slots left before the branch takes effect
  uint32_t branch_target_ = 0;
  int end_countdown_ = 0;  // delay slots left after program end
  // Regfile addresses written by the previous instruction (0xff: none).
  uint8_t prev_written_a_[2] = {0xff, 0xff}, prev_written_b_[2] = {0xff, 0xff};
  uint8_t cur_written_a_[2], cur_written_b_[2];
  Vec in_a_, in_b_;                     // raddr_a / raddr_b values that are not a register (I/O, small immediate)
  const uint32_t* in_a_ptr_ = in_a_.v;  // this instruction's A and B inputs
  const uint32_t* in_b_ptr_ = in_b_.v;
  bool vpm_read_done_ = false;
  Vec r4_next_;
  bool r4_pending_ = false;
  uint64_t r4_ready_ = 0;  // instruction count from which an SFU result may be read
};

}  // namespace hetvp::qpu
