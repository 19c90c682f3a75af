#include "github_steps.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <vector>

#include <fmt/format.h>

namespace ci_local {

namespace {

// Reads a $GITHUB_OUTPUT or $GITHUB_ENV file: NAME=VALUE lines and NAME<<DELIMITER blocks.
std::map<std::string, std::string> read_assignments(const fs::path& path) {
  std::map<std::string, std::string> values;
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    const auto heredoc = line.find("<<");
    const auto equals = line.find('=');
    if (heredoc != std::string::npos && (equals == std::string::npos || heredoc < equals)) {
      const auto name = line.substr(0, heredoc);
      const auto delimiter = line.substr(heredoc + 2);
      std::string value;
      std::string body;
      bool first = true;
      while (std::getline(file, body) && body != delimiter) {
        value += (first ? "" : "\n") + body;
        first = false;
      }
      values[name] = value;
    } else if (equals != std::string::npos) {
      values[line.substr(0, equals)] = line.substr(equals + 1);
    }
  }
  return values;
}

int run_composite(const fs::path& directory, const YAML::Node& step, const std::string& id,
                  const ExpressionContext& step_context, const Env& step_env, StepState& state,
                  const GithubOptions& options, const std::string& where);

// The files a step's commands write to: $GITHUB_OUTPUT, $GITHUB_ENV and $GITHUB_PATH.
struct StepFiles {
  fs::path output;
  fs::path env;
  fs::path path;
};

// Step `number`'s files in `temp`, created empty.
StepFiles create_step_files(const fs::path& temp, int number) {
  const StepFiles files{temp / fmt::format("output_{}", number), temp / fmt::format("env_{}", number),
                        temp / fmt::format("path_{}", number)};
  for (const auto& file : {files.output, files.env, files.path}) {
    std::ofstream(file).close();
  }
  return files;
}

// A `uses:` step: the composite action in the directory given for the action, or the script
// given for it with the step's `with:` inputs in INPUT_<NAME> variables.
int run_uses_step(const YAML::Node& step, const std::string& name, const std::string& id,
                  const ExpressionContext& step_context, Env& step_env, const fs::path& directory,
                  StepState& state, const GithubOptions& options, const std::string& step_where) {
  const auto uses = step["uses"].Scalar();
  const auto action = uses.substr(0, uses.find('@'));
  const auto local = options.actions.find(action);
  if (local == options.actions.end()) {
    throw Unsupported(
        fmt::format("{} (\"{}\"): no local equivalent of {} (--action)", step_where, name, uses));
  }
  if (fs::is_directory(local->second)) {
    std::cout << fmt::format("ci_local: step \"{}\": {}, the composite action in {}\n", name, uses,
                             local->second.string());
    return run_composite(local->second, step, id, step_context, step_env, state, options, step_where);
  }
  if (step["with"]) {
    for (const auto& input : step["with"]) {
      auto input_name = input.first.Scalar();
      std::replace(input_name.begin(), input_name.end(), '-', '_');
      std::transform(input_name.begin(), input_name.end(), input_name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      step_env["INPUT_" + input_name] = interpolate(input.second.Scalar(), step_context);
    }
  }
  std::cout << fmt::format("ci_local: step \"{}\": {} by {}\n", name, uses, local->second.string());
  return run({"/bin/bash", "-e", local->second.string()}, step_env, directory);
}

// A `run:` step: its script, interpolated, in its shell.
int run_script_step(const YAML::Node& step, const std::string& name, int number,
                    const ExpressionContext& step_context, const Env& step_env, const fs::path& directory,
                    const StepState& state, const GithubOptions& options, const std::string& step_where) {
  const auto script = interpolate(step["run"].Scalar(), step_context);
  if (reaches_network(script)) {
    throw Unsupported(fmt::format(
        "{} (\"{}\") runs apt-get or git clone: give it a local equivalent (--replace)", step_where, name));
  }
  const auto script_file = options.temp / fmt::format("step_{}.sh", number);
  std::ofstream(script_file) << script;
  // GitHub's default shell on Linux: bash -e {0}; `shell: bash` adds pipefail.
  const auto shell = step["shell"] ? step["shell"].Scalar() : state.default_shell;
  std::vector<std::string> argv;
  if (shell.empty()) {
    argv = {"/bin/bash", "-e", script_file.string()};
  } else if (shell == "bash") {
    argv = {"/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", script_file.string()};
  } else if (shell == "sh") {
    argv = {"/bin/sh", "-e", script_file.string()};
  } else {
    throw Unsupported(fmt::format("{}: shell \"{}\" is not supported by ci_local", step_where, shell));
  }
  std::cout << fmt::format("ci_local: step \"{}\"\n", name);
  return run(argv, step_env, directory);
}

// After a step that ended with `status`: its outcome and conclusion, the job's status, and what
// it wrote to `files` (its outputs, environment and PATH) carried forward in `state`.
void record_step(const YAML::Node& step, const std::string& name, const std::string& id, int status,
                 const ExpressionContext& step_context, const StepFiles& files, StepState& state) {
  const bool continue_on_error =
      step["continue-on-error"] &&
      evaluate(interpolate(step["continue-on-error"].Scalar(), step_context), state.context).truthy();
  const auto outcome = status == 0 ? "success" : "failure";
  state.context.values[fmt::format("steps.{}.outcome", id)] = outcome;
  state.context.values[fmt::format("steps.{}.conclusion", id)] =
      status == 0 || continue_on_error ? "success" : "failure";
  if (status != 0) {
    std::cout << fmt::format("ci_local: step \"{}\": failed with exit code {}{}\n", name, status,
                             continue_on_error ? " (continue-on-error)" : "");
    state.context.job_failed = state.context.job_failed || !continue_on_error;
  }
  for (const auto& [output, value] : read_assignments(files.output)) {
    state.context.values[fmt::format("steps.{}.outputs.{}", id, lower(output))] = value;
  }
  for (const auto& [variable, value] : read_assignments(files.env)) {
    state.env[variable] = value;
    state.exported[variable] = value;
    state.context.values["env." + lower(variable)] = value;
  }
  std::ifstream paths(files.path);
  for (std::string line; std::getline(paths, line);) {
    if (!line.empty()) {
      state.env["PATH"] = line + ":" + state.env["PATH"];
      state.exported["PATH"] = state.env["PATH"];
    }
  }
}

// One step, numbered `number`, by its `if:`.
void run_github_step(const YAML::Node& step, int number, StepState& state, const GithubOptions& options,
                     const std::string& where) {
  const auto step_where = fmt::format("{}: step {}", where, number);
  check_keys(step,
             {"name", "id", "if", "run", "uses", "with", "env", "shell", "working-directory",
              "continue-on-error", "timeout-minutes"},
             step_where);
  const auto name = step["name"]   ? step["name"].Scalar()
                    : step["uses"] ? step["uses"].Scalar()
                                   : trim(step["run"].Scalar().substr(0, step["run"].Scalar().find('\n')));
  const auto id = step["id"] ? lower(step["id"].Scalar()) : fmt::format("__step{}", number);
  if (!condition(step["if"], state.context)) {
    std::cout << fmt::format("ci_local: step \"{}\": skipped\n", name);
    state.context.values[fmt::format("steps.{}.outcome", id)] = "skipped";
    state.context.values[fmt::format("steps.{}.conclusion", id)] = "skipped";
    return;
  }

  Env step_env = state.env;
  ExpressionContext step_context = state.context;
  if (step["env"]) {
    for (const auto& entry : step["env"]) {
      const auto value = interpolate(entry.second.Scalar(), state.context);
      step_env[entry.first.Scalar()] = value;
      step_context.values["env." + lower(entry.first.Scalar())] = value;
    }
  }
  const auto files = create_step_files(options.temp, number);
  step_env["GITHUB_OUTPUT"] = files.output.string();
  step_env["GITHUB_ENV"] = files.env.string();
  step_env["GITHUB_PATH"] = files.path.string();
  auto directory = options.workspace;
  const auto step_directory =
      step["working-directory"] ? step["working-directory"].Scalar() : state.default_directory;
  if (!step_directory.empty()) {
    directory = options.workspace / interpolate(step_directory, step_context);
  }

  int status = 0;
  const auto started = std::chrono::steady_clock::now();
  if (const auto replaced = options.replaced_steps.find(name); replaced != options.replaced_steps.end()) {
    std::cout << fmt::format("ci_local: step \"{}\": replaced by {}\n", name, replaced->second.string());
    status = run({"/bin/bash", "-e", replaced->second.string()}, step_env, directory);
  } else if (step["uses"]) {
    status = run_uses_step(step, name, id, step_context, step_env, directory, state, options, step_where);
  } else if (step["run"]) {
    status =
        run_script_step(step, name, number, step_context, step_env, directory, state, options, step_where);
  } else {
    throw Unsupported(fmt::format("{}: neither run nor uses", step_where));
  }

  // Each step's time, as the CI system shows it beside the step (docs/ci.md's cold and warm
  // tables are made of these lines).
  std::cout << fmt::format("ci_local: step \"{}\": {:.1f} s\n", name,
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  record_step(step, name, id, status, step_context, files, state);
}

}  // namespace

void run_github_steps(const YAML::Node& steps, StepState& state, const GithubOptions& options,
                      const std::string& where) {
  for (const auto& step : steps) {
    const int number = ++state.number;
    run_github_step(step, number, state, options, where);
  }
}

namespace {

// A composite action (`--action NAME=DIR`, DIR/action.yml with `runs: using: composite`): its
// inputs from `with:` and their defaults (`inputs.*`), `github.action_path` and
// $GITHUB_ACTION_PATH its directory, its steps run with their own `steps.*`; what they export
// through $GITHUB_ENV and $GITHUB_PATH reaches the caller's later steps, its `outputs:` become
// the step's outputs. Returns 1 when one of its steps failed.
int run_composite(const fs::path& directory, const YAML::Node& step, const std::string& id,
                  const ExpressionContext& step_context, const Env& step_env, StepState& state,
                  const GithubOptions& options, const std::string& where) {
  const auto action = YAML::LoadFile((directory / "action.yml").string());
  const auto action_where = fmt::format("{}: {}", where, (directory / "action.yml").string());
  check_keys(action, {"name", "description", "author", "inputs", "outputs", "runs", "branding"},
             action_where);
  if (!action["runs"] || !action["runs"]["using"] || action["runs"]["using"].Scalar() != "composite") {
    throw Unsupported(fmt::format("{}: not a composite action (runs: using: composite)", action_where));
  }
  StepState inner;
  for (const auto& [key, value] : step_context.values) {
    if (key.rfind("steps.", 0) != 0 && key.rfind("inputs.", 0) != 0) {
      inner.context.values[key] = value;
    }
  }
  inner.context.values["github.action_path"] = directory.string();
  std::map<std::string, std::string> given;
  if (step["with"]) {
    for (const auto& input : step["with"]) {
      given[lower(input.first.Scalar())] = interpolate(input.second.Scalar(), step_context);
    }
  }
  for (const auto& input : action["inputs"]) {
    const auto name = lower(input.first.Scalar());
    check_keys(input.second, {"description", "required", "default", "deprecationMessage"},
               fmt::format("{}: input {}", action_where, name));
    std::string value;
    if (const auto it = given.find(name); it != given.end()) {
      value = it->second;
      given.erase(it);
    } else if (input.second["default"]) {
      value = interpolate(input.second["default"].Scalar(), inner.context);
    } else if (input.second["required"] && input.second["required"].as<bool>()) {
      throw Unsupported(fmt::format("{}: the required input {} is not given", action_where, name));
    }
    inner.context.values["inputs." + name] = value;
  }
  if (!given.empty()) {
    throw Unsupported(
        fmt::format("{}: no input {} (the action's inputs:)", action_where, given.begin()->first));
  }
  inner.env = step_env;
  inner.env["GITHUB_ACTION_PATH"] = directory.string();
  inner.number = state.number;
  run_github_steps(action["runs"]["steps"], inner, options, action_where);
  state.number = inner.number;
  for (const auto& [variable, value] : inner.exported) {
    state.env[variable] = value;
    state.exported[variable] = value;
    state.context.values["env." + lower(variable)] = value;
  }
  if (action["outputs"]) {
    for (const auto& output : action["outputs"]) {
      state.context.values[fmt::format("steps.{}.outputs.{}", id, lower(output.first.Scalar()))] =
          interpolate(output.second["value"].Scalar(), inner.context);
    }
  }
  return inner.context.job_failed ? 1 : 0;
}

}  // namespace

}  // namespace ci_local
