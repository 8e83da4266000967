// mkey_pkg: constants of the memory-key block (rtl/mkey): lookup statuses and write opcodes.
// The values come from spec/rnic.toml (enums mkey_status, mkey_wr_op) so firmware and C agree.
package mkey_pkg;
  localparam int unsigned STATUS_W = 3;
  // lookup response status, in order of precedence (the first failing check wins)
  localparam logic [2:0] STATUS_OK            = 3'(rnic_spec_pkg::MKEY_STATUS_OK);
  localparam logic [2:0] STATUS_BAD_KEY       = 3'(rnic_spec_pkg::MKEY_STATUS_BAD_KEY); // index >= NumKeys, entry invalid, variant mismatch
  localparam logic [2:0] STATUS_BAD_PD        = 3'(rnic_spec_pkg::MKEY_STATUS_BAD_PD); // entry PD differs from the request PD
  localparam logic [2:0] STATUS_BAD_ACCESS    = 3'(rnic_spec_pkg::MKEY_STATUS_BAD_ACCESS); // a required access bit is not granted
  localparam logic [2:0] STATUS_OUT_OF_BOUNDS = 3'(rnic_spec_pkg::MKEY_STATUS_OUT_OF_BOUNDS); // [va, va+length) not inside [iova, iova+length)
  localparam logic [2:0] STATUS_BAD_XLATE     = 3'(rnic_spec_pkg::MKEY_STATUS_BAD_XLATE); // page_shift outside 12..30, MTT index >= NumMtt,
                                                      // or MTT entry without its valid bit (bit 0)
  // firmware write port opcodes
  localparam logic [1:0] WR_MPT     = 2'(rnic_spec_pkg::MKEY_WR_OP_WR_MPT); // write the full MPT entry wr_data_i at wr_index_i
  localparam logic [1:0] WR_MTT     = 2'(rnic_spec_pkg::MKEY_WR_OP_WR_MTT); // write the MTT entry wr_data_i[63:0] at wr_index_i
  localparam logic [1:0] INV_MPT    = 2'(rnic_spec_pkg::MKEY_WR_OP_INV_MPT); // clear the MPT entry at wr_index_i (valid = 0)
  localparam int unsigned MPT_W = rnic_spec_pkg::MPT_ENTRY_BYTES * 8;
  localparam int unsigned MTT_W = rnic_spec_pkg::MTT_ENTRY_BYTES * 8;
endpackage
