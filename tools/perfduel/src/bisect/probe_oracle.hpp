#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bisect/commit_builder.hpp"
#include "bisect/commit_chain.hpp"
#include "bisect/search.hpp"
#include "run/executor.hpp"

namespace perfduel::bisect {

// How the duels of a bisection are run: `perfduel compare` as a child process, one JSON report
// per duel.
struct DuelPlan {
  std::filesystem::path perfduel;                // this executable
  std::array<std::filesystem::path, 2> configs;  // the probe configuration of each attempt (JSON)
  std::array<double, 2> max_seconds{};           // each attempt's budget, for the child's timeout
  double run_timeout = 60;                       // the configuration's per-run timeout
  std::filesystem::path reports;                 // where each duel's report goes
  std::string cpus;                              // --cpus for compare, empty: its default
  std::optional<std::uint64_t> seed;             // the first duel's seed; each next one adds 1
};

// The Oracle of a real bisection: builds with a CommitBuilder and duels with `perfduel compare`
// (the same driver, so each duel is exactly a gate's duel, with its pinning, metrics and
// report), reading each report with read_duel_report.
class ProbeOracle final : public Oracle {
 public:
  ProbeOracle(Executor& executor, CommitBuilder& builder, std::vector<Commit> chain, DuelPlan plan);

  BuildReading build(std::size_t index) override;
  DuelReading duel(std::size_t baseline, std::size_t candidate, int attempt, Role role) override;

 private:
  Executor& m_executor;
  CommitBuilder& m_builder;
  std::vector<Commit> m_chain;
  DuelPlan m_plan;
  int m_duels = 0;
};

}  // namespace perfduel::bisect
