// hetvp — BlockWaves (block_waves.h).
#include "rtl/bridges/block_waves.h"

#include <cinttypes>

#include "platform/format.h"

namespace hetvp::rtl {

BlockWaves::BlockWaves(VerilatedBlock& b, const BlockEnv& env, const RtlBlockConfig& opt)
    : b_(b), env_(env), opt_(opt), ring_(opt.ring_cycles) {}

std::string BlockWaves::ring_path() const {
  return opt_.ring_file.empty() ? env_.instance + "_last_cycles.vcd" : opt_.ring_file();
}

std::string BlockWaves::write_ring() {
  ring_.write(ring_path(), env_.instance,
              format("hetvp: last %" PRIu64 " cycles of %s '%s' before the failure", ring_.kept(), env_.type.c_str(),
                     env_.instance.c_str()),
              env_.clock.period_ps);
  return ring_.empty() ? std::string() : "; last cycles in " + ring_path();
}

void BlockWaves::close() {
  if (open_) b_.trace_close();
  open_ = false;
  done_ = true;
}

void BlockWaves::dump(uint64_t t_ps) {
  if (opt_.waves.empty() || done_) return;
  const uint64_t start = Clock::ps(opt_.waves_start), stop = Clock::ps(opt_.waves_stop);
  if (t_ps < start) return;
  if (stop && t_ps > stop) {
    close();
    return;
  }
  if (!open_) {
    b_.trace_open(opt_.waves);
    open_ = true;
  }
  b_.trace_dump(t_ps);
}

}  // namespace hetvp::rtl
