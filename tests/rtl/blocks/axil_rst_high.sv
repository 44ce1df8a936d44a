// hetvp — TEST ONLY block: AXI4-Lite registers whose reset is `rst`, active high (built with
// hetvp_add_rtl_block(... RESET rst ACTIVE_HIGH), no wrapper; tests/rtl/test_rtl_relax.cpp).
//   0x00 SCRATCH (RW, byte strobes; 0x600df00d after reset: the reset happened)
//   0x04 RESET_CYCLES (R: rising edges seen with rst high since the first one, i.e. the reset's length)
module axil_rst_high (
    input  logic        clk,
    input  logic        rst,
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
  logic [23:0] unused;
  assign unused = s_axil_araddr[31:8] ^ s_axil_awaddr[31:8];
  // verilator lint_on UNUSEDSIGNAL

  logic [31:0] scratch, rst_cycles;
  logic was_rst;  // rst was high at the previous edge (the count restarts at a new reset)
  logic wr_go, rd_go;
  assign wr_go = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
  assign rd_go = s_axil_arvalid && !s_axil_rvalid;
  assign s_axil_awready = wr_go;
  assign s_axil_wready = wr_go;
  assign s_axil_arready = rd_go;
  assign s_axil_bresp = 2'b00;
  assign s_axil_rresp = 2'b00;

  always_ff @(posedge clk) begin
    was_rst <= rst;
    if (rst) begin
      scratch <= 32'h600df00d;
      rst_cycles <= was_rst ? rst_cycles + 32'd1 : 32'd1;
      s_axil_bvalid <= 1'b0;
      s_axil_rvalid <= 1'b0;
      s_axil_rdata <= '0;
    end else begin
      if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
      if (s_axil_rvalid && s_axil_rready) s_axil_rvalid <= 1'b0;
      if (wr_go) begin
        if (s_axil_awaddr[7:0] == 8'h00)
          for (int i = 0; i < 4; i++) if (s_axil_wstrb[i]) scratch[i*8+:8] <= s_axil_wdata[i*8+:8];
        s_axil_bvalid <= 1'b1;
      end
      if (rd_go) begin
        s_axil_rdata <= s_axil_araddr[7:0] == 8'h04 ? rst_cycles : scratch;
        s_axil_rvalid <= 1'b1;
      end
    end
  end
endmodule
