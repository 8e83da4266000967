# Alveo U250 clocks and board I/O timing (pins: u250/board.tcl from the board file).
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
create_clock -period 6.206  -name qsfp_refclk [get_ports qsfp0_refclk_p]
create_clock -period 3.333  -name osc_300     [get_ports clk_300mhz_p]
set_false_path -from [get_ports pcie_perst_n]
set_false_path -to [get_ports {qsfp0_resetl qsfp0_lpmode qsfp0_modsell}]
# configuration: quad SPI (x4), compressed
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 63.8 [current_design]
set_property CONFIG_MODE SPIx4 [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property CFGBVS GND [current_design]
