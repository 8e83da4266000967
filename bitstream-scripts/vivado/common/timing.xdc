# Clock-domain crossings of rnic_board_shell (the same on every board). Generated clocks of the
# IP: axi_aclk (250 MHz, the core) from the PCIe block, gt_txusrclk2 (322.27 MHz, the MAC) from
# the CMAC's GTs. Between them only the crossings written for it exist (rnic_cdc_sync,
# rnic_reset_sync, rnic_cdc_frame_fifo): each data path is bounded by the destination period
# (Gray pointers: one bit changes; the commit value is held for two destination edges before it
# is sampled), never left unconstrained.
set core_clk [get_clocks -of_objects [get_pins -hierarchical -filter {NAME =~ *u_shell/u_xdma/axi_aclk}]]
set mac_clk  [get_clocks -of_objects [get_pins -hierarchical -filter {NAME =~ *u_shell/u_cmac/gt_txusrclk2}]]
set_max_delay -datapath_only -from $core_clk -to $mac_clk 3.100
set_max_delay -datapath_only -from $mac_clk -to $core_clk 4.000
# first stage of every synchronizer: no timing into it beyond the bound above, placed close
set_property ASYNC_REG TRUE [get_cells -hierarchical -filter {NAME =~ *u_shell/*s1_q_reg*}]
# the init clock (MAC reset/DRP) has no synchronous path to the others
set init_clk [get_clocks -of_objects [get_pins -hierarchical -filter {NAME =~ *u_clocks/u_init_bufg/O}]]
set_clock_groups -asynchronous -group $init_clk -group [list $core_clk $mac_clk]
