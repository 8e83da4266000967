# AMD VCU118: XCVU9P, PCIe Gen3 x16 edge, QSFP28 cage 1 for the 100G port.
# Board file: xilinx.com:vcu118:part0:2.4 (ships with Vivado 2022.2). Interface and pin names
# below are looked up in it at build time; a name it lacks stops the flow with its list.
set rnic_board [dict create \
    name            vcu118 \
    part            xcvu9p-flga2104-2L-e \
    board_part      xilinx.com:vcu118:part0:2.4 \
    top             rnic_vcu118_top \
    pcie_iface      pci_express_x16 \
    perst_iface     pcie_perstn \
    qsfp_iface      qsfp1_4x \
    qsfp_clk_iface  qsfp1_156mhz \
    qsfp_refclk_mhz 156.25 \
    cmac_site       CMACE4_X0Y8 \
    init_mhz        125 \
    xdc             [list vcu118/vcu118.xdc common/timing.xdc] \
    cfgmem_part     mt25qu01g-spi-x1_x2_x4 \
    cfgmem_iface    SPIx4 \
    cfgmem_size     128 \
]

# Top-level ports placed from the board file (the GT lanes are placed by the IP from its board
# interface; the PCIe reference clock and PERST# by this list).
proc rnic_board_pins {} {
    rnic_board_pin pcie_perst_n   pcie_perstn        rst
    rnic_board_pin pcie_refclk_p  pcie_refclk        clk_p
    rnic_board_pin qsfp1_refclk_p qsfp1_156mhz       clk_p
    rnic_board_pin clk_125mhz_p   default_sysclk_125 clk_p
    rnic_board_pin qsfp1_resetl   qsfp1_4x           resetl
    rnic_board_pin qsfp1_lpmode   qsfp1_4x           lpmode
    rnic_board_pin qsfp1_modsell  qsfp1_4x           modsell
    for {set i 0} {$i < 8} {incr i} { rnic_board_pin "led\[$i\]" led_8bits "led_$i" }
}
