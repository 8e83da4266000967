// AXI4-Lite slave to a simple request/acknowledge bus. One transaction at a time; reads and
// writes alternate priority so neither starves. The target acknowledges (bus_ack_i) in the
// request cycle or later and may flag an error, answered as SLVERR.
module axil_slave #(
  parameter int unsigned AddrWidth = 22
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // AXI4-Lite slave
  input  logic [AddrWidth-1:0] s_axil_awaddr_i,
  input  logic                 s_axil_awvalid_i,
  output logic                 s_axil_awready_o,
  input  logic [31:0]          s_axil_wdata_i,
  input  logic [3:0]           s_axil_wstrb_i,
  input  logic                 s_axil_wvalid_i,
  output logic                 s_axil_wready_o,
  output logic [1:0]           s_axil_bresp_o,
  output logic                 s_axil_bvalid_o,
  input  logic                 s_axil_bready_i,
  input  logic [AddrWidth-1:0] s_axil_araddr_i,
  input  logic                 s_axil_arvalid_i,
  output logic                 s_axil_arready_o,
  output logic [31:0]          s_axil_rdata_o,
  output logic [1:0]           s_axil_rresp_o,
  output logic                 s_axil_rvalid_o,
  input  logic                 s_axil_rready_i,
  // register bus
  output logic                 bus_req_o,
  output logic                 bus_we_o,
  output logic [AddrWidth-1:0] bus_addr_o,
  output logic [31:0]          bus_wdata_o,
  output logic [3:0]           bus_wstrb_o,
  input  logic                 bus_ack_i,
  input  logic [31:0]          bus_rdata_i,
  input  logic                 bus_err_i
);
  localparam logic [1:0] RespOkay = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;

  typedef enum logic [1:0] {Idle, Busy, Resp} state_e;
  state_e state_q;
  logic we_q, prefer_read_q;
  logic [AddrWidth-1:0] addr_q;
  logic [31:0] wdata_q, rdata_q;
  logic [3:0] wstrb_q;
  logic err_q;

  logic wr_ready, rd_ready, take_wr, take_rd;
  assign wr_ready = s_axil_awvalid_i && s_axil_wvalid_i;
  assign rd_ready = s_axil_arvalid_i;
  assign take_wr = state_q == Idle && wr_ready && (!rd_ready || !prefer_read_q);
  assign take_rd = state_q == Idle && rd_ready && (!wr_ready || prefer_read_q);

  assign s_axil_awready_o = take_wr;
  assign s_axil_wready_o = take_wr;
  assign s_axil_arready_o = take_rd;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      we_q <= 1'b0;
      prefer_read_q <= 1'b0;
      addr_q <= '0;
      wdata_q <= '0;
      wstrb_q <= '0;
      rdata_q <= '0;
      err_q <= 1'b0;
    end else begin
      unique case (state_q)
        Idle: begin
          if (take_wr) begin
            state_q <= Busy;
            we_q <= 1'b1;
            addr_q <= s_axil_awaddr_i;
            wdata_q <= s_axil_wdata_i;
            wstrb_q <= s_axil_wstrb_i;
            prefer_read_q <= 1'b1;
          end else if (take_rd) begin
            state_q <= Busy;
            we_q <= 1'b0;
            addr_q <= s_axil_araddr_i;
            prefer_read_q <= 1'b0;
          end
        end
        Busy: begin
          if (bus_ack_i) begin
            state_q <= Resp;
            rdata_q <= bus_rdata_i;
            err_q <= bus_err_i;
          end
        end
        Resp: begin
          if ((we_q && s_axil_bready_i) || (!we_q && s_axil_rready_i)) state_q <= Idle;
        end
        default: state_q <= Idle;
      endcase
    end
  end

  assign bus_req_o = state_q == Busy;
  assign bus_we_o = we_q;
  assign bus_addr_o = addr_q;
  assign bus_wdata_o = wdata_q;
  assign bus_wstrb_o = wstrb_q;

  assign s_axil_bvalid_o = state_q == Resp && we_q;
  assign s_axil_bresp_o = err_q ? RespSlvErr : RespOkay;
  assign s_axil_rvalid_o = state_q == Resp && !we_q;
  assign s_axil_rresp_o = err_q ? RespSlvErr : RespOkay;
  assign s_axil_rdata_o = rdata_q;
endmodule
