#include "stats/sign_sequence.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace perfduel::stats {

namespace {

constexpr std::size_t k_bets = 7;

// ln(1 + λ_j) and ln(1 − λ_j) for λ_j = 1 − 2^−j, j = 1 … k_bets.
struct BetLogs {
  std::array<double, k_bets> win{};
  std::array<double, k_bets> loss{};
};

BetLogs bet_logs() {
  BetLogs logs;
  for (std::size_t j = 0; j < k_bets; ++j) {
    const double lambda = 1.0 - std::ldexp(1.0, -static_cast<int>(j + 1));
    logs.win[j] = std::log1p(lambda);
    logs.loss[j] = std::log1p(-lambda);
  }
  return logs;
}

// ln of the equally weighted average of exp(log_wealth[j]), without overflow.
double log_mixture(const std::array<double, k_bets>& log_wealth) {
  const double top = *std::max_element(log_wealth.begin(), log_wealth.end());
  double sum = 0;
  for (const double value : log_wealth) {
    sum += std::exp(value - top);
  }
  return top + std::log(sum / static_cast<double>(k_bets));
}

}  // namespace

SignSequenceStep sign_sequence(std::span<const double> log_ratios, double edge, double alpha) {
  static const BetLogs logs = bet_logs();
  const double log_target = -std::log(alpha);
  SignSequenceStep step;
  std::array<double, k_bets> log_wealth{};
  for (const double d : log_ratios) {
    ++step.rounds;
    if (d == edge) {
      continue;  // a tie bets nothing
    }
    const bool beyond = d > edge;
    ++(beyond ? step.beyond : step.within);
    for (std::size_t j = 0; j < k_bets; ++j) {
      log_wealth[j] += beyond ? logs.win[j] : logs.loss[j];
    }
    step.log_wealth = log_mixture(log_wealth);
    step.log_peak = std::max(step.log_peak, step.log_wealth);
    if (!step.rejected && step.log_wealth >= log_target) {
      step.rejected = true;
      step.rejected_at = step.rounds;
    }
  }
  return step;
}

}  // namespace perfduel::stats
