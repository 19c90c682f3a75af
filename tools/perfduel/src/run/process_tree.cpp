#include "run/process_tree.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <sys/wait.h>

#include "util/file.hpp"

namespace perfduel {

namespace {

// The fields of /proc/PID/stat after "PID (COMMAND)": state, parent, process group, ...;
// none when it cannot be read. The command may contain spaces and parentheses.
std::vector<std::string> stat_fields(pid_t pid) {
  const auto text = util::read_file(fmt::format("/proc/{}/stat", pid));
  const auto close = text ? text->rfind(')') : std::string::npos;
  if (close == std::string::npos) {
    return {};
  }
  std::istringstream words(text->substr(close + 1));
  return {std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
}

}  // namespace

// The children of this process (every thread's), from /proc/self/task/*/children; empty
// where the kernel lacks that file.
std::vector<pid_t> own_children() {
  std::vector<pid_t> children;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const auto text = util::read_file(task.path() / "children");
    std::istringstream words(text ? *text : std::string());
    pid_t pid = 0;
    while (words >> pid) {
      children.push_back(pid);
    }
  }
  return children;
}

// Whether `pid` is still running (not a zombie waiting to be reaped).
bool is_running(pid_t pid) {
  const auto fields = stat_fields(pid);
  return !fields.empty() && fields[0] != "Z";
}

// The process group of `pid`; 0 when it cannot be read.
pid_t process_group(pid_t pid) {
  const auto fields = stat_fields(pid);
  return fields.size() > 2 ? static_cast<pid_t>(std::strtol(fields[2].c_str(), nullptr, 10)) : 0;
}

// After the run is reaped, every child we still have is one it left behind (killed with its
// process group, or outside it after setsid). Kills and reaps them, and theirs, which
// become ours as each one dies.
void kill_left_behind() {
  constexpr int k_max_sweeps = 64;  // a fork bomb is not waited out
  for (int sweep = 0; sweep < k_max_sweeps; ++sweep) {
    const auto children = own_children();
    if (children.empty()) {
      break;
    }
    for (const pid_t pid : children) {
      ::kill(pid, SIGKILL);
    }
    for (const pid_t pid : children) {
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

}  // namespace perfduel
