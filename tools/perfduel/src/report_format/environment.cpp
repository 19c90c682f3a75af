#include "report_format/environment.hpp"

#include <string>

#include "util/text.hpp"

namespace perfduel {

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
