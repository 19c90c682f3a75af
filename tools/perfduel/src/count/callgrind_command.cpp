#include "count/callgrind_command.hpp"

#include <array>
#include <string_view>

#include <fmt/format.h>

#include "count/benchmark_count.hpp"
#include "count/benchmark_filter.hpp"

namespace perfduel {

CommandSpec callgrind_command(const CommandSpec& command, const SuiteCounting& counting,
                              const CallgrindFiles& files, std::span<const std::string> dumps) {
  CommandSpec wrapped;
  wrapped.launch = Launch::direct;
  wrapped.working_directory = command.working_directory;
  wrapped.environment = command.environment;
  wrapped.environment["LD_BIND_NOW"] = "1";
  if (!counting.allocator.empty()) {
    auto& preload = wrapped.environment["LD_PRELOAD"];
    preload = preload.empty() ? counting.allocator.string() : preload + ":" + counting.allocator.string();
  }
  wrapped.argv = {counting.valgrind.string(), "--tool=callgrind",
                  counting.cache == CacheSimulation::on ? "--cache-sim=yes" : "--cache-sim=no",
                  "--collect-atstart=yes"};
  wrapped.argv.insert(wrapped.argv.end(), dumps.begin(), dumps.end());
  wrapped.argv.push_back(fmt::format("--callgrind-out-file={}", files.output_base.string()));
  wrapped.argv.push_back(fmt::format("--log-file={}", files.log_file.string()));
  if (counting.cache == CacheSimulation::on) {
    const auto geometry = fixed_cache_arguments();
    wrapped.argv.insert(wrapped.argv.end(), geometry.begin(), geometry.end());
  }
  wrapped.argv.push_back(counting.program.string());
  wrapped.argv.insert(wrapped.argv.end(), command.argv.begin() + 1, command.argv.end());
  return wrapped;
}

CommandSpec callgrind_benchmark_command(const CommandSpec& command, const SuiteCounting& counting,
                                        const CallgrindFiles& files, std::span<const std::string> names) {
  const std::array<std::string, 2> dumps{fmt::format("--dump-before={}*", k_loop_start),
                                         fmt::format("--dump-before={}*", k_loop_finish)};
  CommandSpec wrapped = callgrind_command(command, counting, files, dumps);
  // After the user's arguments: Google Benchmark takes the last of a flag given twice.
  wrapped.argv.push_back("--benchmark_filter=" + exact_benchmark_filter(names));
  wrapped.argv.emplace_back("--benchmark_format=json");
  wrapped.argv.emplace_back("--benchmark_repetitions=1");
  wrapped.argv.emplace_back("--v=2");
  return wrapped;
}

std::optional<CommandSpec> with_min_time(const CommandSpec& command, double seconds) {
  constexpr std::string_view k_flag = "--benchmark_min_time=";
  std::string suffix;
  for (const std::string& argument : command.argv) {
    if (!argument.starts_with(k_flag)) {
      continue;
    }
    const std::string_view value = std::string_view(argument).substr(k_flag.size());
    if (value.ends_with('x')) {
      return std::nullopt;
    }
    suffix = value.ends_with('s') ? "s" : "";
  }
  CommandSpec timed = command;
  timed.argv.push_back(fmt::format("{}{:g}{}", k_flag, seconds, suffix));
  return timed;
}

}  // namespace perfduel
