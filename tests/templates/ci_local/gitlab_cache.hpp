// GitLab CI artifacts and caches, kept in directories as a runner keeps them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "support.hpp"

namespace ci_local {

// Copies what `patterns` (globs relative to `workspace`, directories whole) match to the same
// relative paths under `destination`, as GitLab's artifact archive keeps them.
void copy_artifacts(const std::vector<std::string>& patterns, const fs::path& workspace,
                    const fs::path& destination);

// One entry of a job's `cache:` (a mapping, or a list of them), its keys expanded.
struct GitlabCache {
  std::vector<std::string> keys;  // `key:`, then `fallback_keys:`, tried in this order
  std::vector<std::string> paths;
  std::string when = "on_success";
  std::string policy = "pull-push";
};

// The entries of a job's `cache:` (`cache`, possibly missing), keys expanded from `variables`;
// `where` names the job in messages.
std::vector<GitlabCache> gitlab_caches(const YAML::Node& cache, const Env& variables,
                                       const std::string& where);

// Before the job: each cache's first key found in `store` unpacked into `workspace`.
void restore_caches(const std::vector<GitlabCache>& caches, const fs::path& store, const fs::path& workspace);

// After the job (after_script included): each cache's paths saved under its key, replacing what
// the key held, when the job's outcome matches the cache's `when:`. `status` is the job's exit code.
void save_caches(const std::vector<GitlabCache>& caches, const fs::path& store, const fs::path& workspace,
                 int status);

}  // namespace ci_local
