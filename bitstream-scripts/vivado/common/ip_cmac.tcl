# The 100G MAC: UltraScale+ Integrated 100G Ethernet (cmac_usplus 3.1), CAUI-4 on the board's
# QSFP28 cage, RS-FEC, 512-bit non-segmented AXI-Stream on gt_txusrclk2 (322.27 MHz), shared
# logic (GT reference buffer, reset) inside the IP, no AXI-Lite: ctl_*/stat_* ports, wired by
# rnic_board_shell (pause/PFC enabled both ways, FCS added on TX and removed on RX).
# Inputs: rnic_ip_dir, rnic_board (dict from the board's board.tcl).
proc rnic_ip_cmac {ip_dir board} {
    create_ip -vlnv xilinx.com:ip:cmac_usplus:3.1 -module_name rnic_cmac -dir $ip_dir
    set props [dict create \
        CONFIG.CMAC_CAUI4_MODE          1 \
        CONFIG.NUM_LANES                4x25 \
        CONFIG.GT_REF_CLK_FREQ          [dict get $board qsfp_refclk_mhz] \
        CONFIG.USER_INTERFACE           AXIS \
        CONFIG.INCLUDE_SHARED_LOGIC     2 \
        CONFIG.ENABLE_AXI_INTERFACE     0 \
        CONFIG.INCLUDE_RS_FEC           1 \
        CONFIG.TX_FLOW_CONTROL          1 \
        CONFIG.RX_FLOW_CONTROL          1 \
        CONFIG.RX_MAX_PACKET_LEN        9600 \
        CONFIG.GT_DRP_CLK               [dict get $board init_mhz] \
        CONFIG.CMAC_CORE_SELECT         [dict get $board cmac_site] \
        CONFIG.ETHERNET_BOARD_INTERFACE [dict get $board qsfp_iface] \
        CONFIG.DIFFCLK_BOARD_INTERFACE  [dict get $board qsfp_clk_iface] \
    ]
    set_property -dict $props [get_ips rnic_cmac]
}
