// hetvp — TEST ONLY block: AXI4-Lite registers that answer a read in the same cycle as its AR
// handshake (RVALID = ARVALID, combinational), as a third-party block did (issue #42 item 10). AXI
// (ARM IHI 0022E A3.3.1) lets the slave raise RVALID only after the AR handshake: the bridge stops
// the run naming rule axi.r_after_ar, or, with `relax: [axi.r_after_ar]`, takes the response
// (tests/rtl/test_rtl_relax.cpp). Writes follow the rules (B registered after AW and W).
//   0x00 SCRATCH (RW, byte strobes)  0x04 ID (R: 0x45414752 'EAGR')
module axil_eager (
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
  logic [23:0] unused;
  assign unused = s_axil_araddr[31:8] ^ s_axil_awaddr[31:8] ^ {23'd0, s_axil_rready};
  // verilator lint_on UNUSEDSIGNAL

  logic [31:0] scratch;
  logic wr_go;
  assign wr_go = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
  assign s_axil_awready = wr_go;
  assign s_axil_wready = wr_go;
  assign s_axil_bresp = 2'b00;
  // the broken read: always ready, and the data in the same cycle as the address
  assign s_axil_arready = 1'b1;
  assign s_axil_rvalid = s_axil_arvalid;
  assign s_axil_rresp = 2'b00;
  always_comb begin
    unique case (s_axil_araddr[7:0])
      8'h00:   s_axil_rdata = scratch;
      8'h04:   s_axil_rdata = 32'h45414752;
      default: s_axil_rdata = '0;
    endcase
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      scratch <= '0;
      s_axil_bvalid <= 1'b0;
    end else begin
      if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
      if (wr_go) begin
        if (s_axil_awaddr[7:0] == 8'h00)
          for (int i = 0; i < 4; i++) if (s_axil_wstrb[i]) scratch[i*8+:8] <= s_axil_wdata[i*8+:8];
        s_axil_bvalid <= 1'b1;
      end
    end
  end
endmodule
