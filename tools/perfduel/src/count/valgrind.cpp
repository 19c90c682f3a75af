#include "count/valgrind.hpp"

#include <vector>

#include <fmt/format.h>

#include "run/program_path.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

double count_of(const CachegrindCounts& counts, const char* event) {
  const auto found = counts.find(event);
  return found == counts.end() ? 0.0 : found->second;
}

}  // namespace

util::Expected<CachegrindCounts> parse_cachegrind_output(std::string_view text) {
  using Result = util::Expected<CachegrindCounts>;
  std::vector<std::string> events;
  std::vector<std::string> totals;
  for (const auto& line : util::split_lines(text)) {
    if (line.starts_with("events:")) {
      events = util::split_words(line.substr(7));
    } else if (line.starts_with("summary:")) {
      totals = util::split_words(line.substr(8));
    }
  }
  if (events.empty()) {
    return Result::failure("no \"events:\" line");
  }
  if (totals.empty()) {
    return Result::failure("no \"summary:\" line (did the program end normally?)");
  }
  if (totals.size() != events.size()) {
    return Result::failure(
        fmt::format("the summary has {} totals for {} events", totals.size(), events.size()));
  }
  CachegrindCounts counts;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto value = util::parse_double(totals[i]);
    if (!value) {
      return Result::failure(fmt::format("summary total \"{}\" of {} is not a number", totals[i], events[i]));
    }
    counts[events[i]] = *value;
  }
  return counts;
}

double estimated_cycles(const CachegrindCounts& counts) {
  const double first_level = count_of(counts, "I1mr") + count_of(counts, "D1mr") + count_of(counts, "D1mw");
  const double last_level = count_of(counts, "ILmr") + count_of(counts, "DLmr") + count_of(counts, "DLmw");
  return count_of(counts, "Ir") + 10 * first_level + 100 * last_level;
}

util::Expected<double> simulated_value(const CachegrindCounts& counts, CountedEvent event) {
  using Result = util::Expected<double>;
  if (counts.find("Ir") == counts.end()) {
    return Result::failure("cachegrind counted no instructions (no Ir event)");
  }
  switch (event) {
    case CountedEvent::instructions:
      return count_of(counts, "Ir");
    case CountedEvent::cycles:
      if (counts.find("D1mr") == counts.end()) {
        return Result::failure(
            "cachegrind ran without its cache simulation, which the cycles estimate needs");
      }
      return estimated_cycles(counts);
    case CountedEvent::branch_misses:
    case CountedEvent::cache_misses:
    case CountedEvent::allocations:
    case CountedEvent::allocated_bytes:
    case CountedEvent::peak_heap:
      break;
  }
  return Result::failure(fmt::format("valgrind does not count {}", counted_event_name(event)));
}

std::vector<CountedEvent> simulated_events(CacheSimulation cache) {
  if (cache == CacheSimulation::off) {
    return {CountedEvent::instructions};
  }
  return {CountedEvent::instructions, CountedEvent::cycles};
}

util::Expected<std::map<CountedEvent, double>> simulated_values(const CachegrindCounts& counts,
                                                                CacheSimulation cache) {
  using Result = util::Expected<std::map<CountedEvent, double>>;
  std::map<CountedEvent, double> values;
  for (const CountedEvent event : simulated_events(cache)) {
    const auto value = simulated_value(counts, event);
    if (!value) {
      return Result::failure(value.error());
    }
    values[event] = *value;
  }
  return values;
}

util::Expected<std::filesystem::path> find_valgrind() {
  auto found = resolve_program("valgrind", {});
  if (!found) {
    return util::Expected<std::filesystem::path>::failure(
        "valgrind is not on PATH (install it: apt-get install valgrind, dnf install valgrind, brew install "
        "valgrind)");
  }
  return found;
}

std::vector<std::string> fixed_cache_arguments() {
  return {"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"};
}

CommandSpec valgrind_command(const CommandSpec& command, const std::filesystem::path& program,
                             const std::filesystem::path& valgrind, CacheSimulation cache,
                             const std::filesystem::path& output_directory) {
  CommandSpec wrapped;
  wrapped.launch = Launch::direct;
  wrapped.working_directory = command.working_directory;
  wrapped.environment = command.environment;
  wrapped.argv = {valgrind.string(),
                  "--tool=cachegrind",
                  cache == CacheSimulation::on ? "--cache-sim=yes" : "--cache-sim=no",
                  "--trace-children=yes",
                  fmt::format("--cachegrind-out-file={}",
                              (output_directory / k_cachegrind_output_prefix).string() + "%p"),
                  fmt::format("--log-file={}", (output_directory / k_cachegrind_log_prefix).string() + "%p")};
  if (cache == CacheSimulation::on) {
    const auto geometry = fixed_cache_arguments();
    wrapped.argv.insert(wrapped.argv.end(), geometry.begin(), geometry.end());
  }
  if (command.launch == Launch::shell) {
    wrapped.argv.insert(wrapped.argv.end(), {program.string(), "-c", command.argv.front()});
  } else {
    wrapped.argv.push_back(program.string());
    wrapped.argv.insert(wrapped.argv.end(), command.argv.begin() + 1, command.argv.end());
  }
  return wrapped;
}

}  // namespace perfduel
