// ci_local: runs one job of a GitHub Actions workflow or of a GitLab CI pipeline on this
// machine, its shell steps as the CI system runs them, so that tests/templates can run the
// shipped templates instead of trusting them. It reads the YAML with yaml-cpp (a real parser:
// anchors, block scalars and quoting as CI reads them) and does what the CI system does with a
// job: decides whether it runs (GitHub `if:` expressions, GitLab `rules:`), builds its
// environment (workflow, job and step `env:`; GitLab `variables:` and `extends:`), substitutes
// `${{ }}` expressions, runs each step's script in the shell CI uses, carries `$GITHUB_ENV`,
// `$GITHUB_OUTPUT` and step outcomes forward, and ends the job as CI would (`continue-on-error`,
// `if: always()`, `allow_failure: exit_codes`, GitLab's after_script).
//
// What needs the network or a container is replaced, never silently: a `uses:` step runs the
// local script given for that action (`--action actions/checkout=SCRIPT`, its `with:` inputs in
// INPUT_<NAME> variables, dashes as underscores), a step can be replaced by name
// (`--replace "Build and install perfduel=SCRIPT"`), GitLab's before_script as a whole
// (`--replace-before-script SCRIPT`); a remaining step that runs apt-get or git clone, an
// action without a local script, or a key this program does not know stops it with exit 3.
//
//   ci_local github-matrix WORKFLOW JOB   one line "key=value ..." per matrix combination
//   ci_local github WORKFLOW JOB [--event E] [--ctx github.KEY=V] [--secret N=V] [--matrix K=V]
//            [--needs success|failure] [--workspace DIR] [--temp DIR] [--env N=V]
//            [--action NAME=SCRIPT] [--replace STEP=SCRIPT]
//   ci_local gitlab-parallel FILE JOB     the job's `parallel:` count, 1 without
//   ci_local scripts FILE                 every shell script in FILE, each followed by "#--"
//   ci_local gitlab FILE JOB [--var N=V] [--project-var N=V] [--node-index K]
//            [--previous success|failed] [--workspace DIR] [--replace-before-script SCRIPT]
//            [--replace-script SCRIPT] [--cache-dir DIR] [--include URL=FILE]
//            [--artifacts-in DIR]... [--artifacts-out DIR]   (artifacts: paths and reports, kept
//            under DIR with their relative paths; a needed job's unpacked into the workspace;
//            the job's `cache:` entries restored from and saved to DIR/<key>/, as a runner's
//            cache keeps them between pipelines)
//
// Exit codes: 0 the job passed; 1 it failed; 2 (GitLab) it failed with an exit code that
// `allow_failure` accepts ("passed with warnings"); 99 the job does not run (event, `if:` or
// `rules:`); 3 something this program cannot do here.
//
// The parts, in ci_local/: support (exit codes, running a program), expression (GitHub's
// `${{ }}` and `if:`), github_job and github_steps (a workflow's job and its steps), gitlab_pipeline
// (includes, `extends:`, variables, `rules:`, scripts), gitlab_cache (artifacts and caches),
// gitlab_job (a pipeline's job). This file reads the command line.

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "ci_local/github.hpp"
#include "ci_local/gitlab_job.hpp"
#include "ci_local/gitlab_pipeline.hpp"
#include "ci_local/support.hpp"

namespace {

using namespace ci_local;

// Every shell script of `file`, each followed by a line "#--", for checks over all of them:
// GitHub steps' `run:` (a composite action's too), GitLab jobs' before_script, script and
// after_script lines.
void print_scripts(const fs::path& file) {
  const auto root = YAML::LoadFile(file.string());
  if (root["runs"] && root["runs"]["steps"]) {
    for (const auto& step : root["runs"]["steps"]) {
      if (step["run"]) {
        std::cout << step["run"].Scalar() << "\n#--\n";
      }
    }
    return;
  }
  if (root["jobs"]) {
    for (const auto& job : root["jobs"]) {
      for (const auto& step : job.second["steps"]) {
        if (step["run"]) {
          std::cout << step["run"].Scalar() << "\n#--\n";
        }
      }
    }
    return;
  }
  for (const auto& entry : root) {
    const auto name = entry.first.Scalar();
    const bool reserved =
        std::find(k_gitlab_reserved.begin(), k_gitlab_reserved.end(), name) != k_gitlab_reserved.end();
    if (reserved || !entry.second.IsMap()) {
      continue;
    }
    for (const auto* key : {"before_script", "script", "after_script"}) {
      for (const auto& line : script_lines(entry.second[key])) {
        std::cout << line << "\n#--\n";
      }
    }
  }
}

[[noreturn]] void usage(const std::string& what) {
  throw Unsupported(what + " (usage: see the comment at the top of tests/templates/ci_local.cpp)");
}

// The options after MODE FILE JOB, read one at a time.
class Arguments {
 public:
  explicit Arguments(const std::vector<std::string>& args) : m_args(args) {}

  bool more() const { return m_index < m_args.size(); }
  const std::string& option() const { return m_args[m_index]; }
  void advance() { ++m_index; }

  // The value of the current option: the next argument.
  std::string next() {
    if (m_index + 1 >= m_args.size()) {
      usage(m_args[m_index] + " needs a value");
    }
    return m_args[++m_index];
  }

 private:
  const std::vector<std::string>& m_args;
  std::size_t m_index = 3;
};

GithubOptions github_options(const std::vector<std::string>& args) {
  GithubOptions options;
  options.workflow = args[1];
  options.job = args[2];
  options.temp = fs::temp_directory_path() / fmt::format("ci_local_{}", getpid());
  for (Arguments arguments(args); arguments.more(); arguments.advance()) {
    const auto& option = arguments.option();
    if (option == "--event") {
      options.event = arguments.next();
    } else if (option == "--ctx") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.contexts[lower(key)] = value;
    } else if (option == "--secret") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.contexts["secrets." + lower(key)] = value;
    } else if (option == "--matrix") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.matrix[key] = value;
    } else if (option == "--needs") {
      options.needs_failed = arguments.next() != "success";
    } else if (option == "--workspace") {
      options.workspace = fs::absolute(arguments.next());
    } else if (option == "--temp") {
      options.temp = fs::absolute(arguments.next());
    } else if (option == "--env") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.env_overrides[key] = value;
    } else if (option == "--action") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.actions[key] = fs::absolute(value);
    } else if (option == "--replace") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.replaced_steps[key] = fs::absolute(value);
    } else {
      usage("unknown option " + option);
    }
  }
  return options;
}

GitlabOptions gitlab_options(const std::vector<std::string>& args) {
  GitlabOptions options;
  options.file = args[1];
  options.job = args[2];
  for (Arguments arguments(args); arguments.more(); arguments.advance()) {
    const auto& option = arguments.option();
    if (option == "--var") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.predefined[key] = value;
    } else if (option == "--project-var") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.project[key] = value;
    } else if (option == "--node-index") {
      options.node_index = std::stoi(arguments.next());
    } else if (option == "--previous") {
      options.previous_failed = arguments.next() != "success";
    } else if (option == "--workspace") {
      options.workspace = fs::absolute(arguments.next());
    } else if (option == "--artifacts-in") {
      options.artifacts_in.push_back(fs::absolute(arguments.next()));
    } else if (option == "--artifacts-out") {
      options.artifacts_out = fs::absolute(arguments.next());
    } else if (option == "--replace-before-script") {
      options.replaced_before_script = fs::absolute(arguments.next());
    } else if (option == "--replace-script") {
      options.replaced_script = fs::absolute(arguments.next());
    } else if (option == "--cache-dir") {
      options.cache_dir = fs::absolute(arguments.next());
    } else if (option == "--include") {
      auto [key, value] = split_assignment(arguments.next(), option);
      options.includes[key] = fs::absolute(value);
    } else {
      usage("unknown option " + option);
    }
  }
  return options;
}

int main_of(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "scripts") {
    print_scripts(args[1]);
    return k_passed;
  }
  if (args.size() < 3) {
    usage("too few arguments");
  }
  const auto& mode = args[0];
  if (mode == "github" || mode == "github-matrix") {
    const GithubOptions options = github_options(args);
    if (mode == "github-matrix") {
      print_github_matrix(options);
      return k_passed;
    }
    return run_github_job(options);
  }
  if (mode == "gitlab" || mode == "gitlab-parallel") {
    const GitlabOptions options = gitlab_options(args);
    if (mode == "gitlab-parallel") {
      std::cout << gitlab_parallel(resolve_job(load_gitlab(options.file, options.includes), options.job))
                << "\n";
      return k_passed;
    }
    return run_gitlab_job(options);
  }
  usage("unknown mode " + mode);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return main_of(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const Unsupported& e) {
    std::cerr << "ci_local: error: " << e.what() << "\n";
    return k_unsupported;
  } catch (const YAML::Exception& e) {
    std::cerr << "ci_local: error: YAML: " << e.what() << "\n";
    return k_unsupported;
  } catch (const std::exception& e) {
    std::cerr << "ci_local: error: " << e.what() << "\n";
    return k_unsupported;
  }
}
