// hetvp — RegisterTarget: the access queue and time-out every register port shares (register_target.h).
#include "rtl/bridges/register_target.h"

#include <cinttypes>

#include "platform/format.h"
#include "rtl/bridges/apb_target.h"
#include "rtl/bridges/axi4lite_target.h"

namespace hetvp::rtl {

void RegisterTarget::abort() {
  for (RegisterAccess* h : queue_) {
    h->resp = 2;
    h->done.notify();
  }
  queue_.clear();
}

RegisterAccess* RegisterTarget::head() {
  if (queue_.empty() || !(queue_.front()->arrival < s_.clock().at(s_.n))) return nullptr;
  RegisterAccess* r = queue_.front();
  if (!r->is_presented) {
    r->is_presented = true;
    r->presented = s_.n;
    if (r->on_present) r->on_present(s_.n);
  }
  return r;
}

uint64_t RegisterTarget::addr_hint() {
  RegisterAccess* r = s_.in_reset ? nullptr : head();
  return r ? r->addr : 0;
}

void RegisterTarget::complete(RegisterAccess* r, uint32_t data, unsigned resp) {
  r->rdata = data;
  r->resp = resp;
  r->responded = s_.n;
  queue_.pop_front();
  r->done.notify();
}

void RegisterTarget::check_timeout() {
  if (queue_.empty()) return;
  const RegisterAccess& h = *queue_.front();
  if (!h.is_presented || s_.n - h.presented < s_.opt.timeout_cycles) return;
  const Waiting w = waiting_for(h);
  s_.violated({w.channel, Rule::AccessAnswered,
               format("time-out: no %s after %" PRIu64 " cycles (%s of the register access)", w.what,
                      s_.n - h.presented, h.write ? "write" : "read"),
               h.addr});
}

std::unique_ptr<RegisterTarget> make_register_target(const RtlBlockType& type, VerilatedBlock& b, CoreState& s) {
  if (type.bus == "apb") return std::make_unique<ApbTarget>(b.apb, s);
  return std::make_unique<AxiLiteTarget>(b.axil, s);
}

}  // namespace hetvp::rtl
