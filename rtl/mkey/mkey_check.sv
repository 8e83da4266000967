// mkey_check: one lookup port of the memory-key table: a 5-stage in-order pipeline that reads the
// MPT entry of the key, checks it (key variant, PD, access rights, bounds) and translates the
// virtual address through the MTT. One request per cycle; when responses are not taken, one more
// waits in a skid register, then every stage and the RAM read registers hold.
//   accept (cycle 0): MPT read at the key index
//   s1: MPT entry -> status of the key/PD/access/bounds checks, offset in the region
//   s2: page index, MTT index, offset and bytes left in the page
//   s3: MTT read at the MTT index
//   s4: page address -> translated address; response registered (valid in cycle 5)
module mkey_check #(
  parameter int unsigned NumKeys = 4096,
  parameter int unsigned NumMtt  = 65536,
  parameter int unsigned TagW    = 8,
  parameter int unsigned KeyIdxW = $clog2(NumKeys),
  parameter int unsigned MttIdxW = $clog2(NumMtt)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         en_i,          // may accept requests (table ready, no write)
  output logic                         busy_o,        // a lookup sits between its MPT and MTT reads
  // request
  input  logic                         req_valid_i,
  output logic                         req_ready_o,
  input  logic [31:0]                  req_key_i,
  input  logic [31:0]                  req_pdn_i,
  input  logic [63:0]                  req_va_i,
  input  logic [31:0]                  req_len_i,
  input  logic [3:0]                   req_access_i,  // enum access bit mask
  input  logic                         req_local_i,   // lkey: only LOCAL_WRITE is checked
  input  logic [TagW-1:0]              req_tag_i,
  // MPT and MTT read ports
  output logic                         mpt_re_o,
  output logic [KeyIdxW-1:0]           mpt_raddr_o,
  input  logic [(rnic_spec_pkg::MPT_ENTRY_BYTES * 8)-1:0]   mpt_rdata_i,
  output logic                         mtt_re_o,
  output logic [MttIdxW-1:0]           mtt_raddr_o,
  input  logic [(rnic_spec_pkg::MTT_ENTRY_BYTES * 8)-1:0]   mtt_rdata_i,
  // response
  output logic                         rsp_valid_o,
  input  logic                         rsp_ready_i,
  output logic [3-1:0] rsp_status_o,
  output logic [63:0]                  rsp_addr_o,
  output logic [31:0]                  rsp_page_left_o,
  output logic [TagW-1:0]              rsp_tag_o
);
  // The whole pipeline advances while the skid register (sk_*) is empty: a response the output
  // register cannot pass on waits there, so the stages' enables, the RAM reads and req_ready_o
  // come from a flop instead of from the consumer's rsp_ready_i (issue 16: that chain ran from
  // xport_rx's state through every stage enable). Without back-pressure nothing changes; under
  // it the pipeline moves one step further before it stops.
  logic adv, sk_v_q;
  assign adv = !sk_v_q;
  assign req_ready_o = adv && en_i;

  // ---- accept: MPT read -----------------------------------------------------------------------
  logic accept;
  assign accept = req_valid_i && req_ready_o;
  assign mpt_re_o = accept;        // RAM read only for a request (holds while stalled)
  assign mpt_raddr_o = req_key_i[8 +: KeyIdxW];

  // ---- s1: request beside the MPT entry -------------------------------------------------------
  logic                v1_q, idx_ok1_q;
  logic [7:0]          var1_q;
  logic [31:0]         pdn1_q, len1_q;
  logic [63:0]         va1_q;
  logic [3:0]          acc1_q;
  logic [TagW-1:0]     tag1_q;
  rnic_spec_pkg::mpt_entry_t e1;
  assign e1 = mpt_rdata_i;
  logic unused_e1;  // reserved bits and access bits beyond REMOTE_ATOMIC carry no meaning here
  assign unused_e1 = ^{e1.rsvd1, e1.access[7:4]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1_q <= 1'b0;
    else if (adv) v1_q <= accept;
  end
  always_ff @(posedge clk_i) begin
    if (adv && accept) begin
      idx_ok1_q <= {8'd0, req_key_i[31:8]} < NumKeys;
      var1_q    <= req_key_i[7:0];
      pdn1_q    <= req_pdn_i;
      va1_q     <= req_va_i;
      len1_q    <= req_len_i;
      acc1_q    <= req_access_i & (req_local_i ? 4'b0001 : 4'b1111);
      tag1_q    <= req_tag_i;
    end
  end

  // ---- s2: checks done, offset of va in the MTT-covered span ----------------------------------
  logic                v2_q, zero2_q;
  logic [2:0]          st2_q;
  logic [64:0]         rel2_q;   // va - iova + first_page_offset
  logic [4:0]          shift2_q;
  logic [MttIdxW-1:0]  base2_q;  // mtt_base; only the index bits count once room2_q says it fits
  logic [MttIdxW:0]    room2_q;  // MTT entries from mtt_base to the table's end (0: none)
  logic [TagW-1:0]     tag2_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2_q <= 1'b0;
    else if (adv) v2_q <= v1_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv && v1_q) begin
      if (!idx_ok1_q || !e1.valid[0] || e1.key_variant != var1_q)
        st2_q <= 3'(rnic_spec_pkg::MKEY_STATUS_BAD_KEY);
      else if (e1.pdn != pdn1_q)
        st2_q <= 3'(rnic_spec_pkg::MKEY_STATUS_BAD_PD);
      else if ((acc1_q & ~e1.access[3:0]) != 4'd0)
        st2_q <= 3'(rnic_spec_pkg::MKEY_STATUS_BAD_ACCESS);
      else if (len1_q != 32'd0 && (va1_q < e1.iova ||
               {1'b0, va1_q - e1.iova} + {33'd0, len1_q} > {1'b0, e1.length}))
        st2_q <= 3'(rnic_spec_pkg::MKEY_STATUS_OUT_OF_BOUNDS);
      else if (len1_q != 32'd0 && (e1.page_shift < 8'd12 || e1.page_shift > 8'd30))
        st2_q <= 3'(rnic_spec_pkg::MKEY_STATUS_BAD_XLATE);
      else
        st2_q <= 3'(rnic_spec_pkg::MKEY_STATUS_OK);
      zero2_q  <= len1_q == 32'd0;
      rel2_q   <= {1'b0, va1_q - e1.iova} + {33'd0, e1.first_page_offset};
      shift2_q <= e1.page_shift[4:0];
      base2_q  <= e1.mtt_base[MttIdxW-1:0];
      room2_q  <= e1.mtt_base < NumMtt ? (MttIdxW+1)'(NumMtt - e1.mtt_base) : '0;
      tag2_q   <= tag1_q;
    end
  end

  // ---- s3: MTT index, offset in the page, bytes left in the page ------------------------------
  logic                v3_q, zero3_q;
  logic [2:0]          st3_q;
  logic [MttIdxW-1:0]  mtt_idx3_q;
  logic [31:0]         poff3_q, left3_q, mask3_q;
  logic [TagW-1:0]     tag3_q;
  logic [64:0]         pg2;       // page of va in the region
  logic [MttIdxW-1:0]  mtt_idx2;  // its MTT index
  assign pg2      = rel2_q >> shift2_q;
  assign mtt_idx2 = pg2[MttIdxW-1:0] + base2_q;
  // The range check is pg2 >= room2_q (= mtt_base + pg2 >= NumMtt), from registers through the
  // shift and one compare, not through the index add as well (issue 16: 9 LUT levels in the
  // core). A valid page_shift is 12..30, so pg2 + mtt_base cannot overflow 65 bits when st2 is OK.

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v3_q <= 1'b0;
    else if (adv) v3_q <= v2_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv && v2_q) begin
      if (st2_q == 3'(rnic_spec_pkg::MKEY_STATUS_OK) && !zero2_q && pg2 >= 65'(room2_q))
        st3_q <= 3'(rnic_spec_pkg::MKEY_STATUS_BAD_XLATE);
      else
        st3_q <= st2_q;
      zero3_q    <= zero2_q;
      mtt_idx3_q <= mtt_idx2;
      mask3_q    <= ~(32'hFFFF_FFFF << shift2_q);
      poff3_q    <= rel2_q[31:0] & ~(32'hFFFF_FFFF << shift2_q);
      left3_q    <= (32'd1 << shift2_q) - (rel2_q[31:0] & ~(32'hFFFF_FFFF << shift2_q));
      tag3_q     <= tag2_q;
    end
  end
  assign busy_o = v1_q || v2_q || v3_q;

  // ---- s4: beside the MTT entry ---------------------------------------------------------------
  assign mtt_re_o = adv && v3_q;
  assign mtt_raddr_o = mtt_idx3_q;
  logic                v4_q, zero4_q;
  logic [2:0]          st4_q;
  logic [31:0]         poff4_q, left4_q, mask4_q;
  logic [TagW-1:0]     tag4_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v4_q <= 1'b0;
    else if (adv) v4_q <= v3_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv && v3_q) begin
      st4_q   <= st3_q;
      zero4_q <= zero3_q;
      poff4_q <= poff3_q;
      left4_q <= left3_q;
      mask4_q <= mask3_q;
      tag4_q  <= tag3_q;
    end
  end

  // ---- response -------------------------------------------------------------------------------
  logic ok4, out_free, r4_v;
  logic [2:0]      r4_status, sk_status_q;
  logic [63:0]     r4_addr, sk_addr_q;
  logic [31:0]     r4_left, sk_left_q;
  logic [TagW-1:0] sk_tag_q;
  assign ok4       = st4_q == 3'(rnic_spec_pkg::MKEY_STATUS_OK) && !zero4_q && mtt_rdata_i[0];
  assign r4_status = (st4_q == 3'(rnic_spec_pkg::MKEY_STATUS_OK) && !zero4_q && !mtt_rdata_i[0])
                     ? 3'(rnic_spec_pkg::MKEY_STATUS_BAD_XLATE) : st4_q;
  assign r4_addr   = ok4 ? ((mtt_rdata_i & ~{32'd0, mask4_q}) | {32'd0, poff4_q}) : 64'd0;
  assign r4_left   = ok4 ? left4_q : 32'd0;
  assign r4_v      = adv && v4_q;                  // stage 4 hands over a response this cycle
  assign out_free  = !rsp_valid_o || rsp_ready_i;  // the output register takes one this cycle

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_o <= 1'b0;
      sk_v_q      <= 1'b0;
    end else begin
      if (out_free) rsp_valid_o <= sk_v_q || r4_v;
      if (sk_v_q) sk_v_q <= !out_free;
      else        sk_v_q <= r4_v && !out_free;
    end
  end
  always_ff @(posedge clk_i) begin
    if (out_free && (sk_v_q || r4_v)) begin
      // the skid register first (stage 4 is stopped while it holds a response)
      rsp_status_o    <= sk_v_q ? sk_status_q : r4_status;
      rsp_addr_o      <= sk_v_q ? sk_addr_q   : r4_addr;
      rsp_page_left_o <= sk_v_q ? sk_left_q   : r4_left;
      rsp_tag_o       <= sk_v_q ? sk_tag_q    : tag4_q;
    end
    if (!sk_v_q) begin
      sk_status_q <= r4_status;
      sk_addr_q   <= r4_addr;
      sk_left_q   <= r4_left;
      sk_tag_q    <= tag4_q;
    end
  end
endmodule
