#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/sign_sequence.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel::stats;

namespace {

// The mixture's wealth after `t` rounds all beyond the edge: the average over j = 1 … 7 of
// (2 − 2^−j)^t, computed here independently of the implementation.
double all_beyond_wealth(int t) {
  double sum = 0;
  for (int j = 1; j <= 7; ++j) {
    sum += std::pow(2.0 - std::pow(2.0, -j), t);
  }
  return sum / 7.0;
}

// A nasty machine for the randomization argument: per round, the first and the second slot get
// noise with drift (a slow sine), AR(1) machine state, a systematic penalty on the second slot
// (+3 %) and heavy-tailed spikes (5 % of runs × 1 + Pareto). The candidate is the baseline
// shifted by `delta` in log-time; the order of each round is a fresh fair coin unless
// `candidate_second` fixes it. Returns the paired log-ratios ln(candidate / baseline).
std::vector<double> nasty_duel(std::mt19937_64& rng, int rounds, double delta, bool candidate_second) {
  const auto state = perfduel::test::ar1(rng, static_cast<std::size_t>(2 * rounds), 0.7, 0.05);
  std::normal_distribution<double> own(0.0, 0.02);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::bernoulli_distribution coin(0.5);
  const auto log_run = [&](int slot_index, bool second) {
    double x = 0.1 * std::sin(static_cast<double>(slot_index) / 40.0) +
               state[static_cast<std::size_t>(slot_index)] + own(rng) + (second ? 0.03 : 0.0);
    if (unit(rng) < 0.05) {
      x += std::log1p(0.2 * std::pow(1.0 - unit(rng), -1.0 / 1.5));  // Pareto(0.2, 1.5) spike
    }
    return x;
  };
  std::vector<double> d;
  for (int r = 0; r < rounds; ++r) {
    const double first = log_run(2 * r, false);
    const double second = log_run(2 * r + 1, true);
    const bool candidate_first = candidate_second ? false : coin(rng);
    d.push_back(candidate_first ? first + delta - second : second + delta - first);
  }
  return d;
}

}  // namespace

TEST_CASE("sign sequence: the wealth of rounds all beyond the edge, against the closed form", "[stats]") {
  // (1/7)·Σ (2 − 2^−j)^t: 325.6 after 9 rounds, 630.8 after 10, so at α = 1/400 it rejects at 10.
  CHECK(all_beyond_wealth(9) == Approx(325.6108).epsilon(1e-6));
  CHECK(all_beyond_wealth(10) == Approx(630.8277).epsilon(1e-6));
  const std::vector<double> nine(9, 0.3);
  const auto not_yet = sign_sequence(nine, 0.01, 1.0 / 400);
  CHECK_FALSE(not_yet.rejected);
  CHECK(std::exp(not_yet.log_wealth) == Approx(all_beyond_wealth(9)).epsilon(1e-9));
  const std::vector<double> ten(10, 0.3);
  const auto now = sign_sequence(ten, 0.01, 1.0 / 400);
  CHECK(now.rejected);
  CHECK(now.rejected_at == 10);
  CHECK(now.beyond == 10);
  CHECK(now.within == 0);
  CHECK(std::exp(now.log_wealth) == Approx(all_beyond_wealth(10)).epsilon(1e-9));
  // Three gated metrics (α/3) need one round more, thirteen four more.
  CHECK(sign_sequence(std::vector<double>(11, 0.3), 0.01, 1.0 / 1200).rejected_at == 11);
  CHECK_FALSE(sign_sequence(std::vector<double>(12, 0.3), 0.01, 1.0 / 5200).rejected);
  CHECK(sign_sequence(std::vector<double>(14, 0.3), 0.01, 1.0 / 5200).rejected_at == 14);
}

TEST_CASE("sign sequence: a round short of the edge, a tie, and the peak", "[stats]") {
  // One round within: each bet loses 1 − λ_j of its stake; the mixture keeps (1/7)·Σ 2^−j·….
  const std::vector<double> mixed{0.3, -0.2};
  const auto step = sign_sequence(mixed, 0.0, 0.05);
  double expected = 0;
  for (int j = 1; j <= 7; ++j) {
    const double lambda = 1.0 - std::pow(2.0, -j);
    expected += (1 + lambda) * (1 - lambda) / 7.0;
  }
  CHECK(std::exp(step.log_wealth) == Approx(expected).epsilon(1e-12));
  CHECK(std::exp(step.log_peak) == Approx(all_beyond_wealth(1)).epsilon(1e-12));
  CHECK(step.beyond == 1);
  CHECK(step.within == 1);
  // A value on the edge bets nothing and changes no wealth.
  const std::vector<double> tie{0.0, 0.0, 0.0};
  const auto flat = sign_sequence(tie, 0.0, 0.05);
  CHECK(flat.rounds == 3);
  CHECK(flat.beyond + flat.within == 0);
  CHECK(flat.log_wealth == 0.0);
  CHECK_FALSE(flat.rejected);
  // Once rejected, it stays rejected: the rejection round is kept when later rounds lose.
  std::vector<double> late(10, 0.3);
  late.insert(late.end(), 5, -0.3);
  const auto kept = sign_sequence(late, 0.01, 1.0 / 400);
  CHECK(kept.rejected);
  CHECK(kept.rejected_at == 10);
  CHECK(kept.log_wealth < kept.log_peak);
}

TEST_CASE("sign sequence: looked at every round, a change at the edge is rejected in at most α of duels",
          "[stats]") {
  // 4000 seeded duels of 400 rounds on the nasty machine (drift, AR(1) state, a 3 % penalty on
  // the second slot, Pareto spikes), the true change exactly at the edge (+1 %), the worst case
  // of the null. Ville's inequality bounds the rate at which the wealth ever reaches 1/α by α;
  // the randomized order makes each round's sign a fair coin whatever the machine does.
  std::mt19937_64 rng(2024);
  constexpr int k_duels = 4000;
  const double edge = std::log1p(0.01);
  int random_order_rejections = 0;
  int fixed_order_rejections = 0;
  for (int i = 0; i < k_duels; ++i) {
    random_order_rejections += sign_sequence(nasty_duel(rng, 400, edge, false), edge, 0.05).rejected ? 1 : 0;
    if (i < 200) {
      fixed_order_rejections += sign_sequence(nasty_duel(rng, 400, edge, true), edge, 0.05).rejected ? 1 : 0;
    }
  }
  const double rate = static_cast<double>(random_order_rejections) / k_duels;
  INFO("rejection rate " << rate);
  // ≤ α plus three binomial standard errors (0.0103); a test that leaned on the noise being
  // normal or independent would exceed it on this machine.
  CHECK(rate <= 0.05 + 3 * std::sqrt(0.05 * 0.95 / k_duels));
  // With the candidate always second, the second slot's 3 % penalty looks like a regression:
  // why the driver uses the sign sequence only with a random order.
  CHECK(fixed_order_rejections > 150);
}

TEST_CASE(
    "sign sequence: a clear regression of a noisy slow benchmark is rejected in 10 rounds, most of the time",
    "[stats]") {
  // +30 % on the nasty machine, edge +1 %, α = 0.0025 (hybrid stopping's share for one gated
  // metric at 95 %). Every seeded duel rejects; 747 of 1000 at the floor of 10 rounds. The rest
  // lost a round to a baseline run spiking by more than the change (about 3 % of rounds here),
  // and each such round costs about five more: 927 by round 15.
  std::mt19937_64 rng(7);
  int within_ten = 0;
  int within_fifteen = 0;
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto step = sign_sequence(nasty_duel(rng, 40, std::log1p(0.30), false), std::log1p(0.01), 0.0025);
    rejected += step.rejected ? 1 : 0;
    within_ten += step.rejected && step.rejected_at <= 10 ? 1 : 0;
    within_fifteen += step.rejected && step.rejected_at <= 15 ? 1 : 0;
  }
  CHECK(rejected == 1000);
  CHECK(within_ten >= 700);
  CHECK(within_fifteen >= 900);
}
