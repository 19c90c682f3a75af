// Usage: perfduel_template_keys TEMPLATE
// Fails when TEMPLATE (templates/perfduel.yaml) does not list every configuration key of the
// table (tools/perfduel/src/config/keys.cpp) with its default as the table shows it, or writes
// a top-level key the table does not have. The template writes `key: value   # comment`,
// some keys commented out (`# seed: 42`); a key's first such line is the one that counts. The
// top-level keys start their line; a key with no one default (the seed, the sources, the
// commands) must be there with any value.
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "config/keys.hpp"

namespace {

struct Entry {
  std::string value;  // as written, without the comment
  bool top_level;     // at the start of its line (after "# " if commented out)
  int line;
};

// The first line of each key in `path`.
std::map<std::string, Entry> template_entries(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    throw std::runtime_error(fmt::format("{}: cannot read the template", path));
  }
  // Indentation, then an optional comment marker, then `key:` and its value up to a comment.
  const std::regex key_line(R"(^(\s*)(#\s*)?([a-z_0-9]+):(?:\s+(.*?))?(?:\s+#.*)?\s*$)");
  std::map<std::string, Entry> entries;
  std::string text;
  for (int line = 1; std::getline(file, text); ++line) {
    std::smatch match;
    if (std::regex_match(text, match, key_line)) {
      const bool top_level = match[1].length() == 0 && (!match[2].matched || match[2].str() == "# ");
      entries.try_emplace(match[3].str(), Entry{match[4].str(), top_level, line});
    }
  }
  return entries;
}

template <typename Target>
void check_keys(std::span<const perfduel::config::Key<Target>> keys, bool top_level,
                const std::map<std::string, Entry>& entries, const std::string& path,
                std::vector<std::string>& problems) {
  for (const auto& key : keys) {
    const std::string name(key.name);
    const auto entry = entries.find(name);
    if (entry == entries.end() || (top_level && !entry->second.top_level)) {
      problems.push_back(fmt::format("{}: key \"{}\" is missing{}", path, name,
                                     key.shown_default.empty()
                                         ? std::string()
                                         : fmt::format(" (write {}: {})", name, key.shown_default)));
    } else if (!key.shown_default.empty() && entry->second.value != key.shown_default) {
      problems.push_back(fmt::format("{}:{}: \"{}\" is written with {}, its default is {}", path,
                                     entry->second.line, name, entry->second.value, key.shown_default));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: perfduel_template_keys TEMPLATE\n", stderr);
    return 2;
  }
  const std::string path = argv[1];
  try {
    const auto entries = template_entries(path);
    std::vector<std::string> problems;
    check_keys(perfduel::config::top_level_keys(), true, entries, path, problems);
    check_keys(perfduel::config::command_keys(), false, entries, path, problems);
    check_keys(perfduel::config::metric_keys(), false, entries, path, problems);
    const auto names = perfduel::config::key_names(perfduel::config::top_level_keys());
    for (const auto& [name, entry] : entries) {
      if (entry.top_level && std::find(names.begin(), names.end(), name) == names.end()) {
        problems.push_back(fmt::format("{}:{}: \"{}\" is not a configuration key", path, entry.line, name));
      }
    }
    for (const auto& problem : problems) {
      std::puts(problem.c_str());
    }
    if (!problems.empty()) {
      return 1;
    }
    std::printf("%s: every key listed with its default\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
