#pragma once

#include <filesystem>
#include <string>

#include "bisect/commit_chain.hpp"
#include "bisect/gate_file.hpp"
#include "bisect/search.hpp"
#include "run/executor.hpp"

// Building one commit of a bisection, cached by commit, and the command that runs its
// benchmark. Two ways: the gate's (add_perf_gate's baseline machinery in commit mode) and any
// command's (a git worktree per commit and a build command of the user's).
namespace perfduel::bisect {

class CommitBuilder {
 public:
  virtual ~CommitBuilder() = default;

  // Builds `commit`, or finds it built by an earlier search (BuildReading::cached). An
  // interrupt (SIGINT) stops the build; what was built stays for the next search.
  virtual BuildReading build(const Commit& commit) = 0;

  // The benchmark of `commit`, built.
  virtual CommandSpec benchmark(const Commit& commit) const = 0;
};

// add_perf_gate()'s way: PerfDuelBaseline.cmake with -DPERFDUEL_COMMIT builds the gate's target
// at the commit in a worktree under `work_dir`/builds, configured like the gate's baseline (the
// build's generator, toolchain and cache options), and links it as
// `work_dir`/bin/<commit>/<target>. `build_config` is the configuration of a multi-config
// generator, empty otherwise.
class GateBuilder final : public CommitBuilder {
 public:
  GateBuilder(Executor& executor, GateFile gate, std::string build_config, std::filesystem::path work_dir,
              double timeout_seconds);

  BuildReading build(const Commit& commit) override;
  CommandSpec benchmark(const Commit& commit) const override;

 private:
  std::filesystem::path link(const Commit& commit) const;

  Executor& m_executor;
  GateFile m_gate;
  std::string m_build_config;
  std::filesystem::path m_work_dir;
  double m_timeout_seconds;
};

// Any project's way: a detached git worktree of the commit in `work_dir`/<commit>/src, where
// `build` runs through /bin/sh -c; a commit counts as built once `build` succeeded there (the
// command is remembered, so a different one builds again). `run` is the benchmark, split into
// words like compare's --baseline (or run by /bin/sh -c with Launch::shell). In both, {commit}
// becomes the full commit id and {dir} the worktree's directory.
class CommandBuilder final : public CommitBuilder {
 public:
  CommandBuilder(Executor& executor, std::filesystem::path repository, std::string git, std::string build,
                 std::string run, Launch launch, std::filesystem::path work_dir, double timeout_seconds);

  BuildReading build(const Commit& commit) override;
  CommandSpec benchmark(const Commit& commit) const override;

 private:
  std::filesystem::path directory(const Commit& commit) const;
  // Makes `directory(commit)` a worktree at `commit`; the error says why not.
  std::string check_out(const Commit& commit);

  Executor& m_executor;
  std::filesystem::path m_repository;
  std::string m_git;
  std::string m_build;
  std::string m_run;
  Launch m_launch;
  std::filesystem::path m_work_dir;
  double m_timeout_seconds;
};

// `text` with every {commit} replaced by `commit` and every {dir} by `dir`.
std::string substitute(std::string text, const std::string& commit, const std::string& dir);

}  // namespace perfduel::bisect
