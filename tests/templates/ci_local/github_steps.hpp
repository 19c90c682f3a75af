// GitHub Actions steps: a job's or a composite action's, in order, each by its `if:`.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "expression.hpp"
#include "github.hpp"
#include "support.hpp"

namespace ci_local {

// What a job's steps share: the expression context (outcomes and outputs of the steps, the job's
// status), the environment ($GITHUB_ENV and $GITHUB_PATH carry it forward; `exported` keeps what
// they added, which a composite action hands back to its caller) and the defaults.
struct StepState {
  ExpressionContext context;
  Env env;
  Env exported;
  std::string default_shell;
  std::string default_directory;
  int number = 0;  // numbers each step's files in --temp, across composite actions too
};

// Runs `steps` (a job's, or a composite action's) as the runner does, in order, each by its
// `if:`; a failed step fails the job (in `state`) unless `continue-on-error`. `where` names the
// job in messages; `options` gives the replacements and the directories.
void run_github_steps(const YAML::Node& steps, StepState& state, const GithubOptions& options,
                      const std::string& where);

}  // namespace ci_local
