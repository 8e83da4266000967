#include <systemc.h>

#include <cstdio>

#include "main/sim_program.h"

std::map<std::string, std::pair<SimProgramFn, std::string>> &sim_programs() {
  static std::map<std::string, std::pair<SimProgramFn, std::string>> progs;
  return progs;
}

int sc_main(int argc, char **argv) {
  if (argc < 2 || !sim_programs().count(argv[1])) {
    std::fprintf(stderr, "usage: %s PROGRAM [args]\nprograms:\n", argv[0]);
    for (auto &p : sim_programs()) std::fprintf(stderr, "  %-16s %s\n", p.first.c_str(), p.second.second.c_str());
    return 2;
  }
  return sim_programs()[argv[1]].first(argc - 1, argv + 1);
}
