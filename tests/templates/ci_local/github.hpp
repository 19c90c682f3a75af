// GitHub Actions: one job of a workflow, run as the runner runs it.
#pragma once

#include <map>
#include <string>

#include "support.hpp"

namespace ci_local {

// The command line of `ci_local github` and `ci_local github-matrix`.
struct GithubOptions {
  fs::path workflow;
  std::string job;
  std::string event = "push";
  std::map<std::string, std::string> contexts;  // lowercased keys
  std::map<std::string, std::string> matrix;
  bool needs_failed = false;
  fs::path workspace = fs::current_path();
  fs::path temp;
  Env env_overrides;
  std::map<std::string, fs::path> actions;
  std::map<std::string, fs::path> replaced_steps;
};

// Prints one line "key=value ..." per combination of the matrix of `options.job`.
void print_github_matrix(const GithubOptions& options);

// Runs `options.job` of `options.workflow`; the exit code (k_passed, k_failed, k_not_run).
int run_github_job(const GithubOptions& options);

}  // namespace ci_local
