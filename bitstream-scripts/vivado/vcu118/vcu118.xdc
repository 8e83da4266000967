# VCU118 clocks and board I/O timing (pins: vcu118/board.tcl from the board file).
# The QSFP1 reference is the board's programmable oscillator at its power-on 156.25 MHz; the
# CMAC is generated for that (ip_cmac.tcl GT_REF_CLK_FREQ follows the board's qsfp_refclk_mhz).
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
create_clock -period 6.400  -name qsfp_refclk [get_ports qsfp1_refclk_p]
create_clock -period 8.000  -name osc_125     [get_ports clk_125mhz_p]
# PERST# and the QSFP control lines are static or asynchronous; LEDs are for eyes
set_false_path -from [get_ports pcie_perst_n]
set_false_path -to [get_ports {qsfp1_resetl qsfp1_lpmode qsfp1_modsell led[*]}]
# configuration: quad SPI (x4) from the primary flash only, compressed. Not the board's dual
# x8 mode: openFPGALoader 0.10 writes one flash, and x4 fits the image in one 1 Gb part.
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 63.8 [current_design]
set_property CONFIG_MODE SPIx4 [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property CFGBVS GND [current_design]
