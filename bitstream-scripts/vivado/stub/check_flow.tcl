# CI check of the Vivado flow without Vivado: tclsh check_flow.tcl REPO OUTDIR BOARD...
# Runs common/build.tcl for each board against stub/vivado_stub.tcl and prints one PASS/FAIL
# line per check (docs/development.md conventions), then checks the IP port check itself.
lassign $argv repo out
set boards [lrange $argv 2 end]
set here [file dirname [file normalize [info script]]]
set failed 0
proc check {ok name why} {
    if {$ok} { puts "PASS $name" } else {
        puts "FAIL $name $why"
        puts "RERUN tclsh bitstream-scripts/vivado/stub/check_flow.tcl $::repo $::out $::boards"
        incr ::failed
    }
}
proc called {cmd pattern} {
    foreach c $::rnic_calls {
        if {[lindex $c 0] eq $cmd && [string match $pattern [lrange $c 1 end]]} { return 1 }
    }
    return 0
}

foreach board $boards {
    set fw [file join $out fw]
    file mkdir $fw
    foreach m {imem dmem} { close [open [file join $fw $m.hex] w] }
    # each board in a fresh interpreter: the flow defines procs and globals
    set i [interp create]
    $i eval [list set ::rnic_stub_version 2022.2]
    $i eval [list set ::rnic_stub_repo $repo]
    $i eval [list source [file join $here vivado_stub.tcl]]
    $i eval [list set argv [list $board 100g $repo [file join $out $board] $fw]]
    set err [catch {$i eval [list source [file join $here .. common build.tcl]]} msg]
    check [expr {!$err}] vivado-flow-$board-runs $msg
    set ::rnic_calls [$i eval set ::rnic_calls]
    set errs [$i eval set ::rnic_stub_errors]
    check [expr {[llength $errs] == 0}] vivado-flow-$board-stub-checks [join $errs "; "]
    check [called create_ip "-vlnv xilinx.com:ip:xdma:4.1 *"] vivado-flow-$board-xdma-pinned "no create_ip of xdma 4.1"
    check [called create_ip "-vlnv xilinx.com:ip:cmac_usplus:3.1 *"] vivado-flow-$board-cmac-pinned "no create_ip of cmac_usplus 3.1"
    check [called synth_design "-top rnic_${board}_top *-generic NumQps=1024*"] vivado-flow-$board-synth-top-config \
        "synth_design not on rnic_${board}_top with the 100g parameters"
    # the black boxes and lint-only declarations never reach Vivado
    set bad 0
    foreach c $::rnic_calls {
        if {[lindex $c 0] eq "read_verilog" && [string match "*rtl/boards/ip/*" $c]} { set bad 1 }
        if {[lindex $c 0] eq "read_verilog" && [string match "*rtl/boards/lint/*" $c]} { set bad 1 }
    }
    check [expr {!$bad}] vivado-flow-$board-no-black-boxes "read_verilog got rtl/boards/ip or rtl/boards/lint"
    set xdcs 0
    foreach c $::rnic_calls { if {[lindex $c 0] eq "read_xdc"} { incr xdcs } }
    check [expr {$xdcs >= 2}] vivado-flow-$board-xdc "$xdcs XDC files read"
    check [expr {[called write_bitstream "*rnic_${board}_top.bit"] && [called write_cfgmem "*.mcs"]}] \
        vivado-flow-$board-outputs "no bitstream or flash image written"
    # the hardware-manager script on the flow's outputs: program, and write the flash
    set bit [file join $out $board rnic_${board}_top.bit]
    set mcs [file join $out $board rnic_${board}_top.mcs]
    set cfgpart [dict get [$i eval set rnic_board] cfgmem_part]
    foreach {action args} [list program [list $bit] flash [list $bit $mcs $cfgpart]] {
        set h [interp create]
        $h eval [list set ::rnic_stub_version 2022.2]
        $h eval [list set ::rnic_stub_repo $repo]
        $h eval [list source [file join $here vivado_stub.tcl]]
        $h eval [list set argv [list $action {*}$args]]
        set err [catch {$h eval [list source [file join $here .. .. flash hw_manager.tcl]]} msg]
        set calls [$h eval set ::rnic_calls]
        set want [expr {$action eq "program" ? "program_hw_devices" : "program_hw_cfgmem"}]
        set seen [expr {[lsearch -index 0 $calls $want] >= 0}]
        if {$action eq "flash"} {
            set seen [expr {$seen && [lsearch -exact $calls [list get_cfgmem_parts $cfgpart]] >= 0}]
        }
        check [expr {!$err && $seen}] hw-manager-$board-$action "error: $err $msg; $want seen: $seen"
        interp delete $h
    }
    # a Vivado other than the pinned one stops the flow unless RNIC_VIVADO_ANY is set
    set j [interp create]
    $j eval [list set ::rnic_stub_version 2099.1]
    $j eval [list set ::rnic_stub_repo $repo]
    $j eval [list source [file join $here vivado_stub.tcl]]
    $j eval [list set argv [list $board 100g $repo [file join $out $board-v] $fw]]
    $j eval {unset -nocomplain ::env(RNIC_VIVADO_ANY)}
    set err [catch {$j eval [list source [file join $here .. common build.tcl]]} msg]
    check [expr {$err && [string match "*pinned to Vivado 2022.2*" $msg]}] vivado-flow-$board-version-pinned $msg
    interp delete $i
    interp delete $j
}

# the IP port check: equal lists pass, a missing or renamed port stops the flow
source [file join $here .. common util.tcl]
set bb [file join $repo rtl boards ip rnic_cmac.sv]
set ok [expr {![catch {rnic_check_ports $bb $bb rnic_cmac}]}]
set f [open $bb r]; set text [read $f]; close $f
set mod [file join $out rnic_cmac_stub.v]
set f [open $mod w]; puts $f [string map {ctl_tx_pause_req ctl_tx_pause_request} $text]; close $f
set err [catch {rnic_check_ports $mod $bb rnic_cmac} msg]
check [expr {$ok && $err && [string match "*only in the IP: ctl_tx_pause_request*only in the black box: ctl_tx_pause_req*" $msg]}] \
    vivado-ip-port-check "equal: $ok, renamed port: $msg"
set n [llength [rnic_module_ports $bb rnic_cmac]]
check [expr {$n > 150}] vivado-ip-port-parse "$n ports parsed from rnic_cmac.sv"
exit [expr {$failed ? 1 : 0}]
