// hetvp — nouveau's GR list writers (gr_nouveau_init.h).
#include "sw/driver/gr_nouveau_init.h"

#include "firmware/include/hetvp/pgraph_regfile.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {
const gpu::gr::GrPack& pack(const gpu::gr::GrLists& lists, const char* name) {
  if (!lists.available) throw GrListError(lists.chip + " register lists: " + lists.reason);
  return lists.pack(name);
}

// gf100.c's interface registers for the two method packs.
constexpr uint32_t kIcmdData = 0x400204, kIcmdCtrl = 0x400208, kMthdData = 0x40448c, kMthdCtrl = 0x404488;
constexpr uint32_t kFeIdleTimeout = 0x404154;
constexpr uint32_t kStatusBusy = 0x4;  // PGRAPH_STATUS bit 2, what gf100_gr_icmd polls

// Every method of a method pack (icmd, mthd) in order, as gf100_gr_icmd / gf100_gr_mthd send them:
// the data register written only when the value changes (always for the first), then
// method(row, address) for each of the entry's count methods.
template <class F>
void for_each_method(GpuDriver& gpu, const gpu::gr::GrPack& p, uint32_t data_reg, size_t& accesses, F method) {
  bool first = true;
  uint32_t data = 0;
  for (size_t r = 0; r < p.count; ++r)
    for (size_t i = 0; i < p.rows[r].count; ++i) {
      const gpu::gr::GrInit& e = p.rows[r].inits[i];
      if (first || e.data != data) {
        gpu.reg_write(data_reg, e.data);
        data = e.data;
        first = false;
        ++accesses;
      }
      for (uint32_t k = 0; k < e.count; ++k) method(p.rows[r], e.addr + k * e.pitch);
    }
}
}  // namespace

size_t gr_write_pack(GpuDriver& gpu, const gpu::gr::GrPack& p) {
  size_t n = 0;
  p.for_each_word([&](uint32_t addr, uint32_t data) {
    gpu.reg_write(addr, data);
    ++n;
  });
  return n;
}

size_t gr_init_mmio(GpuDriver& gpu, const std::string& chip) {
  return gr_write_pack(gpu, pack(gpu::gr::gr_lists(chip), "mmio"));
}

GrctxWrites gf100_grctx_generate_writes(GpuDriver& gpu, const gpu::gr::GrLists& lists, unsigned poll_limit) {
  GrctxWrites w;
  for (const char* n : {"hub", "gpc_0", "zcull", "gpc_1", "tpc"}) w.mmio_words += gr_write_pack(gpu, pack(lists, n));
  if (lists.available && lists.find("ppc")) w.mmio_words += gr_write_pack(gpu, *lists.find("ppc"));  // not on GF100
  w.bar0_accesses = w.mmio_words;

  // icmd (gf100_gr_icmd), with the FE idle timeout off meanwhile (gf100_grctx_generate_main)
  const uint32_t idle_timeout = gpu.reg_read(kFeIdleTimeout);
  gpu.reg_write(kFeIdleTimeout, 0);
  gpu.reg_write(kIcmdCtrl, 0x80000000);
  w.bar0_accesses += 3;
  for_each_method(
      gpu, pack(lists, "icmd"), kIcmdData, w.bar0_accesses, [&](const gpu::gr::GrPackRow&, uint32_t method) {
        gpu.reg_write(PGRAPH_ICMD_METHOD, method);
        ++w.icmd_methods;
        ++w.bar0_accesses;
        for (unsigned polls = 0;; ++polls) {
          ++w.bar0_accesses;
          if (!(gpu.reg_read(PGRAPH_STATUS) & kStatusBusy)) break;
          if (polls + 1 >= poll_limit)
            throw GrListError(format("icmd method 0x%06x: PGRAPH_STATUS 0x%06x bit 2 (busy) still set after %u reads",
                                     method, PGRAPH_STATUS, poll_limit));
        }
      });
  gpu.reg_write(kIcmdCtrl, 0);
  gpu.reg_write(kFeIdleTimeout, idle_timeout);
  w.bar0_accesses += 2;

  // mthd (gf100_gr_mthd): the class in the pack row's type
  for_each_method(gpu, pack(lists, "mthd"), kMthdData, w.bar0_accesses,
                  [&](const gpu::gr::GrPackRow& row, uint32_t method) {
                    gpu.reg_write(kMthdCtrl, 0x80000000u | row.type | method << 14);
                    ++w.mthd_methods;
                    ++w.bar0_accesses;
                  });
  return w;
}

}  // namespace hetvp::sw
