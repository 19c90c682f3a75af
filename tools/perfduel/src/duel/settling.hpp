#pragma once

#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/levels.hpp"

// The rules that settle one metric: the width rule, the anytime-valid confidence sequence
// (anytime and hybrid stopping), the sign sequence, and a pass by equivalence at the
// uncorrected level; Bonferroni's levels come from duel/levels.hpp.
namespace perfduel {

// Estimates one metric of `config`, `spec`, with `estimator` from its paired values (`a`
// baseline, `b` candidate) at the levels `levels` gives it, and judges it: the width rule, and
// by the stopping mode the confidence sequence (after `burn_in_rounds`) and the sign sequence,
// whichever settles it first; `enough_rounds`: it has its minimum rounds.
MetricResult analyze_metric(const Config& config, const MetricSpec& spec, Estimator estimator,
                            const Levels& levels, const std::vector<double>& a, const std::vector<double>& b,
                            int burn_in_rounds, bool enough_rounds);

}  // namespace perfduel
