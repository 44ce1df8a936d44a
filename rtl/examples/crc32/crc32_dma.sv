// hetvp — example RTL block (docs/rtl_blocks.md): a DMA-style CRC-32 accelerator.
// Registers (firmware/include/hetvp/crc32.h) on an AXI4-Lite slave; on CTRL.GO it reads LENGTH
// bytes at SRC over its AXI4 master (INCR bursts of up to 16 beats of 8 bytes, never across a
// 4 KiB boundary, one burst outstanding), computes their CRC-32 (reflected, polynomial 0xEDB88320,
// init/final xor 0xFFFFFFFF), writes the 32-bit result to DST (one narrow beat), sets
// STATUS.DONE and raises irq (level, until CTRL.ACK).
//
// Cycle behaviour (the TLM reference, crc32_ref.cpp, follows it):
//   posedge g      CTRL.GO accepted (AW and W together)  -> BUSY; arvalid from cycle g+1
//   posedge c      AR handshake                          -> beats consumed one per cycle (rready=1)
//   posedge e      last beat of a burst                  -> next AR (or AW+W) from cycle e+1
//   posedge w      AW and W handshake                    -> bready=1
//   posedge b      B handshake                           -> DONE, RESULT, irq from cycle b+1
// A misaligned SRC/DST sets DONE|ERROR and irq at posedge g, with no bus traffic.
//
// FAULT is TEST ONLY (tests/rtl/blocks): 0 = correct (every real build), 1 = ARVALID drops before
// ARREADY, 2 = ARADDR changes while waiting for ARREADY, 3 = wrong result (bit 0 flipped),
// 4 = the AXI4-Lite read channel never answers (ARREADY stays low), 5 = the result is written 4
// cycles late (AWVALID/WVALID rise 4 cycles after the last read beat; a timing-only fault: the
// data is right, only lockstep's cycle stamps see it).
module crc32_dma #(
    parameter int FAULT = 0
) (
    input  logic        clk,
    input  logic        rst_n,
    // AXI4-Lite slave: registers
    input  logic        s_axil_awvalid,
    output logic        s_axil_awready,
    input  logic [31:0] s_axil_awaddr,
    input  logic        s_axil_wvalid,
    output logic        s_axil_wready,
    input  logic [31:0] s_axil_wdata,
    input  logic [3:0]  s_axil_wstrb,
    output logic        s_axil_bvalid,
    input  logic        s_axil_bready,
    output logic [1:0]  s_axil_bresp,
    input  logic        s_axil_arvalid,
    output logic        s_axil_arready,
    input  logic [31:0] s_axil_araddr,
    output logic        s_axil_rvalid,
    input  logic        s_axil_rready,
    output logic [31:0] s_axil_rdata,
    output logic [1:0]  s_axil_rresp,
    // AXI4 master: data in, result out
    output logic        m_axi_arvalid,
    input  logic        m_axi_arready,
    output logic [3:0]  m_axi_arid,
    output logic [63:0] m_axi_araddr,
    output logic [7:0]  m_axi_arlen,
    output logic [2:0]  m_axi_arsize,
    output logic [1:0]  m_axi_arburst,
    input  logic        m_axi_rvalid,
    output logic        m_axi_rready,
    input  logic [3:0]  m_axi_rid,
    input  logic [63:0] m_axi_rdata,
    input  logic [1:0]  m_axi_rresp,
    input  logic        m_axi_rlast,
    output logic        m_axi_awvalid,
    input  logic        m_axi_awready,
    output logic [3:0]  m_axi_awid,
    output logic [63:0] m_axi_awaddr,
    output logic [7:0]  m_axi_awlen,
    output logic [2:0]  m_axi_awsize,
    output logic [1:0]  m_axi_awburst,
    output logic        m_axi_wvalid,
    input  logic        m_axi_wready,
    output logic [63:0] m_axi_wdata,
    output logic [7:0]  m_axi_wstrb,
    output logic        m_axi_wlast,
    input  logic        m_axi_bvalid,
    output logic        m_axi_bready,
    input  logic [3:0]  m_axi_bid,
    input  logic [1:0]  m_axi_bresp,
    // interrupt and activity
    output logic [0:0]  irq,
    output logic        busy
);
  // verilator lint_off UNUSEDSIGNAL
  logic [3:0] unused_ids;
  assign unused_ids = m_axi_rid ^ m_axi_bid;
  // verilator lint_on UNUSEDSIGNAL

  typedef enum logic [2:0] {
    S_IDLE = 3'd0,
    S_AR   = 3'd1,
    S_R    = 3'd2,
    S_W    = 3'd3,
    S_B    = 3'd4
  } state_t;
  state_t state;

  logic [63:0] src, dst, addr;
  logic [31:0] len, result, crc;
  logic [32:0] left;  // bytes still to consume
  logic done, err;
  logic aw_done, w_done;
  logic [1:0] late;  // FAULT 5: cycles the write waited

  // ---------------------------------------------------------------- CRC-32 of up to 8 bytes
  function automatic logic [31:0] crc_bytes(input logic [31:0] c_in, input logic [63:0] d, input logic [3:0] n);
    logic [31:0] c;
    c = c_in;
    for (int i = 0; i < 8; i++) begin
      if (4'(i) < n) begin
        c = c ^ {24'd0, d[i*8+:8]};
        for (int k = 0; k < 8; k++) c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
      end
    end
    return c;
  endfunction

  // Beats of the next burst: at most 16, at most what is left, never across 4 KiB.
  logic [9:0] to_4k;  // beats to the next 4 KiB boundary (addr is 8-byte aligned)
  logic [32:0] left_beats;
  logic [7:0] next_len;
  assign to_4k = 10'(11'h200 - {2'b0, addr[11:3]});
  assign left_beats = (left + 33'd7) >> 3;
  always_comb begin
    logic [32:0] b;
    b = left_beats;
    if (b > 33'd16) b = 33'd16;
    if (to_4k != 10'd0 && b > {23'd0, to_4k}) b = {23'd0, to_4k};
    next_len = 8'(b - 33'd1);
  end

  // ---------------------------------------------------------------- AXI4-Lite slave
  logic wr_go, rd_go;
  assign wr_go = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
  assign rd_go = s_axil_arvalid && !s_axil_rvalid && (FAULT != 4);
  assign s_axil_awready = wr_go;
  assign s_axil_wready = wr_go;
  assign s_axil_arready = rd_go;
  assign s_axil_bresp = 2'b00;
  assign s_axil_rresp = 2'b00;

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] d, input logic [3:0] s);
    logic [31:0] r;
    for (int i = 0; i < 4; i++) r[i*8+:8] = s[i] ? d[i*8+:8] : old[i*8+:8];
    return r;
  endfunction

  logic [31:0] rd_val;
  always_comb begin
    unique case (s_axil_araddr[7:0])
      8'h00:   rd_val = src[31:0];
      8'h04:   rd_val = src[63:32];
      8'h08:   rd_val = len;
      8'h0c:   rd_val = dst[31:0];
      8'h10:   rd_val = dst[63:32];
      8'h18:   rd_val = {29'd0, err && done, done, state != S_IDLE};
      8'h1c:   rd_val = result;
      8'h20:   rd_val = 32'h43524332;
      default: rd_val = 32'd0;
    endcase
  end
  // verilator lint_off UNUSEDSIGNAL
  logic [23:0] unused_addr_hi;
  assign unused_addr_hi = s_axil_araddr[31:8] ^ s_axil_awaddr[31:8];
  // verilator lint_on UNUSEDSIGNAL

  // ---------------------------------------------------------------- master outputs
  assign m_axi_arid = 4'd0;
  assign m_axi_arlen = next_len;  // addr and left are stable while in S_AR
  assign m_axi_arsize = 3'd3;  // 8 bytes per beat
  assign m_axi_arburst = 2'b01;  // INCR
  assign m_axi_rready = (state == S_R);
  assign m_axi_awid = 4'd0;
  assign m_axi_awaddr = dst;
  assign m_axi_awlen = 8'd0;
  assign m_axi_awsize = 3'd2;  // one 4-byte beat
  assign m_axi_awburst = 2'b01;
  assign m_axi_wstrb = dst[2] ? 8'hF0 : 8'h0F;
  assign m_axi_wlast = 1'b1;
  assign m_axi_bready = (state == S_B);
  assign irq[0] = done;
  assign busy = (state != S_IDLE);

  logic [3:0] beat_bytes;
  assign beat_bytes = (left >= 33'd8) ? 4'd8 : 4'(left);
  logic [31:0] final_crc;
  assign final_crc = (crc ^ 32'hFFFFFFFF) ^ ((FAULT == 3) ? 32'd1 : 32'd0);
  assign m_axi_wdata = {final_crc, final_crc};

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state <= S_IDLE;
      src <= '0;
      dst <= '0;
      len <= '0;
      addr <= '0;
      left <= '0;
      crc <= '0;
      result <= '0;
      done <= 1'b0;
      err <= 1'b0;
      aw_done <= 1'b0;
      w_done <= 1'b0;
      late <= '0;
      s_axil_bvalid <= 1'b0;
      s_axil_rvalid <= 1'b0;
      s_axil_rdata <= '0;
      m_axi_arvalid <= 1'b0;
      m_axi_araddr <= '0;
      m_axi_awvalid <= 1'b0;
      m_axi_wvalid <= 1'b0;
    end else begin
      // register reads
      if (rd_go) begin
        s_axil_rvalid <= 1'b1;
        s_axil_rdata <= rd_val;
      end else if (s_axil_rvalid && s_axil_rready) begin
        s_axil_rvalid <= 1'b0;
      end
      if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
      // register writes
      if (wr_go) begin
        s_axil_bvalid <= 1'b1;
        unique case (s_axil_awaddr[7:0])
          8'h00: src[31:0] <= merge(src[31:0], s_axil_wdata, s_axil_wstrb);
          8'h04: src[63:32] <= merge(src[63:32], s_axil_wdata, s_axil_wstrb);
          8'h08: len <= merge(len, s_axil_wdata, s_axil_wstrb);
          8'h0c: dst[31:0] <= merge(dst[31:0], s_axil_wdata, s_axil_wstrb);
          8'h10: dst[63:32] <= merge(dst[63:32], s_axil_wdata, s_axil_wstrb);
          8'h14: begin
            if (s_axil_wstrb[0] && s_axil_wdata[1]) begin
              done <= 1'b0;
              err <= 1'b0;
            end
            if (s_axil_wstrb[0] && s_axil_wdata[0] && state == S_IDLE) begin
              crc <= 32'hFFFFFFFF;
              addr <= src;
              left <= {1'b0, len};
              done <= 1'b0;
              err <= 1'b0;
              if (src[2:0] != 3'd0 || dst[1:0] != 2'd0) begin
                done <= 1'b1;
                err <= 1'b1;
              end else if (len == 32'd0) begin
                state <= S_W;
                m_axi_awvalid <= (FAULT != 5);
                m_axi_wvalid <= (FAULT != 5);
                late <= '0;
                aw_done <= 1'b0;
                w_done <= 1'b0;
              end else begin
                state <= S_AR;
                m_axi_arvalid <= 1'b1;
                m_axi_araddr <= src;
              end
            end
          end
          default: ;
        endcase
      end
      // DMA
      unique case (state)
        S_AR: begin
          if (m_axi_arvalid && m_axi_arready) begin
            m_axi_arvalid <= 1'b0;
            state <= S_R;
          end else if (FAULT == 1 && m_axi_arvalid) begin
            m_axi_arvalid <= 1'b0;  // broken: VALID dropped before READY
          end else if (FAULT == 2 && m_axi_arvalid) begin
            m_axi_araddr <= m_axi_araddr + 64'd8;  // broken: payload changes while waiting
          end else if (FAULT == 1) begin
            m_axi_arvalid <= 1'b1;
          end
        end
        S_R: begin
          if (m_axi_rvalid) begin
            crc <= crc_bytes(crc, m_axi_rdata, beat_bytes);
            left <= left - {29'd0, beat_bytes};
            addr <= addr + 64'd8;
            if (m_axi_rresp != 2'b00) err <= 1'b1;
            if (m_axi_rlast) begin
              if (left <= 33'd8) begin
                state <= S_W;
                m_axi_awvalid <= (FAULT != 5);
                m_axi_wvalid <= (FAULT != 5);
                late <= '0;
                aw_done <= 1'b0;
                w_done <= 1'b0;
              end else begin
                state <= S_AR;
                m_axi_arvalid <= 1'b1;
                m_axi_araddr <= addr + 64'd8;
              end
            end
          end
        end
        S_W: begin
          if (FAULT == 5 && !aw_done && !w_done && !m_axi_awvalid) begin
            late <= late + 2'd1;
            if (late == 2'd3) begin
              m_axi_awvalid <= 1'b1;
              m_axi_wvalid <= 1'b1;
            end
          end
          if (m_axi_awvalid && m_axi_awready) begin
            m_axi_awvalid <= 1'b0;
            aw_done <= 1'b1;
          end
          if (m_axi_wvalid && m_axi_wready) begin
            m_axi_wvalid <= 1'b0;
            w_done <= 1'b1;
          end
          if ((aw_done || (m_axi_awvalid && m_axi_awready)) && (w_done || (m_axi_wvalid && m_axi_wready)))
            state <= S_B;
        end
        S_B: begin
          if (m_axi_bvalid) begin
            if (m_axi_bresp != 2'b00) err <= 1'b1;
            result <= final_crc;
            done <= 1'b1;
            state <= S_IDLE;
          end
        end
        default: ;
      endcase
    end
  end
endmodule
