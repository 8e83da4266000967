// The soft core's tightly coupled port (spec fw_tc) as the engines' block testbenches drive it:
// a store takes one cycle; a load's data is registered at the edge of the request, so it is read
// after that tick. Model is the verilated engine, tick advances it one cycle.
#pragma once
#include <cstdint>

template <class Model, class Tick>
void tb_tc_store(Model &m, Tick &&tick, uint32_t off, uint32_t v) {
  m.tc_req_i = 1;
  m.tc_we_i = 1;
  m.tc_addr_i = off;
  m.tc_wdata_i = v;
  tick();
}

template <class Model, class Tick>
uint32_t tb_tc_load(Model &m, Tick &&tick, uint32_t off) {
  m.tc_req_i = 1;
  m.tc_we_i = 0;
  m.tc_addr_i = off;
  tick();
  m.eval();
  return m.tc_rdata_o;
}
