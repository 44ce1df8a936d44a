/* hetvp — GF100's context-switch register lists in hetvp's own Falcon firmware (issue #39,
 * docs/firmware_falcon.md "GF100's context"). The firmware carries no list of its own (but the HUB
 * image's one GF100 entry, as nouveau's hub.fuc): the driver appends nouveau's lists at boot exactly
 * as gf100_gr_init_csdata does for nouveau's images (sw/driver/falcon_boot.cpp `csdata`): it reads the
 * two words at data address `starstar` and `starstar + 4`, writes its list words after the larger and
 * stores their end at `starstar + 4`. The bounds therefore sit at data address 0 (rv2fuc.py places the
 * section .data.hetvp_at0 first), and list i is [bounds[i], bounds[i + 1]):
 *   HUB: list 0 = the HUB list (starstar 0: nouveau's `hub` pack, then hetvp's compute registers,
 *        falcon_ctx_lists.cpp), absolute BAR0 addresses;
 *   GPC: list 0 = the GPC list (starstar 0: `gpc_0`, `gpc_1`, offsets from the GPC's unicast base
 *        0x500000 + n * 0x8000), list 1 = the TPC list (starstar 4: `tpc`, offsets from TPC 0,
 *        GPC + 0x4000, stride 0x800). */
#ifndef HETVP_FALCON_LISTS_H
#define HETVP_FALCON_LISTS_H

#include <stdint.h>

/* 4 bounds: a Kepler boot also appends a PPC list at starstar 8 (never run by this firmware, which
 * switches GF100's context; the bound keeps the driver's write inside the bounds). */
#define FALCON_LIST_BOUNDS 4u
#ifdef HETVP_FALCON_HUB
#define FALCON_LIST_CAPACITY 128u /* words: GF100 needs 1 + 38 (`hub`) + 23 (compute) = 62 */
#else
#define FALCON_LIST_CAPACITY 64u /* words: GF100 needs 15 + 9 (`gpc_0`, `gpc_1`) + 19 (`tpc`) = 43 */
#endif

extern uint32_t falcon_list_bounds[FALCON_LIST_BOUNDS]; /* data address 0 */
extern uint32_t falcon_list_words[FALCON_LIST_CAPACITY];

/* List i's first word and its number of words; 0 words when the driver's lists overran the buffer
 * (falcon_lists_ok() says so). */
static inline const uint32_t* falcon_list(uint32_t i) { return (const uint32_t*)(uintptr_t)falcon_list_bounds[i]; }
static inline uint32_t falcon_list_len(uint32_t i) {
  return falcon_list_bounds[i + 1u] > falcon_list_bounds[i] ? (falcon_list_bounds[i + 1u] - falcon_list_bounds[i]) / 4u
                                                           : 0u;
}
/* The words the MMCTX engine moves for list i (count + 1 per entry), times `units` (MULTI_EN). */
uint32_t falcon_list_words_moved(uint32_t i);
/* 1 when every bound lies inside falcon_list_words (the driver wrote no more than the capacity). */
int falcon_lists_ok(uint32_t lists);
/* The driver's lists overran falcon_list_words: reported as nouveau's firmware reports an error (the
 * HUB's CC_SCRATCH[5] = FALCON_ERR_LISTS_OVERRUN, INTR_UP_SET), which stops the run naming the code. */
#define FALCON_ERR_LISTS_OVERRUN 0x80u /* hetvp's code, beyond nouveau's os.h E_* */
void falcon_lists_overrun(void);

#endif
