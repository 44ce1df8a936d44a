// hetvp — the PGRAPH register file: GF100's GR registers that nouveau's register lists name, stored
// and returned (GPU block `pgraph`, docs/falcon.md "GF100's register lists"). It has no behaviour:
// the registers hetvp gives behaviour to (the context controllers' windows, their PGRAPH boot words,
// the compute front end and its per-GPC windows) belong to those models, and the block only maps
// what they leave free (pgraph_block.cpp). An access to an address in its windows that no list names
// is an "unmodelled register" error naming the address and the initiator.
//
// Address space (firmware/include/hetvp/pgraph_regfile.h; nouveau gf100.h GPC_BCAST/GPC_UNIT/TPC_UNIT):
//   0x400000-0x417fff       hub units: one word per listed address
//   0x418000 + x            GPC broadcast (x < 0x1800): a write reaches GPC n's 0x500000 + n*0x8000 + x
//                           for every GPC; a read returns GPC 0's
//   0x419800 + r            TPC broadcast (r < 0x800): every TPC of every GPC; reads TPC 0 of GPC 0
//   0x500000 + n*0x8000 + x GPC n's own copy (x < 0x1800); + 0x1800 + r: GPC n's TPC broadcast;
//                           + 0x4000 + t*0x800 + r: TPC t of GPC n
//   0x41be00 + r            PPC broadcast (r < 0x200; chips with PPCs): every PPC of every GPC; reads
//                           PPC 0 of GPC 0
//   0x500000 + n*0x8000 + 0x3000 + p*0x200 + r: PPC p of GPC n; + 0x3e00 + r: GPC n's PPC broadcast
// Reset value of every word: 0 (assumption: the lists give what nouveau writes, not what the chip
// resets to; nouveau writes every listed word before the context controllers save it).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/gpu/gr/gf100_lists.h"

namespace hetvp::gpu::gr {

class PgraphRegfile : public sc_core::sc_module {
 public:
  // Takes absolute BAR0 addresses; bind it to as many router ranges as needed.
  tlm_utils::multi_passthrough_target_socket<PgraphRegfile> regs{"regs"};

  // The words of `packs` (BAR0 packs: hub, gpc_*, zcull, tpc, ppc, mmio) and `extra` (absolute
  // addresses) are accepted; `gpcs` GPCs of `tpcs` TPCs and `ppcs` PPCs. A listed address outside
  // the windows above (a PPC address on a chip without PPCs) is a std::invalid_argument naming it.
  PgraphRegfile(sc_core::sc_module_name n, unsigned gpcs, unsigned tpcs, const std::vector<const GrPack*>& packs,
                const std::vector<uint32_t>& extra, unsigned ppcs = 0);

  // The BAR0 windows the file answers in: [base, end) pairs, sorted.
  std::vector<std::pair<uint32_t, uint32_t>> windows() const;
  // Is `addr` a register of the file (any copy)?
  bool accepts(uint32_t addr) const;
  // Backdoor for tests and debuggers (what a read returns); false: not a register.
  bool peek(uint32_t addr, uint32_t& value) const;

  size_t hub_words() const { return hub_.size(); }
  size_t gpc_words() const { return gpc_slot_.size(); }  // per GPC
  size_t tpc_words() const { return tpc_slot_.size(); }  // per TPC
  size_t ppc_words() const { return ppc_slot_.size(); }  // per PPC
  uint64_t reads = 0, writes = 0, broadcast_writes = 0, errors = 0;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& gp);
  // Index into hub_ (via the map), gpc_val_ or tpc_val_; nullptr: not a register. For a broadcast
  // address, the copy a read returns.
  const uint32_t* word(uint32_t addr) const;
  uint32_t* word(uint32_t addr) { return const_cast<uint32_t*>(static_cast<const PgraphRegfile*>(this)->word(addr)); }
  // Writes every copy `addr` reaches; false: not a register. `fanout` counts the copies.
  bool store(uint32_t addr, uint32_t v, unsigned& fanout);

  unsigned gpcs_, tpcs_, ppcs_;
  std::unordered_map<uint32_t, uint32_t> hub_;         // address -> value
  std::unordered_map<uint32_t, uint32_t> gpc_slot_;    // GPC offset -> slot
  std::unordered_map<uint32_t, uint32_t> tpc_slot_;    // TPC offset -> slot
  std::unordered_map<uint32_t, uint32_t> ppc_slot_;    // PPC offset -> slot
  std::vector<uint32_t> gpc_val_, tpc_val_, ppc_val_;  // [gpc][slot], [gpc][tpc][slot], [gpc][ppc][slot]
};

}  // namespace hetvp::gpu::gr
