// GitLab CI pipelines: the file with its includes, a job with its `extends:`, variables, `rules:`
// expressions and scripts as GitLab's runner joins them.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "support.hpp"

namespace ci_local {

// The top-level keys of a pipeline that are not jobs.
extern const std::vector<std::string> k_gitlab_reserved;

// The pipeline in `file` with its `include:`s merged in as GitLab merges them: each included file
// first, in order, then the including file's keys over them (jobs and other mappings merged key
// by key, lists replaced). A `local:` file is found relative to `file`'s directory (GitLab: the
// repository's root); a `remote:` one needs a local copy (`--include URL=FILE`).
// `depth` counts the includes followed so far.
YAML::Node load_gitlab(const fs::path& file, const std::map<std::string, fs::path>& includes, int depth = 0);

// The job `name` of `pipeline`, merged over what it `extends:` (`depth`: the bases followed so far).
YAML::Node resolve_job(const YAML::Node& pipeline, const std::string& name, int depth = 0);

// The job's `parallel:` count, 1 without.
int gitlab_parallel(const YAML::Node& job);

// The value of a `variables:` entry `node` (a scalar, or a mapping with `value:`).
std::string variable_value(const YAML::Node& node);

// `text` with $NAME and ${NAME} replaced from `variables` (GitLab expands variables that
// refer to others); an unknown name becomes empty, "$$" a single "$".
// `depth` counts the expansions so far.
std::string expand(const std::string& text, const Env& variables, int depth = 0);

// Whether the `rules: if:` expression `text` holds for `variables`: $VARIABLE, "string",
// /regex/, null, == != =~ !~ && || and parentheses.
bool rule_matches(const std::string& text, const Env& variables);

// The lines of script `node` (a string or a list, nested lists flattened); none when missing.
std::vector<std::string> script_lines(const YAML::Node& node);

// The commands `lines` as GitLab's bash runner joins them: one shell, `set -eo pipefail`, each
// command echoed ("$ command") before it runs.
std::string shell_script(const std::vector<std::string>& lines);

}  // namespace ci_local
