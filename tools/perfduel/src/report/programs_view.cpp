#include "report/programs_view.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// How many of `fingerprint`'s files have `role`.
std::size_t count_of(const ProgramFingerprint& fingerprint, FileRole role) {
  return static_cast<std::size_t>(
      std::count_if(fingerprint.files.begin(), fingerprint.files.end(),
                    [&](const FingerprintedFile& file) { return file.role == role; }));
}

// The metrics of `summary` by name, the first eight: "wall_time, user_time, system_time, max_rss".
std::string metric_names(const RunSummary& summary) {
  std::vector<std::string> names;
  names.reserve(summary.outcome->analysis.metrics.size());
  for (const auto& result : summary.outcome->analysis.metrics) {
    names.push_back(result.spec.name);
  }
  return util::first_names(names, 8);
}

std::string command_text(const std::optional<CommandSpec>& command) {
  return command ? util::join_shell_words(command->argv) : std::string("(none)");
}

// The fingerprint both sides share (the baseline's; the candidate's is equal).
const ProgramFingerprint* shared_fingerprint(const RunSummary& summary) {
  const auto& programs = summary.outcome->programs;
  return programs.baseline ? &*programs.baseline : nullptr;
}

}  // namespace

std::string compared_text(const ProgramFingerprint& fingerprint) {
  std::string text = "the same executable";
  if (count_of(fingerprint, FileRole::interpreter) > 0) {
    text += " and interpreter";
  }
  const std::size_t libraries = count_of(fingerprint, FileRole::library);
  const std::size_t arguments = count_of(fingerprint, FileRole::argument);
  text += fmt::format("{}{} shared {}", arguments > 0 ? ", " : " and ", libraries,
                      libraries == 1 ? "library" : "libraries");
  if (arguments > 0) {
    text += fmt::format(" and {} {} named by {}", arguments, arguments == 1 ? "file" : "files",
                        arguments == 1 ? "an argument" : "arguments");
  }
  return text + ", with the same arguments, environment settings and working directory";
}

std::string identical_programs_text(const RunSummary& summary, FileList files) {
  const auto& config = *summary.config;
  std::string text = "identical programs: nothing to measure, every metric is no change\n";
  if (const ProgramFingerprint* fingerprint = shared_fingerprint(summary)) {
    text += fmt::format("  compared:    {}\n", compared_text(*fingerprint));
    text += fmt::format("  fingerprint: sha256 {}\n", fingerprint->sha256);
  }
  text += fmt::format("  baseline:    {}\n  candidate:   {}\n", command_text(config.baseline),
                      command_text(config.candidate));
  text += fmt::format("  metrics:     {} (`identical_programs: measure` measures them anyway)\n",
                      metric_names(summary));
  const auto& programs = summary.outcome->programs;
  if (files == FileList::shown && programs.baseline && programs.candidate) {
    for (std::size_t i = 0; i < programs.baseline->files.size() && i < programs.candidate->files.size();
         ++i) {
      const auto& a = programs.baseline->files[i];
      const auto& b = programs.candidate->files[i];
      text += fmt::format("  {}: sha256 {}\n    baseline  {}\n    candidate {}\n", a.name, a.sha256,
                          a.path.string(), b.path.string());
    }
  }
  return text;
}

std::string identical_programs_markdown(const RunSummary& summary) {
  const ProgramFingerprint* fingerprint = shared_fingerprint(summary);
  std::string text = fmt::format(
      "**Identical programs: nothing to measure.** Both sides run {}{}, so every metric is no change "
      "without a run: {}. (`identical_programs: measure` in the configuration measures them anyway.)\n\n",
      fingerprint ? compared_text(*fingerprint) : std::string("the same programs"),
      fingerprint ? fmt::format(" (fingerprint SHA-256 `{}`)", fingerprint->sha256) : std::string(),
      metric_names(summary));
  const auto& programs = summary.outcome->programs;
  if (!programs.baseline || !programs.candidate) {
    return text;
  }
  text += fmt::format(
      "<details><summary>{} compared</summary>\n\n| file | baseline | candidate | SHA-256 "
      "|\n|---|---|---|---|\n",
      util::counted(static_cast<long long>(programs.baseline->files.size()), "file"));
  for (std::size_t i = 0; i < programs.baseline->files.size() && i < programs.candidate->files.size(); ++i) {
    const auto& a = programs.baseline->files[i];
    const auto& b = programs.candidate->files[i];
    text += fmt::format("| {} | `{}` | `{}` | `{}` |\n", a.name, a.path.string(), b.path.string(),
                        a.sha256.substr(0, 16));
  }
  return text + "\n</details>\n\n";
}

}  // namespace perfduel
