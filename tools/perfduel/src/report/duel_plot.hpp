#pragma once

#include <string>

#include "config/config.hpp"
#include "duel/duel.hpp"

namespace perfduel {

// A self-contained SVG document that shows what happened in a duel, one panel per metric
// with a ratio (gated metrics first), side by side in up to three columns:
// - above, the value of every run against its round number, baseline and candidate in two
//   colours, warm-up runs (configured or detected) hollow, so drift, warm-up, bimodality and
//   outliers are visible;
// - below, each round's change candidate / baseline − 1 in percent, the final estimate as a
//   line, its confidence interval as a band and the tolerance band, with the change, the
//   interval and the verdict in the panel title, and under it what they are (each side's
//   median, the change's estimator).
// `config` gives the metrics (same order as the values of `outcome.runs`) and the commands;
// `outcome` the runs and their final analysis. Pure: no file is touched.
std::string render_duel_svg(const Config& config, const DuelOutcome& outcome);

}  // namespace perfduel
