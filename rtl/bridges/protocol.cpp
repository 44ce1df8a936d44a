// hetvp — HandshakeChecker and WaveRing (protocol.h).
#include "rtl/bridges/protocol.h"

#include <cinttypes>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "platform/format.h"

namespace hetvp::rtl {

HandshakeChecker::HandshakeChecker(std::string channel, Pin valid, Pin ready,
                                   std::vector<std::pair<std::string, Pin>> payload)
    : channel_(std::move(channel)), valid_(valid), ready_(ready), payload_(std::move(payload)) {}

std::optional<HandshakeChecker::Violation> HandshakeChecker::check(uint64_t addr_hint) {
  const bool v = valid_.get() & 1, r = ready_.get() & 1;
  cur_.resize(payload_.size());  // no allocation per cycle
  for (size_t i = 0; i < cur_.size(); ++i) cur_[i] = payload_[i].second.get();
  std::optional<Violation> out;
  if (prev_valid_ && !prev_hs_) {
    uint64_t addr = addr_hint;
    for (size_t i = 0; i < payload_.size(); ++i)
      if (payload_[i].first.find("ADDR") != std::string::npos) addr = prev_[i];
    if (!v) out = Violation{Rule::ValidHeld, "VALID dropped before READY", addr};
    for (size_t i = 0; v && !out && i < cur_.size(); ++i)
      if (cur_[i] != prev_[i])
        out =
            Violation{Rule::PayloadStable,
                      payload_[i].first + format(" changed from 0x%" PRIx64 " to 0x%" PRIx64, prev_[i], cur_[i]), addr};
  }
  prev_valid_ = v;
  prev_hs_ = v && r;
  prev_.swap(cur_);
  return out;
}

void WaveRing::add(const std::string& name, Pin pin, unsigned width) {
  if (pin) traced_.push_back({name, pin, width ? width : unsigned(pin.bytes) * 8});
  values_.assign(size_t(depth_) * traced_.size(), 0);
  cycles_.assign(depth_, 0);
}

void WaveRing::add_all(const std::string& prefix, const std::string& spec, std::initializer_list<Pin> pins) {
  std::istringstream words(spec);
  auto pin = pins.begin();
  for (std::string w; words >> w; ++pin) {
    if (pin == pins.end()) throw std::logic_error("WaveRing::add_all: more names than pins in '" + spec + "'");
    const size_t colon = w.find(':');
    add(prefix + w.substr(0, colon), *pin, colon == std::string::npos ? 1 : unsigned(std::stoul(w.substr(colon + 1))));
  }
  if (pin != pins.end()) throw std::logic_error("WaveRing::add_all: more pins than names in '" + spec + "'");
}

void WaveRing::sample(uint64_t cycle) {
  if (!depth_) return;
  const size_t slot = size_t(count_ % depth_);
  uint64_t* v = &values_[slot * traced_.size()];
  for (size_t i = 0; i < traced_.size(); ++i) v[i] = traced_[i].pin.get();
  cycles_[slot] = cycle;
  ++count_;
}

bool WaveRing::write(const std::string& path, const std::string& scope, const std::string& comment,
                     uint64_t period_ps) const {
  if (empty()) return false;
  std::ofstream f(path);
  if (!f) return false;
  f << "$comment " << comment << " $end\n$timescale 1ps $end\n$scope module " << scope << " $end\n";
  auto id = [](size_t i) {
    std::string s;
    do {
      s += char('!' + i % 90);
      i /= 90;
    } while (i);
    return s;
  };
  for (size_t i = 0; i < traced_.size(); ++i)
    f << "$var wire " << traced_[i].width << " " << id(i) << " " << traced_[i].name << " $end\n";
  f << "$upscope $end\n$enddefinitions $end\n";
  const uint64_t cnt = kept(), half = period_ps / 2;
  for (uint64_t k = count_ - cnt; k < count_; ++k) {
    const size_t slot = size_t(k % depth_);
    const uint64_t* v = &values_[slot * traced_.size()];
    const uint64_t t = cycles_[slot] * period_ps;
    for (int edge = 0; edge < 2; ++edge) {
      f << "#" << (edge ? t : t - half) << "\n";
      for (size_t i = 0; i < traced_.size(); ++i) {
        uint64_t val = traced_[i].name == "clk" ? uint64_t(edge) : v[i];
        if (traced_[i].width == 1) {
          f << (val & 1) << id(i) << "\n";
        } else {
          f << "b";
          for (int bit = int(traced_[i].width) - 1; bit >= 0; --bit) f << ((bit < 64 && (val >> bit) & 1) ? '1' : '0');
          f << " " << id(i) << "\n";
        }
      }
    }
  }
  return bool(f);
}

}  // namespace hetvp::rtl
