#include "gitlab_job.hpp"

#include <cctype>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "gitlab_cache.hpp"
#include "gitlab_pipeline.hpp"

namespace ci_local {

namespace {

// The job `options.job` of `pipeline`, its `extends:` resolved and its before_script and
// after_script from `default:` or the top level when it has none.
YAML::Node gitlab_job(const YAML::Node& pipeline, const GitlabOptions& options, const std::string& where) {
  auto job = resolve_job(pipeline, options.job);
  check_keys(job,
             {"stage",     "script",        "before_script", "after_script",  "variables", "rules",
              "image",     "services",      "tags",          "timeout",       "parallel",  "resource_group",
              "artifacts", "needs",         "dependencies",  "allow_failure", "when",      "cache",
              "retry",     "interruptible", "environment",   "coverage"},
             where);
  const auto defaults = pipeline["default"];
  for (const auto* key : {"before_script", "after_script"}) {
    if (!job[key]) {
      if (defaults && defaults[key]) {
        job[key] = defaults[key];
      } else if (pipeline[key]) {
        job[key] = pipeline[key];
      }
    }
  }
  return job;
}

// The job's variables, lowest precedence first: predefined, the file's, the job's, the project's.
Env gitlab_variables(const YAML::Node& pipeline, YAML::Node& job, const GitlabOptions& options,
                     const std::string& where) {
  Env variables = options.predefined;
  variables["CI"] = "true";
  variables["GITLAB_CI"] = "true";
  variables["CI_PROJECT_DIR"] = options.workspace.string();
  variables["CI_JOB_NAME"] = options.job;
  const int parallel = gitlab_parallel(job);
  if (parallel > 1) {
    if (options.node_index < 1 || options.node_index > parallel) {
      throw Unsupported(fmt::format("{}: parallel: {} needs --node-index 1..{}", where, parallel, parallel));
    }
    variables["CI_NODE_INDEX"] = std::to_string(options.node_index);
    variables["CI_NODE_TOTAL"] = std::to_string(parallel);
    variables["CI_JOB_NAME"] = fmt::format("{} {}/{}", options.job, options.node_index, parallel);
  }
  // GitLab's slug: lowercased, every other character than a-z and 0-9 a dash, 63 at most.
  const auto slug = [](const std::string& text) {
    std::string result;
    for (const char c : lower(text)) {
      result += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '-';
    }
    return result.substr(0, 63);
  };
  variables["CI_JOB_NAME_SLUG"] = slug(variables["CI_JOB_NAME"]);
  if (variables.contains("CI_COMMIT_REF_NAME") && !variables.contains("CI_COMMIT_REF_SLUG")) {
    variables["CI_COMMIT_REF_SLUG"] = slug(variables["CI_COMMIT_REF_NAME"]);
  }
  Env yaml_variables;
  for (const auto& source : {pipeline["variables"], job["variables"]}) {
    if (source) {
      for (const auto& entry : source) {
        yaml_variables[entry.first.Scalar()] = variable_value(entry.second);
      }
    }
  }
  for (const auto& [name, value] : yaml_variables) {
    variables[name] = value;
  }
  for (const auto& [name, value] : options.project) {
    variables[name] = value;
  }
  return variables;
}

// Whether the job runs in this pipeline, by its `rules:` (the first that matches may set
// `variables` and `allow_failure`) and its `when:`.
bool job_runs(YAML::Node& job, Env& variables, YAML::Node& allow_failure, const GitlabOptions& options,
              const std::string& where) {
  std::string when = job["when"] ? job["when"].Scalar() : "on_success";
  if (const auto rules = job["rules"]) {
    bool matched = false;
    for (const auto& rule : rules) {
      check_keys(rule, {"if", "when", "allow_failure", "variables"}, where + ": rules");
      if (rule["if"] && !rule_matches(rule["if"].Scalar(), variables)) {
        continue;
      }
      matched = true;
      when = rule["when"] ? rule["when"].Scalar() : when;
      allow_failure = rule["allow_failure"] ? rule["allow_failure"] : allow_failure;
      if (rule["variables"]) {
        for (const auto& entry : rule["variables"]) {
          variables[entry.first.Scalar()] = variable_value(entry.second);
        }
      }
      break;
    }
    if (!matched) {
      std::cout << fmt::format("ci_local: {}: not in this pipeline (no rule matched)\n", where);
      return false;
    }
  }
  if (when == "never" || when == "manual" || (when == "on_success" && options.previous_failed)) {
    std::cout << fmt::format("ci_local: {}: not run (when: {}{})\n", where, when,
                             options.previous_failed ? ", an earlier stage failed" : "");
    return false;
  }
  if (when != "on_success" && when != "always") {
    throw Unsupported(fmt::format("{}: when: {} is not supported by ci_local", where, when));
  }
  return true;
}

// The job's commands: before_script (or its replacement), then script (or its replacement).
std::vector<std::string> job_lines(YAML::Node& job, const GitlabOptions& options, const std::string& where) {
  std::vector<std::string> lines;
  if (options.replaced_before_script) {
    lines.push_back("bash -e " + options.replaced_before_script->string());
  } else {
    lines = script_lines(job["before_script"]);
  }
  const auto script = options.replaced_script
                          ? std::vector<std::string>{"bash -e " + options.replaced_script->string()}
                          : script_lines(job["script"]);
  if (script.empty()) {
    throw Unsupported(fmt::format("{}: no script", where));
  }
  lines.insert(lines.end(), script.begin(), script.end());
  for (const auto& line : lines) {
    if (reaches_network(line)) {
      throw Unsupported(
          fmt::format("{}: \"{}\" runs apt-get or git clone: give it a local equivalent "
                      "(--replace-before-script)",
                      where, line.substr(0, line.find('\n'))));
    }
  }
  return lines;
}

// Runs `lines` as the job's script, then its after_script; the script's exit code.
int run_scripts(YAML::Node& job, const std::vector<std::string>& lines, Env& env,
                const GitlabOptions& options, const std::string& where) {
  const auto script_file = fs::temp_directory_path() / fmt::format("ci_local_{}_script.sh", getpid());
  std::ofstream(script_file) << shell_script(lines);
  std::cout << fmt::format("ci_local: {}: script\n", where);
  const int status = run({"/bin/bash", script_file.string()}, env, options.workspace);
  fs::remove(script_file);

  if (const auto after = script_lines(job["after_script"]); !after.empty()) {
    env["CI_JOB_STATUS"] = status == 0 ? "success" : "failed";
    const auto after_file = fs::temp_directory_path() / fmt::format("ci_local_{}_after.sh", getpid());
    std::ofstream(after_file) << shell_script(after);
    std::cout << fmt::format("ci_local: {}: after_script\n", where);
    // GitLab ignores an after_script's failure; the job's status is the script's.
    const int after_status = run({"/bin/bash", after_file.string()}, env, options.workspace);
    if (after_status != 0) {
      std::cout << fmt::format("ci_local: {}: after_script exited with {} (ignored)\n", where, after_status);
    }
    fs::remove(after_file);
  }
  return status;
}

// The job's `artifacts:` (paths and reports) kept in `options.artifacts_out`, when its `when:`
// matches the job's exit code `status`.
void keep_artifacts(YAML::Node& job, const GitlabOptions& options, int status) {
  if (const auto artifacts = job["artifacts"]; artifacts && options.artifacts_out) {
    const auto artifacts_when = artifacts["when"] ? artifacts["when"].Scalar() : "on_success";
    if (artifacts_when == "always" || (artifacts_when == "on_success") == (status == 0)) {
      auto patterns = script_lines(artifacts["paths"]);
      if (artifacts["reports"]) {
        for (const auto& report : artifacts["reports"]) {
          const auto more = script_lines(report.second);
          patterns.insert(patterns.end(), more.begin(), more.end());
        }
      }
      copy_artifacts(patterns, options.workspace, *options.artifacts_out);
    }
  }
}

// The job's exit code from its script's `status` and `allow_failure`.
int job_result(YAML::Node& allow_failure, int status, const std::string& where) {
  if (status == 0) {
    std::cout << fmt::format("ci_local: {}: passed\n", where);
    return k_passed;
  }
  bool allowed = false;
  if (allow_failure && allow_failure.IsScalar()) {
    allowed = allow_failure.as<bool>();
  } else if (allow_failure && allow_failure["exit_codes"]) {
    const auto codes = allow_failure["exit_codes"];
    if (codes.IsScalar()) {
      allowed = codes.as<int>() == status;
    } else {
      for (const auto& code : codes) {
        allowed = allowed || code.as<int>() == status;
      }
    }
  }
  std::cout << fmt::format("ci_local: {}: {} (exit code {})\n", where,
                           allowed ? "passed with warnings" : "failed", status);
  return allowed ? k_allowed_failure : k_failed;
}

}  // namespace

int run_gitlab_job(const GitlabOptions& options) {
  const auto pipeline = load_gitlab(options.file, options.includes);
  const auto where = fmt::format("{}: job {}", options.file.filename().string(), options.job);
  // Not const: yaml-cpp's const operator[] gives an invalid node for a missing key, and the
  // rules assign to `allow_failure`.
  auto job = gitlab_job(pipeline, options, where);
  Env variables = gitlab_variables(pipeline, job, options, where);
  YAML::Node allow_failure = job["allow_failure"];
  if (!job_runs(job, variables, allow_failure, options, where)) {
    return k_not_run;
  }

  Env env = process_environment();
  for (const auto& [name, value] : variables) {
    env[name] = expand(value, variables);
  }
  const auto lines = job_lines(job, options, where);
  // GitLab's order: the sources, the caches, the artifacts of the jobs it needs, the scripts.
  const auto caches = gitlab_caches(job["cache"], variables, where);
  if (options.cache_dir) {
    restore_caches(caches, *options.cache_dir, options.workspace);
  }
  for (const auto& artifacts : options.artifacts_in) {
    fs::copy(artifacts, options.workspace,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  const int status = run_scripts(job, lines, env, options, where);
  if (options.cache_dir) {
    save_caches(caches, *options.cache_dir, options.workspace, status);
  }
  keep_artifacts(job, options, status);
  return job_result(allow_failure, status, where);
}

}  // namespace ci_local
