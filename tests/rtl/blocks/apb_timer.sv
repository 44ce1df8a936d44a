// hetvp — TEST ONLY block: a register block with only an APB target (no bus master), a level
// interrupt and a C++ reference model (apb_timer_ref.cpp); tests/rtl/test_rtl_targets.cpp runs it
// in rtl, tlm and lockstep modes. A countdown timer:
//   0x00 LOAD   (RW, byte strobes)  cycles to count
//   0x04 CTRL   (W)  bit 0 START: COUNT = LOAD, RUNNING (EXPIRED at once when LOAD is 0);
//                    bit 1 ACK: EXPIRED cleared (START wins when both are set)
//   0x08 COUNT  (R)  LOAD - cycles since START, 0 once expired
//   0x0c STATUS (R)  bit 0 RUNNING, bit 1 EXPIRED
//   0x10 ID     (R)  0x54494d52 'TIMR'
// irq[0] = EXPIRED; busy = RUNNING (keeps the block's clock on while counting).
// Cycle behaviour (the reference follows it): APB with no wait state (SETUP at edge g, ACCESS with
// PREADY at edge g+1); PRDATA is registered at the SETUP edge (the state after edge g-1); a write
// takes effect at the ACCESS edge g+1. START at edge w: COUNT = LOAD - k after edge w+k, EXPIRED
// and irq from edge w+LOAD; an ACK at the same edge as the expiry wins.
// FAULT is TEST ONLY: 0 = correct, 1 = irq one cycle late (a timing-only fault: every register
// value is right; only lockstep's cycle stamps see it).
module apb_timer #(
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
    output logic [0:0]  irq,
    output logic        busy
);
  // verilator lint_off UNUSEDSIGNAL
  logic [23:0] unused_addr_hi;
  assign unused_addr_hi = s_apb_paddr[31:8];
  // verilator lint_on UNUSEDSIGNAL

  logic [31:0] load, count;
  logic running, expired, expired_q;

  assign s_apb_pready = 1'b1;
  assign s_apb_pslverr = 1'b0;
  assign irq[0] = (FAULT == 1) ? expired_q : expired;
  assign busy = running || (expired != expired_q);

  logic write;
  assign write = s_apb_psel && s_apb_penable && s_apb_pwrite;

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] d, input logic [3:0] s);
    logic [31:0] r;
    for (int i = 0; i < 4; i++) r[i*8+:8] = s[i] ? d[i*8+:8] : old[i*8+:8];
    return r;
  endfunction

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      load <= '0;
      count <= '0;
      running <= 1'b0;
      expired <= 1'b0;
      expired_q <= 1'b0;
      s_apb_prdata <= '0;
    end else begin
      expired_q <= expired;
      if (s_apb_psel && !s_apb_penable) begin
        unique case (s_apb_paddr[7:0])
          8'h00:   s_apb_prdata <= load;
          8'h08:   s_apb_prdata <= count;
          8'h0c:   s_apb_prdata <= {30'd0, expired, running};
          8'h10:   s_apb_prdata <= 32'h54494d52;
          default: s_apb_prdata <= '0;
        endcase
      end
      if (running) begin
        count <= count - 32'd1;
        if (count == 32'd1) begin
          running <= 1'b0;
          expired <= 1'b1;
        end
      end
      if (write) begin
        unique case (s_apb_paddr[7:0])
          8'h00: load <= merge(load, s_apb_pwdata, s_apb_pstrb);
          8'h04: begin
            if (s_apb_pstrb[0] && s_apb_pwdata[1]) expired <= 1'b0;
            if (s_apb_pstrb[0] && s_apb_pwdata[0]) begin
              count <= load;
              running <= (load != 32'd0);
              expired <= (load == 32'd0);
            end
          end
          default: ;
        endcase
      end
    end
  end
endmodule
