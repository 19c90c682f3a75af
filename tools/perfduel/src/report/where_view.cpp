#include "report/where_view.hpp"

#include <cmath>

#include <fmt/format.h>

#include "config/names.hpp"
#include "util/text.hpp"

namespace perfduel {

std::string short_function_name(std::string name, std::size_t longest) {
  const auto fold = [&name](char open, char close, const char* folded) {
    // The last bracket at depth 0 and its match: the parameters of the function itself.
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == close) {
        ++depth;
      } else if (name[i] == open && --depth == 0) {
        const auto end = name.find_last_of(close);
        if (end != std::string::npos && end > i + 1) {
          name = name.substr(0, i) + folded + name.substr(end + 1);
        }
        return;
      }
    }
  };
  if (name.size() > longest) {
    fold('(', ')', "(...)");
  }
  while (name.size() > longest && name.find('<') != std::string::npos) {
    const auto before = name.size();
    const auto open = name.find('<');
    int depth = 0;
    std::size_t i = open;
    for (; i < name.size(); ++i) {
      depth += name[i] == '<' ? 1 : name[i] == '>' ? -1 : 0;
      if (depth == 0) {
        break;
      }
    }
    if (i >= name.size() || i == open + 1) {
      break;
    }
    name = name.substr(0, open) + "<...>" + name.substr(i + 1);
    if (name.size() >= before) {
      break;
    }
  }
  return name.size() <= longest ? name : name.substr(0, longest - 3) + "...";
}

std::string function_place(const FunctionShare& function) {
  if (function.file.empty()) {
    return {};
  }
  const auto slash = function.file.rfind('/');
  const std::string file = slash == std::string::npos ? function.file : function.file.substr(slash + 1);
  return function.line > 0 ? fmt::format("{}:{}", file, function.line) : file;
}

std::string counted_per(const Explanation& explanation) {
  return explanation.benchmark.empty() ? "per run" : "per iteration";
}

std::string counted_event_word(const Explanation& explanation) {
  return explanation.event == CountedEvent::cycles ? "estimated cycles" : "instructions";
}

namespace {

// A count with a sign and thousands grouped, to the precision that matters: "+1,234", "+0.25".
std::string signed_count(double value) {
  if (std::abs(value) < 100) {
    return fmt::format("{:+.3g}", value);
  }
  std::string digits = fmt::format("{}", std::llabs(std::llround(value)));
  for (auto at = digits.size(); at > 3; at -= 3) {
    digits.insert(at - 3, ",");
  }
  return (value < 0 ? "-" : "+") + digits;
}

// Which explanations a view shows: the gated metrics' only (the terminal), or the report-only
// ones' too.
enum class Metrics { gated, all };

// The explanations to show: those of regressed or likely regressed metrics, in the analysis's order.
std::vector<const Explanation*> shown(const RunSummary& summary, Metrics metrics) {
  std::vector<const Explanation*> list;
  for (const auto& explanation : summary.outcome->explanations) {
    for (const auto& result : summary.outcome->analysis.metrics) {
      if (result.spec.name == explanation.metric &&
          (metrics == Metrics::all || result.spec.gating == Gating::gated) &&
          (result.verdict == Verdict::regression || result.likely_regression)) {
        list.push_back(&explanation);
      }
    }
  }
  return list;
}

// The relative change of the counted total.
double total_change(const Attribution& attribution) {
  return attribution.baseline_total > 0 ? attribution.candidate_total / attribution.baseline_total - 1 : 0.0;
}

}  // namespace

std::string where_head(const Explanation& explanation) {
  const Attribution& attribution = explanation.attribution;
  const std::string counted = fmt::format(
      "{} {} ({} {})", util::format_percent(total_change(attribution)), counted_event_word(explanation),
      signed_count(attribution.candidate_total - attribution.baseline_total), counted_per(explanation));
  if (explanation.basis == ProfileBasis::profiled) {
    std::string counts = counted;
    if (explanation.event == CountedEvent::cycles) {
      counts =
          fmt::format("{} instructions, {}", util::format_percent(explanation.instructions_change), counted);
    } else if (attribution.reading == ProfileReading::not_by_counts) {
      counts = fmt::format("{} instructions, {} estimated cycles",
                           util::format_percent(explanation.instructions_change),
                           util::format_percent(explanation.cycles_change));
    }
    return fmt::format("{} {}: one counted run a side: {}", explanation.metric,
                       util::format_percent(explanation.metric_change), counts);
  }
  return fmt::format("{}: {}", explanation.metric, counted);
}

std::string where_instead(const Explanation& explanation) {
  const Attribution& attribution = explanation.attribution;
  switch (attribution.reading) {
    case ProfileReading::explained:
      return explanation.basis == ProfileBasis::profiled && explanation.event == CountedEvent::cycles
                 ? "the same work, more cache misses: the estimated cycles (misses weighted) say where"
                 : std::string();
    case ProfileReading::no_change:
      return fmt::format("the {} did not change: the profile does not say where",
                         counted_event_word(explanation));
    case ProfileReading::not_by_counts:
      return "neither instructions nor estimated cycles explain it: the time went to what a count does not "
             "see (system calls, waiting, memory layout, the clock's frequency); no function is named";
    case ProfileReading::moved:
      break;
  }
  std::vector<std::string> moves;
  moves.reserve(attribution.moves.size());
  for (const auto& move : attribution.moves) {
    moves.push_back(move.from_change == FunctionChange::removed
                        ? fmt::format("{} inlined into {}", short_function_name(move.from),
                                      short_function_name(move.into))
                        : fmt::format("{} split out of {}", short_function_name(move.from),
                                      short_function_name(move.into)));
  }
  return fmt::format("cost moved between functions, hardly any added: {}", util::first_names(moves, 2));
}

namespace {

// One function's line: its share, its name, whether it is new, where.
std::string function_line(const FunctionShare& function, const std::string& with) {
  const std::string added = function.change == FunctionChange::added ? " (new)" : "";
  const std::string at = function_place(function);
  return fmt::format("{:>5.0f} %  {}{}{}{}", function.share * 100, short_function_name(function.name), added,
                     with, at.empty() ? "" : "  " + at);
}

// The functions a short "where" names: the culprit first, with what it calls, when the functions
// whose own code changed are spread below it; then those.
std::vector<std::string> function_lines(const Attribution& attribution) {
  std::vector<std::string> lines;
  auto leading = leading_functions(attribution, k_where_functions);
  const bool spread = leading.empty() || leading.front().share < k_culprit_share;
  if (attribution.culprit && spread &&
      (leading.empty() || leading.front().name != attribution.culprit->name)) {
    lines.push_back(function_line(*attribution.culprit, " with what it calls"));
    leading.resize(std::min<std::size_t>(leading.size(), k_where_functions - 1));
  }
  for (const auto& function : leading) {
    lines.push_back(function_line(function, ""));
  }
  return lines;
}

}  // namespace

std::string format_where(const RunSummary& summary) {
  std::string text;
  for (const Explanation* explanation : shown(summary, Metrics::gated)) {
    text += fmt::format("where: {}\n", where_head(*explanation));
    if (const auto other = where_instead(*explanation); !other.empty()) {
      text += fmt::format("  {}\n", other);
    }
    if (explanation->attribution.reading != ProfileReading::explained) {
      continue;
    }
    for (const auto& line : function_lines(explanation->attribution)) {
      text += fmt::format("  {}\n", line);
    }
  }
  return text;
}

std::string format_where_markdown(const RunSummary& summary) {
  const auto list = shown(summary, Metrics::all);
  if (list.empty()) {
    return {};
  }
  std::string text = fmt::format("<details><summary>Where: {} regressed metric{} by function</summary>\n\n",
                                 list.size(), list.size() == 1 ? "" : "s");
  for (const Explanation* explanation : list) {
    text += fmt::format("**{}**\n\n", where_head(*explanation));
    if (const auto other = where_instead(*explanation); !other.empty()) {
      text += other + "\n\n";
    }
    if (explanation->attribution.reading != ProfileReading::explained) {
      continue;
    }
    if (const auto& culprit = explanation->attribution.culprit) {
      text += fmt::format(
          "Carried by `{}` with what it calls: {:.0f} % of the change{}.\n\n",
          short_function_name(culprit->name, 2 * k_longest_name), culprit->share * 100,
          function_place(*culprit).empty() ? "" : fmt::format(" (at {})", function_place(*culprit)));
    }
    text += fmt::format(
        "| share | function | baseline {0} {1} | candidate | source |\n|---:|---|---:|---:|---|\n",
        counted_event_word(*explanation), counted_per(*explanation));
    for (const auto& function : explanation->attribution.functions) {
      text += fmt::format("| {:.0f} % | `{}`{} | {:.0f} | {:.0f} | {} |\n", function.share * 100,
                          short_function_name(function.name, 2 * k_longest_name),
                          function.change == FunctionChange::changed
                              ? ""
                              : fmt::format(" ({})", util::name_of(k_function_change_names, function.change)),
                          function.baseline, function.candidate, function_place(function));
    }
    text += "\n";
  }
  return text + "</details>\n\n";
}

}  // namespace perfduel
