#include "count/callgrind_dump.hpp"

#include <fmt/format.h>

#include "count/profile.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

constexpr std::string_view k_trigger = "desc: Trigger:";

// The name in the value of a "fn=" or "cfn=" line: "(12) name" or "name"; empty for "(12)",
// a compressed name defined earlier in the file.
std::string_view function_name(std::string_view value) {
  if (value.starts_with('(')) {
    const auto close = value.find(')');
    value = close == std::string_view::npos ? std::string_view() : value.substr(close + 1);
  }
  return util::trim(value);
}

}  // namespace

util::Expected<CallgrindDump> parse_callgrind_dump(std::string_view text) {
  using Result = util::Expected<CallgrindDump>;
  CallgrindDump dump;
  std::vector<std::string> events;
  std::vector<std::string> totals;   // "totals:" (callgrind's format since 3.x)
  std::vector<std::string> summary;  // "summary:" (the older name; both are written today)
  for (const auto& line : util::split_lines(text)) {
    if (line.starts_with(k_trigger)) {
      dump.trigger = std::string(util::trim(line.substr(k_trigger.size())));
    } else if (line.starts_with("events:")) {
      events = util::split_words(line.substr(7));
    } else if (line.starts_with("totals:")) {
      totals = util::split_words(line.substr(7));
    } else if (line.starts_with("summary:")) {
      summary = util::split_words(line.substr(8));
    } else if (line.starts_with("fn=") || line.starts_with("cfn=")) {
      if (auto name = function_name(std::string_view(line).substr(line.find('=') + 1)); !name.empty()) {
        dump.functions.emplace(name);
      }
    }
  }
  if (totals.empty()) {
    totals = summary;
  }
  if (events.empty()) {
    return Result::failure("no \"events:\" line");
  }
  if (totals.empty()) {
    return Result::failure("no \"totals:\" or \"summary:\" line");
  }
  if (totals.size() > events.size()) {
    return Result::failure(
        fmt::format("the totals have {} values for {} events", totals.size(), events.size()));
  }
  // A total may be left out at the end of the line when it is 0.
  for (std::size_t i = 0; i < events.size(); ++i) {
    double value = 0;
    if (i < totals.size()) {
      const auto parsed = util::parse_double(totals[i]);
      if (!parsed) {
        return Result::failure(fmt::format("total \"{}\" of {} is not a number", totals[i], events[i]));
      }
      value = *parsed;
    }
    dump.totals[events[i]] = value;
  }
  // The functions' costs only explain a change: a malformed line there leaves the profile empty
  // rather than the count unread.
  if (auto profile = parse_profile(text)) {
    dump.profile = std::move(profile).value();
  }
  return dump;
}

CallWindows call_windows(std::span<const CallgrindDump> dumps, std::string_view opening,
                         std::string_view closing) {
  CallWindows found;
  bool open = false;
  for (const auto& dump : dumps) {
    if (dump.trigger.starts_with(opening)) {
      found.overlapping |= open;
      open = true;
    } else if (dump.trigger.starts_with(closing)) {
      found.overlapping |= !open;
      if (open) {
        found.windows.push_back(dump);
      }
      open = false;
    } else if (open) {
      found.overlapping = true;  // something else happened inside the window
      open = false;
    }
  }
  return found;
}

}  // namespace perfduel
