#include "report/bisect_report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "bisect/probe_config.hpp"
#include "report/where_view.hpp"
#include "report_format/saved_report.hpp"
#include "util/columns.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

constexpr std::size_t k_subject_width = 40;

std::string percent(double fraction) {
  return util::format_percent(fraction);
}

// "5.00 %" for a cut or an α.
std::string magnitude(double fraction) {
  return util::format_percent(fraction).substr(1);
}

std::string subject_of(const BisectContext& context, std::size_t index) {
  return util::shorten(context.chain.at(index).subject, k_subject_width);
}

std::string id_of(const BisectContext& context, std::size_t index) {
  return short_id(context.chain.at(index).id);
}

// `7a8b9c0d1e "subject"`.
std::string label(const BisectContext& context, std::size_t index) {
  return fmt::format("{} \"{}\"", id_of(context, index), subject_of(context, index));
}

// The name a user knows an endpoint by: "v1.4 (1a2b3c4d5e)"; other commits by their id.
std::string name_of(const BisectContext& context, std::size_t index) {
  if (index == 0) {
    return fmt::format("{} ({})", context.good_ref, id_of(context, 0));
  }
  if (index + 1 == context.chain.size()) {
    return fmt::format("{} ({})", context.bad_ref, id_of(context, index));
  }
  return id_of(context, index);
}

std::string interval_of(const DuelReading& reading) {
  if (!reading.low || !reading.high) {
    return "-";
  }
  return fmt::format("[{}, {}]", percent(*reading.low), percent(*reading.high));
}

// "score +16.15 % [+16.15 %, +16.15 %]".
std::string change_of(const DuelReading& reading) {
  if (reading.metric.empty()) {
    return "no gated metric measured";
  }
  if (!reading.low || !reading.high) {
    return fmt::format("{} has no interval yet", reading.metric);
  }
  return fmt::format("{} {} {}", reading.metric, reading.change ? percent(*reading.change) : "n/a",
                     interval_of(reading));
}

const BuildRecord* build_of(const SearchState& state, std::size_t index) {
  for (const auto& build : state.builds) {
    if (build.index == index) {
      return &build;
    }
  }
  return nullptr;
}

double alpha_of(const BisectContext& context) {
  return 1.0 - context.duel_confidence;
}

// What the search claims about the commit it found, and the chance that the claim is wrong.
std::string claim_text(const BisectContext& context, const SearchState& state) {
  const int claims = state.claims();
  const double alpha = alpha_of(context);
  const double bound = std::min(1.0, claims * alpha);
  const std::size_t first = *state.first_bad;
  std::string text =
      fmt::format("claim: {} is the first commit where {}: {} is not, {} is. ", id_of(context, first),
                  context.cut, name_of(context, state.good), id_of(context, first));
  const bool points = std::all_of(state.duels.begin(), state.duels.end(), [](const DuelRecord& d) {
    const DuelReading& r = d.reading;
    return (r.reading != Reading::good && r.reading != Reading::bad) ||
           (r.low && r.high && *r.low == *r.high);
  });
  text += fmt::format(
      "Each of the {} duels that decided a step errs with probability at most {} (confidence {} = 1 − {} / "
      "{} "
      "planned duels), so the claim is wrong with probability at most {} × {} = {} (Bonferroni)",
      claims, magnitude(alpha), magnitude(context.duel_confidence),
      magnitude(1.0 - context.search_confidence), context.planned_duels, claims, magnitude(alpha),
      magnitude(bound));
  if (bound > 1.0 - context.search_confidence + 1e-12) {
    text += fmt::format(", more than the {} asked for: skipped commits took more duels than planned",
                        magnitude(1.0 - context.search_confidence));
  }
  if (points) {
    text += "; every deciding interval is a point (a deterministic metric), so no step rested on chance";
  }
  return text + ". It assumes, as git bisect does, that no commit after one past the cut is back below it.\n";
}

// That other regressions may follow the one found, with how much the range changes after it.
std::string others_text(const BisectContext& context, const SearchState& state) {
  const std::size_t first = *state.first_bad;
  if (first == state.last) {
    return fmt::format("others: the first bad commit is --bad itself, so none follows it in the range\n");
  }
  std::string text =
      fmt::format("others may exist: the search finds the first commit past the cut, not every one");
  const DuelReading& endpoints = state.duels.at(*state.endpoints).reading;
  const DuelReading& found = state.duels.at(*state.against_good).reading;
  if (endpoints.metric == found.metric && endpoints.change && found.change) {
    double after = (1.0 + *endpoints.change) / (1.0 + *found.change) - 1.0;
    if (std::abs(after) < 5e-5) {
      after = 0.0;  // not "-0.00 %"
    }
    text += fmt::format("; against {} the first bad commit is {}, {} is {}: about {} more comes after it",
                        name_of(context, 0), percent(*found.change), name_of(context, state.last),
                        percent(*endpoints.change), percent(after));
    const bool worse_again = endpoints.higher_is_better ? after < -endpoints.cut : after > endpoints.cut;
    if (worse_again) {
      text += ", past the cut again";
    }
  }
  return text + fmt::format(". To search after it: {} --good {} --bad {}\n", context.command,
                            id_of(context, first), context.bad_ref);
}

std::string skipped_text(const BisectContext& context, const SearchState& state) {
  if (state.skipped.empty()) {
    return "";
  }
  std::string text = fmt::format("skipped: {} (git bisect skip):\n",
                                 util::counted(static_cast<long long>(state.skipped.size()), "commit"));
  for (const auto& skip : state.skipped) {
    text += fmt::format("  {} (commit {} of {}): {}", label(context, skip.index), skip.index, state.last,
                        skip.reason);
    if (const BuildRecord* build = build_of(state, skip.index); build && !build->reading.ok) {
      text += fmt::format(" (log: {})", build->reading.log);
    }
    text += "\n";
  }
  return text;
}

std::string table_text(const BisectContext& context, const SearchState& state) {
  const std::vector<std::string> header{"#",      "duel",     "commit", "subject", "against",  "verdict",
                                        "change", "interval", "rounds", "build",   "duel time"};
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> built_shown;
  for (std::size_t i = 0; i < state.duels.size(); ++i) {
    const DuelRecord& duel = state.duels[i];
    std::string build = "-";
    if (std::find(built_shown.begin(), built_shown.end(), duel.candidate) == built_shown.end()) {
      built_shown.push_back(duel.candidate);
      if (const BuildRecord* record = build_of(state, duel.candidate)) {
        build = record->reading.cached ? "cached" : util::format_seconds(record->reading.seconds);
      }
    }
    std::string role = to_string(duel.role);
    if (duel.attempt > 0) {
      role += " (more rounds)";
    }
    const DuelReading& r = duel.reading;
    rows.push_back({std::to_string(i + 1), role, id_of(context, duel.candidate),
                    subject_of(context, duel.candidate), id_of(context, duel.baseline), to_string(r.reading),
                    r.change ? fmt::format("{} {}", r.metric, percent(*r.change)) : "-", interval_of(r),
                    std::to_string(r.rounds), build, util::format_seconds(r.seconds)});
  }
  for (const auto& skip : state.skipped) {
    const BuildRecord* record = build_of(state, skip.index);
    if (record != nullptr && !record->reading.ok) {
      rows.push_back({"-", "probe", id_of(context, skip.index), subject_of(context, skip.index), "-",
                      "does not build", "-", "-", "-", util::format_seconds(record->reading.seconds), "-"});
    }
  }
  // Words left-aligned; numbers (change, interval, rounds, times) right-aligned.
  return util::aligned_columns(header, rows, [](std::size_t c) { return c == 0 || c >= 6; });
}

// Where the confirming duel `reading` found the change (its report's where block, indented);
// empty without a report or an explanation in it.
std::string where_of(const DuelReading& reading) {
  if (reading.report.empty() || !std::filesystem::exists(reading.report)) {
    return {};
  }
  std::string text;
  for (const auto& line : util::split_lines(format_saved_where(load_report_lenient(reading.report)))) {
    text += "  " + line + "\n";
  }
  return text;
}

// The first bad commit found (confirmed or not), with its change against its parent and --good.
std::string first_bad_text(const BisectContext& context, const SearchState& state) {
  const std::size_t first = *state.first_bad;
  const DuelReading& parent = state.duels.at(*state.confirmation).reading;
  const DuelReading& good = state.duels.at(*state.against_good).reading;
  std::string text = fmt::format("first bad commit: {} (commit {} of {} after {})\n", label(context, first),
                                 first, state.last, context.good_ref);
  const std::string parent_name = state.good == 0 ? fmt::format("its parent {}", name_of(context, 0))
                                                  : "its parent " + id_of(context, state.good);
  if (state.outcome == Outcome::found) {
    text += fmt::format("  against {}: {}: confirmed, worse by more than the cut ({})\n", parent_name,
                        change_of(parent), magnitude(parent.cut));
    text += where_of(parent);
  } else if (parent.reading == Reading::good) {
    text += fmt::format(
        "  against {}: {}: NOT confirmed, not worse by more than the cut ({}): the change past the cut "
        "built up over several commits up to this one\n",
        parent_name, change_of(parent), magnitude(parent.cut));
  } else {
    text += fmt::format("  against {}: could not be confirmed ({}): {}\n", parent_name,
                        to_string(parent.reading), parent.reason);
  }
  if (state.good != 0) {
    text += fmt::format("  against {}: {}\n", name_of(context, 0), change_of(good));
  }
  return text;
}

std::string answer_text(const BisectContext& context, const SearchState& state) {
  switch (state.outcome) {
    case Outcome::found:
    case Outcome::not_confirmed:
      return first_bad_text(context, state);
    case Outcome::ambiguous: {
      std::string text = fmt::format(
          "no single first bad commit: the commits between {} (good) and {} (bad) were all skipped, so the "
          "first "
          "bad commit is one of:\n",
          name_of(context, state.good), name_of(context, state.bad));
      for (const std::size_t index : state.candidates) {
        text +=
            fmt::format("  {}{}\n", label(context, index), state.is_skipped(index) ? " (skipped)" : " (bad)");
      }
      return text;
    }
    case Outcome::no_difference: {
      const DuelReading& r = state.duels.at(*state.endpoints).reading;
      return fmt::format(
          "the endpoints do not differ: {} against {}: {}: not worse by more than the cut ({}); nothing to "
          "bisect, "
          "nothing else was built\n",
          name_of(context, state.last), name_of(context, 0), change_of(r), magnitude(r.cut));
    }
    case Outcome::undecided: {
      const DuelReading& r = state.duels.at(*state.endpoints).reading;
      return fmt::format(
          "undecided: the duel of {} against {} was inconclusive twice ({}); nothing else was built. Give "
          "the duels "
          "more time (--max-seconds), look for a larger change (--threshold), or quiet the machine (perfduel "
          "doctor)\n",
          name_of(context, state.last), name_of(context, 0), r.reason);
    }
    case Outcome::endpoint_failed:
      return fmt::format("cannot bisect: {}\n", state.failure);
    case Outcome::interrupted:
      return "interrupted: the worktrees and builds are kept; the same command resumes without building "
             "again\n";
    case Outcome::running:
      return "";
  }
  return "";
}

}  // namespace

std::string format_start(const BisectContext& context) {
  const std::size_t last = context.chain.size() - 1;
  return fmt::format(
      "perfduel: bisect{}: {} after {} up to {}; a commit is bad when {}\n"
      "perfduel: each duel at {} confidence ({} / {} planned duels) and at most {} ({} for a second "
      "attempt); "
      "builds and reports in {}\n",
      context.gate.empty() ? "" : " " + context.gate, util::counted(static_cast<long long>(last), "commit"),
      name_of(context, 0), name_of(context, last), context.cut, magnitude(context.duel_confidence),
      magnitude(1.0 - context.search_confidence), context.planned_duels,
      util::format_seconds(context.duel_seconds), util::format_seconds(context.duel_seconds * k_more_rounds),
      context.work_dir.string());
}

std::string format_building(const BisectContext& context, const SearchState& state, std::size_t index) {
  if (index == 0) {
    return fmt::format("perfduel: building the endpoints {} and {}\n", name_of(context, 0),
                       name_of(context, state.last));
  }
  if (index == state.last) {
    return "";
  }
  const Estimate estimate = state.estimate();
  const std::size_t step = state.duels.size() + 1;
  return fmt::format("perfduel: [{}/~{}] probe {} (commit {} of {}): {} left, about {}{} to go\n", step,
                     step - 1 + estimate.duels_left, label(context, index), index, state.last,
                     util::counted(static_cast<long long>(estimate.candidates), "candidate"),
                     util::counted(static_cast<long long>(estimate.duels_left), "duel"),
                     estimate.seconds_left ? " and " + util::format_seconds(*estimate.seconds_left) : "");
}

std::string format_built(const BisectContext& context, const SearchState& state) {
  const BuildRecord& build = state.builds.back();
  const std::string what = id_of(context, build.index);
  if (build.reading.interrupted) {
    return fmt::format("perfduel:   building {} interrupted\n", what);
  }
  if (!build.reading.ok) {
    return fmt::format(
        "perfduel:   {} does not build: {} (log: {}){}\n", what, build.reading.reason, build.reading.log,
        build.index == 0 || build.index == state.last ? "" : "; skipped, a neighbour is tried");
  }
  return build.reading.cached
             ? fmt::format("perfduel:   {} built before, not rebuilt\n", what)
             : fmt::format("perfduel:   built {} in {}\n", what, util::format_seconds(build.reading.seconds));
}

std::string format_dueling(const BisectContext& context, const SearchState& state, const DuelRecord& duel) {
  const std::size_t step = state.duels.size() + 1;
  if (duel.attempt > 0) {
    return fmt::format("perfduel:   inconclusive; once more with more rounds\n");
  }
  switch (duel.role) {
    case Role::endpoints:
      return fmt::format("perfduel: [{}] endpoints: {} against {}\n", step, name_of(context, duel.candidate),
                         name_of(context, duel.baseline));
    case Role::confirmation:
      return fmt::format("perfduel: [{}] confirmation: {} against its parent {}\n", step,
                         label(context, duel.candidate), id_of(context, duel.baseline));
    case Role::probe:
      return "";
  }
  return "";
}

std::string format_dueled(const BisectContext& /*context*/, const SearchState& state) {
  const DuelReading& r = state.duels.back().reading;
  if (r.reading == Reading::interrupted) {
    return "perfduel:   duel interrupted\n";
  }
  if (r.reading == Reading::failed) {
    return fmt::format("perfduel:   the benchmark failed: {}\n", r.reason);
  }
  return fmt::format("perfduel:   {}: {} after {} in {}\n", to_string(r.reading), change_of(r),
                     util::counted(r.rounds, "round"), util::format_seconds(r.seconds));
}

std::string format_result(const BisectContext& context, const SearchState& state, double elapsed_seconds) {
  std::string text = answer_text(context, state);
  if (!state.duels.empty()) {
    text += "\n" + table_text(context, state) + "\n";
  }
  text += skipped_text(context, state);
  if (state.outcome == Outcome::found || state.outcome == Outcome::not_confirmed) {
    text += claim_text(context, state);
    text += others_text(context, state);
  }
  int cached = 0;
  for (const auto& build : state.builds) {
    cached += build.reading.cached ? 1 : 0;
  }
  const int inconclusive = static_cast<int>(state.duels.size()) - state.claims();
  text += fmt::format("{} ({} deciding, {} not), {} ({} built before), {} in all\n",
                      util::counted(static_cast<long long>(state.duels.size()), "duel"), state.claims(),
                      inconclusive, util::counted(static_cast<long long>(state.builds.size()), "build"),
                      cached, util::format_seconds(elapsed_seconds));
  return text;
}

}  // namespace perfduel::bisect
