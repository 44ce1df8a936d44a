// hetvp — TEST ONLY block for the bridges (tests/rtl/test_rtl_bridges.cpp): APB registers, an AXI4
// master that copies BURSTS bursts of 4 beats x 8 bytes from SRC to DST with up to MAXOUT read
// bursts outstanding (ARID = burst number), then writes them back, each burst's W beats after its
// AW (AWs run ahead) and WSTRB = STRB on every beat; irq when every B is in. MAXSEEN reports the most read
// bursts it had outstanding. FAULT = 1: PREADY never rises (the APB time-out test).
//   0x00 SRC (RW)  0x04 DST (RW)  0x08 BURSTS (RW, 1..16)  0x0c STRB (RW, 8 bits)  0x10 CTRL (W: 1 go,
//   2 ack)  0x14 STATUS (R: 1 busy, 2 done)  0x18 MAXOUT (RW, 1..4)  0x1c MAXSEEN (R)
//   0x20 BREAK (RW, 4 bits): the AXI4 rule the master breaks (tests/rtl/test_rtl_bridges.cpp):
//   0 none, 1 ARBURST 0b11, 2 ARBURST FIXED, 3 ARBURST WRAP, 4 ARSIZE 16 bytes, 5 AWBURST FIXED,
//   6 WLAST on beat 2 of 4, 7 no WLAST, 8 RREADY never high, 9 BREADY never high.
module apb_copy #(
    parameter int FAULT = 0
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        s_apb_psel,
    input  logic        s_apb_penable,
    input  logic        s_apb_pwrite,
    input  logic [31:0] s_apb_paddr,
    input  logic [31:0] s_apb_pwdata,
    input  logic [3:0]  s_apb_pstrb,
    output logic        s_apb_pready,
    output logic [31:0] s_apb_prdata,
    output logic        s_apb_pslverr,
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
    output logic [0:0]  irq
);
  // verilator lint_off UNUSEDSIGNAL
  logic [31:0] unused;
  assign unused = {s_apb_paddr[31:8], s_apb_pstrb, m_axi_bid} ^ {30'd0, m_axi_rresp ^ m_axi_bresp};
  // verilator lint_on UNUSEDSIGNAL

  logic [31:0] src, dst;
  logic [4:0] bursts;
  logic [7:0] strb;
  logic [2:0] maxout, maxseen, out_rd;
  logic [3:0] brk;
  logic busy, done;
  logic [4:0] ar_n, r_n, aw_n, b_n;  // bursts: read issued, read complete, write issued, write acked
  logic [6:0] w_n;                   // write beats sent
  logic [1:0] r_beat;
  logic [63:0] buffer[64];

  // APB: one wait state in ACCESS (PREADY registered), never with FAULT 1
  logic ready_q;
  assign s_apb_pready = ready_q && (FAULT != 1);
  assign s_apb_pslverr = 1'b0;
  logic apb_do;
  assign apb_do = s_apb_psel && s_apb_penable && s_apb_pready;

  logic reading, writing;
  assign reading = busy && (r_n != bursts);
  assign writing = busy && !reading;
  assign m_axi_arvalid = reading && (ar_n != bursts) && (out_rd < maxout);
  assign m_axi_arid = ar_n[3:0];
  assign m_axi_araddr = {32'd0, src + {22'd0, ar_n, 5'd0}};
  assign m_axi_arlen = 8'd3;
  assign m_axi_arsize = (brk == 4'd4) ? 3'd4 : 3'd3;
  assign m_axi_arburst = (brk == 4'd1) ? 2'b11 : (brk == 4'd2) ? 2'b00 : (brk == 4'd3) ? 2'b10 : 2'b01;
  assign m_axi_rready = reading && (brk != 4'd8);
  assign m_axi_awvalid = writing && (aw_n != bursts);
  assign m_axi_awid = aw_n[3:0];
  assign m_axi_awaddr = {32'd0, dst + {22'd0, aw_n, 5'd0}};
  assign m_axi_awlen = 8'd3;
  assign m_axi_awsize = 3'd3;
  assign m_axi_awburst = (brk == 4'd5) ? 2'b00 : 2'b01;
  // a burst's W beats after its AW (several AWs may be ahead)
  assign m_axi_wvalid = writing && (w_n != {bursts, 2'b00}) && (w_n[6:2] < aw_n);
  assign m_axi_wdata = buffer[w_n[5:0]];
  assign m_axi_wstrb = strb;
  assign m_axi_wlast = (brk == 4'd6) ? (w_n[1:0] == 2'd1) : (brk == 4'd7) ? 1'b0 : (w_n[1:0] == 2'd3);
  assign m_axi_bready = writing && (brk != 4'd9);
  assign irq[0] = done;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      src <= '0;
      dst <= '0;
      bursts <= 5'd1;
      strb <= 8'hff;
      maxout <= 3'd1;
      brk <= '0;
      maxseen <= '0;
      out_rd <= '0;
      busy <= 1'b0;
      done <= 1'b0;
      ar_n <= '0;
      r_n <= '0;
      aw_n <= '0;
      b_n <= '0;
      w_n <= '0;
      r_beat <= '0;
      ready_q <= 1'b0;
      s_apb_prdata <= '0;
    end else begin
      ready_q <= s_apb_psel && s_apb_penable && !ready_q;
      if (s_apb_psel && !s_apb_penable) begin
        unique case (s_apb_paddr[7:0])
          8'h00:   s_apb_prdata <= src;
          8'h04:   s_apb_prdata <= dst;
          8'h08:   s_apb_prdata <= {27'd0, bursts};
          8'h0c:   s_apb_prdata <= {24'd0, strb};
          8'h14:   s_apb_prdata <= {30'd0, done, busy};
          8'h18:   s_apb_prdata <= {29'd0, maxout};
          8'h1c:   s_apb_prdata <= {29'd0, maxseen};
          8'h20:   s_apb_prdata <= {28'd0, brk};
          default: s_apb_prdata <= '0;
        endcase
      end
      if (apb_do && s_apb_pwrite) begin
        unique case (s_apb_paddr[7:0])
          8'h00: src <= s_apb_pwdata;
          8'h04: dst <= s_apb_pwdata;
          8'h08: bursts <= s_apb_pwdata[4:0];
          8'h0c: strb <= s_apb_pwdata[7:0];
          8'h10: begin
            if (s_apb_pwdata[1]) done <= 1'b0;
            if (s_apb_pwdata[0] && !busy) begin
              busy <= 1'b1;
              done <= 1'b0;
              ar_n <= '0;
              r_n <= '0;
              aw_n <= '0;
              b_n <= '0;
              w_n <= '0;
              r_beat <= '0;
              maxseen <= '0;
            end
          end
          8'h18: maxout <= s_apb_pwdata[2:0];
          8'h20: brk <= s_apb_pwdata[3:0];
          default: ;
        endcase
      end
      // reads: AR issue, R beats (in order of issue: the bridge answers in order)
      if (m_axi_arvalid && m_axi_arready) ar_n <= ar_n + 5'd1;
      if (m_axi_rvalid && m_axi_rready) begin
        buffer[{r_n[3:0], r_beat}] <= m_axi_rdata;
        r_beat <= r_beat + 2'd1;
        if (m_axi_rlast) r_n <= r_n + 5'd1;
      end
      out_rd <= out_rd + ((m_axi_arvalid && m_axi_arready) ? 3'd1 : 3'd0)
                - ((m_axi_rvalid && m_axi_rready && m_axi_rlast) ? 3'd1 : 3'd0);
      if (out_rd > maxseen) maxseen <= out_rd;
      // writes
      if (m_axi_awvalid && m_axi_awready) aw_n <= aw_n + 5'd1;
      if (m_axi_wvalid && m_axi_wready) w_n <= w_n + 7'd1;
      if (m_axi_bvalid && m_axi_bready) begin
        b_n <= b_n + 5'd1;
        if (b_n + 5'd1 == bursts) begin
          busy <= 1'b0;
          done <= 1'b1;
        end
      end
    end
  end
  // verilator lint_off UNUSEDSIGNAL
  logic unused_rid;
  assign unused_rid = ^m_axi_rid;
  // verilator lint_on UNUSEDSIGNAL
endmodule
