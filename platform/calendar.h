// Reservations of a shared resource (a link direction, a bus) in absolute simulated time.
//
// With temporal decoupling, initiators call a shared resource out of time order: one running
// a quantum ahead reserves its slot before another, behind it, asks for an earlier one. A
// single "busy until" cursor would queue the earlier request behind the later one, so results
// would depend on the quantum. A Calendar instead places every request in the first gap at or
// after its own time that is long enough, whatever the order of the calls. Adjacent
// reservations merge, so a saturated stream stays one block and a search stays short.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

namespace hetvp {

class Calendar {
 public:
  // Reserves `len` at the earliest time >= `at` where the resource is free that long; returns
  // the start of the reservation.
  sc_core::sc_time reserve(sc_core::sc_time at, const sc_core::sc_time& len);
  // Forgets reservations over before `t`: no request starts before SystemC's current time.
  void forget_before(const sc_core::sc_time& t);
  // End of the last reservation (SC_ZERO_TIME when none is remembered).
  sc_core::sc_time busy_until() const { return sc_core::sc_time::from_value(last_end_); }
  size_t blocks() const { return blocks_; }

 private:
  // [start, end) blocks in time order (integer picoseconds, SystemC's time unit), disjoint and
  // never touching. They are kept in runs of at most kMaxRun blocks, in time order: requests
  // come mostly at the end, but a GPU running ahead keeps thousands of blocks alive and an
  // earlier request lands among them; inserting into one flat vector moved a few hundred blocks
  // per request (memmove was 13 % of coherence square, #31), inserting into a run moves at most
  // kMaxRun. Old blocks leave at the front: runs_[0]'s blocks before head_ are forgotten, and a
  // run is dropped when all of its blocks are. No run is empty.
  struct Block {
    uint64_t start, end;
  };
  using Run = std::vector<Block>;
  static constexpr size_t kMaxRun = 64;
  // A block's place: run r, index i (i == 0 and r == runs_.size() is the end).
  struct Pos {
    size_t r, i;
  };
  Block& blk(Pos p) { return runs_[p.r][p.i]; }
  bool is_end(Pos p) const { return p.r == runs_.size(); }
  void advance(Pos& p) const {
    if (++p.i == runs_[p.r].size()) ++p.r, p.i = 0;
  }
  // Index of the first of b[0..n) that ends after `at` (n when none).
  static size_t first_ending_after(const Block* b, size_t n, uint64_t at);
  void insert(Pos p, Block b);  // a new block before p
  void erase(Pos p);
  Run new_run();            // an empty run with room for kMaxRun + 1 blocks (a spare one if any)
  void drop_run(size_t r);  // its storage goes to the spares

  std::vector<Run> runs_;
  std::vector<Run> spare_;  // dropped runs kept for their storage (a run comes and goes per ~32 blocks)
  size_t head_ = 0;         // forgotten blocks at the front of runs_[0]
  size_t blocks_ = 0;       // live blocks
  // At most the end of the first live block (UINT64_MAX: none): forget_before's common case,
  // nothing to forget, is one compare (it runs before every reservation). Exact after
  // forget_before; a new block lowers it to its end; merges only move ends later.
  uint64_t first_end_ = UINT64_MAX;
  uint64_t last_end_ = 0;  // end of the last block (0: none), so the append test reads no run
};

}  // namespace hetvp
