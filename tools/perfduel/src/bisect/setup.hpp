#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bisect/commit_builder.hpp"
#include "bisect/commit_chain.hpp"
#include "bisect/probe_config.hpp"
#include "bisect/probe_oracle.hpp"
#include "run/executor.hpp"

namespace perfduel::bisect {

// What `perfduel bisect` is asked, as its options give it (texts where the command that
// bisects again repeats them).
struct BisectRequest {
  std::string good;          // --good: a commit where the benchmark was fine
  std::string bad;           // --bad: a later commit where it is worse
  std::string gate;          // --gate: an add_perf_gate NAME, or empty for --build/--run
  std::string build_dir;     // the gate's build directory (empty: the current one)
  std::string build_config;  // a multi-config generator's configuration
  std::string build;         // without --gate: the shell command that builds a commit
  std::string run;           // without --gate: the benchmark of a built commit
  bool shell = false;        // --run through /bin/sh -c
  std::string source;        // without --gate: a directory in the repository
  std::string config;        // the duels' configuration file (empty: the gate's, else defaults)
  std::string threshold;     // the cut as given (empty: each gated metric's threshold)
  std::string confidence = "95%";
  std::optional<double> max_seconds;  // each duel's budget
  double build_timeout = 3600;
  std::string work_dir;  // worktrees, builds and reports (empty: the default place)
  std::string json;      // --json: a copy of the search's report
  std::string cpus;
  std::optional<std::uint64_t> seed;
  bool quiet = false;
};

// What the search was asked, for its texts and its report (report/bisect_report.hpp).
struct BisectContext {
  std::string gate;           // --gate, empty for --build/--run
  std::string good_ref;       // --good as given
  std::string bad_ref;        // --bad as given
  std::vector<Commit> chain;  // --good, the commits after it, --bad
  std::string cut;            // probe_config.hpp cut_text against --good
  double search_confidence = 0.95;
  double duel_confidence = 0.95;
  int planned_duels = 1;
  double duel_seconds = 0;  // a duel's budget (the first attempt)
  std::filesystem::path work_dir;
  std::string command;  // how to bisect again with other endpoints: "perfduel bisect --gate x"
  std::string started;  // ISO 8601
};

// A search made ready to run: what the texts say of it, how its probes' duels run, what builds
// each commit, and the directory of its reports.
struct PreparedSearch {
  BisectContext context;
  DuelPlan plan;
  std::unique_ptr<CommitBuilder> builder;
  std::filesystem::path search_dir;
};

// Resolves `request`'s endpoints in its repository, the first-parent chain between them, the
// probes' configurations from `settings` (the search's confidence and cut; the planned duels
// and the budget are filled in here), and creates the search's directory. Builds and duels run
// through `executor`. Throws perfduel::Error naming the option at fault.
PreparedSearch prepare_search(const BisectRequest& request, ProbeSettings settings, Executor& executor);

}  // namespace perfduel::bisect
