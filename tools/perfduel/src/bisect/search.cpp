#include "bisect/search.hpp"

#include <algorithm>
#include <cmath>

#include "exit_codes.hpp"

namespace perfduel::bisect {

namespace {

// Steps are judged at most this often: the configured budget, then once more with more rounds
// (the Oracle decides how many) before the commit is skipped.
constexpr int k_attempts = 2;

bool decided(Reading reading) {
  return reading == Reading::good || reading == Reading::bad;
}

// The number of probes that halve `candidates` down to one: ceil(log2(candidates)).
std::size_t halvings(std::size_t candidates) {
  std::size_t probes = 0;
  while ((std::size_t{1} << probes) < candidates) {
    ++probes;
  }
  return probes;
}

class Walk {
 public:
  Walk(std::size_t last, Oracle& oracle, SearchListener& listener) : m_oracle(oracle), m_listener(listener) {
    m_state.last = last;
    m_state.bad = last;
  }

  SearchState run() {
    if (!build_endpoint(0) || !build_endpoint(m_state.last) || !duel_endpoints()) {
      return m_state;
    }
    while (const auto probe = next_probe(m_state.good, m_state.bad, m_state.skipped)) {
      if (!judge(*probe)) {
        return m_state;
      }
    }
    if (m_state.bad - m_state.good > 1) {
      // Every commit between the bounds was skipped: the first bad one is among them or is
      // the bad bound, as git bisect says of "only 'skip'ped commits left".
      for (std::size_t i = m_state.good + 1; i <= m_state.bad; ++i) {
        m_state.candidates.push_back(i);
      }
      m_state.outcome = Outcome::ambiguous;
      return m_state;
    }
    m_state.first_bad = m_state.bad;
    confirm();
    return m_state;
  }

 private:
  // Builds an endpoint; false (outcome set) when it cannot be built.
  bool build_endpoint(std::size_t index) {
    const BuildReading& reading = build(index);
    if (reading.interrupted) {
      m_state.outcome = Outcome::interrupted;
      return false;
    }
    if (!reading.ok) {
      m_state.outcome = Outcome::endpoint_failed;
      m_state.failure = reading.reason;
      return false;
    }
    return true;
  }

  bool duel_endpoints() {
    const std::size_t at = duel(0, m_state.last, Role::endpoints);
    m_state.endpoints = at;
    const DuelReading& reading = m_state.duels[at].reading;
    switch (reading.reading) {
      case Reading::bad:
        return true;
      case Reading::good:
        m_state.outcome = Outcome::no_difference;
        return false;
      case Reading::unresolved:
        m_state.outcome = Outcome::undecided;
        return false;
      case Reading::failed:
        m_state.outcome = Outcome::endpoint_failed;
        m_state.failure = reading.reason;
        return false;
      case Reading::interrupted:
        m_state.outcome = Outcome::interrupted;
        return false;
    }
    return false;
  }

  // Builds and duels commit `index` against --good and moves a bound, or skips it; false
  // when the search must stop (interrupted).
  bool judge(std::size_t index) {
    const BuildReading& built = build(index);
    if (built.interrupted) {
      m_state.outcome = Outcome::interrupted;
      return false;
    }
    if (!built.ok) {
      m_state.skipped.push_back({index, "does not build: " + built.reason});
      return true;
    }
    const std::size_t at = duel(0, index, Role::probe);
    const DuelReading& reading = m_state.duels[at].reading;
    switch (reading.reading) {
      case Reading::bad:
        m_state.bad = index;
        m_state.against_good = at;
        break;
      case Reading::good:
        m_state.good = index;
        break;
      case Reading::unresolved:
        m_state.skipped.push_back({index, "inconclusive: " + reading.reason});
        break;
      case Reading::failed:
        m_state.skipped.push_back({index, "the benchmark fails: " + reading.reason});
        break;
      case Reading::interrupted:
        m_state.outcome = Outcome::interrupted;
        return false;
    }
    return true;
  }

  // The first bad commit against its parent, the good bound. When that is --good, the duel
  // that found it was this very duel and is not repeated.
  void confirm() {
    if (m_state.good == 0) {
      const std::size_t at = m_state.against_good.value_or(*m_state.endpoints);
      m_state.against_good = at;
      m_state.confirmation = at;
      m_state.outcome = Outcome::found;
      return;
    }
    if (!m_state.against_good) {
      m_state.against_good = m_state.endpoints;  // the first bad commit is --bad itself
    }
    const std::size_t at = duel(m_state.good, *m_state.first_bad, Role::confirmation);
    m_state.confirmation = at;
    const Reading reading = m_state.duels[at].reading.reading;
    m_state.outcome = reading == Reading::bad           ? Outcome::found
                      : reading == Reading::interrupted ? Outcome::interrupted
                                                        : Outcome::not_confirmed;
  }

  const BuildReading& build(std::size_t index) {
    m_listener.building(m_state, index);
    m_state.builds.push_back({index, m_oracle.build(index)});
    m_listener.built(m_state);
    return m_state.builds.back().reading;
  }

  // Duels with a second attempt for an inconclusive first one; the index of the last attempt.
  std::size_t duel(std::size_t baseline, std::size_t candidate, Role role) {
    for (int attempt = 0;; ++attempt) {
      DuelRecord record{baseline, candidate, role, attempt, {}};
      m_listener.dueling(m_state, record);
      record.reading = m_oracle.duel(baseline, candidate, attempt, role);
      m_state.duels.push_back(std::move(record));
      m_listener.dueled(m_state);
      if (m_state.duels.back().reading.reading != Reading::unresolved || attempt + 1 >= k_attempts) {
        return m_state.duels.size() - 1;
      }
    }
  }

  Oracle& m_oracle;
  SearchListener& m_listener;
  SearchState m_state;
};

}  // namespace

std::string to_string(Reading reading) {
  return std::string(util::name_of(k_reading_names, reading));
}

std::string to_string(Role role) {
  return std::string(util::name_of(k_role_names, role));
}

std::string to_string(Outcome outcome) {
  return std::string(util::name_of(k_outcome_names, outcome));
}

int SearchState::claims() const {
  return static_cast<int>(std::count_if(duels.begin(), duels.end(),
                                        [](const DuelRecord& d) { return decided(d.reading.reading); }));
}

bool SearchState::is_skipped(std::size_t index) const {
  return std::any_of(skipped.begin(), skipped.end(), [&](const Skip& s) { return s.index == index; });
}

Estimate SearchState::estimate() const {
  Estimate estimate;
  for (std::size_t i = good + 1; i <= bad; ++i) {
    estimate.candidates += is_skipped(i) ? 0 : 1;
  }
  const bool endpoints_done = endpoints.has_value();
  const std::size_t probes = halvings(estimate.candidates);
  // The confirmation is a duel of its own unless the first bad commit's parent is --good.
  const std::size_t confirming = estimate.candidates > 1 || good > 0 ? 1 : 0;
  estimate.duels_left = (endpoints_done ? 0 : 1) + probes + confirming;

  double build_seconds = 0;
  int fresh_builds = 0;
  for (const auto& b : builds) {
    if (b.reading.ok && !b.reading.cached) {
      build_seconds += b.reading.seconds;
      ++fresh_builds;
    }
  }
  double duel_seconds = 0;
  for (const auto& d : duels) {
    duel_seconds += d.reading.seconds;
  }
  if (!duels.empty()) {
    const double per_build = fresh_builds > 0 ? build_seconds / fresh_builds : 0.0;
    const double per_duel = duel_seconds / static_cast<double>(duels.size());
    estimate.seconds_left =
        static_cast<double>(probes) * (per_build + per_duel) + static_cast<double>(confirming) * per_duel;
  }
  return estimate;
}

int planned_duels(std::size_t last) {
  return static_cast<int>(1 + halvings(last) + 1 + 2);
}

std::optional<std::size_t> next_probe(std::size_t good, std::size_t bad, const std::vector<Skip>& skipped) {
  std::optional<std::size_t> best;
  double best_distance = 0;
  const double middle = (static_cast<double>(good) + static_cast<double>(bad)) / 2.0;
  for (std::size_t i = good + 1; i < bad; ++i) {
    if (std::any_of(skipped.begin(), skipped.end(), [&](const Skip& s) { return s.index == i; })) {
      continue;
    }
    const double distance = std::abs(static_cast<double>(i) - middle);
    if (!best || distance < best_distance) {  // ascending order: a tie keeps the lower
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

SearchState run_search(std::size_t last, Oracle& oracle, SearchListener& listener) {
  return Walk(last, oracle, listener).run();
}

int bisect_exit_code(Outcome outcome) {
  switch (outcome) {
    case Outcome::found:
      return to_int(ExitCode::pass);
    case Outcome::no_difference:
      return 1;
    case Outcome::endpoint_failed:
      return to_int(ExitCode::benchmark_failed);
    case Outcome::interrupted:
      return to_int(ExitCode::interrupted);
    case Outcome::not_confirmed:
    case Outcome::ambiguous:
    case Outcome::undecided:
    case Outcome::running:
      return to_int(ExitCode::inconclusive);
  }
  return to_int(ExitCode::inconclusive);
}

}  // namespace perfduel::bisect
