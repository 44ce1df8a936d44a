// hetvp example plugin — an APB-only register block (no bus master, no interrupt): an iterative
// 32 x 32 -> 64-bit multiplier, one partial product per cycle. Registers: mul32_regs.h.
// Cycle behaviour (its TLM reference, mul32_ref.cpp, follows it; docs/rtl_blocks.md, "Timing of a
// reference model"):
//   * APB with no wait state: SETUP at edge g, ACCESS with PREADY at edge g+1.
//   * A read returns the state after edge g-1 (PRDATA is registered at the SETUP edge g).
//   * A write takes effect at the ACCESS edge g+1. START at edge w (not BUSY): BUSY after edges
//     w .. w+MUL_CYCLES-1, DONE and the product from edge w+MUL_CYCLES on. A START while BUSY is
//     ignored; OPA/OPB writes while BUSY do not change the running multiplication.
//   * `busy` (the pin) keeps the bridge's clock running while the multiplier works.
module mul32 (
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
    output logic        busy
);
  // verilator lint_off UNUSEDSIGNAL
  logic [26:0] unused_addr_hi;
  assign unused_addr_hi = s_apb_paddr[31:5];
  // verilator lint_on UNUSEDSIGNAL

  logic [31:0] opa, opb;
  logic [63:0] acc;       // running sum of partial products
  logic [63:0] mcand;     // multiplicand, shifted left one bit per cycle
  logic [31:0] mplier;    // multiplier, shifted right one bit per cycle
  logic [5:0]  steps;     // partial products left
  logic        done;

  assign s_apb_pready = 1'b1;
  assign s_apb_pslverr = 1'b0;
  assign busy = (steps != 6'd0);

  logic write;
  assign write = s_apb_psel && s_apb_penable && s_apb_pwrite;

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] d, input logic [3:0] s);
    logic [31:0] r;
    for (int i = 0; i < 4; i++) r[i*8+:8] = s[i] ? d[i*8+:8] : old[i*8+:8];
    return r;
  endfunction

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      opa <= '0;
      opb <= '0;
      acc <= '0;
      mcand <= '0;
      mplier <= '0;
      steps <= '0;
      done <= 1'b0;
      s_apb_prdata <= '0;
    end else begin
      if (s_apb_psel && !s_apb_penable) begin
        unique case (s_apb_paddr[4:0])
          5'h00:   s_apb_prdata <= opa;
          5'h04:   s_apb_prdata <= opb;
          5'h0c:   s_apb_prdata <= {30'd0, done, busy};
          5'h10:   s_apb_prdata <= done ? acc[31:0] : 32'd0;
          5'h14:   s_apb_prdata <= done ? acc[63:32] : 32'd0;
          5'h18:   s_apb_prdata <= 32'h4d554c31;
          default: s_apb_prdata <= '0;
        endcase
      end
      if (busy) begin
        if (mplier[0]) acc <= acc + mcand;
        mcand <= mcand << 1;
        mplier <= mplier >> 1;
        steps <= steps - 6'd1;
        if (steps == 6'd1) done <= 1'b1;
      end
      if (write) begin
        unique case (s_apb_paddr[4:0])
          5'h00: opa <= merge(opa, s_apb_pwdata, s_apb_pstrb);
          5'h04: opb <= merge(opb, s_apb_pwdata, s_apb_pstrb);
          5'h08: begin
            if (s_apb_pstrb[0] && s_apb_pwdata[0] && !busy) begin
              acc <= '0;
              mcand <= {32'd0, opa};
              mplier <= opb;
              steps <= 6'd32;
              done <= 1'b0;
            end
          end
          default: ;
        endcase
      end
    end
  end
endmodule
