# Vivado hardware manager (JTAG over the board's USB): program the FPGA or write its
# configuration flash. bitstream-scripts/flash/program.sh and flash.sh call it:
#   vivado -mode batch -source hw_manager.tcl -tclargs program BIT [LTX]
#   vivado -mode batch -source hw_manager.tcl -tclargs flash BIT MCS CFGMEM_PART
# RNIC_HW_SERVER=host:port reaches a hw_server elsewhere (default: a local one, started by Vivado).
lassign $argv action bit arg3 arg4
if {$action ni {program flash}} { error "hw_manager.tcl: action must be program or flash, not '$action'" }
if {![file exists $bit]} { error "hw_manager.tcl: no bitstream $bit" }
open_hw_manager
if {[info exists ::env(RNIC_HW_SERVER)]} {
    connect_hw_server -url $::env(RNIC_HW_SERVER) -allow_non_jtag
} else {
    connect_hw_server -allow_non_jtag
}
open_hw_target
# the board's FPGA: the one UltraScale+ device in the chain (the VCU118 and U250 chains have one)
set devs [get_hw_devices -filter {PART =~ "xc*" || PART =~ "xcu*"}]
if {[llength $devs] != 1} { error "hw_manager.tcl: expected one FPGA on the JTAG chain, found: $devs" }
set dev [lindex $devs 0]
current_hw_device $dev
refresh_hw_device -update_hw_probes false $dev
if {$action eq "program"} {
    set_property PROGRAM.FILE $bit $dev
    if {$arg3 ne "" && [file exists $arg3]} { set_property PROBES.FILE $arg3 $dev }
    program_hw_devices $dev
    refresh_hw_device $dev
    puts "hw_manager: programmed $dev with $bit (volatile: lost at power-off; the host must rescan PCIe)"
} else {
    set mcs $arg3
    set part $arg4
    if {![file exists $mcs]} { error "hw_manager.tcl: no flash image $mcs" }
    create_hw_cfgmem -hw_device $dev [lindex [get_cfgmem_parts $part] 0]
    set cm [get_property PROGRAM.HW_CFGMEM $dev]
    set_property PROGRAM.FILES [list $mcs] $cm
    set_property PROGRAM.ADDRESS_RANGE use_file $cm
    set_property PROGRAM.ERASE 1 $cm
    set_property PROGRAM.BLANK_CHECK 0 $cm
    set_property PROGRAM.CFG_PROGRAM 1 $cm
    set_property PROGRAM.VERIFY 1 $cm
    # the flash is reached through a small bridge design Vivado loads into the FPGA first
    create_hw_bitstream -hw_device $dev [get_property PROGRAM.HW_CFGMEM_BITFILE $dev]
    program_hw_devices $dev
    refresh_hw_device $dev
    program_hw_cfgmem -hw_cfgmem $cm
    # configure from the flash now, as at power-on
    boot_hw_device $dev
    puts "hw_manager: wrote $mcs to the $part flash of $dev and booted from it"
}
close_hw_target
disconnect_hw_server
close_hw_manager
