#include "report_format/reanalysis.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "duel/analysis.hpp"
#include "duel/verdict.hpp"
#include "util/json_file.hpp"

namespace perfduel {

namespace {

// First among the notes: what this is, so that nobody takes it for the duel's own verdict.
Note reanalysis_note(const Reanalysis& reanalysis) {
  std::string note = fmt::format("re-analysis of {} with {}", reanalysis.report,
                                 reanalysis.settings.empty()
                                     ? std::string("the report's settings")
                                     : fmt::format("settings from {}", fmt::join(reanalysis.settings, ", ")));
  if (!reanalysis.settings.empty()) {
    note += reanalysis.changes.empty() ? ": none differs from the report's"
                                       : fmt::format(": {}", fmt::join(reanalysis.changes, "; "));
  }
  if (!reanalysis.ignored.empty()) {
    note += fmt::format("; ignored: {} (a budget bounded the duel, not its analysis)",
                        fmt::join(reanalysis.ignored, ", "));
  }
  return Note{NoteWeight::key, note};
}

}  // namespace

ReanalysisSettings reanalysis_settings(const SavedReport& saved, const std::string& report,
                                       const std::optional<GivenConfigFile>& config_file,
                                       const std::vector<GivenSetting>& settings) {
  ReanalysisSettings result{saved.config, {}};
  Reanalysis& reanalysis = result.reanalysis;
  reanalysis.report = report;
  if (config_file) {
    reanalysis.ignored = apply_reanalysis_settings(result.config, config_file->text, config_file->path);
    reanalysis.settings.push_back(config_file->path);
  }
  for (const auto& setting : settings) {
    apply_reanalysis_setting(result.config, setting.key, setting.metric, setting.value, setting.option);
    if (std::find(reanalysis.settings.begin(), reanalysis.settings.end(), setting.option) ==
        reanalysis.settings.end()) {
      reanalysis.settings.push_back(setting.option);
    }
  }
  reanalysis.changes = settings_changes(saved.config, result.config);
  return result;
}

DuelOutcome reanalyze(const SavedReport& saved, const Config& config, const Reanalysis& reanalysis) {
  DuelOutcome outcome;
  outcome.metrics = config.metrics;
  outcome.suite = saved.suite;
  outcome.runs = saved.runs;
  outcome.failure = saved.failure.value_or("");
  outcome.elapsed_seconds = saved.elapsed_seconds;
  outcome.seed = saved.seed;
  outcome.programs = saved.programs;
  outcome.explanations = saved.explanations;  // what the profiles showed holds under any settings
  outcome.explain_seconds = saved.explain_seconds;
  if (reanalysis.changes.empty()) {
    // What the duel noted while it ran holds for the same settings; with others it would not.
    outcome.notes = saved.duel_notes;
  }
  // Identical programs were no change without a run, and stay so under any settings.
  outcome.analysis = saved.end == DuelEnd::identical ? analyze_identical(config)
                                                     : analyze(config, outcome.runs, Finality::final);
  outcome.end = reanalysis_end(saved.end, outcome.analysis.can_stop, outcome.analysis.stop);
  outcome.analysis.notes.insert(outcome.analysis.notes.begin(), reanalysis_note(reanalysis));
  return outcome;
}

RunSummary reanalysis_summary(const SavedReport& saved, const Config& config, const DuelOutcome& outcome,
                              Reanalysis reanalysis) {
  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  summary.started = util::now_iso8601();
  summary.environment = saved.environment;
  summary.pinning = saved.pinning;
  summary.exit_code = exit_code_for(outcome.end, outcome.analysis.verdict, config.on_inconclusive);
  summary.reanalysis = std::move(reanalysis);
  return summary;
}

}  // namespace perfduel
