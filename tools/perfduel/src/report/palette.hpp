#pragma once

#include <string_view>

#include "duel/verdict.hpp"
#include "util/name_table.hpp"

// The colours of verdicts in every plot (a duel's panels, a suite's chart, the trend plot), so
// that a regression is the same red wherever it is drawn.
namespace perfduel {

// Red regression, green improvement, grey no change, ochre anything undecided (Paul Tol's
// bright scheme, safe for colour blindness).
constexpr util::NameTable<Verdict, 6> k_verdict_colours{{{Verdict::regression, "#cc3311"},
                                                         {Verdict::improvement, "#228833"},
                                                         {Verdict::no_change, "#555555"},
                                                         {Verdict::pending, "#aa7700"},
                                                         {Verdict::inconclusive, "#aa7700"},
                                                         {Verdict::unstable, "#aa7700"}}};

// The colour of `verdict` in the SVG reports, from k_verdict_colours.
constexpr std::string_view verdict_colour(Verdict verdict) {
  return util::name_of(k_verdict_colours, verdict);
}

}  // namespace perfduel
