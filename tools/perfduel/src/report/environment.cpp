#include "report/environment.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include "util/text.hpp"

namespace perfduel {

double read_own_peak_rss() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) {
      return 1024.0 * std::strtod(line.c_str() + 6, nullptr);  // "VmHWM:   6120 kB"
    }
  }
  return 0;
}

Environment environment_of(const MachineFacts& facts) {
  Environment environment;
  environment.host = facts.host;
  environment.cpu_model = facts.cpu_model;
  environment.cpu_count = static_cast<int>(facts.online_cpus.size());
  environment.kernel = kernel_text(facts);
  environment.kernel_release = facts.kernel_release;
  const auto fingerprint = machine_fingerprint(facts);
  environment.machine = fingerprint.description;
  environment.machine_id = fingerprint.id;
  environment.load = load_averages(facts);
  for (const auto& file : facts.governors) {  // the first CPU's that has cpufreq
    if (file.content) {
      environment.governor = std::string(util::trim(*file.content));
      break;
    }
  }
  return environment;
}

}  // namespace perfduel
