// hetvp — the stream bridge (docs/rtl_blocks.md, "Streaming blocks"): drives a Verilated block
// that takes a ready/valid input stream and produces a ready/valid output stream, one transfer
// at a time, cycle by cycle, from the calling thread. It pushes the input beats, takes the output
// beats, and ends the transfer at the block's `done` pulse. Around it: the HandshakeChecker on
// the output channel (the one the RTL drives), the WaveRing of the last cycles, the full
// waveform (VerilatedBlock::trace_*), reset cycles and a time-out.
//
// Time: the bridge counts cycles; it never waits. A caller adds cycles · period to its own
// (temporally decoupled) time, or synchronises first and gives the waveform's start time with
// set_time() — the waveform then shows cycle k's falling edge at t0 + k·period and its rising
// edge half a period later (rtl::Clock gives the period).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl/bridges/protocol.h"
#include "rtl/bridges/rtl_block.h"

namespace hetvp::rtl {

// A pin of a stream with its name in reports and waveforms (width 0: the pin's bytes · 8).
struct StreamPin {
  std::string name;
  Pin pin;
  unsigned width = 0;
};

// One ready/valid channel. The first payload field names a beat in checker reports.
struct StreamChannel {
  std::string name;  // in reports: "<name> channel"
  StreamPin valid, ready;
  std::vector<StreamPin> payload;
};

struct StreamOptions {
  std::string block;                    // names the block in error messages
  std::string scope;                    // scope of the ring buffer's VCD
  Clock clock;                          // period of the block's clock
  unsigned reset_low = 2;               // cycles rst_n is held low before the first transfer
  unsigned reset_high = 1;              // then cycles with rst_n high before the first beat
  unsigned ring_cycles = 256;           // ring buffer depth (0 = none)
  std::string ring_file;                // written when a transfer fails
  std::string waves;                    // full waveform file (Verilator trace; "" = none)
  std::vector<StreamPin> extra_traced;  // further pins kept in the ring buffer (after the streams)
};

struct StreamCounters {
  uint64_t cycles = 0;        // cycles of transfers
  uint64_t reset_cycles = 0;  // cycles spent in reset
  uint64_t transfers = 0;
};

class StreamBridge {
 public:
  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  // What the bridge knows of an output beat when it is taken: its number in the transfer and the
  // input beat accepted at the rising edge that made it valid (kNone: no input was accepted then).
  struct OutBeat {
    uint64_t index;
    uint64_t cause;
  };
  using Drive = std::function<void(uint64_t beat)>;  // writes the input payload pins of beat i
  using Take = std::function<void(const OutBeat&)>;  // reads the output payload pins

  // `block` outlives the bridge. `done` is the block's one-cycle pulse that ends a transfer.
  StreamBridge(VerilatedBlock& block, StreamChannel in, StreamChannel out, StreamPin done, StreamOptions opt);
  ~StreamBridge();

  // One transfer: presents `beats` input beats (beat i written by drive(i)) while taking every
  // output beat (take), until `done` is high after at least one rising edge. Resets the block
  // first if it was never reset or a transfer failed. Returns the transfer's cycles (rising edges,
  // reset not included). Throws std::runtime_error on a checker violation or when `done` has not
  // come after `timeout_cycles`, naming the block, the channel, the rule and the time, after
  // writing the ring buffer; the block is reset before the next transfer.
  uint64_t transfer(uint64_t beats, const Drive& drive, const Take& take, uint64_t timeout_cycles);

  // The waveform time (ps) of the next cycle's falling edge; only matters with a waveform file.
  void set_time(uint64_t t_ps);
  // TEST ONLY: hold the output's READY low in every `period`-th cycle (0 = never).
  void set_test_backpressure(unsigned period) { backpressure_ = period; }
  void set_ring_file(const std::string& path) { opt_.ring_file = path; }
  // Writes the ring buffer now; returns "; last cycles in FILE" for an error message ("" if none).
  std::string write_ring();
  // Completes the waveform file; later cycles are not traced.
  void close_waves();
  const StreamCounters& counters() const { return counters_; }
  bool reset_pending() const { return !was_reset_; }

 private:
  void settle();  // clock low, inputs evaluated
  void rise();    // ring sample, rising edge, waveform
  void dump(uint64_t t_ps);
  [[noreturn]] void fail(const std::string& what);

  VerilatedBlock& b_;
  StreamChannel in_, out_;
  StreamPin done_;
  StreamOptions opt_;
  HandshakeChecker out_check_;
  WaveRing ring_;
  StreamCounters counters_;
  uint64_t ring_cycle_ = 0;  // cycles since construction (the ring's time axis)
  unsigned backpressure_ = 0;
  bool was_reset_ = false;
  // waveform
  uint64_t wave_t_ = 0;        // time of the next cycle's falling edge
  uint64_t wave_last_ = 0;     // last time dumped
  uint64_t wave_end_ = 0;      // end of the last transfer
  bool wave_pending_ = false;  // the end of the last transfer (clock low) is not dumped yet
  bool waves_open_ = false, waves_done_ = false;
};

}  // namespace hetvp::rtl
