// The hand-over half of a firmware-to-hardware mailbox (rnic_fw_mbox on MMIO, rnic_fw_tcmbox on
// the tightly coupled window): a commit copies the filled data words and its argument into the
// registers offered on a valid/ready port until the block takes them. A commit while the
// previous one is still offered (and not taken this cycle) is dropped and counted, it never
// stalls the core; status_o is the spec layout mbox_status.
module rnic_fw_mbox_out #(
  parameter int unsigned Width = 256,
  parameter int unsigned ArgW  = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             commit_i,
  input  logic [ArgW-1:0]  arg_i,
  input  logic [Width-1:0] data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [ArgW-1:0]  out_arg_o,
  output logic [Width-1:0] out_data_o,
  output logic [31:0]      status_o
);
  logic [15:0] dropped_q;
  rnic_spec_pkg::mbox_status_t st;
  always_comb begin
    st = '0;
    st.busy = out_valid_o;
    st.dropped = dropped_q;
  end
  assign status_o = st;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_o <= 1'b0;
      out_arg_o <= '0;
      out_data_o <= '0;
      dropped_q <= '0;
    end else begin
      if (out_valid_o && out_ready_i) out_valid_o <= 1'b0;
      if (commit_i) begin
        if (out_valid_o && !out_ready_i) begin
          dropped_q <= dropped_q + 16'd1;
        end else begin
          out_valid_o <= 1'b1;
          out_arg_o <= arg_i;
          out_data_o <= data_i;
        end
      end
    end
  end
endmodule
