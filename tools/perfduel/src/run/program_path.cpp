#include "run/program_path.hpp"

#include <system_error>

#include <boost/process/v2/environment.hpp>
#include <fmt/format.h>
#include <unistd.h>

namespace perfduel {

namespace bp = boost::process::v2;

util::Expected<std::filesystem::path> resolve_program(const std::string& program,
                                                      const std::filesystem::path& working_directory) {
  using Result = util::Expected<std::filesystem::path>;
  std::filesystem::path path;
  if (program.find('/') == std::string::npos) {
    path = bp::environment::find_executable(program).string();
    if (path.empty()) {
      return Result::failure(fmt::format("'{}': command not found on PATH", program));
    }
  } else {
    path = program;
    if (path.is_relative() && !working_directory.empty()) {
      path = working_directory / path;
    }
  }
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return Result::failure(fmt::format("'{}': no such file", program));
  }
  if (std::filesystem::is_directory(path, ec)) {
    return Result::failure(fmt::format("'{}' is a directory, not a program", program));
  }
  if (::access(path.c_str(), X_OK) != 0) {
    return Result::failure(fmt::format("'{}' is not executable (chmod +x?)", program));
  }
  return std::filesystem::absolute(path);
}

std::filesystem::path find_helper(std::string_view name, std::string& searched) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    searched = "/proc/self/exe is unreadable";
    return {};
  }
  const auto directory = self.parent_path();
  const std::filesystem::path candidates[] = {directory / name,
                                              directory.parent_path() / "libexec" / "perfduel" / name};
  searched.clear();
  for (const auto& candidate : candidates) {
    searched += (searched.empty() ? "" : ", ") + candidate.string();
    if (::access(candidate.c_str(), R_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

util::Expected<std::filesystem::path> ProgramPaths::resolve(const std::string& program,
                                                            const std::filesystem::path& working_directory) {
  const auto key = working_directory.string() + '\0' + program;
  auto cached = m_resolved.find(key);
  if (cached == m_resolved.end()) {
    auto resolved = resolve_program(program, working_directory);
    if (!resolved) {
      return resolved;
    }
    cached = m_resolved.emplace(key, std::move(resolved).value()).first;
  }
  return cached->second;
}

std::filesystem::path find_exec_stub(std::string& searched) {
  auto found = find_helper("perfduel-exec", searched);
  return !found.empty() && ::access(found.c_str(), X_OK) == 0 ? found : std::filesystem::path();
}

}  // namespace perfduel
