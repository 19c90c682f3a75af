#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "run/profile.hpp"
#include "util/expected.hpp"

// Reading the files Valgrind's callgrind writes when a dump is triggered (--dump-before,
// --dump-after): each holds the events counted since the previous dump. Only two kinds of line
// matter here: "desc: Trigger: ..." (why the dump was written), the event totals ("events:"
// names them, "totals:" or, in older files, "summary:" counts them), and the names of the
// functions ("fn=(id) name", "cfn=(id) name"; a compressed "(id)" alone repeats a name). Pure: text in,
// values out.
namespace perfduel {

// Event totals by event name (Ir, and with the cache simulation I1mr, D1mr, ...).
using EventTotals = std::map<std::string, double>;

// One dump: what triggered it, e.g. "--dump-before=benchmark::State::FinishKeepRunning()",
// what was counted since the dump before it, and the functions that ran or were called in that
// time, as named by its "fn=" and "cfn=" lines.
struct CallgrindDump {
  std::string trigger;
  EventTotals totals;
  std::set<std::string> functions;
  Profile profile;  // each function's cost in that time (run/profile.hpp)
};

// Reads the dump file `text`. The error names the missing or malformed line.
util::Expected<CallgrindDump> parse_callgrind_dump(std::string_view text);

// The windows between two kinds of dump in a process's dumps, in the order of the dumps: each
// opens at a dump whose trigger starts with `opening` and closes at the next dump whose
// trigger starts with `closing`, whose totals are the window's (everything counted since the
// dump before it, which must be the opening one). Triggers are as callgrind writes them:
// "--dump-before=benchmark::State::StartKeepRunning()". `overlapping` is set when a window
// opens while one is open, closes when none is, or another dump falls inside it: then several
// threads made the calls at once, and no window is one thread's alone.
struct CallWindows {
  std::vector<CallgrindDump> windows;  // each window's closing dump
  bool overlapping = false;
};

// The windows of `dumps` (in dump order) from an `opening` to a `closing` trigger.
CallWindows call_windows(std::span<const CallgrindDump> dumps, std::string_view opening,
                         std::string_view closing);

}  // namespace perfduel
