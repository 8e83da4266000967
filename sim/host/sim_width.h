// The data width of the verilated rnic_core the harness is compiled against, in bytes. One
// place for the node, the PCIe model and the port monitors: the 100g model (512 bits) takes the
// default; sim/block.mk builds the 25g model (128 bits) with -DRNIC_SIM_DATA_BYTES=16.
#pragma once
#ifndef RNIC_SIM_DATA_BYTES
#define RNIC_SIM_DATA_BYTES 64
#endif
// The line rate of that configuration's port (configs/100g.cfg, 25g.cfg: line_gbps): the link
// model's default, so the pause headroom the configuration was sized for holds.
#ifndef RNIC_SIM_LINK_GBPS
#define RNIC_SIM_LINK_GBPS 100
#endif
