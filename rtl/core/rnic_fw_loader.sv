// Firmware image check and soft-core release. After reset, and whenever the host lets go of
// cpu_control.hold, the loader reads the image header (spec layout fw_image_hdr, DMEM offset 0)
// and the IMEM contents through the soft core's load port, checks magic, sizes, entry and the
// CRC-32 of IMEM, and only then releases the core. A refused image keeps the core in reset with
// the reason in cpu_status, so a bad download can never run.
module rnic_fw_loader #(
  parameter int unsigned ImemBytes = 65536,
  parameter int unsigned DmemBytes = 65536
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        hold_i,        // cpu_control bit 0: host holds the core to load an image
  output logic        core_run_o,    // core out of reset
  output logic        busy_o,        // checking: the load port belongs to the loader
  output logic        accepted_o,
  output logic        refused_o,
  output logic [31:0] version_o,     // header version of the last accepted image
  // soft-core load port (valid only while the core is in reset)
  output logic        ld_req_o,
  output logic [31:0] ld_addr_o,
  input  logic [31:0] ld_rdata_i,
  input  logic        ld_rvalid_i
);
  localparam logic [31:0] Magic = rnic_spec_pkg::FW_IMAGE_MAGIC;  // 'RNFW'
  localparam logic [31:0] DmemBase = rnic_spec_pkg::FW_DMEM_BASE;
  localparam int unsigned HdrWords = rnic_spec_pkg::FW_IMAGE_HDR_BYTES / 4;

  typedef enum logic [2:0] {Held, ReadHdr, Crc, Decide, Run, Refused} state_e;
  state_e state_q;
  logic [31:0] hdr_q [HdrWords];
  logic [15:0] issue_q, recv_q;   // words requested / received in this phase
  logic [31:0] crc_q;
  logic        hold_q;

  // CRC-32 (IEEE, reflected) of one little-endian 32-bit word, as used by binascii.crc32.
  function automatic logic [31:0] crc32_word(input logic [31:0] crc, input logic [31:0] w);
    logic [31:0] c;
    c = crc ^ w;
    for (int i = 0; i < 32; i++) c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
    crc32_word = c;
  endfunction

  // The header's checks are registered as each word arrives (the word is in ld_rdata_i), so
  // no compare of a whole header word runs into the state machine and the load request
  // (issue 16: imem_size -> the 32-bit words-done compare was 9 LUT levels). Every checked
  // field lies in a word before the header's last, so all flags are valid in the first Crc cycle.
  localparam int unsigned MagicW = rnic_spec_pkg::FW_IMAGE_HDR_MAGIC_LSB / 32;
  localparam int unsigned ImemSizeW = rnic_spec_pkg::FW_IMAGE_HDR_IMEM_SIZE_LSB / 32;
  localparam int unsigned DmemSizeW = rnic_spec_pkg::FW_IMAGE_HDR_DMEM_SIZE_LSB / 32;
  localparam int unsigned EntryW = rnic_spec_pkg::FW_IMAGE_HDR_ENTRY_LSB / 32;
  logic        magic_ok_q, isize_ok_q, dsize_ok_q, entry_ok_q;
  logic [15:0] words_q, last_q;   // imem_size / 4 and one less, low 16 bits (checked by isize_ok_q)
  logic [31:0] imem_crc;
  assign imem_crc = hdr_q[rnic_spec_pkg::FW_IMAGE_HDR_IMEM_CRC_LSB / 32];

  logic hdr_ok;
  assign hdr_ok = magic_ok_q && isize_ok_q && dsize_ok_q && entry_ok_q;

  // In Crc the compares below matter only with hdr_ok (the request and the end test are gated by
  // it), where imem_size / 4 is 1..ImemBytes / 4 and fits the 16-bit counts (as issue_q and
  // recv_q, the IMEM is below 256 KiB).
  logic phase_words_done;
  assign phase_words_done = (state_q == ReadHdr) ? issue_q == 16'(HdrWords) : issue_q == words_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Held;     // with hold_q set, the first cycle out of reset starts a check:
                           // a baked-in image is checked like a downloaded one
      issue_q <= '0;
      recv_q <= '0;
      crc_q <= '1;
      hold_q <= 1'b1;
      accepted_o <= 1'b0;
      refused_o <= 1'b0;
      version_o <= '0;
      for (int i = 0; i < HdrWords; i++) hdr_q[i] <= '0;
      magic_ok_q <= 1'b0;
      isize_ok_q <= 1'b0;
      dsize_ok_q <= 1'b0;
      entry_ok_q <= 1'b0;
      words_q <= '0;
      last_q <= '0;
    end else begin
      hold_q <= hold_i;
      if (ld_req_o) issue_q <= issue_q + 16'd1;
      if (hold_i && state_q != Held && state_q != Refused) begin
        state_q <= Held;  // the host took the core back, even in the middle of a check
        accepted_o <= 1'b0;
      end else unique case (state_q)
        Held, Refused: begin
          if (hold_i) state_q <= Held;
          else if (hold_q) begin  // the host released the hold: check the new image
            state_q <= ReadHdr;
            issue_q <= '0;
            recv_q <= '0;
            accepted_o <= 1'b0;
            refused_o <= 1'b0;
          end
        end
        ReadHdr: begin
          if (ld_rvalid_i) begin
            hdr_q[recv_q[$clog2(HdrWords)-1:0]] <= ld_rdata_i;
            unique case (32'(recv_q))
              MagicW: magic_ok_q <= ld_rdata_i == Magic;
              ImemSizeW: begin
                isize_ok_q <= ld_rdata_i != 0 && ld_rdata_i[1:0] == 2'b00 && ld_rdata_i <= ImemBytes;
                words_q <= ld_rdata_i[17:2];
                last_q <= ld_rdata_i[17:2] - 16'd1;
              end
              DmemSizeW: dsize_ok_q <= ld_rdata_i <= DmemBytes;
              EntryW: entry_ok_q <= ld_rdata_i == 32'h0;
              default: ;
            endcase
            recv_q <= recv_q + 16'd1;
            if (recv_q == 16'(HdrWords - 1)) begin
              state_q <= Crc;
              issue_q <= '0;
              recv_q <= '0;
              crc_q <= '1;
            end
          end
        end
        Crc: begin
          if (!hdr_ok) state_q <= Decide;
          else if (ld_rvalid_i) begin
            crc_q <= crc32_word(crc_q, ld_rdata_i);
            recv_q <= recv_q + 16'd1;
            if (recv_q == last_q) state_q <= Decide;
          end
        end
        Decide: begin
          if (hdr_ok && ~crc_q == imem_crc) begin
            state_q <= Run;
            accepted_o <= 1'b1;
            version_o <= hdr_q[rnic_spec_pkg::FW_IMAGE_HDR_VERSION_LSB / 32];
          end else begin
            state_q <= Refused;
            refused_o <= 1'b1;
          end
        end
        Run: ;  // until the host takes the core back (above)
        default: state_q <= Held;
      endcase
    end
  end

  // Reads are issued back to back; data returns one cycle later in order.
  assign ld_req_o = (state_q == ReadHdr || (state_q == Crc && hdr_ok)) && !phase_words_done && !hold_i;
  assign ld_addr_o = (state_q == ReadHdr) ? DmemBase + {14'h0, issue_q, 2'b00} : {14'h0, issue_q, 2'b00};
  assign core_run_o = state_q == Run;
  assign busy_o = state_q == ReadHdr || state_q == Crc || state_q == Decide;
endmodule
