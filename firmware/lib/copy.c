/* hetvp — the data-transfer offload of Fujii 2014: copy between two GPU virtual addresses
 * (VRAM or host memory through the GPU MMU) in xfer steps through data memory.
 *
 * The xfer DMA moves 2^n bytes (8..256), aligned to its size on both sides, between data memory
 * and a GPU virtual address. A copy of any size and alignment is done one destination block at a
 * time, a block ending at the next 256-byte boundary of the destination:
 *   1. load the 8-byte-aligned cover of the source bytes into `buf` (power-of-two pieces placed
 *      at the same offset modulo 256 as their address, so every piece is aligned on both sides);
 *   2. if source and destination differ modulo 256, move the bytes inside `buf` (a byte copy:
 *      the microcontroller pays for misalignment);
 *   3. if the block starts or ends inside an 8-byte word, load that destination word first and
 *      keep its bytes outside the block (read-modify-write: nothing beyond the copy is written);
 *   4. store the 8-byte-aligned cover of the destination bytes.
 * A 256-byte-aligned copy is exactly the paper's loop: load 256 B into data memory, store it out. */
#include <stddef.h>

#include "fw.h"

/* 512 bytes: a source cover starts anywhere in its 256-byte block and spans at most 256 + 14. */
static uint8_t buf[512] __attribute__((aligned(256)));
static uint8_t edge[16] __attribute__((aligned(8))); /* destination head and tail words (step 3) */

/* Moves [a, e) (both 8-aligned) between GPU VA space and buf + (address - base) in the largest
 * aligned power-of-two pieces. Returns XFER_STATUS of a faulting piece, or 0. */
static uint32_t move_cover(uint64_t a, uint64_t e, uint64_t base, uint32_t dir) {
  const uint32_t buf_off = fw_dmem_offset(buf);
  while (a < e) {
    uint32_t n = 3; /* 2^3 = 8 bytes at least */
    while (n < 8 && (a & ((2ull << n) - 1)) == 0 && a + (2ull << n) <= e) ++n;
    uint32_t st = fw_xfer(n | dir, (uint32_t)a, (uint32_t)(a >> 32), buf_off + (uint32_t)(a - base));
    if (st & MCU_XFER_FAULT) return st;
    a += 1ull << n;
  }
  return 0;
}

static uint32_t move_word(uint64_t a, uint8_t* dst, uint32_t dir) {
  uint32_t st = fw_xfer(3u | dir, (uint32_t)a, (uint32_t)(a >> 32), fw_dmem_offset(dst));
  return (st & MCU_XFER_FAULT) ? st : 0;
}

uint32_t fw_copy(uint64_t src, uint64_t dst, uint32_t size, uint32_t* error) {
  uint32_t done = 0;
  while (done < size) {
    const uint64_t s = src + done, d = dst + done;
    uint32_t n = 256u - (uint32_t)(d & 255u);
    if (n > size - done) n = size - done;
    const uint64_t base_s = s & ~255ull, base_d = d & ~255ull;
    const uint64_t sa = s & ~7ull, se = (s + n + 7) & ~7ull;
    const uint64_t da = d & ~7ull, de = (d + n + 7) & ~7ull;
    uint32_t st;
    /* 3 (first half): the destination's partial words, before buf is reused. */
    const int head = (d & 7) != 0, tail = ((d + n) & 7) != 0;
    if (head && (st = move_word(da, edge, MCU_XFER_DIR_LOAD))) goto fault;
    if (tail && (st = move_word(de - 8, edge + 8, MCU_XFER_DIR_LOAD))) goto fault;
    /* 1 */
    if ((st = move_cover(sa, se, base_s, MCU_XFER_DIR_LOAD))) goto fault;
    /* 2 */
    const uint32_t from = (uint32_t)(s - base_s), to = (uint32_t)(d - base_d);
    if (from != to) memmove(buf + to, buf + from, n);
    /* 3 (second half) */
    if (head) memcpy(buf + (uint32_t)(da - base_d), edge, (uint32_t)(d - da));
    if (tail) {
      const uint32_t keep = (uint32_t)(de - (d + n));
      memcpy(buf + (uint32_t)(d + n - base_d), edge + 8 + (8 - keep), keep);
    }
    /* 4 */
    if ((st = move_cover(da, de, base_d, MCU_XFER_DIR_STORE))) goto fault;
    done += n;
    continue;
  fault:
    *error = FW_ERR_XFER;
    mcu_reg_write(FW_ARG2, done); /* how far it got */
    return st;
  }
  return done;
}
