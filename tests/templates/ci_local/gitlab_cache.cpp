#include "gitlab_cache.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <glob.h>

#include "gitlab_pipeline.hpp"

namespace ci_local {

void copy_artifacts(const std::vector<std::string>& patterns, const fs::path& workspace,
                    const fs::path& destination) {
  for (const auto& pattern : patterns) {
    glob_t matches{};
    const auto absolute = (workspace / pattern).string();
    if (glob(absolute.c_str(), GLOB_MARK, nullptr, &matches) == 0) {
      for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
        const fs::path match = matches.gl_pathv[i];
        const auto relative = fs::relative(match, workspace);
        fs::create_directories((destination / relative).parent_path());
        fs::copy(match, destination / relative,
                 fs::copy_options::recursive | fs::copy_options::overwrite_existing);
      }
    }
    globfree(&matches);
  }
}

std::vector<GitlabCache> gitlab_caches(const YAML::Node& cache, const Env& variables,
                                       const std::string& where) {
  std::vector<GitlabCache> caches;
  const auto add = [&](const YAML::Node& entry) {
    check_keys(entry, {"key", "paths", "when", "policy", "fallback_keys", "unprotect"}, where + ": cache");
    if (entry["key"] && !entry["key"].IsScalar()) {
      throw Unsupported(fmt::format("{}: cache: key: files/prefix is not supported by ci_local", where));
    }
    GitlabCache result;
    // GitLab's default key, when none is given.
    result.keys.push_back(entry["key"] ? expand(entry["key"].Scalar(), variables) : "default");
    for (const auto& fallback : script_lines(entry["fallback_keys"])) {
      result.keys.push_back(expand(fallback, variables));
    }
    result.paths = script_lines(entry["paths"]);
    result.when = entry["when"] ? entry["when"].Scalar() : result.when;
    result.policy = entry["policy"] ? entry["policy"].Scalar() : result.policy;
    for (const auto& key : result.keys) {
      if (key.empty() || key.find('/') != std::string::npos || key == "." || key == "..") {
        throw Unsupported(fmt::format("{}: cache key \"{}\" is not one GitLab accepts", where, key));
      }
    }
    caches.push_back(result);
  };
  if (cache && cache.IsSequence()) {
    for (const auto& entry : cache) {
      add(entry);
    }
  } else if (cache) {
    add(cache);
  }
  return caches;
}

void restore_caches(const std::vector<GitlabCache>& caches, const fs::path& store,
                    const fs::path& workspace) {
  for (const auto& cache : caches) {
    if (cache.policy == "push") {
      continue;
    }
    const auto found = std::find_if(cache.keys.begin(), cache.keys.end(),
                                    [&](const std::string& key) { return fs::exists(store / key); });
    if (found == cache.keys.end()) {
      std::cout << fmt::format("ci_local: cache {}: none yet\n", cache.keys.front());
      continue;
    }
    fs::copy(
        store / *found, workspace,
        fs::copy_options::recursive | fs::copy_options::overwrite_existing | fs::copy_options::copy_symlinks);
    std::cout << fmt::format("ci_local: cache {}: restored\n", *found);
  }
}

void save_caches(const std::vector<GitlabCache>& caches, const fs::path& store, const fs::path& workspace,
                 int status) {
  for (const auto& cache : caches) {
    const bool wanted = cache.when == "always" || (cache.when == "on_success") == (status == 0);
    if (cache.policy == "pull" || !wanted) {
      continue;
    }
    const auto entry = store / cache.keys.front();
    fs::remove_all(entry);
    fs::create_directories(entry);
    copy_artifacts(cache.paths, workspace, entry);
    std::cout << fmt::format("ci_local: cache {}: saved\n", cache.keys.front());
  }
}

}  // namespace ci_local
