// The harness is verilated once per NIC configuration and links every program that runs on it
// (the demo, testbenches, benchmarks); `rnic_sim NAME args...` picks one.
#pragma once
#include <functional>
#include <map>
#include <string>

using SimProgramFn = std::function<int(int argc, char **argv)>;

std::map<std::string, std::pair<SimProgramFn, std::string>> &sim_programs();

struct SimProgram {
  SimProgram(const char *name, const char *help, SimProgramFn fn) { sim_programs()[name] = {fn, help}; }
};
