// hetvp — StreamBridge (stream_bridge.h).
#include "rtl/bridges/stream_bridge.h"

#include <cinttypes>
#include <sstream>

#include <systemc>

#include "platform/format.h"

namespace hetvp::rtl {

namespace {
std::vector<std::pair<std::string, Pin>> named(const std::vector<StreamPin>& v) {
  std::vector<std::pair<std::string, Pin>> r;
  for (const StreamPin& p : v) r.emplace_back(p.name, p.pin);
  return r;
}
}  // namespace

StreamBridge::StreamBridge(VerilatedBlock& block, StreamChannel in, StreamChannel out, StreamPin done,
                           StreamOptions opt)
    : b_(block),
      in_(std::move(in)),
      out_(std::move(out)),
      done_(std::move(done)),
      opt_(std::move(opt)),
      out_check_(out_.name, out_.valid.pin, out_.ready.pin, named(out_.payload)),
      ring_(opt_.ring_cycles) {
  if (!b_.clk || !b_.rst || !in_.valid.pin || !in_.ready.pin || !out_.valid.pin || !out_.ready.pin || !done_.pin)
    throw std::invalid_argument("StreamBridge " + opt_.block +
                                ": clk, rst_n, both channels' valid/ready and done "
                                "are required");
  auto add = [&](const StreamPin& p) { ring_.add(p.name, p.pin, p.width ? p.width : (p.pin.bytes == 1 ? 1 : 0)); };
  add({"clk", b_.clk, 1});
  add({"rst_n", b_.rst, 1});
  for (const StreamChannel* c : {&in_, &out_}) {
    add(c->valid);
    add(c->ready);
    for (const StreamPin& p : c->payload) add(p);
  }
  add(done_);
  for (const StreamPin& p : opt_.extra_traced) add(p);
  out_.ready.pin.set(1);
  in_.valid.pin.set(0);
  b_.clk.set(0);
  b_.eval();
}

StreamBridge::~StreamBridge() { close_waves(); }

void StreamBridge::set_time(uint64_t t_ps) { wave_t_ = t_ps; }

void StreamBridge::dump(uint64_t t_ps) {
  if (opt_.waves.empty() || waves_done_) return;
  if (!waves_open_) {
    b_.trace_open(opt_.waves);
    waves_open_ = true;
  } else if (t_ps <= wave_last_) {
    return;  // Verilator ignores a dump at a time already dumped (and says so)
  }
  b_.trace_dump(t_ps);
  wave_last_ = t_ps;
}

void StreamBridge::close_waves() {
  if (wave_pending_) dump(wave_end_);
  wave_pending_ = false;
  if (waves_open_) b_.trace_close();
  waves_open_ = false;
  waves_done_ = true;
}

void StreamBridge::settle() {
  b_.clk.set(0);
  b_.eval();
}

void StreamBridge::rise() {
  ring_.sample(++ring_cycle_);  // inputs current, the edge's outputs not yet
  dump(wave_t_);
  b_.clk.set(1);
  b_.eval();
  dump(wave_t_ + opt_.clock.period_ps / 2);
  wave_t_ += opt_.clock.period_ps;
}

std::string StreamBridge::write_ring() {
  if (opt_.ring_file.empty() ||
      !ring_.write(opt_.ring_file, opt_.scope,
                   format("hetvp: last %" PRIu64 " cycles of %s before the failure (time axis: the block's cycles)",
                          ring_.kept(), opt_.block.c_str()),
                   opt_.clock.period_ps ? opt_.clock.period_ps : 1))
    return "";
  return "; last cycles in " + opt_.ring_file;
}

void StreamBridge::fail(const std::string& what) {
  was_reset_ = false;  // reset again before the next transfer
  in_.valid.pin.set(0);
  throw std::runtime_error(what + write_ring());
}

uint64_t StreamBridge::transfer(uint64_t beats, const Drive& drive, const Take& take, uint64_t timeout_cycles) {
  // The end of the previous transfer (clock low, input idle) shows in the waveform if time passed.
  if (wave_pending_ && wave_t_ > wave_end_) dump(wave_end_);
  wave_pending_ = false;
  if (!was_reset_) {
    b_.rst.set(0);
    in_.valid.pin.set(0);
    for (unsigned k = 0; k < opt_.reset_low; ++k) settle(), rise();
    b_.rst.set(1);
    for (unsigned k = 0; k < opt_.reset_high; ++k) settle(), rise();
    counters_.reset_cycles += opt_.reset_low + opt_.reset_high;
    was_reset_ = true;
  }
  uint64_t i = 0;             // next input beat to present
  uint64_t cyc = 0;           // rising edges so far
  uint64_t taken = 0;         // output beats taken
  uint64_t accepted = kNone;  // input beat accepted at the last edge
  uint64_t cause = kNone;     // ... when the output register was (re)loaded
  bool prev_ov = false, prev_hs = false;
  const uint64_t bp = backpressure_;
  for (;;) {
    // registered outputs of this cycle (settled after the previous edge)
    const bool ov = out_.valid.pin.get() & 1;
    if (ov && (!prev_ov || prev_hs)) cause = accepted;  // loaded at the last edge
    const bool ordy = !(bp && cyc % bp == bp - 1);
    out_.ready.pin.set(ordy);
    const bool hs = ov && ordy;
    if (hs) take(OutBeat{taken++, cause});
    if ((done_.pin.get() & 1) && cyc > 0) break;
    const bool valid = i < beats;
    in_.valid.pin.set(valid);
    if (valid) drive(i);
    settle();  // READY may depend on VALID and on the output's READY
    const bool ready = in_.ready.pin.get() & 1;
    if (auto v = out_check_.check()) {
      const StreamPin& f = out_.payload.empty() ? out_.valid : out_.payload.front();
      fail(format("%s: %s channel: %s, %s 0x%" PRIx64 ", at %s (cycle %" PRIu64 " of the transfer)", opt_.block.c_str(),
                  out_.name.c_str(), (describe(v->rule) + " violated: " + v->detail).c_str(), f.name.c_str(),
                  f.pin.get(), sc_core::sc_time_stamp().to_string().c_str(), cyc));
    }
    rise();
    ++cyc;
    prev_ov = ov;
    prev_hs = hs;
    accepted = kNone;
    if (valid && ready) accepted = i++;
    if (cyc > timeout_cycles)
      fail(format("%s: no 'done' after %" PRIu64 " cycles of a transfer of %" PRIu64 " input beats (%" PRIu64
                  " accepted, %" PRIu64 " output beats) at %s",
                  opt_.block.c_str(), cyc, beats, i, taken, sc_core::sc_time_stamp().to_string().c_str()));
  }
  in_.valid.pin.set(0);
  settle();
  wave_pending_ = true;
  wave_end_ = wave_t_;
  counters_.cycles += cyc;
  ++counters_.transfers;
  return cyc;
}

}  // namespace hetvp::rtl
