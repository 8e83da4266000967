// The set-up every two-NIC program shares: two simulated NICs on one link, each with its host
// memory and PCIe model, and the host side of each (P: RdmaPort or RdmaHost) at 10.0.0.1 and
// 10.0.0.2. Members are built in declaration order, the order the programs always used.
#pragma once
#include "host/host_mem.h"
#include "host/pcie_model.h"
#include "net/eth_link.h"
#include "nic/rnic_node.h"

template <class P>
struct TwoNics {
  HostMem ma, mb;
  PcieModel pa, pb;
  RnicNode na, nb;
  EthLink link;
  P a, b;

  explicit TwoNics(const EthLinkCfg &lc = EthLinkCfg(), const PcieCfg &ca = PcieCfg(), const PcieCfg &cb = PcieCfg())
      : pa(ma, ca), pb(mb, cb), na("nic0"), nb("nic1"), link("link", attach(na, pa), attach(nb, pb), lc),
        a(&na, &ma, 0x0A000001u, 1), b(&nb, &mb, 0x0A000002u, 2) {}

 private:
  static RnicNode *attach(RnicNode &n, PcieModel &p) {
    n.attach_pcie(&p);
    return &n;
  }
};
