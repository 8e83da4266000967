# Helpers of the Vivado flow (build.tcl). Plain Tcl besides the Vivado commands named in
# stub/vivado_stub.tcl, so the CI check can run every line of the flow without Vivado.

# The configuration file (bitstream-scripts/configs/NAME.cfg) as a dict: the same rules as
# cfg.py (`key = integer`, # comments).
proc rnic_read_cfg {path} {
    set cfg [dict create]
    set f [open $path r]
    set n 0
    while {[gets $f line] >= 0} {
        incr n
        set line [string trim [lindex [split $line "#"] 0]]
        if {$line eq ""} continue
        if {![regexp {^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([0-9]+)$} $line -> key val]} {
            close $f
            error "$path:$n: not `key = integer`: $line"
        }
        dict set cfg $key $val
    }
    close $f
    return $cfg
}

# synth_design -generic arguments: the configuration's rnic_core parameters (UpperCamel keys).
proc rnic_generics {cfg} {
    set g {}
    dict for {k v} $cfg {
        if {[string is upper [string index $k 0]]} { lappend g -generic "$k=$v" }
    }
    return $g
}

# Port names of a Verilog module, one declaration per line (as our black boxes and Vivado's
# generated *_stub.v are written), sorted.
proc rnic_module_ports {path module} {
    set f [open $path r]
    set text [read $f]
    close $f
    if {![regexp -indices "module\\s+$module\\s*\\(" $text m]} {
        error "$path: no module $module"
    }
    set body [string range $text [lindex $m 1] end]
    # up to endmodule: ANSI headers (ours) and Vivado's *_stub.v, which lists names in the header
    # and declares each port on its own line below it (`output [3:0]gt_txp_out;`)
    set body [string range $body 0 [string first "endmodule" $body]]
    set ports {}
    foreach line [split $body "\n"] {
        set line [string trim [lindex [split $line "/"] 0]]
        if {[regexp {^(input|output|inout)\s} $line]} {
            # the port name is the last word: after the type and range, before a comma
            lappend ports [lindex [split [string trimright $line " ,;)"] " \]"] end]
        }
    }
    return [lsort $ports]
}

# Stops the flow when the generated IP's ports differ from the black box the board tops were
# checked against (rtl/boards/ip/MODULE.sv): the lint and Yosys checks in CI only mean something
# while both agree.
proc rnic_check_ports {stub bb module} {
    set want [rnic_module_ports $bb $module]
    set got [rnic_module_ports $stub $module]
    set missing {}
    set extra {}
    foreach p $got { if {[lsearch -exact -sorted $want $p] < 0} { lappend missing $p } }
    foreach p $want { if {[lsearch -exact -sorted $got $p] < 0} { lappend extra $p } }
    if {[llength $missing] || [llength $extra]} {
        error "rnic: $module: the generated IP and $bb disagree.\n  only in the IP: $missing\n  only in the black box: $extra\nFix the black box (and the shell), then rerun make test-boards."
    }
    puts "rnic: $module ports match the black box ([llength $got] ports)"
}

# Sets a top-level port's pin and I/O standard from the board file: PIN is the board part pin
# name of interface IFACE (the board file is the source of truth for locations; none are copied
# here). Lists the board's interfaces when the name is not there.
proc rnic_board_pin {port iface pin} {
    set bif [get_board_part_interfaces -quiet $iface]
    if {$bif eq ""} {
        error "rnic: board interface '$iface' not in [current_board_part]; it has: [lsort [get_board_part_interfaces]]"
    }
    set bp [get_board_part_pins -quiet -of_objects $bif -filter "NAME =~ *$pin"]
    if {[llength $bp] != 1} {
        error "rnic: interface $iface has no single pin '$pin'; pins: [get_board_part_pins -of_objects $bif]"
    }
    set p [get_ports $port]
    set_property PACKAGE_PIN [get_property LOC $bp] $p
    set std [get_property IOSTANDARD $bp]
    if {$std ne ""} { set_property IOSTANDARD $std $p }
}
