// Compiles the C reference model inside the verilated build (whose makefile only builds .cpp).
#include "rv32_ref.c"
