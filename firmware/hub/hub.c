/* hetvp — HUB firmware: reads the topology (PTOP NUM_GPCS and where the GPC windows are, through
 * the BAR0 window), waits for every GPC's init flag (status scratch bit 31 of its block, through the BAR0 window; sleeping on the
 * timer between looks), sets its own, then serves commands (docs/firmware.md). */
#include "fw.h"
#include "coherence_fw.h"
#ifdef HUB_RTL_CRC32 /* hub_rtl.elf (firmware/hub/CMakeLists.txt) */
#include "rtl_crc32_fw.h"
#endif

#include "hetvp/compute.h"
#include "hetvp/gpu_map.h"
#include "hetvp/pmc.h"

static uint32_t num_gpcs, gpc_base, gpc_stride;

/* ---- GR contexts (docs/contexts.md) ------------------------------------------------------ */
#ifdef HETVP_FALCON
/* On GF100's Falcon the context is GF100's (docs/firmware_falcon.md "GF100's context"): the HUB's
 * MMCTX list is the one nouveau's firmware runs, appended by the driver at boot (falcon_lists.h:
 * nouveau's `hub` pack, then the compute front end's registers), absolute BAR0 addresses. */
#include "falcon_lists.h"
#define HUB_LIST falcon_list(0)
#define HUB_LIST_LEN falcon_list_len(0)
#else
/* The HUB's MMCTX list: the compute front end's context registers (compute.h), BAR0 offsets
 * relative to MMCTX_BASE = the compute block's position (PTOP_COMPUTE_BASE). */
#define GR_LIST_ENTRY(off, count) GRC_MMCTX_ENTRY(off, count) | GRC_MMCTX_ENTRY_BASE_EN,
static const uint32_t hub_list[] = {HETVP_COMPUTE_CTX_REGS(GR_LIST_ENTRY) 0u}; /* 0: end */
#define HUB_LIST hub_list
#define HUB_LIST_LEN (sizeof hub_list / sizeof hub_list[0] - 1u)
#endif
static uint32_t compute_base;         /* 0: no compute block, nothing to switch on the HUB */
static uint32_t hub_words;            /* words the HUB's list moves; 0: nothing to switch on the HUB */
static uint32_t hub_units, gpc_units; /* context buffer layout, 256-byte units (gr_ctxsw.h) */
#define GPC_WAIT_US 10000u            /* a GPC that has not answered in 10 ms failed */

static uint32_t gpc_window(uint32_t n) { return gpc_base + n * gpc_stride; }
#ifdef HETVP_FALCON
/* The Falcon HUB polls its waits (no timer to sleep on): a GPC's SWGEN1 would only interrupt a spin
 * at a time that depends on the quantum (the core sees another thread's interrupt at its next
 * burst), and costs the GPC two bridge accesses. So the GPCs do not notify; the polls see the answer. */
#define GPC_NOTIFY 0u
#else
#define GPC_NOTIFY FW_CMD_NOTIFY_HUB
#endif
/* Starts a command on GPC n's firmware (mcu_regs.h protocol, through BAR0) that wakes the HUB when
 * done (FW_CMD_NOTIFY_HUB, RV32); returns the GPC's command sequence before it. */
static uint32_t gpc_cmd_start(uint32_t n, uint32_t cmd, uint32_t data, uint32_t arg0) {
  const uint32_t g = gpc_window(n);
  const uint32_t seq = bar0_read(g + MCU_STATUS1);
  bar0_write(g + FW_WINDOW_REG(FW_ARG0), arg0);
  bar0_write(g + MCU_METHOD_DATA, data);
  bar0_write(g + MCU_METHOD_CMD, cmd | GPC_NOTIFY);
  return seq;
}
static uint32_t wait_gpc, wait_seq;
static int gpc_answered(void) { return bar0_read(gpc_window(wait_gpc) + MCU_STATUS1) != wait_seq; }
/* Sleeps until GPC n answered (its MCU_IRQ_SWGEN1 wakes us); returns FW_ERROR (FW_ERR_TIMEOUT when it
 * did not within ~10 ms) and *result. */
static uint32_t gpc_cmd_wait(uint32_t n, uint32_t seq, uint32_t* result) {
  wait_gpc = n;
  wait_seq = seq;
  if (!fw_wait_until(gpc_answered, GPC_WAIT_US * cycles_per_us())) return FW_ERR_TIMEOUT;
  const uint32_t g = gpc_window(n);
  *result = bar0_read(g + FW_RESULT);
  return bar0_read(g + FW_ERROR);
}

/* MEM_CMD LOAD_CHAN: the context buffer (VRAM >> 8) of channel word `chan`; returns GRC_ERR_*. */
static uint32_t gr_chan_ctx(uint32_t chan, uint32_t* ctx) {
  mcu_reg_write(GRH_MEM_CHAN, chan);
  mcu_reg_write(GRH_MEM_CMD, GRH_MEM_CMD_LOAD_CHAN);
  while (mcu_reg_read(GRH_MEM_CMD)) {
  }
  const uint32_t st = mcu_reg_read(GRH_MEM_CTX_STATUS);
  *ctx = mcu_reg_read(GRH_MEM_CTX);
  return st;
}

/* Saves (load = 0) or loads GR state to / from the context buffer at VRAM ctx << 8: every GPC's
 * strands (their firmware, in parallel) and the HUB's MMCTX list. Returns GRC_ERR_*. */
static void gr_layout(void);
static uint32_t gr_xfer(uint32_t ctx, uint32_t load, uint32_t* bytes) {
  gr_layout();
  uint32_t seq[GPU_MAX_GPCS];
  const uint32_t gpcs = gpc_units ? num_gpcs : 0u; /* GPCs without strand words: nothing to ask */
  for (uint32_t n = 0; n < gpcs; ++n)
    seq[n] = gpc_cmd_start(n, FW_CMD_GR_GPC_XFER, ctx + hub_units + n * gpc_units, load);
  mcu_reg_write(GRC_ERROR, 0);
  if (hub_words) {
    const uint32_t* list = HUB_LIST;
    mcu_reg_write(GRC_MEM_BASE, ctx);
    mcu_reg_write(GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VRAM);
    mcu_reg_write(GRC_MMCTX_BASE, compute_base);
    mcu_reg_write(load ? GRC_MMCTX_LOAD_SWBASE : GRC_MMCTX_SAVE_SWBASE, 0);
    mcu_reg_write(GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START | GRC_MMCTX_CTRL_QLIMIT | (load ? GRC_MMCTX_CTRL_DIR_LOAD : 0u));
    for (uint32_t i = 0; i < HUB_LIST_LEN; ++i) {
      while (!(mcu_reg_read(GRC_MMCTX_CTRL) & GRC_MMCTX_CTRL_FREE_MASK)) fw_ctxsw_wait_idle();
      mcu_reg_write(GRC_MMCTX_QUEUE, list[i]);
    }
    fw_ctxsw_wait_idle();
  }
  uint32_t err = mcu_reg_read(GRC_ERROR) & 0xffu;
  uint32_t moved = err ? 0u : mcu_reg_read(GRC_MMCTX_WORDS) * 4u;
  for (uint32_t n = 0; n < gpcs; ++n) {
    uint32_t r = 0;
    if (gpc_cmd_wait(n, seq[n], &r) != FW_ERR_OK) {
      if (!err) err = GRC_ERR_GPC;
    } else
      moved += r;
  }
  *bytes = moved;
  return err;
}

/* MCU_IRQ_CHSW: hub.fuc's switch path — save CHAN_ADDR's channel if valid, load CHAN_NEXT's, set
 * CHAN_ADDR, ACK; on an error CHSW ERROR | code (the unit fails the run naming the channel). */
void fw_chsw(void) {
#ifndef HETVP_FALCON /* a Falcon controller measures CHSW_FW_CYCLES itself, for either firmware (ctxctl.cpp) */
  const uint32_t t0 = mcu_reg_read(MCU_UC_CYCLES_LO);
#endif
  const uint32_t prev = mcu_reg_read(GRH_CHAN_ADDR), next = mcu_reg_read(GRH_CHAN_NEXT);
  uint32_t err = 0, ctx = 0, saved = 0, loaded = 0;
  if (prev & GRH_CHAN_VALID) {
    err = gr_chan_ctx(prev, &ctx);
    if (!err) err = gr_xfer(ctx, 0, &saved);
  }
  if (!err && (next & GRH_CHAN_VALID)) {
    err = gr_chan_ctx(next, &ctx);
    if (!err) err = gr_xfer(ctx, 1, &loaded);
  }
  if (!err) mcu_reg_write(GRH_CHAN_ADDR, next);
  mcu_reg_write(GRH_CHSW_BYTES, saved + loaded);
#ifndef HETVP_FALCON
  mcu_reg_write(GRH_CHSW_FW_CYCLES, mcu_reg_read(MCU_UC_CYCLES_LO) - t0);
#endif
  mcu_reg_write(GRH_CHSW, err ? GRH_CHSW_ERROR | err << GRH_CHSW_CODE_SHIFT : GRH_CHSW_ACK);
}

static uint32_t have_gr;     /* a GR context-switch unit shares the HUB window (MCU_UC_ID_CTXSW) */
static uint32_t gr_laid_out; /* the layout is known (on first use, so that a boot does not wait for it) */

static void gr_initialize(void) {
  have_gr = mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_CTXSW;
  if (!have_gr) return; /* a GPU built without the gr block: the GR commands answer FW_ERR_NO_DEVICE */
  compute_base = bar0_read(GPU_PTOP_BASE + PTOP_COMPUTE_BASE);
#ifdef HETVP_FALCON
  if (!falcon_lists_ok(1u)) falcon_lists_overrun();
  hub_words = falcon_list_words_moved(0);
#else
  for (uint32_t i = 0; compute_base && i < HUB_LIST_LEN; ++i)
    hub_words += (hub_list[i] >> GRC_MMCTX_ENTRY_COUNT_SHIFT) + 1u;
#endif
  hub_units = (hub_words * 4u + GR_CTX_UNIT - 1u) / GR_CTX_UNIT;
}

/* The GPCs' part of the context buffer: asked once, at the first GR command or switch (the golden
 * context's generation pays it). Every GPC has the same strands: GPC 0 answers for all. */
static void gr_layout(void) {
  if (gr_laid_out) return;
  gr_laid_out = 1;
  gpc_units = 0;
  uint32_t r = 0;
  if (num_gpcs && gpc_cmd_wait(0, gpc_cmd_start(0, FW_CMD_GR_INFO, 0, 0), &r) == FW_ERR_OK) gpc_units = r / GR_CTX_UNIT;
}

void fw_initialize(void) {
  num_gpcs = bar0_read(GPU_PTOP_BASE + PTOP_NUM_GPCS);
  gpc_base = bar0_read(GPU_PTOP_BASE + PTOP_GPC_BASE);
  gpc_stride = bar0_read(GPU_PTOP_BASE + PTOP_GPC_STRIDE);
#ifdef HETVP_FALCON
  /* On GF100 the driver starts only the HUB (nouveau's gf100_gr_init_ctxctl_int); the HUB firmware
   * starts the GPCs through their broadcast window, as nouveau's hub.fuc does. */
  bar0_write(GPU_GPC_BCAST_BASE + FCTX_UC_BLOCK_ON_FIFO, 0);
  bar0_write(GPU_GPC_BCAST_BASE + FCTX_UC_CTRL, FCTX_UC_CTRL_START);
#endif
  uint32_t nap = cycles_per_us(); /* ~1 us, doubling while under 65,536 cycles: a late GPC costs few wakeups */
  for (uint32_t i = 0; i < num_gpcs; ++i)
    while (!(bar0_read(gpc_base + i * gpc_stride + MCU_STATUS0) & MCU_STATUS0_INIT_DONE)) {
      fw_sleep_cycles(nap);
      if (nap < 65536u) nap *= 2;
    }
  gr_initialize();
#ifdef HETVP_FALCON
  falcon_iowr(FCTX_IO(FCTX_HETVP_FW_ID_REG, 0), FCTX_HETVP_FW_ID); /* the driver speaks hetvp's commands */
#endif
  mcu_reg_write(MCU_STATUS0, MCU_STATUS0_INIT_DONE | num_gpcs);
}

int fw_dispatch(uint32_t cmd, uint32_t data, uint32_t* result, uint32_t* error) {
  if (!have_gr && (cmd == FW_CMD_GR_INFO || cmd == FW_CMD_GR_SET_CHAN || cmd == FW_CMD_GR_SAVE)) {
    *error = FW_ERR_NO_DEVICE;
    return 1;
  }
  switch (cmd) {
    case FW_CMD_REG_READ:
      if (data & 3u || data >= MCU_BAR0_SIZE) {
        *error = FW_ERR_BAD_ARG;
        return 1;
      }
      *result = bar0_read(data);
      return 1;
    case FW_CMD_REG_WRITE:
      if (data & 3u || data >= MCU_BAR0_SIZE) {
        *error = FW_ERR_BAD_ARG;
        return 1;
      }
      bar0_write(data, mcu_reg_read(FW_ARG0));
      return 1;
    case FW_CMD_INFO:
      *result = num_gpcs;
      return 1;
    case FW_CMD_GR_INFO:
      gr_layout();
      *result = (hub_units + num_gpcs * gpc_units) * GR_CTX_UNIT;
      return 1;
    case FW_CMD_GR_SET_CHAN: { /* hub.fuc 0x0001: CHAN_ADDR = the channel, no transfer */
      uint32_t ctx = 0, err = gr_chan_ctx(data, &ctx);
      if (err) {
        *error = FW_ERR_GR;
        *result = err;
      } else
        mcu_reg_write(GRH_CHAN_ADDR, data);
      return 1;
    }
    case FW_CMD_GR_SAVE: { /* hub.fuc 0x0002: save CHAN_ADDR's context (the golden context) */
      uint32_t ctx = 0, bytes = 0, chan = mcu_reg_read(GRH_CHAN_ADDR);
      uint32_t err = (chan & GRH_CHAN_VALID) ? gr_chan_ctx(chan, &ctx) : GRC_ERR_BAD_INST;
      if (!err) err = gr_xfer(ctx, 0, &bytes);
      if (err) {
        *error = FW_ERR_GR;
        *result = err;
      } else
        *result = bytes;
      return 1;
    }
    case FW_CMD_COH_ACQUIRE:
      *result = fw_coh_acquire(FW_VA_HI(mcu_reg_read(FW_ARG0)) | data, error);
      return 1;
    case FW_CMD_COH_RELEASE:
      *result = fw_coh_release(FW_VA_HI(mcu_reg_read(FW_ARG0)) | data, error);
      return 1;
#ifdef HUB_RTL_CRC32
    case FW_CMD_RTL_CRC32: {
      const uint32_t hi = mcu_reg_read(FW_ARG2);
      *result = fw_rtl_crc32(FW_COPY_SRC_HI(hi) | mcu_reg_read(FW_ARG0), FW_COPY_DST_HI(hi) | mcu_reg_read(FW_ARG1),
                             data, error);
      return 1;
    }
#endif
  }
  return 0;
}

int main(void) { return fw_main(); }
