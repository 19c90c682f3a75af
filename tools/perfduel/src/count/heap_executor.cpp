#include "count/heap_executor.hpp"

#include <cstdlib>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "count/heap_report.hpp"
#include "util/file.hpp"

namespace perfduel {

HeapExecutor::HeapExecutor(Executor& inner, std::filesystem::path library)
    : m_inner(inner), m_library(std::move(library)), m_directory("perfduel-heap") {}

std::filesystem::path HeapExecutor::next_report() {
  const auto directory =
      m_directory.path().empty() ? std::filesystem::temp_directory_path() : m_directory.path();
  return directory / fmt::format("heap-{}.txt", m_runs++);
}

void read_heap_report(const std::filesystem::path& report, RunResult& run) {
  const auto text = util::read_file(report);
  std::error_code ignored;
  std::filesystem::remove(report, ignored);
  if (run.status != RunStatus::exited || run.exit_code != 0) {
    return;
  }
  auto counts = parse_heap_report(text ? *text : std::string());
  if (!counts) {
    run.status = RunStatus::failed_to_count;
    run.error = counts.error();
    return;
  }
  run.heap = std::move(counts).value();
}

RunResult HeapExecutor::run(const CommandSpec& command, const RunLimits& limits) {
  const auto report = next_report();
  RunResult result = m_inner.run(with_heap_counter(command, m_library, report), limits);
  read_heap_report(report, result);
  return result;
}

std::array<RunResult, 2> HeapExecutor::run_together(const std::array<const CommandSpec*, 2>& commands,
                                                    const std::array<RunLimits, 2>& limits) {
  const std::array<std::filesystem::path, 2> reports{next_report(), next_report()};
  const CommandSpec first = with_heap_counter(*commands[0], m_library, reports[0]);
  const CommandSpec second = with_heap_counter(*commands[1], m_library, reports[1]);
  auto results = m_inner.run_together({&first, &second}, limits);
  for (std::size_t i = 0; i < 2; ++i) {
    read_heap_report(reports[i], results[i]);
  }
  return results;
}

}  // namespace perfduel
