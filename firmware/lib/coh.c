/* hetvp — the GPU side of the coherence protocol (SPEC §7, Algorithm 2), done by the HUB
 * microcontroller instead of a kernel: one method write from the host starts it.
 *
 * The directory's registers are host physical (DIR_BASE); the runtime maps that window into the
 * GPU's address space, and the HUB reaches it like any GPU bus master: 4-byte xfers through the
 * GPU MMU, the host interface and PCIe — the path the acquire/release kernels' loads and stores
 * take. What the HUB saves is the host's part: no kernel launch (8 register writes across PCIe and
 * a completion poll), and the status polls run on the GPU side of the link, 1 us apart. */
#include "coherence_fw.h"

#include "hetvp/coherence.h"

static uint32_t word[2] __attribute__((aligned(8)));

/* One 4-byte access to the directory window at GPU VA dir + off. Returns XFER_STATUS on a fault,
 * else 0 (a load leaves the value in word[0]). */
static uint32_t dir_access(uint64_t dir, uint32_t off, uint32_t dir_bit) {
  const uint64_t a = dir + off;
  const uint32_t st = fw_xfer(2u | dir_bit, (uint32_t)a, (uint32_t)(a >> 32), fw_dmem_offset(word));
  return (st & MCU_XFER_FAULT) ? st : 0;
}

static uint32_t dir_write(uint64_t dir, uint32_t off, uint32_t v) {
  word[0] = v;
  return dir_access(dir, off, MCU_XFER_DIR_STORE);
}

/* Polls a status register until its bit 0 is set, ~1 us apart (the core's clock, read once), at
 * most COH_POLL_LIMIT times (then FW_ERR_TIMEOUT). */
#define COH_POLL_LIMIT 1000000u
static uint32_t poll_cycles;
static uint32_t dir_wait(uint64_t dir, uint32_t off, uint32_t* error) {
  if (!poll_cycles) poll_cycles = cycles_per_us();
  for (uint32_t i = 0; i < COH_POLL_LIMIT; ++i) {
    const uint32_t st = dir_access(dir, off, MCU_XFER_DIR_LOAD);
    if (st) {
      *error = FW_ERR_XFER;
      return st;
    }
    if (word[0] & 1u) return 0;
    fw_sleep_cycles(poll_cycles);
  }
  *error = FW_ERR_TIMEOUT;
  return off;
}

#define STEP(expr)               \
  do {                           \
    const uint32_t st_ = (expr); \
    if (st_) {                   \
      *error = FW_ERR_XFER;      \
      return st_;                \
    }                            \
  } while (0)

uint32_t fw_coh_acquire(uint64_t dir, uint32_t* error) {
  STEP(dir_write(dir, DIR_LOCK, 1));
  STEP(dir_write(dir, DIR_GPU_TRACK, 1));
  return 0;
}

uint32_t fw_coh_release(uint64_t dir, uint32_t* error) {
  STEP(dir_write(dir, DIR_GPU_TRACK, 0));
  STEP(dir_write(dir, DIR_HISTORY, 2));
  uint32_t r = dir_wait(dir, DIR_HIST_STATUS, error);
  if (*error) return r;
  STEP(dir_write(dir, DIR_INVALIDATE, 2));
  r = dir_wait(dir, DIR_INVAL_STATUS, error);
  if (*error) return r;
  STEP(dir_write(dir, DIR_LOCK, 0));
  return 0;
}
