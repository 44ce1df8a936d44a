/* hetvp — the context-switch lists' storage in hetvp's own Falcon firmware (falcon_lists.h). */
#include "hetvp_rt.h"
#include "falcon_lists.h"

#include "hetvp/gpu_map.h"
#include "hetvp/gr_ctxsw.h"
#include "hetvp/falcon_ctxctl_regs.h"

#ifdef HETVP_FALCON_HUB
/* nouveau hub.fuc's own GF100 entry (its chipset table: mmctx_data(0x17e91c, 2)), before the driver's. */
#define FALCON_LIST_OWN 1u
uint32_t falcon_list_words[FALCON_LIST_CAPACITY] = {GRC_MMCTX_ENTRY(PFB_UNK_17E91C, 2)};
#else
#define FALCON_LIST_OWN 0u
uint32_t falcon_list_words[FALCON_LIST_CAPACITY] = {0u};
#endif

uint32_t falcon_list_bounds[FALCON_LIST_BOUNDS] __attribute__((section(".data.hetvp_at0"))) = {
    (uint32_t)(uintptr_t)&falcon_list_words[0], (uint32_t)(uintptr_t)&falcon_list_words[FALCON_LIST_OWN],
    (uint32_t)(uintptr_t)&falcon_list_words[FALCON_LIST_OWN], (uint32_t)(uintptr_t)&falcon_list_words[FALCON_LIST_OWN]};

uint32_t falcon_list_words_moved(uint32_t i) {
  const uint32_t* l = falcon_list(i);
  uint32_t words = 0;
  for (uint32_t k = 0, n = falcon_list_len(i); k < n; ++k) words += (l[k] >> GRC_MMCTX_ENTRY_COUNT_SHIFT) + 1u;
  return words;
}

int falcon_lists_ok(uint32_t lists) {
  const uint32_t lo = (uint32_t)(uintptr_t)&falcon_list_words[0];
  const uint32_t hi = (uint32_t)(uintptr_t)&falcon_list_words[FALCON_LIST_CAPACITY];
  for (uint32_t i = 0; i <= lists; ++i)
    if (falcon_list_bounds[i] < lo || falcon_list_bounds[i] > hi || (falcon_list_bounds[i] & 3u)) return 0;
  return 1;
}

void falcon_lists_overrun(void) {
#ifdef HETVP_FALCON_HUB
  falcon_iowr(FCTX_IO(FCTX_CC_SCRATCH + 5u * 4u, 0), FALCON_ERR_LISTS_OVERRUN);
  falcon_iowr(FCTX_IO(FCTX_INTR_UP_SET, 0), 1u);
#else
  bar0_write(GPU_HUB_BASE + FCTX_CC_SCRATCH + 5u * 4u, FALCON_ERR_LISTS_OVERRUN);
  bar0_write(GPU_HUB_BASE + FCTX_INTR_UP_SET, 1u);
#endif
}
