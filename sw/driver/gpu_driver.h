// The host driver for hetvp's GPU: PCIe enumeration, register access, GPU memory management
// (VRAM allocation, GPU page tables, mapping of pinned host memory) and host<->device copies.
// It runs on the host CPU model and touches the system only through HostApi.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/host/host_api.h"
#include "platform/param_set.h"
#include "sw/driver/vram_allocator.h"

namespace hetvp::sw {

// How a copy's end is detected (DriverOptions::completion).
HETVP_ENUM(Completion, fence, interrupt);
// Which free VRAM block a buffer takes (DriverOptions::vram_fit): the lowest that holds it, or the
// smallest. Either way a buffer is one physically contiguous block (sw/driver/vram_allocator.h).
HETVP_ENUM(VramFit, first_fit, best_fit);

// The driver's options (workload args group `driver`), declared once (platform/param_set.h).
struct DriverOptions : ParamSet {
  Time api_call{this, "api_call", "5 us", "host software cost of one driver API call (ioctl, checks)"};
  Time poll_interval{this, "poll_interval", "100 ns", "time between two polls of a completion fence"};
  Time copy_timeout{this, "copy_timeout", "1 s", "a copy not complete after this long fails the run"};
  Enum<Completion> completion{this, "completion", Completion::fence,
                              "how a copy's end is detected: poll the fence in host memory, or wait for the MSI"};
  Bool bar1_write_combining{this, "bar1_write_combining", false,
                            "map BAR1 write-combining (ioremap_wc): IORW stores are gathered into 64-byte posted "
                            "writes"};
  // Gdev ATC'12's I/O path (pscnv nvc0_vm_read/write) loops 32-bit accesses up to 4 KB and calls
  // memcpy_fromio/toio above; its measured cost above 4 KB is one access per byte.
  Size iorw_word_limit{this, "iorw_word_limit", "0",
                       "IORW copies larger than this make one uncached access per byte instead of per mmio_width "
                       "bytes (0 = never; Gdev ATC'12's I/O path above 4 KB: docs/calibration.md)"};
  // Gdev copies a pageable buffer through a pre-allocated DMA buffer: memcpy then DMA (H->D), DMA
  // then memcpy (D->H); 0 = the host buffer is DMA-able, as the workloads' pinned memory is.
  Time bounce_htod_per_kib{this, "bounce_htod_per_kib", "0 s",
                           "CPU time per KiB to copy a host->device DMA's source into a bounce buffer first (0 = "
                           "none: the host buffer is pinned; Gdev's pageable path: docs/calibration.md)"};
  Time bounce_dtoh_per_kib{this, "bounce_dtoh_per_kib", "0 s",
                           "CPU time per KiB to copy a device->host DMA's result out of the bounce buffer (0 = none)"};
  Time module_translate{this, "module_translate", "50 ns",
                         "host CPU time per PTX instruction of a module load's translation (parse, check, lay out, "
                         "encode: sw/driver/gpu_module.h; assumption: no measurement of a driver's PTX JIT is at hand)"};
  Enum<VramFit> vram_fit{this, "vram_fit", VramFit::first_fit,
                         "which free VRAM block a buffer takes: the lowest that holds it (first_fit: without frees "
                         "buffers lie back to back in allocation order) or the smallest (best_fit); every buffer is "
                         "physically contiguous either way"};
  bool interrupt_completion() const { return completion == Completion::interrupt; }
};

// The MSI vector the driver programs into the GPU's MSI capability (and waits on).
constexpr unsigned kGpuMsiVector = 0x41;

// A region of GPU virtual address space and what backs it.
struct GpuBuffer {
  uint64_t va = 0;    // GPU virtual address
  uint64_t phys = 0;  // VRAM offset, or host physical address for host memory
  uint64_t size = 0;
  bool sysmem = false;
};

struct PcieFunction {
  unsigned bus = 0, device = 0;
  uint16_t vendor = 0, device_id = 0;
  uint64_t bar[6] = {};
  uint64_t bar_size[6] = {};
};

// A copy started on a copy engine and not yet waited for.
struct DmaTicket {
  unsigned engine = 0;
  uint32_t seq = 0;
  uint64_t size = 0;
};

enum class Direction { HostToDevice, DeviceToHost };
enum class CopyMethod { Dma, Iorw };
const char* to_string(Direction d);
const char* to_string(CopyMethod m);

class GpuDriver {
 public:
  explicit GpuDriver(HostApi& api, const DriverOptions& opt = DriverOptions{});

  // Walks the PCIe hierarchy, assigns bus numbers and BAR addresses, enables memory decoding,
  // bus mastering and MSI, and returns every NVIDIA function found.
  std::vector<PcieFunction> enumerate();
  // Enumerates and opens GPU number `index`: checks its identity and sets up its page tables.
  void open(unsigned index = 0);

  uint32_t reg_read(uint32_t offset);
  void reg_write(uint32_t offset, uint32_t value);
  const PcieFunction& function() const { return fn_; }
  const DriverOptions& options() const { return opt_; }
  unsigned num_gpcs() const { return num_gpcs_; }
  uint64_t vram_size() const { return vram_size_; }

  // Memory management. `space` 0 is the GPU's default address space (MMU PD_BASE); the others are
  // channels' address spaces (create_space). Virtual addresses are unique across every space, so
  // a buffer of one space is unmapped (a fault) in any other.
  GpuBuffer alloc_vram(uint64_t size, unsigned space = 0);
  GpuBuffer map_host(uint64_t host_phys, uint64_t size, unsigned space = 0);  // pinned host memory, visible to the GPU
  // Releases a buffer of alloc_vram: its page-table entries are cleared through BAR1 and the GPU's
  // TLB flushed (no write when its space was destroyed), its VRAM and VAs are free for reuse.
  // HostError naming the VA for a host buffer, a double free, an address never allocated or one
  // inside a buffer.
  void free_vram(const GpuBuffer& buffer);
  // A new address space (its own page directory in VRAM) and its id; destroy_space frees its page
  // directory and tables (not the buffers' VRAM: free_vram releases it, with no page-table write).
  unsigned create_space();
  void destroy_space(unsigned space);
  uint64_t space_pd(unsigned space) const;  // VRAM address of the space's page directory
  // VRAM not mapped anywhere (instance blocks, context buffers): `align` a power of two.
  uint64_t alloc_vram_phys(uint64_t size, uint64_t align = 4096);
  void free_vram_phys(uint64_t vram_offset);  // HostError as free_vram's
  // The buffers' VRAM (above the page-table area): free bytes, blocks, live buffers.
  const VramAllocator& vram() const { return vram_; }
  // Timed 32/64-bit writes to VRAM through BAR1 (what the driver does for page tables).
  void write_vram32(uint64_t vram_offset, uint32_t value);
  void write_vram64(uint64_t vram_offset, uint64_t value);
  uint64_t bar1_address(const GpuBuffer& vram_buffer, uint64_t offset = 0) const;

  // Host<->device copies (synchronous, the API call included). `host` is pinned memory mapped
  // with map_host; `dev` is VRAM.
  void copy(CopyMethod m, Direction d, const GpuBuffer& host, const GpuBuffer& dev, uint64_t size);
  void copy_dma(const GpuBuffer& src, const GpuBuffer& dst, uint64_t size, unsigned engine = 0);
  // Asynchronous copy-engine use: start returns at once (after programming the registers);
  // done polls the engine's fence once; wait blocks until it is written (or fails the run).
  // An engine runs one copy at a time: wait for its previous ticket before starting another.
  DmaTicket start_dma(unsigned engine, const GpuBuffer& src, const GpuBuffer& dst, uint64_t size);
  bool dma_done(const DmaTicket& t);
  void wait_dma(const DmaTicket& t);
  unsigned copy_engines() const { return copy_engines_; }
  // Where a block's registers sit in BAR0: the configuration places them, PTOP says where
  // (pmc.h PTOP_COPY_BASE, PTOP_COMPUTE_BASE, PTOP_CC_BASE). Read once (a BAR0 read: open()
  // reads the copy engines', the coherence runtime the compute block's, before anything is
  // measured); a block the GPU does not have is a HostError naming `what`.
  uint32_t block_base(uint32_t ptop_reg, const char* what);

  // Debug access to VRAM through the BAR1 aperture (untimed).
  void vram_peek(uint64_t vram_offset, void* dst, uint64_t size);
  void vram_poke(uint64_t vram_offset, const void* src, uint64_t size);

 private:
  uint32_t cfg_read(unsigned bus, unsigned dev, unsigned reg);
  void cfg_write(unsigned bus, unsigned dev, unsigned reg, uint32_t v);
  void map_pages(uint64_t va, uint64_t phys, uint64_t size, bool sysmem, unsigned space);
  uint64_t alloc_table();  // one 128 KiB PD or PT in the page-table area (free list first)
  struct Space {
    bool live = false;
    uint64_t pd = 0;
    std::vector<uint64_t> pde;  // PT VRAM offset per PD index (0 = none)
  };
  Space& space(unsigned id);
  void copy_iorw(Direction d, const GpuBuffer& host, const GpuBuffer& dev, uint64_t size);

  HostApi& api_;
  DriverOptions opt_;
  PcieFunction fn_;
  bool open_ = false;
  unsigned num_gpcs_ = 0;
  uint64_t vram_size_ = 0;
  uint64_t pd_ = 0;              // VRAM offset of the page directory
  uint64_t pt_next_ = 0;         // bump allocator for page tables (VRAM)
  VramAllocator vram_;           // buffers' VRAM (above the page-table area)
  VramAllocator vram_va_;        // their GPU VAs (next fit; each with an unmapped guard page after it)
  struct VramMapping {           // a live alloc_vram buffer, by VA
    uint64_t phys = 0, bytes = 0;
    unsigned space = 0;
    bool space_live = true;      // false once destroy_space took its page tables
  };
  std::map<uint64_t, VramMapping> mappings_;
  std::string out_of_vram(const char* what, uint64_t size, uint64_t bytes) const;
  uint64_t sysmem_va_next_ = 0;  // bump allocator for host mappings (GPU VA)
  std::vector<Space> spaces_;    // [0] = the default space (PD_BASE)
  std::vector<uint64_t> free_tables_;  // freed PDs/PTs (all 128 KiB)
  uint64_t fence_host_ = 0;      // pinned words the copy engines write when done (one per engine)
  GpuBuffer fence_buf_;
  uint32_t fence_seq_[8] = {};
  unsigned copy_engines_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> block_base_;  // (PTOP register, value) read so far
};

}  // namespace hetvp::sw
