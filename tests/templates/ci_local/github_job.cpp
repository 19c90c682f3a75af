#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <fnmatch.h>

#include "expression.hpp"
#include "github.hpp"
#include "github_steps.hpp"

namespace ci_local {

namespace {

// Does the workflow's `on:` start it for this event (and, for push and pull_request, for
// this branch)?
bool workflow_runs(const YAML::Node& on, const GithubOptions& options) {
  if (!on) {
    throw Unsupported("the workflow has no \"on:\"");
  }
  if (on.IsScalar()) {
    return on.Scalar() == options.event;
  }
  if (on.IsSequence()) {
    return std::any_of(on.begin(), on.end(),
                       [&](const YAML::Node& e) { return e.Scalar() == options.event; });
  }
  const auto trigger = on[options.event];
  if (!trigger) {
    return false;
  }
  if (!trigger.IsMap() || !trigger["branches"]) {
    return true;
  }
  std::string branch;
  const auto get = [&](const std::string& key) {
    const auto it = options.contexts.find(key);
    return it == options.contexts.end() ? std::string() : it->second;
  };
  if (options.event == "pull_request") {
    branch = get("github.base_ref");
  } else {
    branch = get("github.ref");
    if (branch.rfind("refs/heads/", 0) == 0) {
      branch = branch.substr(11);
    }
  }
  for (const auto& pattern : trigger["branches"]) {
    if (fnmatch(pattern.Scalar().c_str(), branch.c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

std::vector<std::map<std::string, std::string>> matrix_of(const YAML::Node& job, const std::string& where) {
  std::vector<std::map<std::string, std::string>> combinations{{}};
  const auto strategy = job["strategy"];
  if (!strategy || !strategy["matrix"]) {
    return combinations;
  }
  for (const auto& entry : strategy["matrix"]) {
    const auto key = entry.first.Scalar();
    if (key == "include" || key == "exclude" || !entry.second.IsSequence()) {
      throw Unsupported(fmt::format("{}: strategy.matrix.{} is not supported by ci_local", where, key));
    }
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& combination : combinations) {
      for (const auto& value : entry.second) {
        auto extended = combination;
        extended[key] = value.Scalar();
        next.push_back(extended);
      }
    }
    combinations = next;
  }
  return combinations;
}

// The expression context a job starts from: the given contexts and what GitHub sets itself.
ExpressionContext job_context(const GithubOptions& options) {
  ExpressionContext context;
  context.values = options.contexts;
  context.values["github.event_name"] = options.event;
  context.values["github.job"] = options.job;
  context.values["github.workspace"] = options.workspace.string();
  context.values.emplace("github.api_url", "https://api.github.com");
  context.values.emplace("github.repository", "owner/project");
  context.values.emplace("github.run_id", "1");
  context.values["runner.os"] = "Linux";
  context.values["runner.temp"] = options.temp.string();
  if (const auto token = context.values.find("secrets.github_token"); token != context.values.end()) {
    context.values["github.token"] = token->second;
  }
  return context;
}

// The runner's own environment and GitHub's variables, from `context`.
Env runner_environment(const ExpressionContext& context, const GithubOptions& options) {
  Env env = process_environment();
  const auto get = [&](const std::string& key) {
    return context.values.count(key) ? context.values.at(key) : "";
  };
  env["CI"] = "true";
  env["GITHUB_ACTIONS"] = "true";
  env["GITHUB_WORKSPACE"] = options.workspace.string();
  env["GITHUB_EVENT_NAME"] = options.event;
  env["GITHUB_JOB"] = options.job;
  env["GITHUB_REF"] = get("github.ref");
  env["GITHUB_SHA"] = get("github.sha");
  env["GITHUB_BASE_REF"] = get("github.base_ref");
  env["GITHUB_HEAD_REF"] = get("github.head_ref");
  env["GITHUB_REPOSITORY"] = get("github.repository");
  env["GITHUB_API_URL"] = get("github.api_url");
  env["GITHUB_SERVER_URL"] = "https://github.com";
  env["GITHUB_RUN_ID"] = get("github.run_id");
  env["RUNNER_OS"] = "Linux";
  env["RUNNER_TEMP"] = options.temp.string();
  return env;
}

// Adds an `env:` mapping (`node`, possibly missing) to `env` and to `context`'s env.*.
void add_env(const YAML::Node& node, Env& env, ExpressionContext& context) {
  if (!node) {
    return;
  }
  for (const auto& entry : node) {
    const auto name = entry.first.Scalar();
    const auto value = interpolate(entry.second.Scalar(), context);
    env[name] = value;
    context.values["env." + lower(name)] = value;
  }
}

// The state the job's first step starts from: `context`, the environment (the runner's, then
// workflow, job and given env) and the `defaults: run:` of the workflow and the job.
StepState first_step_state(const YAML::Node& workflow, const YAML::Node& job, ExpressionContext context,
                           const GithubOptions& options) {
  // The environment: the runner's own, GitHub's variables, then workflow, job and step env.
  Env env = runner_environment(context, options);
  add_env(workflow["env"], env, context);
  add_env(job["env"], env, context);
  for (const auto& [name, value] : options.env_overrides) {
    env[name] = value;
    context.values["env." + lower(name)] = value;
  }
  std::string default_shell;
  std::string default_directory;
  for (const auto& defaults : {workflow["defaults"], job["defaults"]}) {
    if (defaults && defaults["run"]) {
      default_shell = defaults["run"]["shell"] ? defaults["run"]["shell"].Scalar() : default_shell;
      default_directory = defaults["run"]["working-directory"] ? defaults["run"]["working-directory"].Scalar()
                                                               : default_directory;
    }
  }

  fs::create_directories(options.temp);
  const auto summary = options.temp / "step_summary.md";
  env["GITHUB_STEP_SUMMARY"] = summary.string();
  std::ofstream(summary, std::ios::app).close();

  StepState state;
  state.context = context;
  state.env = env;
  state.default_shell = default_shell;
  state.default_directory = default_directory;
  return state;
}

}  // namespace

void print_github_matrix(const GithubOptions& options) {
  const auto workflow = YAML::LoadFile(options.workflow.string());
  const auto job = workflow["jobs"][options.job];
  if (!job) {
    throw Unsupported(fmt::format("{}: no job \"{}\"", options.workflow.string(), options.job));
  }
  for (const auto& combination : matrix_of(job, options.job)) {
    std::string line;
    for (const auto& [key, value] : combination) {
      line += fmt::format("{}{}={}", line.empty() ? "" : " ", key, value);
    }
    std::cout << line << "\n";
  }
}

int run_github_job(const GithubOptions& options) {
  const auto workflow = YAML::LoadFile(options.workflow.string());
  const auto where = fmt::format("{}: job {}", options.workflow.filename().string(), options.job);
  const auto job = workflow["jobs"][options.job];
  if (!job) {
    throw Unsupported(fmt::format("{}: no such job", where));
  }
  check_keys(
      job,
      {"name", "if", "runs-on", "container", "services", "timeout-minutes", "strategy", "steps", "env",
       "needs", "permissions", "concurrency", "defaults", "outputs", "continue-on-error", "environment"},
      where);
  if (!workflow_runs(workflow["on"], options)) {
    std::cout << fmt::format("ci_local: {}: the workflow does not run on this {} event\n", where,
                             options.event);
    return k_not_run;
  }

  ExpressionContext context = job_context(options);

  // The job's `if:` sees the results of the jobs it needs.
  context.job_failed = options.needs_failed;
  if (!condition(job["if"], context)) {
    std::cout << fmt::format("ci_local: {}: skipped by its if: {}\n", where, scalar(job["if"]));
    return k_not_run;
  }
  context.job_failed = false;

  const auto combinations = matrix_of(job, where);
  if (std::find(combinations.begin(), combinations.end(), options.matrix) == combinations.end()) {
    throw Unsupported(fmt::format("{}: the matrix has no such combination (see github-matrix)", where));
  }
  for (const auto& [key, value] : options.matrix) {
    context.values["matrix." + lower(key)] = value;
  }

  StepState state = first_step_state(workflow, job, context, options);
  run_github_steps(job["steps"], state, options, where);
  const bool failed = state.context.job_failed;
  std::cout << fmt::format("ci_local: {}: {}\n", where, failed ? "failed" : "passed");
  return failed ? k_failed : k_passed;
}

}  // namespace ci_local
