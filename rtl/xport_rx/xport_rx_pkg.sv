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
    logic [63:0] va;        // WRITE: next virtual address
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

endpackage
