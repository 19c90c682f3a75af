#pragma once

#include <string>
#include <string_view>

#include "duel/verdict.hpp"
#include "util/name_table.hpp"

// The colours of every plot (a duel's panels, a suite's chart, the trend plot) and of the HTML
// pages' charts (html/common.js has them from here: page_palette_script), so that the baseline
// is the same blue and a regression the same red wherever they are drawn.
namespace perfduel {

// The two sides and the change of one round: Paul Tol's blue and orange stay apart with every
// kind of colour blindness.
constexpr const char* k_baseline_colour = "#4477aa";
constexpr const char* k_candidate_colour = "#ee7733";
constexpr const char* k_round_colour = "#333333";

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

// The palette as the HTML pages' script names it, a JavaScript statement: `PD.colours = {...};`
// with the sides, the round, and the verdict words of a duel and of a trend ("progression" as
// "improvement", "normal" as "no-change", "undecided" for the rest).
std::string page_palette_script();

}  // namespace perfduel
