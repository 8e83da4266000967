# Stub definitions of the Vivado commands the flow calls (common/build.tcl, util.tcl, ip_*.tcl,
# the boards' board.tcl and XDC files), for tclsh in CI where Vivado cannot run. Each records its
# call in ::rnic_calls and checks what can be checked without Vivado: files it is given exist,
# -dict lists are key/value pairs, IP properties are CONFIG.*, XDC files are sourced (so their Tcl
# parses and their object queries are well formed). Values returned are placeholders.
set ::rnic_calls {}
set ::rnic_stub_errors {}
proc rnic_stub_log {args} { lappend ::rnic_calls $args }
proc rnic_stub_fail {msg} { lappend ::rnic_stub_errors $msg }
proc rnic_stub_file {cmd f} { if {![file exists $f]} { rnic_stub_fail "$cmd: no file $f" } }

proc version {args} { rnic_stub_log version {*}$args; return $::rnic_stub_version }
proc create_project {args} { rnic_stub_log create_project {*}$args }
proc current_project {args} { return stub_project }
proc current_design {args} { return stub_design }
proc current_board_part {args} { return stub_board_part }
proc set_property {args} {
    rnic_stub_log set_property {*}$args
    if {[lindex $args 0] eq "-dict"} {
        set d [lindex $args 1]
        if {[llength $d] % 2} { rnic_stub_fail "set_property -dict: odd list: $d" }
        foreach {k v} $d {
            if {[string match "*_ip*" [lindex $args 2]] && ![string match CONFIG.* $k]} {
                rnic_stub_fail "set_property -dict: IP property $k is not CONFIG.*"
            }
            if {$v eq ""} { rnic_stub_fail "set_property -dict: $k has no value" }
        }
    } elseif {[llength $args] < 3} {
        rnic_stub_fail "set_property: too few arguments: $args"
    }
}
proc get_property {name args} {
    rnic_stub_log get_property $name {*}$args
    switch -- $name { SLACK { return 0.100 } LOC { return STUB_LOC } IOSTANDARD { return LVCMOS18 } }
    return ""
}
proc create_ip {args} {
    rnic_stub_log create_ip {*}$args
    set i [lsearch $args -module_name]
    lappend ::rnic_stub_ips [lindex $args [expr {$i + 1}]]
    set d [lsearch $args -dir]
    set ::rnic_stub_ip_dir [lindex $args [expr {$d + 1}]]
}
proc get_ips {args} { return [expr {[llength $args] ? "[lindex $args end]_ip" : $::rnic_stub_ips}] }
proc generate_target {args} { rnic_stub_log generate_target {*}$args }
# Vivado writes DIR/IP/IP_stub.v here, in its own style (names in the header, one declaration a
# line below it); the stub writes the black box's ports that way, so the flow's port check
# parses that style (check_flow.tcl tests the check itself with a differing port list).
proc synth_ip {args} {
    rnic_stub_log synth_ip {*}$args
    foreach ip $::rnic_stub_ips {
        set ports [rnic_module_ports [file join $::rnic_stub_repo rtl boards ip $ip.sv] $ip]
        file mkdir [file join $::rnic_stub_ip_dir $ip]
        set f [open [file join $::rnic_stub_ip_dir $ip ${ip}_stub.v] w]
        puts $f "// stub written by vivado_stub.tcl in the style of Vivado's\nmodule ${ip}([join $ports {, }])"
        puts $f "/* synthesis syn_black_box black_box_pad_pin=\"\" */;"
        foreach p $ports { puts $f "  input \[0:0\]$p;" }
        puts $f "endmodule"
        close $f
    }
}
proc read_verilog {args} {
    rnic_stub_log read_verilog {*}$args
    foreach f [lindex $args end] { rnic_stub_file read_verilog $f }
}
proc read_xdc {f} {
    rnic_stub_log read_xdc $f
    rnic_stub_file read_xdc $f
    # the XDC is Tcl: run it against the XDC stubs below
    if {[catch {uplevel #0 [list source $f]} e]} { rnic_stub_fail "read_xdc $f: $e" }
}
proc synth_design {args} { rnic_stub_log synth_design {*}$args }
foreach c {opt_design place_design phys_opt_design route_design report_utilization report_timing_summary
           report_cdc write_bitstream write_debug_probes write_cfgmem} {
    proc $c {args} "rnic_stub_log $c {*}\$args"
}
proc get_timing_paths {args} { return stub_path }
proc get_board_part_interfaces {args} { return [expr {[llength $args] ? [lindex $args end] : {}}] }
proc get_board_part_pins {args} { return stub_pin }
# XDC commands
proc get_ports {args} { rnic_stub_log get_ports {*}$args; return [lindex $args end] }
foreach c {get_clocks get_pins get_cells get_nets} {
    proc $c {args} "
        set i \[lsearch \$args -filter\]
        if {\$i >= 0 && \[llength \$args\] <= \$i + 1} { rnic_stub_fail \"$c: -filter without a value\" }
        return stub_[string range $c 4 end]
    "
}
proc create_clock {args} {
    rnic_stub_log create_clock {*}$args
    set i [lsearch $args -period]
    if {$i < 0 || ![string is double -strict [lindex $args [expr {$i + 1}]]]} {
        rnic_stub_fail "create_clock without a numeric -period: $args"
    }
}
foreach c {set_false_path set_max_delay set_clock_groups set_input_delay set_output_delay} {
    proc $c {args} "rnic_stub_log $c {*}\$args"
}
# outputs exist afterwards, so the flashing scripts can be run on them
proc write_bitstream {args} { rnic_stub_log write_bitstream {*}$args; close [open [lindex $args end] w] }
proc write_cfgmem {args} { rnic_stub_log write_cfgmem {*}$args; close [open [lindex $args end] w] }
# hardware manager (bitstream-scripts/flash/hw_manager.tcl)
foreach c {open_hw_manager connect_hw_server open_hw_target current_hw_device refresh_hw_device
           program_hw_devices create_hw_cfgmem create_hw_bitstream program_hw_cfgmem boot_hw_device
           close_hw_target disconnect_hw_server close_hw_manager} {
    proc $c {args} "rnic_stub_log $c {*}\$args"
}
proc get_hw_devices {args} { return xcvu9p_0 }
proc get_cfgmem_parts {args} { rnic_stub_log get_cfgmem_parts {*}$args; return [lindex $args end] }
rename get_property rnic_stub_get_property
proc get_property {name args} {
    switch -- $name { PROGRAM.HW_CFGMEM { return stub_cfgmem } PROGRAM.HW_CFGMEM_BITFILE { return stub_bridge.bit } }
    return [rnic_stub_get_property $name {*}$args]
}
