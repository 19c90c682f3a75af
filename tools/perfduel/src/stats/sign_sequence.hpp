#pragma once

#include <cstddef>
#include <span>

namespace perfduel::stats {

// What the sign sequence has seen of the log-ratios so far.
struct SignSequenceStep {
  std::size_t rounds = 0;
  std::size_t beyond = 0;  // rounds whose log-ratio lies beyond the edge
  std::size_t within = 0;  // rounds whose log-ratio lies short of it (ties count as neither)
  double log_wealth = 0;   // ln of the mixture's wealth after the last round
  double log_peak = 0;     // ln of its largest wealth at any round so far (≥ 0: it starts at 1)
  bool rejected = false;   // the peak reached 1/α: the change lies beyond the edge
  // The round (1-based) at which the wealth first reached 1/α; 0 while it has not.
  std::size_t rejected_at = 0;
};

// A one-sided test of "the paired log-ratios lie beyond `edge`" that is valid in finite
// samples, at every round, without a burn-in, and whatever the noise's distribution, drift or
// autocorrelation, because it rests on the randomized order of each round and on nothing else.
//
// Why it is valid. Each round runs the two sides in an order chosen by a fresh fair coin. If
// the candidate's log-time is the baseline's shifted by δ (the model of a change; δ = 0 for
// identical programs), a round's log-ratio is δ + s·(second run's noise − first run's noise)
// with s = ±1 that coin, so given everything before it, it is symmetric about δ: whatever the
// machine does to the first and the second slot of a round, the coin decides which side gets
// which. Under the null δ ≤ edge, the sign x_i = sign(d_i − edge) then has E[x_i | past] ≤ 0,
// and for any bet λ ∈ [0, 1) the wealth ∏ (1 + λ·x_i) is a non-negative supermartingale
// starting at 1; so is an average of such wealths over several λ. Ville's inequality bounds the
// chance that it ever reaches 1/α by α: the test may be looked at after every round and stop
// the duel the first time it rejects. This is testing by betting (Shafer, "Testing by betting",
// J. R. Stat. Soc. A 2021; Waudby-Smith & Ramdas, "Estimating means of bounded random variables
// by betting", J. R. Stat. Soc. B 2024) applied to the sign test's coin flips, a sequential
// randomization test in the sense of Fisher's sharp null. It assumes the coin is fresh each
// round: with a fixed order (order: abba) it does not hold and must not be used.
//
// The price of needing no model: each round can at most double the wealth, so no rejection
// comes before log₂(1/α) rounds (8.6 at α = 0.0025), and the test sees only signs. It is meant
// for clear changes, most of all of slow benchmarks, which the asymptotic confidence sequence
// (stats/sequential.hpp) cannot judge before its 20-round burn-in.
//
// The mixture: equal weights on the bets λ_j = 1 − 2^−j, j = 1 … 7 (0.5 to 0.992). The
// strongest bets reject when every round is beyond the edge after 10 rounds at α = 0.0025 (11
// at α/3, 14 at α/13); the weaker ones keep the wealth growing through rounds short of the edge
// (tests/unit/stats/test_sign_sequence.cpp). Ties with the edge bet nothing.
SignSequenceStep sign_sequence(std::span<const double> log_ratios, double edge, double alpha);

}  // namespace perfduel::stats
