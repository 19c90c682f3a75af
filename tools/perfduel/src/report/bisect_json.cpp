#include "report/bisect_json.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bisect/commit_chain.hpp"

namespace perfduel::bisect {

namespace {

nlohmann::ordered_json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json commit_json(const BisectContext& context, std::size_t index) {
  return {
      {"index", index}, {"commit", context.chain.at(index).id}, {"subject", context.chain.at(index).subject}};
}

// Each commit's state: good, bad, skipped or untested, from the duels against --good.
std::vector<std::string> commit_states(const SearchState& state, std::size_t count) {
  std::vector<std::string> states(count, "untested");
  states.front() = "good";
  for (const auto& duel : state.duels) {
    if (duel.baseline == 0 &&
        (duel.reading.reading == Reading::good || duel.reading.reading == Reading::bad)) {
      states.at(duel.candidate) = to_string(duel.reading.reading);
    }
  }
  for (const auto& skip : state.skipped) {
    states.at(skip.index) = "skipped";
  }
  return states;
}

// Every duel of the search, in the order they ran, numbered from 1.
nlohmann::ordered_json duels_json(const BisectContext& context, const SearchState& state) {
  auto duels = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < state.duels.size(); ++i) {
    const DuelRecord& duel = state.duels[i];
    const DuelReading& r = duel.reading;
    nlohmann::ordered_json item;
    item["step"] = i + 1;
    item["role"] = to_string(duel.role);
    item["attempt"] = duel.attempt;
    item["candidate"] = context.chain.at(duel.candidate).id;
    item["baseline"] = context.chain.at(duel.baseline).id;
    item["verdict"] = to_string(r.reading);
    item["metric"] = r.metric;
    item["change"] = optional_number(r.change);
    item["ci"] =
        r.low && r.high ? nlohmann::ordered_json::array({*r.low, *r.high}) : nlohmann::ordered_json(nullptr);
    item["cut"] = r.cut;
    item["rounds"] = r.rounds;
    item["seconds"] = r.seconds;
    item["end"] = r.end;
    item["reason"] = r.reason;
    item["report"] = r.report;
    duels.push_back(item);
  }
  return duels;
}

// The first bad commit, whether it was confirmed and the duels that show it; null without one.
nlohmann::ordered_json first_bad_json(const BisectContext& context, const SearchState& state) {
  if (!state.first_bad) {
    return nullptr;
  }
  auto first = commit_json(context, *state.first_bad);
  first["confirmed"] = state.outcome == Outcome::found;
  first["against_parent_duel"] =
      state.confirmation ? nlohmann::ordered_json(*state.confirmation + 1) : nullptr;
  first["against_good_duel"] = state.against_good ? nlohmann::ordered_json(*state.against_good + 1) : nullptr;
  return first;
}

nlohmann::ordered_json candidates_json(const BisectContext& context, const SearchState& state) {
  auto candidates = nlohmann::ordered_json::array();
  for (const std::size_t index : state.candidates) {
    candidates.push_back(commit_json(context, index));
  }
  return candidates;
}

nlohmann::ordered_json skipped_json(const BisectContext& context, const SearchState& state) {
  auto skipped = nlohmann::ordered_json::array();
  for (const auto& skip : state.skipped) {
    auto item = commit_json(context, skip.index);
    item["reason"] = skip.reason;
    skipped.push_back(item);
  }
  return skipped;
}

nlohmann::ordered_json builds_json(const BisectContext& context, const SearchState& state) {
  auto builds = nlohmann::ordered_json::array();
  for (const auto& build : state.builds) {
    auto item = commit_json(context, build.index);
    item["ok"] = build.reading.ok;
    item["cached"] = build.reading.cached;
    item["seconds"] = build.reading.seconds;
    item["reason"] = build.reading.reason;
    item["log"] = build.reading.log;
    builds.push_back(item);
  }
  return builds;
}

// Every commit of the range with its state (commit_states).
nlohmann::ordered_json commits_json(const BisectContext& context, const SearchState& state) {
  auto commits = nlohmann::ordered_json::array();
  const auto states = commit_states(state, context.chain.size());
  for (std::size_t i = 0; i < context.chain.size(); ++i) {
    auto item = commit_json(context, i);
    item["state"] = states[i];
    commits.push_back(item);
  }
  return commits;
}

}  // namespace

nlohmann::ordered_json bisect_to_json(const BisectContext& context, const SearchState& state,
                                      double elapsed_seconds) {
  nlohmann::ordered_json json;
  json["perfduel_version"] = PERFDUEL_VERSION;
  json["outcome"] = to_string(state.outcome);
  json["exit_code"] = bisect_exit_code(state.outcome);
  json["started"] = context.started;
  json["elapsed_seconds"] = elapsed_seconds;
  json["gate"] =
      context.gate.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(context.gate);
  json["good"] = commit_json(context, 0);
  json["good"]["ref"] = context.good_ref;
  json["bad"] = commit_json(context, state.last);
  json["bad"]["ref"] = context.bad_ref;
  json["cut"] = context.cut;
  json["confidence"] = context.search_confidence;
  json["duel_confidence"] = context.duel_confidence;
  json["planned_duels"] = context.planned_duels;
  json["deciding_duels"] = state.claims();
  // Each deciding duel errs with at most its α, 1 - duel_confidence.
  json["error_bound"] = std::min(1.0, state.claims() * (1.0 - context.duel_confidence));
  json["work_dir"] = context.work_dir.string();
  json["first_bad"] = first_bad_json(context, state);
  json["candidates"] = candidates_json(context, state);
  json["skipped"] = skipped_json(context, state);
  json["builds"] = builds_json(context, state);
  json["duels"] = duels_json(context, state);
  json["commits"] = commits_json(context, state);
  return json;
}

}  // namespace perfduel::bisect
