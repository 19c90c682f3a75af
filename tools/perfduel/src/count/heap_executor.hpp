#pragma once

#include <array>
#include <cstddef>
#include <filesystem>

#include "run/executor.hpp"
#include "util/file.hpp"

// The Executor of the plain runs of a duel with heap metrics (`heap: allocations | allocated_bytes
// | peak`): each run's command gets the allocation counter preloaded, counting natively, and the
// counts it reports at exit become the run's (RunResult::heap; count/heap_report.hpp).
namespace perfduel {

// Runs commands through another Executor with the allocation counter preloaded: an Executor
// itself, so the duel's plain runs are made as ever (timed, pinned, padded).
class HeapExecutor final : public Executor {
 public:
  // `inner` starts the processes and must outlive this; `library`: the allocation counter
  // (find_allocation_counter). Creates a private directory for the reports under the system's
  // temporary directory.
  HeapExecutor(Executor& inner, std::filesystem::path library);

  // Runs `command` once within `limits` with the counter preloaded. A run that exits with 0
  // has RunResult::heap set from its report, or the status failed_to_count with why there is
  // none (parse_heap_report); any other run is returned as the inner executor made it.
  RunResult run(const CommandSpec& command, const RunLimits& limits) override;

  // Two runs at once through the inner executor's run_together, each counted as `run` does.
  std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                        const std::array<RunLimits, 2>& limits) override;

  // The inner executor's clock (scripted in tests).
  double now_seconds() override { return m_inner.now_seconds(); }

 private:
  // A fresh report file's path for the next run.
  std::filesystem::path next_report();

  Executor& m_inner;
  std::filesystem::path m_library;
  util::PrivateDirectory m_directory;
  std::size_t m_runs = 0;
};

// Reads the report at `report` into `run` (RunResult::heap), or marks it failed_to_count with
// why; then removes the file. Only for a run that exited with 0: any other failed already.
void read_heap_report(const std::filesystem::path& report, RunResult& run);

}  // namespace perfduel
