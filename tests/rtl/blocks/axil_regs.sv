// hetvp — TEST ONLY block: registers behind an AXI4-Lite target and nothing else (no bus master, no
// interrupt), whose BREAK register makes the following accesses break one AXI4-Lite rule the
// bridge checks (tests/rtl/test_rtl_targets.cpp asserts each message):
//   0x00 SCRATCH (RW, byte strobes)  0x04 ID (R: 0x4158494c 'AXIL')  0x08 BREAK (RW, 3 bits):
//   0 none, 1 a write is answered on R (not B), 2 a read is answered on B (not R), 3 RVALID drops
//   after one cycle, 4 RDATA changes while RVALID waits, 5 a write gets no B, 6 AWREADY never rises.
// 3 and 4 need the bridge to hold RREADY low a while (test_ready_delay). The BREAK write itself is
// answered normally.
module axil_regs (
    input  logic        clk,
    input  logic        rst_n,
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
    output logic [1:0]  s_axil_rresp
);
  // verilator lint_off UNUSEDSIGNAL
  logic [23:0] unused_addr_hi;
  assign unused_addr_hi = s_axil_araddr[31:8] ^ s_axil_awaddr[31:8];
  // verilator lint_on UNUSEDSIGNAL

  logic [31:0] scratch;
  logic [2:0] brk;
  logic wr_go, rd_go;
  assign wr_go = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid && !s_axil_rvalid && (brk != 3'd6);
  assign rd_go = s_axil_arvalid && !s_axil_rvalid && !s_axil_bvalid;
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

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      scratch <= '0;
      brk <= '0;
      s_axil_bvalid <= 1'b0;
      s_axil_rvalid <= 1'b0;
      s_axil_rdata <= '0;
    end else begin
      if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
      if (s_axil_rvalid && s_axil_rready) s_axil_rvalid <= 1'b0;
      else if (s_axil_rvalid && brk == 3'd3) s_axil_rvalid <= 1'b0;  // broken: VALID dropped
      else if (s_axil_rvalid && brk == 3'd4) s_axil_rdata <= s_axil_rdata + 32'd1;  // broken: payload changes
      if (wr_go) begin
        unique case (s_axil_awaddr[7:0])
          8'h00: scratch <= merge(scratch, s_axil_wdata, s_axil_wstrb);
          8'h08: if (s_axil_wstrb[0]) brk <= s_axil_wdata[2:0];
          default: ;
        endcase
        if (brk == 3'd1) s_axil_rvalid <= 1'b1;  // broken: a write answered on R
        else if (brk != 3'd5) s_axil_bvalid <= 1'b1;  // (5: broken, never answered)
      end
      if (rd_go) begin
        unique case (s_axil_araddr[7:0])
          8'h00:   s_axil_rdata <= scratch;
          8'h04:   s_axil_rdata <= 32'h4158494c;
          8'h08:   s_axil_rdata <= {29'd0, brk};
          default: s_axil_rdata <= '0;
        endcase
        if (brk == 3'd2) s_axil_bvalid <= 1'b1;  // broken: a read answered on B
        else s_axil_rvalid <= 1'b1;
      end
    end
  end
endmodule
