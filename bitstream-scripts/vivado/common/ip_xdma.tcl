# The PCIe bridge: DMA/Bridge Subsystem for PCI Express (xdma 4.1) in AXI Bridge mode, Gen3 x16,
# 512-bit AXI at 250 MHz (axi_aclk is the core clock). Host view (docs/boards.md):
#   BAR0 64-bit, 4 MiB  -> M_AXI_B at 0x0000_0000: rnic_core's BAR0 (through rnic_axi_to_axil)
#   BAR2 64-bit, 64 KiB -> M_AXI_B at 0x0100_0000: MSI-X table (offset 0) and PBA (0x8000),
#                          rnic_msix_table: XDMA's bridge mode keeps the MSI-X table outside the IP
#   BAR4 64-bit, 2 MiB, prefetchable -> M_AXI_B at 0x0200_0000: rnic_core's doorbell BAR (spec
#                          db_bar), split off by address bit 25 (rnic_axi_split); prefetchable so
#                          the host may map it write-combined (BlueFlame: one 64-byte beat)
#   S_AXI_B: rnic_core's DMA master, AXI address = PCIe bus address (no translation)
# Identity: vendor 0x10EE, device 0x5252 (spec/rnic.toml, docs/architecture.md "Identity").
# Parameter names are those of the IP's Tcl interface at the pinned version; an unknown name
# stops create_ip's set_property with an error, never silently.
# Inputs: rnic_ip_dir, rnic_board (dict from the board's board.tcl).
proc rnic_ip_xdma {ip_dir board} {
    create_ip -vlnv xilinx.com:ip:xdma:4.1 -module_name rnic_xdma -dir $ip_dir
    set props [dict create \
        CONFIG.functional_mode            AXI_Bridge \
        CONFIG.mode_selection             Advanced \
        CONFIG.pl_link_cap_max_link_width X16 \
        CONFIG.pl_link_cap_max_link_speed 8.0_GT/s \
        CONFIG.axi_data_width             512_bit \
        CONFIG.axisten_freq               250 \
        CONFIG.axi_addr_width             64 \
        CONFIG.pf0_vendor_id              10EE \
        CONFIG.pf0_device_id              5252 \
        CONFIG.pf0_base_class_menu        Network_controller \
        CONFIG.pf0_sub_class_interface_menu Ethernet_controller \
        CONFIG.pf0_bar0_enabled           true \
        CONFIG.pf0_bar0_64bit             true \
        CONFIG.pf0_bar0_prefetchable      false \
        CONFIG.pf0_bar0_scale             Megabytes \
        CONFIG.pf0_bar0_size              4 \
        CONFIG.pciebar2axibar_0           0x0000000000000000 \
        CONFIG.pf0_bar2_enabled           true \
        CONFIG.pf0_bar2_64bit             true \
        CONFIG.pf0_bar2_scale             Kilobytes \
        CONFIG.pf0_bar2_size              64 \
        CONFIG.pciebar2axibar_2           0x0000000001000000 \
        CONFIG.pf0_bar4_enabled           true \
        CONFIG.pf0_bar4_64bit             true \
        CONFIG.pf0_bar4_prefetchable      true \
        CONFIG.pf0_bar4_scale             Megabytes \
        CONFIG.pf0_bar4_size              2 \
        CONFIG.pciebar2axibar_4           0x0000000002000000 \
        CONFIG.pf0_msix_enabled           true \
        CONFIG.msix_type                  HARD \
        CONFIG.pf0_msix_cap_table_size    01F \
        CONFIG.pf0_msix_cap_table_offset  00000000 \
        CONFIG.pf0_msix_cap_table_bir     BAR_3:2 \
        CONFIG.pf0_msix_cap_pba_offset    00008000 \
        CONFIG.pf0_msix_cap_pba_bir       BAR_3:2 \
        CONFIG.PCIE_BOARD_INTERFACE       [dict get $board pcie_iface] \
        CONFIG.SYS_RST_N_BOARD_INTERFACE  [dict get $board perst_iface] \
    ]
    set_property -dict $props [get_ips rnic_xdma]
}
