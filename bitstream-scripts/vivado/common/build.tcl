# Non-project Vivado flow for one board: IP from Tcl, the RTL, constraints, implementation,
# bitstream and configuration-flash image. Run by bitstream-scripts/vivado/bitstream.sh
# (`make bitstream BOARD=vcu118`):
#   vivado -mode batch -source common/build.tcl -tclargs BOARD CONFIG REPO OUTDIR FWDIR
# Pinned: Vivado 2022.2, xdma 4.1, cmac_usplus 3.1 (RNIC_VIVADO_ANY=1 tries another Vivado).
# Outputs in OUTDIR: ip/ (generated, never committed), reports, TOP.bit, TOP.mcs, TOP.ltx.
set rnic_vivado_version 2022.2
set rnic_here [file dirname [file normalize [info script]]]
lassign $argv board config repo out fw
foreach {v what} [list $board BOARD $config CONFIG $repo REPO $out OUTDIR $fw FWDIR] {
    if {$v eq ""} { error "build.tcl: missing $what (args: BOARD CONFIG REPO OUTDIR FWDIR)" }
}
source [file join $rnic_here util.tcl]
source [file join $rnic_here ip_xdma.tcl]
source [file join $rnic_here ip_cmac.tcl]
source [file join $rnic_here .. $board board.tcl]

if {[version -short] ne $rnic_vivado_version} {
    if {![info exists ::env(RNIC_VIVADO_ANY)]} {
        error "rnic: this flow is pinned to Vivado $rnic_vivado_version (IP versions too); this is [version -short]. RNIC_VIVADO_ANY=1 tries anyway."
    }
    puts "rnic: WARNING: Vivado [version -short], not the pinned $rnic_vivado_version"
}

set cfg [rnic_read_cfg [file join $repo bitstream-scripts configs $config.cfg]]
if {[dict get $cfg DataWidth] != 512} {
    error "rnic: configuration $config has DataWidth [dict get $cfg DataWidth]; the CMAC boards take 512"
}
set part [dict get $rnic_board part]
set top [dict get $rnic_board top]
file mkdir $out
create_project -in_memory -part $part
set_property board_part [dict get $rnic_board board_part] [current_project]
set_property target_language Verilog [current_project]

# ---- vendor IP, generated here from Tcl ---------------------------------------------------
set ip_dir [file join $out ip]
file delete -force $ip_dir
file mkdir $ip_dir
rnic_ip_xdma $ip_dir $rnic_board
rnic_ip_cmac $ip_dir $rnic_board
generate_target all [get_ips]
synth_ip [get_ips]
foreach ip {rnic_xdma rnic_cmac} {
    rnic_check_ports [file join $ip_dir $ip ${ip}_stub.v] [file join $repo rtl boards ip $ip.sv] $ip
}

# ---- RTL: the core, the board shell and top (never the black boxes or lint declarations) -----
set pkgs [lsort [glob [file join $repo rtl * *_pkg.sv]]]
set srcs $pkgs
foreach f [lsort [glob [file join $repo rtl * *.sv]]] {
    if {[lsearch -exact $pkgs $f] < 0} { lappend srcs $f }
}
foreach d [list common $board] {
    foreach f [lsort [glob [file join $repo rtl boards $d *.sv]]] { lappend srcs $f }
}
read_verilog -sv $srcs
foreach x [dict get $rnic_board xdc] { read_xdc [file join $rnic_here .. $x] }

# the firmware image baked into the soft core's memories (make firmware builds it)
foreach m {imem dmem} {
    if {![file exists [file join $fw $m.hex]]} { error "rnic: no firmware image [file join $fw $m.hex]" }
}
set generics [rnic_generics $cfg]
lappend generics -generic "FwImemInit=\"[file join $fw imem.hex]\"" -generic "FwDmemInit=\"[file join $fw dmem.hex]\""

# ---- synthesis and implementation ------------------------------------------------------------
synth_design -top $top -part $part {*}$generics
rnic_board_pins
report_utilization -hierarchical -file [file join $out utilization_synth.rpt]
opt_design
place_design
phys_opt_design
route_design
report_timing_summary -max_paths 20 -file [file join $out timing_summary.rpt]
report_utilization -file [file join $out utilization.rpt]
report_cdc -file [file join $out cdc.rpt]
set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
set whs [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -hold]]
puts "rnic: worst setup slack $wns ns, worst hold slack $whs ns"
if {$wns < 0 || $whs < 0} {
    puts "rnic: TIMING NOT MET (see [file join $out timing_summary.rpt]); the bitstream is written for lab use only"
}
write_bitstream -force [file join $out $top.bit]
write_debug_probes -force [file join $out $top.ltx]
write_cfgmem -force -format mcs -size [dict get $rnic_board cfgmem_size] \
    -interface [dict get $rnic_board cfgmem_iface] \
    -loadbit "up 0x00000000 [file join $out $top.bit]" [file join $out $top.mcs]
puts "rnic: wrote [file join $out $top.bit] and [file join $out $top.mcs]"
