// Testbench top of the 802.1Q blocks: roce_vlan_ins -> roce_vlan_strip, the tagged stream
// between them visible (mid_*), the output with backpressure.
module roce_vlan_tb_top #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   enable_i,
  input  logic [11:0]            vid_i,
  input  logic [DataWidth-1:0]   s_tdata_i,
  input  logic [DataWidth/8-1:0] s_tkeep_i,
  input  logic                   s_tlast_i,
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  output logic [DataWidth-1:0]   mid_tdata_o,
  output logic [DataWidth/8-1:0] mid_tkeep_o,
  output logic                   mid_tlast_o,
  output logic                   mid_tvalid_o,
  output logic                   mid_tready_o,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  output logic                   tagged_o
);
  roce_vlan_ins #(.DataWidth(DataWidth)) u_ins (
    .clk_i, .rst_ni, .enable_i, .vid_i, .s_tdata_i, .s_tkeep_i, .s_tlast_i, .s_tvalid_i, .s_tready_o,
    .m_tdata_o(mid_tdata_o), .m_tkeep_o(mid_tkeep_o), .m_tlast_o(mid_tlast_o), .m_tvalid_o(mid_tvalid_o),
    .m_tready_i(mid_tready_o)
  );
  roce_vlan_strip #(.DataWidth(DataWidth)) u_strip (
    .clk_i, .rst_ni, .s_tdata_i(mid_tdata_o), .s_tkeep_i(mid_tkeep_o), .s_tlast_i(mid_tlast_o),
    .s_tvalid_i(mid_tvalid_o), .s_tready_o(mid_tready_o), .m_tdata_o, .m_tkeep_o, .m_tlast_o, .m_tvalid_o,
    .m_tready_i, .tagged_o
  );
endmodule
