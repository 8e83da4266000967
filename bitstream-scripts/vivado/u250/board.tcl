# AMD Alveo U250: XCU250, PCIe Gen3 x16 edge, QSFP28 cage 0 for the 100G port.
# Board file: xilinx.com:au250:part0:1.3 (install it from the Vivado board store: Alveo board
# files are not in the default install). Interface and pin names are looked up in it at build
# time; a name it lacks stops the flow with its list.
set rnic_board [dict create \
    name            u250 \
    part            xcu250-figd2104-2L-e \
    board_part      xilinx.com:au250:part0:1.3 \
    top             rnic_u250_top \
    pcie_iface      pci_express_x16 \
    perst_iface     pcie_perstn \
    qsfp_iface      qsfp0_4x \
    qsfp_clk_iface  qsfp0_161mhz \
    qsfp_refclk_mhz 161.1328125 \
    cmac_site       CMACE4_X0Y7 \
    init_mhz        100 \
    xdc             [list u250/u250.xdc common/timing.xdc] \
    cfgmem_part     mt25qu01g-spi-x1_x2_x4 \
    cfgmem_iface    SPIx4 \
    cfgmem_size     128 \
]

proc rnic_board_pins {} {
    rnic_board_pin pcie_perst_n   pcie_perstn         rst
    rnic_board_pin pcie_refclk_p  pcie_refclk         clk_p
    rnic_board_pin qsfp0_refclk_p qsfp0_161mhz        clk_p
    rnic_board_pin clk_300mhz_p   default_300mhz_clk0 clk_p
    rnic_board_pin qsfp0_resetl   qsfp0_4x            resetl
    rnic_board_pin qsfp0_lpmode   qsfp0_4x            lpmode
    rnic_board_pin qsfp0_modsell  qsfp0_4x            modsell
}
