#pragma once

#include <string>
#include <vector>

namespace perfduel {

// Facts about the machine a duel ran on, recorded in every report so that results from
// different machines are not compared by mistake.
struct Environment {
  std::string host;
  std::string cpu_model;
  int cpu_count = 0;
  std::string kernel;
  std::vector<double> load;  // 1, 5 and 15 minute load averages
  std::string governor;      // cpufreq governor of CPU 0, empty if unknown
};

// Reads the current machine's facts from uname, /proc and /sys.
Environment read_environment();

}  // namespace perfduel
