#include "run/shared_libraries.hpp"

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

// Listing reads a few small files; a loader that takes longer is stuck on something else.
constexpr double k_list_timeout_seconds = 30;

// `line` without the load address the loader appends, " (0x7f...)".
std::string_view without_address(std::string_view line) {
  const auto open = line.rfind(" (");
  if (open != std::string_view::npos && line.back() == ')') {
    return line.substr(0, open);
  }
  return line;
}

}  // namespace

util::Expected<std::vector<SharedLibrary>> parse_loader_list(std::string_view output) {
  using Result = util::Expected<std::vector<SharedLibrary>>;
  std::vector<SharedLibrary> libraries;
  for (const auto& text : util::split_lines(output)) {
    const std::string_view line = without_address(util::trim(text));
    if (line.empty()) {
      continue;
    }
    const auto arrow = line.find(" => ");
    if (arrow == std::string_view::npos) {
      if (line.front() == '/') {  // the loader itself, or a preloaded library
        libraries.push_back({std::string(line), std::filesystem::path(line)});
      }
      continue;  // the vDSO: the kernel's, no file
    }
    const auto name = line.substr(0, arrow);
    const auto path = line.substr(arrow + 4);
    if (path == "not found" || path.empty()) {
      return Result::failure(fmt::format("{}: not found by the dynamic loader", name));
    }
    libraries.push_back({std::string(name), std::filesystem::path(path)});
  }
  return libraries;
}

util::Expected<std::vector<SharedLibrary>> list_shared_libraries(
    Executor& executor, const std::filesystem::path& program, const std::string& interpreter,
    const std::map<std::string, std::string>& environment, const std::filesystem::path& working_directory) {
  using Result = util::Expected<std::vector<SharedLibrary>>;
  CommandSpec list;
  list.argv = {interpreter, "--list", program.string()};
  list.working_directory = working_directory;
  list.environment = environment;
  RunLimits limits;
  limits.timeout_seconds = k_list_timeout_seconds;
  const RunResult result = executor.run(list, limits);
  auto libraries = parse_loader_list(result.out);
  if (!libraries) {
    return libraries;
  }
  if (result.status != RunStatus::exited || result.exit_code != 0) {
    const auto why = result.status == RunStatus::failed_to_start ? result.error
                     : result.status == RunStatus::exited ? fmt::format("exit code {}", result.exit_code)
                                                          : std::string("it did not finish");
    const auto said = std::string(util::trim(util::tail_lines(result.err, 2)));
    return Result::failure(fmt::format("{} --list {}: {}{}", interpreter, program.string(), why,
                                       said.empty() ? "" : ": " + said));
  }
  return libraries;
}

}  // namespace perfduel
