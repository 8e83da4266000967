// The signals of one AXI4 master/slave port pair as a plain struct, copied to and from the
// verilated model each cycle. Shared by the PCIe model here and the DMA testbench's slave model.
#pragma once
#include <cstdint>
#include <vector>

struct AxiPorts {
  // master -> slave
  bool awvalid = false; uint32_t awid = 0; uint64_t awaddr = 0; uint32_t awlen = 0, awsize = 0, awburst = 0;
  bool wvalid = false; std::vector<uint8_t> wdata; std::vector<uint8_t> wstrb; bool wlast = false;
  bool bready = false;
  bool arvalid = false; uint32_t arid = 0; uint64_t araddr = 0; uint32_t arlen = 0, arsize = 0, arburst = 0;
  bool rready = false;
  // slave -> master
  bool awready = false, wready = false, arready = false;
  bool bvalid = false; uint32_t bid = 0, bresp = 0;
  bool rvalid = false; uint32_t rid = 0, rresp = 0; bool rlast = false; std::vector<uint8_t> rdata;
  explicit AxiPorts(unsigned bytes = 8) : wdata(bytes), wstrb(bytes), rdata(bytes) {}
};
