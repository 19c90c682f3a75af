// GitLab CI: one job of a pipeline, run as GitLab's shell runner runs it.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support.hpp"

namespace ci_local {

// The command line of `ci_local gitlab`.
struct GitlabOptions {
  fs::path file;
  std::string job;
  Env predefined;
  Env project;
  int node_index = 0;
  bool previous_failed = false;
  fs::path workspace = fs::current_path();
  std::optional<fs::path> replaced_before_script;
  std::optional<fs::path> replaced_script;
  std::optional<fs::path> cache_dir;         // the runner's cache: one directory per key
  std::map<std::string, fs::path> includes;  // a remote include's local copy
  std::vector<fs::path> artifacts_in;        // artifacts of the jobs it needs, unpacked before it runs
  std::optional<fs::path> artifacts_out;
};

// Runs `options.job` of `options.file`; the exit code (k_passed, k_failed, k_allowed_failure,
// k_not_run).
int run_gitlab_job(const GitlabOptions& options);

}  // namespace ci_local
