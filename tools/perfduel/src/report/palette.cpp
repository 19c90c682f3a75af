#include "report/palette.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace perfduel {

std::string page_palette_script() {
  const std::array<std::pair<const char*, std::string_view>, 9> colours{{
      {"baseline", k_baseline_colour},
      {"candidate", k_candidate_colour},
      {"round", k_round_colour},
      {"regression", verdict_colour(Verdict::regression)},
      {"improvement", verdict_colour(Verdict::improvement)},
      {"progression", verdict_colour(Verdict::improvement)},
      {"'no-change'", verdict_colour(Verdict::no_change)},
      {"normal", verdict_colour(Verdict::no_change)},
      {"undecided", verdict_colour(Verdict::inconclusive)},
  }};
  std::string script = "PD.colours = {\n";
  for (const auto& [name, colour] : colours) {
    script += fmt::format("  {}: '{}',\n", name, colour);
  }
  return script + "};";
}

}  // namespace perfduel
