// hetvp — the waveforms of a Verilated bus block (docs/rtl_blocks.md, "Waveforms"): the full
// waveform of every signal inside a time window (Verilator's tracer, `waves`), and the ring buffer
// of the bus pins of the last `ring_cycles` edges, written as a VCD when the run fails. The bridges
// add their pins to the ring (BusBridge::trace); RtlCore samples and dumps once per edge.
#pragma once

#include <string>

#include "rtl/bridges/protocol.h"
#include "rtl/bridges/rtl_block.h"

namespace hetvp::rtl {

class BlockWaves {
 public:
  BlockWaves(VerilatedBlock& b, const BlockEnv& env, const RtlBlockConfig& opt);
  WaveRing& ring() { return ring_; }
  void sample(uint64_t cycle) { ring_.sample(cycle); }  // the pins before the rising edge of `cycle`
  void dump(uint64_t t_ps);                             // the full waveform at t_ps, if inside the window
  void close();                                         // the full waveform ends (end of run or failure)
  // Writes the ring buffer; returns "; last cycles in FILE", or "" when there is no ring buffer.
  std::string write_ring();

 private:
  std::string ring_path() const;
  VerilatedBlock& b_;
  const BlockEnv& env_;
  const RtlBlockConfig& opt_;
  WaveRing ring_;
  bool open_ = false, done_ = false;
};

}  // namespace hetvp::rtl
