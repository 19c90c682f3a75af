#include "report/environment.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include <sys/utsname.h>
#include <unistd.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

std::string first_line(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return std::string(util::trim(line));
}

std::string cpu_model() {
  std::ifstream file("/proc/cpuinfo");
  std::string line;
  while (std::getline(file, line)) {
    if (line.starts_with("model name")) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? std::string() : std::string(util::trim(line.substr(colon + 1)));
    }
  }
  return {};
}

}  // namespace

double read_own_peak_rss() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) {
      return 1024.0 * std::strtod(line.c_str() + 6, nullptr);  // "VmHWM:   6120 kB"
    }
  }
  return 0;
}

Environment read_environment() {
  Environment environment;
  utsname names{};
  if (::uname(&names) == 0) {
    environment.host = names.nodename;
    environment.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
  }
  environment.cpu_model = cpu_model();
  environment.cpu_count = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  double load[3] = {0, 0, 0};
  if (::getloadavg(load, 3) == 3) {
    environment.load.assign(load, load + 3);
  }
  environment.governor = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  return environment;
}

}  // namespace perfduel
