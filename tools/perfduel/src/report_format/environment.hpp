#pragma once

#include <string>
#include <vector>

#include "machine/facts.hpp"

namespace perfduel {

// Facts about the machine a duel ran on, recorded in every report so that results from
// different machines are not compared by mistake.
struct Environment {
  std::string host;
  std::string cpu_model;
  int cpu_count = 0;
  std::string kernel;          // "Linux 6.1.0-18-amd64 x86_64"
  std::string kernel_release;  // "6.1.0-18-amd64"
  std::string machine;         // the fingerprint's description, as history records it
  std::string machine_id;      // and its id
  std::vector<double> load;    // 1, 5 and 15 minute load averages
  std::string governor;        // cpufreq governor of CPU 0, empty if unknown
  // perfduel's own peak resident set (VmHWM) after the duel, bytes; 0 if unknown. Linux gives
  // a child started by fork or vfork + exec at least its parent's peak as max RSS (exec records
  // the old address space's high-water mark), so values up to this are a floor, not a measurement.
  double driver_peak_rss_bytes = 0;
};

// The part of `facts` a report records.
Environment environment_of(const MachineFacts& facts);

}  // namespace perfduel
