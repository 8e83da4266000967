// The statistics counters of BAR0 block counters (spec [counters]) and the free-running cycle
// counter (ctrl.cycle_lo/hi). Most counts are kept by the block that sees the event (roce_rx's
// drop reasons, xport_rx, xport_tx, the pause breaker, the firmware's Ethernet path, the
// doorbell BAR); this block counts what crosses the core's edge (MAC bytes and frames, DMA
// completions with an error response) and lays every count out at its spec index.
module rnic_counters #(
  parameter int unsigned DataWidth    = 512,
  parameter int          NumRdClients = 3,
  parameter int          NumWrClients = 2
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  // the MAC streams at the core's ports
  input  logic                                  rx_tvalid_i,
  input  logic                                  rx_tready_i,
  input  logic                                  rx_tlast_i,
  input  logic [DataWidth/8-1:0]                rx_tkeep_i,
  input  logic                                  tx_tvalid_i,
  input  logic                                  tx_tready_i,
  input  logic [DataWidth/8-1:0]                tx_tkeep_i,
  // DMA completions of the clients whose bus errors dma_rd_err / dma_wr_err count
  input  logic [NumRdClients-1:0]               rd_cpl_valid_i,
  input  logic [NumRdClients-1:0]               rd_cpl_ready_i,
  input  logic [2*NumRdClients-1:0]             rd_cpl_status_i,
  input  logic [NumWrClients-1:0]               wr_cpl_valid_i,
  input  logic [NumWrClients-1:0]               wr_cpl_ready_i,
  input  logic [2*NumWrClients-1:0]             wr_cpl_status_i,
  // counts kept by their blocks
  input  logic [32*roce_pkg::NumDrop-1:0]       rx_drops_i,       // roce_rx, by drop reason
  input  logic [32*xport_rx_pkg::NumCnt-1:0]    xrx_cnt_i,        // xport_rx
  input  logic [31:0]                           tx_frames_i,      // xport_tx
  input  logic [31:0]                           tx_retx_i,
  input  logic [31:0]                           doorbells_i,      // doorbell_bar
  input  logic [31:0]                           commands_i,       // the firmware's cmdq_cons
  input  logic [31:0]                           pause_xoff_i,     // rnic_pause_breaker
  input  logic [31:0]                           tx_paused_i,
  input  logic [31:0]                           pause_breaks_i,
  input  logic [31:0]                           fw_rx_frames_i,   // rnic_fw_eth
  input  logic [31:0]                           fw_rx_drop_full_i,
  input  logic [31:0]                           fw_tx_frames_i,
  output logic [63:0]                           cycle_o,
  output logic [32*rnic_spec_pkg::NUM_COUNTERS-1:0] counters_o
);
  // $countones instead of a loop adding each lane: Yosys 0.23 maps both to the same netlist
  // (checked on the 64-lane count alone), and Verilator runs a popcount per word instead of an
  // add per lane on every RX and TX beat (docs/sim-speed.md, step 17).
  function automatic logic [31:0] keep_bytes(input logic [DataWidth/8-1:0] keep);
    keep_bytes = 32'($countones(keep));
  endfunction

  // completions with an error response (status not OKAY) in this cycle
  logic [31:0] rd_errs, wr_errs;
  always_comb begin
    rd_errs = '0;
    for (int c = 0; c < NumRdClients; c++)
      rd_errs = rd_errs + 32'(rd_cpl_valid_i[c] && rd_cpl_ready_i[c] && rd_cpl_status_i[2*c +: 2] != 2'b00);
    wr_errs = '0;
    for (int c = 0; c < NumWrClients; c++)
      wr_errs = wr_errs + 32'(wr_cpl_valid_i[c] && wr_cpl_ready_i[c] && wr_cpl_status_i[2*c +: 2] != 2'b00);
  end

  logic [31:0] rx_frames_q, rx_bytes_q, tx_bytes_q, dma_rd_err_q, dma_wr_err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_o      <= '0;
      rx_frames_q  <= '0;
      rx_bytes_q   <= '0;
      tx_bytes_q   <= '0;
      dma_rd_err_q <= '0;
      dma_wr_err_q <= '0;
    end else begin
      cycle_o <= cycle_o + 64'd1;
      if (rx_tvalid_i && rx_tready_i) begin
        rx_bytes_q <= rx_bytes_q + keep_bytes(rx_tkeep_i);
        if (rx_tlast_i) rx_frames_q <= rx_frames_q + 32'd1;
      end
      if (tx_tvalid_i && tx_tready_i) tx_bytes_q <= tx_bytes_q + keep_bytes(tx_tkeep_i);
      dma_rd_err_q <= dma_rd_err_q + rd_errs;
      dma_wr_err_q <= dma_wr_err_q + wr_errs;
    end
  end

  // roce_rx's drop reasons folded into the spec's counters
  function automatic logic [31:0] drops(input int unsigned r);
    drops = rx_drops_i[r*32 +: 32];
  endfunction
  function automatic logic [31:0] xrx(input int unsigned c);
    xrx = xrx_cnt_i[c*32 +: 32];
  endfunction

  always_comb begin
    counters_o = '0;
    counters_o[rnic_spec_pkg::CNT_RX_FRAMES*32 +: 32] = rx_frames_q;
    counters_o[rnic_spec_pkg::CNT_RX_BYTES*32 +: 32] = rx_bytes_q;
    counters_o[rnic_spec_pkg::CNT_DOORBELLS*32 +: 32] = doorbells_i;
    counters_o[rnic_spec_pkg::CNT_RX_DROP_ETH*32 +: 32] = drops(roce_pkg::DropEthertype);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_IPV4_HDR*32 +: 32] =
        drops(roce_pkg::DropIpHdr) + drops(roce_pkg::DropProto) + drops(roce_pkg::DropLen);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_IPV4_CSUM*32 +: 32] = drops(roce_pkg::DropIpCsum);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_UDP*32 +: 32] = drops(roce_pkg::DropUdpPort);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_BTH*32 +: 32] =
        drops(roce_pkg::DropTver) + drops(roce_pkg::DropOpcode) + drops(roce_pkg::DropPkey);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_QPN*32 +: 32] = drops(roce_pkg::DropQpn);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_ICRC*32 +: 32] = drops(roce_pkg::DropIcrc);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_TRUNC*32 +: 32] =
        drops(roce_pkg::DropRunt) + drops(roce_pkg::DropOversize) + drops(roce_pkg::DropNoBuf);
    counters_o[rnic_spec_pkg::CNT_TX_FRAMES*32 +: 32] = tx_frames_i;
    counters_o[rnic_spec_pkg::CNT_TX_BYTES*32 +: 32] = tx_bytes_q;
    counters_o[rnic_spec_pkg::CNT_COMMANDS*32 +: 32] = commands_i;
    counters_o[rnic_spec_pkg::CNT_DMA_RD_ERR*32 +: 32] = dma_rd_err_q;
    counters_o[rnic_spec_pkg::CNT_DMA_WR_ERR*32 +: 32] = dma_wr_err_q;
    counters_o[rnic_spec_pkg::CNT_RX_DROP_BAD_QP*32 +: 32] = xrx(xport_rx_pkg::CntBadQp);
    counters_o[rnic_spec_pkg::CNT_RX_PSN_DUP*32 +: 32] = xrx(xport_rx_pkg::CntDup);
    counters_o[rnic_spec_pkg::CNT_RX_PSN_OOO*32 +: 32] = xrx(xport_rx_pkg::CntOoo);
    counters_o[rnic_spec_pkg::CNT_RX_NAK_ERR*32 +: 32] = xrx(xport_rx_pkg::CntAccess);
    counters_o[rnic_spec_pkg::CNT_RX_RNR_SENT*32 +: 32] = xrx(xport_rx_pkg::CntRnr);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_UNSUP*32 +: 32] = xrx(xport_rx_pkg::CntUnsup);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_READ_RESP*32 +: 32] = xrx(xport_rx_pkg::CntRdRsp);
    counters_o[rnic_spec_pkg::CNT_RX_DROP_UD*32 +: 32] = xrx(xport_rx_pkg::CntUd);
    counters_o[rnic_spec_pkg::CNT_RX_PAUSE_XOFF*32 +: 32] = pause_xoff_i;
    counters_o[rnic_spec_pkg::CNT_TX_PAUSED_CYCLES*32 +: 32] = tx_paused_i;
    counters_o[rnic_spec_pkg::CNT_RX_PAUSE_BREAKS*32 +: 32] = pause_breaks_i;
    counters_o[rnic_spec_pkg::CNT_RX_FW_FRAMES*32 +: 32] = fw_rx_frames_i;
    counters_o[rnic_spec_pkg::CNT_RX_FW_DROP_FULL*32 +: 32] = fw_rx_drop_full_i;
    counters_o[rnic_spec_pkg::CNT_TX_FW_FRAMES*32 +: 32] = fw_tx_frames_i;
    counters_o[rnic_spec_pkg::CNT_TX_RETX_PKTS*32 +: 32] = tx_retx_i;
  end
endmodule
