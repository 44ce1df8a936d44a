// hetvp — range invalidation engine (RTL). Turns a stream of written cache-line numbers into
// range requests (first, count). Bit-exact twin of hetvp::coherence::RangeBuilder
// (models/coherence/invalidation_engine.cpp); semantics: docs/invalidation_engine.md,
// interface and timing: docs/rtl.md.
//
// Per accepted line a (the four rules, checked in this order):
//   1. a inside an open run [first, first+count)          -> duplicate, dropped
//   2. an open run ends right before a, count < max_len    -> that run grows by one (keeps its age)
//   3. an open run ends right before a, count == max_len   -> emit it, reopen its slot as (a,1)
//   4. else: open (a,1) in the lowest-numbered free slot; if none, emit the oldest run and
//      reopen its slot as (a,1)
// End of history (in_last): emit all open runs, oldest first, then pulse done.
// "Oldest" = opened earliest; each valid slot holds an age rank (0 = oldest) among valid slots.
// Runs never overlap, so at most one slot matches rule 1 or rules 2/3.
//
// FAULT is TEST ONLY (fault injection for the lockstep tests, tests/rtl): 0 = the correct engine
// (default; the model in hetvp_lib), 1 = every emitted range has count+1 (wrong data),
// 2 = the last range of each flush is never presented (dropped output), 3 = done comes one cycle
// late (same ranges, one extra cycle per history), 4 = out_valid drops after one cycle even when
// out_ready is low (a handshake violation the generic checker reports; only with back-pressure).
module range_inval_engine #(
    parameter int ADDR_W  = 42,   // line-number width = addr_bits - log2(line_bytes)
    parameter int MAX_LEN = 256,  // largest supported max range (lines per request)
    parameter int N_RUNS  = 4,    // run slots
    parameter int FAULT   = 0,    // TEST ONLY, see above; 0 in every real build
    localparam int CNT_W = $clog2(MAX_LEN + 1),
    localparam int IDX_W = (N_RUNS > 1) ? $clog2(N_RUNS) : 1,
    localparam int NR_W  = $clog2(N_RUNS + 1)
) (
    input  logic              clk,
    input  logic              rst_n,        // synchronous, active low
    // static configuration (change only while idle): 1 <= cfg_max_len <= MAX_LEN, 1 <= cfg_runs <= N_RUNS
    input  logic [CNT_W-1:0]  cfg_max_len,
    input  logic [NR_W-1:0]   cfg_runs,
    // input stream: one line per beat; in_last marks the final beat of a history;
    // in_empty marks a beat that carries no line (legal only with in_last: empty history / pure flush)
    input  logic              in_valid,
    output logic              in_ready,
    input  logic [ADDR_W-1:0] in_line,
    input  logic              in_last,
    input  logic              in_empty,
    // output stream: one range request per beat
    output logic              out_valid,
    input  logic              out_ready,
    output logic [ADDR_W-1:0] out_first,
    output logic [CNT_W-1:0]  out_count,
    // one-cycle pulse after the last range of a history has been accepted
    output logic              done
);

  typedef enum logic [0:0] { S_RUN = 1'b0, S_FLUSH = 1'b1 } state_t;
  state_t state_q;

  logic [N_RUNS-1:0] v_q;
  logic [ADDR_W-1:0] first_q [N_RUNS];
  logic [CNT_W-1:0]  cnt_q   [N_RUNS];
  logic [IDX_W-1:0]  rank_q  [N_RUNS];

  logic              out_valid_q;
  logic [ADDR_W-1:0] out_first_q;
  logic [CNT_W-1:0]  out_count_q;
  logic              done_q;

  // ---------------------------------------------------------------- combinational match logic
  logic [ADDR_W:0]   end_w [N_RUNS];   // first+count, one extra bit: no wrap-around at the top
  logic [N_RUNS-1:0] hit, adj, free_s, oldest;
  logic              any_hit, any_adj, any_free, any_valid;
  logic [IDX_W-1:0]  adj_idx, free_idx, old_idx;
  logic [NR_W-1:0]   n_valid;
  logic [ADDR_W:0]   a_ext;

  assign a_ext = {1'b0, in_line};

  always_comb begin
    any_hit   = 1'b0;
    any_adj   = 1'b0;
    any_free  = 1'b0;
    any_valid = 1'b0;
    adj_idx   = '0;
    free_idx  = '0;
    old_idx   = '0;
    n_valid   = '0;
    for (int s = 0; s < N_RUNS; s++) begin
      end_w[s]  = {1'b0, first_q[s]} + {{(ADDR_W + 1 - CNT_W){1'b0}}, cnt_q[s]};
      hit[s]    = v_q[s] && (a_ext >= {1'b0, first_q[s]}) && (a_ext < end_w[s]);
      adj[s]    = v_q[s] && (end_w[s] == a_ext);
      free_s[s] = !v_q[s] && (NR_W'(s) < cfg_runs);
      oldest[s] = v_q[s] && (rank_q[s] == '0);
    end
    // lowest-numbered free slot: scan downwards so the lowest index wins
    for (int s = N_RUNS - 1; s >= 0; s--) begin
      if (free_s[s]) begin
        any_free = 1'b1;
        free_idx = IDX_W'(s);
      end
    end
    for (int s = 0; s < N_RUNS; s++) begin
      if (hit[s]) any_hit = 1'b1;
      if (adj[s]) begin
        any_adj = 1'b1;
        adj_idx = IDX_W'(s);
      end
      if (oldest[s]) old_idx = IDX_W'(s);
      if (v_q[s]) begin
        any_valid = 1'b1;
        n_valid   = n_valid + NR_W'(1);
      end
    end
  end

  logic out_free;
  assign out_free = !out_valid_q || out_ready;
  assign in_ready = (state_q == S_RUN) && out_free;

  logic accept;
  assign accept = in_valid && in_ready;

  // decision for this cycle
  logic             do_grow;      // rule 2
  logic             do_open;      // rule 4a
  logic             do_replace;   // rules 3 / 4b: emit slot sel_idx and reopen it as (a,1)
  logic             do_flush_one; // flush: emit oldest and free it
  logic [IDX_W-1:0] sel_idx;
  logic             adj_full;

  assign adj_full = (cnt_q[adj_idx] == cfg_max_len);

  always_comb begin
    do_grow      = 1'b0;
    do_open      = 1'b0;
    do_replace   = 1'b0;
    do_flush_one = 1'b0;
    sel_idx      = old_idx;
    if (accept && !in_empty && !any_hit) begin
      if (any_adj) begin
        sel_idx = adj_idx;
        if (adj_full) do_replace = 1'b1;
        else          do_grow    = 1'b1;
      end else if (any_free) begin
        sel_idx = free_idx;
        do_open = 1'b1;
      end else begin
        sel_idx    = old_idx;
        do_replace = 1'b1;
      end
    end else if (state_q == S_FLUSH && any_valid && out_free) begin
      sel_idx      = old_idx;
      do_flush_one = 1'b1;
    end
  end

  logic emit;
  assign emit = do_replace || do_flush_one;

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q     <= S_RUN;
      v_q         <= '0;
      out_valid_q <= 1'b0;
      done_q      <= 1'b0;
    end else begin
      done_q <= 1'b0;
      // output register
      if (emit) begin
        // FAULT 2: the flush's last range (one valid slot left) is loaded but never presented
        out_valid_q <= !(FAULT == 2 && do_flush_one && n_valid == NR_W'(1));
        out_first_q <= first_q[sel_idx];
        out_count_q <= cnt_q[sel_idx] + CNT_W'(FAULT == 1);   // FAULT 1: count + 1
      end else if (out_ready || FAULT == 4) begin  // FAULT 4: out_valid dropped before out_ready
        out_valid_q <= 1'b0;
      end
      // slots
      if (do_grow) begin
        cnt_q[sel_idx] <= cnt_q[sel_idx] + CNT_W'(1);
      end
      if (do_open) begin
        v_q[sel_idx]     <= 1'b1;
        first_q[sel_idx] <= in_line;
        cnt_q[sel_idx]   <= CNT_W'(1);
        rank_q[sel_idx]  <= IDX_W'(n_valid);          // youngest
      end
      if (do_replace || do_flush_one) begin
        for (int s = 0; s < N_RUNS; s++) begin
          if (v_q[s] && IDX_W'(s) != sel_idx && rank_q[s] > rank_q[sel_idx])
            rank_q[s] <= rank_q[s] - IDX_W'(1);
        end
      end
      if (do_replace) begin
        first_q[sel_idx] <= in_line;
        cnt_q[sel_idx]   <= CNT_W'(1);
        rank_q[sel_idx]  <= IDX_W'(n_valid - NR_W'(1)); // youngest of the others + itself
      end
      if (do_flush_one) begin
        v_q[sel_idx] <= 1'b0;
      end
      // state
      if (accept && in_last) begin
        state_q <= S_FLUSH;
      end else if (state_q == S_FLUSH && !any_valid && out_free) begin
        state_q <= S_RUN;
        done_q  <= 1'b1;
      end
    end
  end

  assign out_valid = out_valid_q;
  assign out_first = out_first_q;
  assign out_count = out_count_q;
  // FAULT 3: done is delayed by one register stage (one extra cycle per history)
  generate
    if (FAULT == 3) begin : g_late_done
      logic done_late_q;
      always_ff @(posedge clk) begin
        if (!rst_n) done_late_q <= 1'b0;
        else        done_late_q <= done_q;
      end
      assign done = done_late_q;
    end else begin : g_done
      assign done = done_q;
    end
  endgenerate

endmodule
