#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "stats/paired.hpp"

namespace perfduel::stats {

// Tuning ρ² of the normal-mixture boundary that makes it tightest at `optimal_rounds` for
// level `alpha`: ρ² = (−2 ln α + ln(1 − 2 ln α)) / t* (Howard, Ramdas, McAuliffe & Sekhon,
// "Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Stat. 2021, §3.5;
// the approximation Waudby-Smith et al. use). `optimal_rounds` < 1 is treated as 1.
double normal_mixture_rho2(double alpha, double optimal_rounds);

// Half-width, in units of the standard deviation, of the two-sided normal-mixture confidence
// sequence for a mean after `rounds` values at level `alpha` with tuning `rho2`:
//   sqrt( 2(tρ² + 1) / (t²ρ²) · ln( sqrt(tρ² + 1) / α ) ).
// It is Robbins' Gaussian mixture of the exponential supermartingale exp(λS − λ²V/2) with
// λ ~ N(0, ρ²), which depends on S² and so bounds |S| (two-sided) with the full α, through
// Ville's inequality. Infinite for 0 rounds.
double normal_mixture_radius(std::size_t rounds, double alpha, double rho2);

struct ConfidenceSequenceStep {
  double center = 0;  // running mean
  Interval ci;        // valid simultaneously for every round ≥ the burn-in
  double stddev = 0;  // running sample standard deviation used as σ̂
  std::size_t rounds = 0;
};

// The asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas,
// "Time-uniform central limit theory and asymptotic confidence sequences" (2021, Thm 2.2):
// μ̂_t ± σ̂_t · normal_mixture_radius(t), at `confidence`, for the mean of `x` (the paired
// log-ratios so far), tuned to be tightest at `optimal_rounds`. Unlike a t interval, it may be
// looked at after every round and the duel stopped whenever it excludes the tolerance band,
// with the chance that it *ever* misses the true mean kept near 1 − `confidence`: the
// fixed-width rule's interval, peeked at every round, has no such guarantee. Chosen over an
// exact (sub-Gaussian or empirical-Bernstein) sequence because run-time log-ratios have no
// known bound or variance proxy; the price is asymptotic validity, which is why nothing is
// reported before `burn_in` rounds (and never before 2, for σ̂). With zero variance the
// sequence collapses to the mean.
std::optional<ConfidenceSequenceStep> asymptotic_confidence_sequence(std::span<const double> x,
                                                                     double confidence, std::size_t burn_in,
                                                                     double optimal_rounds);

}  // namespace perfduel::stats
