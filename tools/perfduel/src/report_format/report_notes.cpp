#include "report_format/report_notes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "duel/programs.hpp"
#include "duel/projection.hpp"
#include "duel/verdict.hpp"
#include "run/benchmark_names.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// What the budget reached and what settling would take, for a duel that ended undecided: per
// undecided gated metric (details) "the width it reached after n rounds; its threshold needs ~N
// rounds ≈ time", and one key line over all of them, at the rate of the rounds so far.
std::vector<Note> projection_notes(const Config& config, const DuelOutcome& outcome) {
  const auto& analysis = outcome.analysis;
  const int rounds = analysis.measured_rounds - analysis.dropped_rounds;
  if (rounds <= 0 || analysis.verdict != Verdict::inconclusive || outcome.elapsed_seconds <= 0) {
    return {};
  }
  const double seconds_per_round = outcome.elapsed_seconds / analysis.measured_rounds;
  const double budget = budget_rounds(config, seconds_per_round);
  std::vector<Note> notes;
  std::string only;  // the name, when one metric is undecided
  double fewest = std::numeric_limits<double>::infinity();
  double most = 0;
  double narrowest = std::numeric_limits<double>::infinity();
  double widest = 0;
  for (const auto& result : analysis.metrics) {
    // Before its minimum rounds a metric's interval says little about the rate (three rounds put
    // it at thousands of percent): no projection then.
    if (result.spec.gating != Gating::gated || result.settled_by != SettledBy::none ||
        std::isnan(result.projected_rounds) || !std::isfinite(result.stopping_width) ||
        !result.enough_rounds) {
      continue;
    }
    // What its threshold needs by the width rule (the futility check also counts on the
    // sequence, as if the change were as large as it looks now: a smaller, hopeful figure).
    const double needed = std::ceil(
        rounds_for_width(static_cast<std::size_t>(rounds), result.stopping_width, result.spec.threshold));
    fewest = std::min(fewest, needed);
    most = std::max(most, needed);
    narrowest = std::min(narrowest, result.stopping_width);
    widest = std::max(widest, result.stopping_width);
    only = result.spec.name;
    notes.push_back(
        {NoteWeight::detail,
         fmt::format("{}: interval {} wide after {} rounds (a threshold that wide would settle it "
                     "now); its threshold {} needs ~{:.0f} rounds ≈ {} at the rate so far",
                     result.spec.name, util::format_percent(result.stopping_width).substr(1), rounds,
                     util::format_percent(result.spec.threshold).substr(1), needed,
                     util::format_seconds(needed * seconds_per_round))});
  }
  if (notes.empty()) {
    return {};
  }
  const auto range = [](const std::string& low, const std::string& high) {
    return low == high ? low : low + "–" + high;
  };
  const bool one = notes.size() == 1;
  notes.push_back(
      {NoteWeight::key,
       fmt::format(
           "to settle, {} ~{} rounds (≈ {}) at the rate so far, the budget about {:.0f}; {} of {} would "
           "settle {} now",
           one ? only + " needs" : "the undecided metrics need",
           range(fmt::format("{:.0f}", fewest), fmt::format("{:.0f}", most)),
           range(util::format_seconds(fewest * seconds_per_round),
                 util::format_seconds(most * seconds_per_round)),
           budget, one ? "a threshold" : "thresholds",
           range(util::format_percent(narrowest).substr(1), util::format_percent(widest).substr(1)),
           one ? "it" : "them")});
  return notes;
}

// The benchmarks a pattern found on one side only, or could not measure or count.
void suite_notes(const SuiteChanges& suite, std::vector<Note>& lines) {
  for (const auto& [names, what] : {std::pair{&suite.added, "new benchmark, only in the candidate"},
                                    std::pair{&suite.removed, "removed benchmark, only in the baseline"}}) {
    for (const auto& name : *names) {
      lines.push_back({NoteWeight::key, fmt::format("{}: {} (not compared)", name, what)});
    }
  }
  for (const auto& name : suite.unmeasurable) {
    lines.push_back(
        {NoteWeight::key, fmt::format("{}: measures nothing (below 0.01 ns per iteration on both sides: "
                                      "its work was optimized away?): reported, not gated",
                                      name)});
  }
  for (const auto& [name, why] : suite.uncountable) {
    lines.push_back({NoteWeight::key, fmt::format("{}: {}: reported, not gated", name, why)});
  }
}

// What the machine did to the runs: a peak memory below the driver's own, where the runs were
// pinned, benchmarks with more threads than CPUs, a loaded machine.
void machine_notes(const RunSummary& summary, std::vector<Note>& lines) {
  const auto& metrics = summary.outcome->analysis.metrics;
  for (const auto& result : metrics) {
    if (at_driver_floor(result, summary.environment)) {
      // What the number would mean, so it is a key note, and the metric has no row.
      lines.push_back(
          {NoteWeight::key,
           fmt::format("{}: the programs' peak memory is below what perfduel itself uses ({}, "
                       "which Linux reports as the least max RSS of any child it starts), so it "
                       "cannot be measured this way (/usr/bin/time -v shows the programs' own)",
                       result.spec.name, util::format_bytes(summary.environment.driver_peak_rss_bytes))});
    }
  }
  if (!summary.pinning.reason.empty()) {
    // Unpinned runs are a warning about the machine; where they were pinned is a detail.
    lines.push_back(summary.pinning.cpus.empty()
                        ? Note{NoteWeight::key, fmt::format("runs {}", summary.pinning.reason)}
                        : Note{NoteWeight::detail, fmt::format("runs pinned to {}", summary.pinning.reason)});
  }
  // A benchmark running more threads than the runs had CPUs times its threads waiting for one.
  const std::size_t pinned = summary.pinning.cpus.size();
  std::vector<std::string> starved;
  for (const auto& result : metrics) {
    const int threads =
        result.spec.source == MetricSource::google_benchmark ? benchmark_threads(result.spec.benchmark) : 1;
    if (pinned > 0 && static_cast<std::size_t>(threads) > pinned) {
      starved.push_back(result.spec.name);
    }
  }
  if (!starved.empty()) {
    lines.push_back(
        {NoteWeight::key, fmt::format("{} {} more threads than the {} pinned: {} times include waiting for a "
                                      "CPU; give the gate more CPUs (cpus: a list, or CPUS in add_perf_gate)",
                                      util::first_names(starved), starved.size() == 1 ? "runs" : "run",
                                      util::counted(static_cast<long long>(pinned), "CPU"),
                                      starved.size() == 1 ? "its" : "their")});
  }
  const auto& load = summary.environment.load;
  if (!load.empty() && load[0] > 0.5 * summary.environment.cpu_count) {
    lines.push_back({NoteWeight::key, fmt::format("machine load {:.2f} on {} CPUs: expect wide intervals",
                                                  load[0], summary.environment.cpu_count)});
  }
}

std::string setting_text(const MetricResult& result) {
  if (result.spec.gating != Gating::gated) {
    // A report-only metric has no threshold to meet; its band says what counts as a change.
    return fmt::format("report-only, {:.4g} % interval, changes within ±{} count as no change",
                       100 * result.confidence, util::format_percent(result.spec.tolerance).substr(1));
  }
  return fmt::format(
      "{:.4g} % interval{}, threshold {} wide{}", 100 * result.confidence,
      result.equivalence ? " inside the band (no change needs no correction for the other metrics)" : "",
      util::format_percent(result.spec.threshold).substr(1),
      result.spec.tolerance > 0
          ? fmt::format(", tolerance ±{}", util::format_percent(result.spec.tolerance).substr(1))
          : "");
}

}  // namespace

std::vector<std::string> settings_notes(const Analysis& analysis) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // setting, names
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating != Gating::gated && (result.spec.tolerance <= 0 || !result.has_ratio)) {
      continue;
    }
    const auto text = setting_text(result);
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == text; });
    if (group == groups.end()) {
      groups.push_back({text, {}});
      group = std::prev(groups.end());
    }
    group->second.push_back(result.spec.name);
  }
  std::vector<std::string> notes;
  notes.reserve(groups.size());
  for (const auto& [text, names] : groups) {
    notes.push_back(fmt::format("{}: {}", util::first_names(names), text));
  }
  return notes;
}

std::optional<Note> programs_note(const ProgramComparison& programs) {
  if (programs.result == ProgramsCompared::different) {
    if (!programs.baseline || !programs.candidate) {  // a report that does not have them
      return Note{NoteWeight::detail, fmt::format("programs measured: {}", programs.reason)};
    }
    return Note{NoteWeight::detail, fmt::format("programs measured: {} (fingerprints {} and {})",
                                                programs.reason, programs.baseline->sha256.substr(0, 12),
                                                programs.candidate->sha256.substr(0, 12))};
  }
  if (programs.result == ProgramsCompared::not_fingerprinted && !programs.reason.empty()) {
    return Note{NoteWeight::detail, fmt::format("programs measured, not fingerprinted: {}", programs.reason)};
  }
  return std::nullopt;
}

bool at_driver_floor(const MetricResult& result, const Environment& environment) {
  const double floor = environment.driver_peak_rss_bytes;
  const double lower = std::min(result.baseline_median, result.candidate_median);
  return result.spec.source == MetricSource::max_rss && floor > 0 && lower > 0 && lower <= 1.02 * floor;
}

std::vector<Note> duel_report_notes(const RunSummary& summary) {
  const auto& outcome = *summary.outcome;
  std::vector<Note> lines = outcome.analysis.notes;
  lines.insert(lines.end(), outcome.notes.begin(), outcome.notes.end());
  if (outcome.end == DuelEnd::identical) {
    return lines;  // no run, so none of the notes about runs
  }
  suite_notes(outcome.suite, lines);
  if (auto note = programs_note(outcome.programs)) {
    lines.push_back(std::move(*note));
  }
  for (auto& line : settings_notes(outcome.analysis)) {
    lines.push_back({NoteWeight::detail, std::move(line)});
  }
  for (auto& note : projection_notes(*summary.config, outcome)) {
    lines.push_back(std::move(note));
  }
  for (const auto& result : outcome.analysis.metrics) {
    if (result.spec.gating != Gating::gated && !result.estimate.note.empty()) {
      lines.push_back({NoteWeight::detail, fmt::format("{}: {}", result.spec.name, result.estimate.note)});
    }
  }
  const auto profiled = std::count_if(outcome.explanations.begin(), outcome.explanations.end(),
                                      [](const Explanation& e) { return e.basis == ProfileBasis::profiled; });
  if (profiled > 0) {
    lines.push_back({NoteWeight::detail,
                     fmt::format("explain: {} profiled by one counted run of each side (valgrind, cache "
                                 "simulation) in {:.1f} s after the duel",
                                 util::counted(profiled, "timed metric"), outcome.explain_seconds)});
  }
  machine_notes(summary, lines);
  return lines;
}

}  // namespace perfduel
