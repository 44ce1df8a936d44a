// hetvp — ApbTarget (apb_target.h).
#include "rtl/bridges/apb_target.h"

namespace hetvp::rtl {

void ApbTarget::trace(WaveRing& ring) {
  ring.add_all("s_apb_", "psel penable pwrite pready pslverr paddr:0 pwdata:32 pstrb:4 prdata:32",
               {a_.psel, a_.penable, a_.pwrite, a_.pready, a_.pslverr, a_.paddr, a_.pwdata, a_.pstrb, a_.prdata});
}

void ApbTarget::drive() {
  RegisterAccess* r = s_.in_reset ? nullptr : head();
  a_.psel.set(r != nullptr);
  a_.penable.set(r && r->apb_access);
  a_.pwrite.set(r && r->write);
  a_.paddr.set(r ? r->addr : 0);
  a_.pwdata.set(r ? r->wdata : 0);
  a_.pstrb.set(r && r->write ? r->wstrb : 0);
}

void ApbTarget::sample() {
  RegisterAccess* r = s_.in_reset ? nullptr : head();
  done_ = r && r->apb_access && a_.pready.get();
  if (!done_) return;
  rdata_ = uint32_t(a_.prdata.get());
  resp_ = a_.pslverr.get() ? 2 : 0;
}

void ApbTarget::act() {
  RegisterAccess* r = head();
  if (!r) return;
  if (done_)
    complete(r, rdata_, resp_);
  else
    r->apb_access = true;  // SETUP -> ACCESS
}

}  // namespace hetvp::rtl
