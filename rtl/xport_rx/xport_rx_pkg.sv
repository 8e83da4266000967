// xport_rx shared definitions: the RTL-owned moving state of one QP (responder side) and the
// indices of the drop/event counters.
package xport_rx_pkg;

  // Message in progress on a QP (responder).
  localparam logic [1:0] MsgIdle  = 2'd0;
  localparam logic [1:0] MsgWrite = 2'd1;
  localparam logic [1:0] MsgSend  = 2'd2;

  // Moving state, written back after every accepted request packet.
  typedef struct packed {
    logic [23:0] epsn;      // expected PSN
    logic [23:0] msn;       // messages completed (AETH MSN)
    logic        nak_sent;  // a PSN-sequence (or RNR) NAK was sent; silent until epsn arrives
    logic        err;       // a NAK error was sent: every request is dropped until rewritten
    logic [1:0]  msg;       // Msg*
    logic [63:0] va;        // WRITE: next virtual address; SEND: buffer bytes left (34 bits)
    logic [31:0] rkey;      // WRITE: R_Key of the message
    logic [31:0] rem;       // WRITE: bytes still expected (RETH DMA length - placed)
    logic [31:0] bcnt;      // bytes placed in the current message (SEND: receive-buffer offset)
    logic [7:0]  ack_cnt;   // packets since the last ACK
  } qp_state_t;
  localparam int QpStateBits = 220;

  // Counter indices (cnt_o[32*i +: 32]).
  localparam int CntBadQp   = 0;  // QPN out of range, entry invalid or rx disabled
  localparam int CntDup     = 1;  // duplicate request PSN (re-ACKed / re-executed, not placed)
  localparam int CntOoo     = 2;  // PSN ahead of the expected PSN
  localparam int CntAccess  = 3;  // NAK invalid request / remote access / remote op error
  localparam int CntRnr     = 4;  // RNR NAK sent
  localparam int CntUnsup   = 5;  // opcode not handled (UC, SEND w/ invalidate, not the QP's type) or QP in error
  localparam int CntRdRsp   = 6;  // READ response dropped: no outstanding READ expects its PSN, bad opcode/length
  localparam int CntUd      = 7;  // UD datagram dropped: Q_Key mismatch or no receive buffer posted
  localparam int NumCnt     = 8;

  // A buffer's size: the sum of the lengths of its first n SGEs (len[32*i +: 32] is SGE i; up to
  // SgeTreeMax of them, unused lanes zero) as a balanced adder tree (timing: a chain of adders
  // behind the descriptor was an 8-9 level path into the rq-slot RAM and the READ contexts).
  // (Yosys 0.23 takes no other package's constant here: callers check MAX_SGE <= SgeTreeMax.)
  localparam int SgeTreeMax = 8;
  function automatic logic [33:0] sge_total(input logic [7:0] n, input logic [32*SgeTreeMax-1:0] len);
    logic [34*SgeTreeMax-1:0] t;
    for (int i = 0; i < SgeTreeMax; i++) t[34*i +: 34] = (8'(i) < n) ? 34'(len[32*i +: 32]) : 34'd0;
    for (int i = 0; i < 4; i++) t[34*i +: 34] = t[34*(2*i) +: 34] + t[34*(2*i+1) +: 34];
    for (int i = 0; i < 2; i++) t[34*i +: 34] = t[34*(2*i) +: 34] + t[34*(2*i+1) +: 34];
    sge_total = t[33:0] + t[67:34];
  endfunction

endpackage
