#include "machine/pinning.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/text.hpp"

namespace perfduel {

namespace {

bool contains(const std::vector<int>& cpus, int cpu) {
  return std::find(cpus.begin(), cpus.end(), cpu) != cpus.end();
}

// The CPUs pinning may use, split by preference: one per core away from CPU 0's core, the
// remaining SMT siblings, and CPU 0's core. Isolated CPUs replace the whole pool when this
// process may use any.
struct Candidates {
  std::vector<int> pool;  // all of them, sorted
  bool isolated = false;
  std::vector<int> per_core;
  std::vector<int> siblings;
  std::vector<int> cpu0_core;
};

Candidates candidates(const MachineFacts& facts) {
  Candidates result;
  result.pool = facts.allowed_cpus.empty() ? facts.online_cpus : facts.allowed_cpus;
  std::vector<int> isolated;
  for (const int cpu : isolated_cpus(facts)) {
    if (contains(result.pool, cpu)) {
      isolated.push_back(cpu);
    }
  }
  if (!isolated.empty()) {
    result.pool = isolated;
    result.isolated = true;
  }
  std::sort(result.pool.begin(), result.pool.end());
  auto cpu0_core = smt_siblings(facts, 0);
  cpu0_core.push_back(0);
  std::set<int> covered;  // CPUs whose core already has a chosen CPU
  for (const int cpu : result.pool) {
    if (contains(cpu0_core, cpu)) {
      result.cpu0_core.push_back(cpu);
    } else if (covered.count(cpu) != 0) {
      result.siblings.push_back(cpu);
    } else {
      result.per_core.push_back(cpu);
      covered.insert(cpu);
      for (const int sibling : smt_siblings(facts, cpu)) {
        covered.insert(sibling);
      }
    }
  }
  return result;
}

std::string plural(std::size_t count, const char* word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

}  // namespace

std::string to_string(PinningSource source) {
  return std::string(util::name_of(k_pinning_source_names, source));
}

util::Expected<std::optional<std::vector<int>>> ctest_allocated_cpus(const EnvironmentLookup& lookup) {
  using Result = util::Expected<std::optional<std::vector<int>>>;
  const auto count_text = lookup("CTEST_RESOURCE_GROUP_COUNT");
  if (!count_text) {
    return Result(std::optional<std::vector<int>>{});
  }
  const auto count = util::parse_double(*count_text);
  if (!count || *count < 0 || *count != std::floor(*count)) {
    return Result::failure(
        fmt::format("CTEST_RESOURCE_GROUP_COUNT=\"{}\" is not a number of resource groups", *count_text));
  }
  std::vector<int> cpus;
  bool any = false;
  for (int group = 0; group < static_cast<int>(*count); ++group) {
    const auto types = lookup(fmt::format("CTEST_RESOURCE_GROUP_{}", group)).value_or("");
    bool has_cpus = false;
    std::size_t start = 0;
    while (start <= types.size()) {
      const auto comma = std::min(types.find(',', start), types.size());
      has_cpus = has_cpus || util::trim(std::string_view(types).substr(start, comma - start)) == "cpus";
      start = comma + 1;
    }
    if (!has_cpus) {
      continue;
    }
    any = true;
    const auto name = fmt::format("CTEST_RESOURCE_GROUP_{}_CPUS", group);
    const auto allocation = lookup(name).value_or("");
    // "id:3,slots:1;id:5,slots:1": one entry per resource (CPU) given to this group.
    start = 0;
    while (start < allocation.size()) {
      const auto semicolon = std::min(allocation.find(';', start), allocation.size());
      const auto entry = util::trim(std::string_view(allocation).substr(start, semicolon - start));
      start = semicolon + 1;
      if (entry.empty()) {
        continue;
      }
      const auto id_start = entry.starts_with("id:") ? 3 : std::string_view::npos;
      const auto id = id_start == std::string_view::npos
                          ? std::string_view()
                          : entry.substr(id_start, entry.find(',', id_start) - id_start);
      auto cpu = util::parse_cpu_list(id);
      if (id.empty() || !cpu || cpu->size() != 1 || id.find('-') != std::string_view::npos) {
        return Result::failure(
            fmt::format("{}=\"{}\": \"{}\" is not a CPU id; the resource spec file must name each CPU by its "
                        "number (perfduel doctor --resource-spec FILE writes one)",
                        name, allocation, entry));
      }
      cpus.push_back(cpu->front());
    }
  }
  if (!any) {
    return Result(std::optional<std::vector<int>>{});
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return Result(std::optional<std::vector<int>>(std::move(cpus)));
}

std::vector<int> benchmark_cpus(const MachineFacts& facts, bool leave_out_cpu0) {
  const auto found = candidates(facts);
  std::vector<int> cpus = found.per_core;
  if (!found.cpu0_core.empty() && (!leave_out_cpu0 || cpus.empty())) {
    cpus.push_back(found.cpu0_core.front());
  }
  return cpus;
}

Pinning choose_cpus(const MachineFacts& facts, int count) {
  const auto found = candidates(facts);
  std::vector<int> order = found.per_core;
  order.insert(order.end(), found.cpu0_core.begin(), found.cpu0_core.end());
  order.insert(order.end(), found.siblings.begin(), found.siblings.end());
  const auto wanted = static_cast<std::size_t>(std::max(1, count));
  Pinning pinning;
  pinning.source = found.isolated ? PinningSource::isolated : PinningSource::automatic;
  pinning.cpus.assign(order.begin(),
                      order.begin() + static_cast<std::ptrdiff_t>(std::min(wanted, order.size())));
  std::sort(pinning.cpus.begin(), pinning.cpus.end());

  std::vector<std::string> notes;
  const bool with_cpu0 = contains(pinning.cpus, 0);
  if (!with_cpu0 && contains(found.pool, 0)) {
    notes.emplace_back("CPU 0 left to the system");
  }
  const bool shares_core = std::any_of(pinning.cpus.begin(), pinning.cpus.end(),
                                       [&](int cpu) { return contains(found.siblings, cpu); });
  if (shares_core) {
    notes.emplace_back("SMT siblings share cores: too few cores");
  } else if (std::any_of(found.pool.begin(), found.pool.end(),
                         [&](int cpu) { return !smt_siblings(facts, cpu).empty(); })) {
    notes.emplace_back("one per core");
  }
  if (with_cpu0 && found.pool.size() > 1) {
    notes.emplace_back("CPU 0 included: too few other CPUs");
  }
  if (pinning.cpus.size() < wanted) {
    notes.push_back(fmt::format("only {} for a benchmark that keeps {} busy",
                                plural(pinning.cpus.size(), "CPU"), plural(wanted, "CPU")));
  }
  pinning.reason =
      fmt::format("CPU {}: chosen automatically from {} {} of this process{}", format_cpu_list(pinning.cpus),
                  found.isolated ? "the isolated CPUs" : "the CPUs", format_cpu_list(found.pool),
                  notes.empty() ? "" : fmt::format(" ({})", fmt::join(notes, ", ")));
  return pinning;
}

int cpus_needed(double parallelism) {
  if (!(parallelism > 0)) {
    return 1;
  }
  return std::max(1, static_cast<int>(std::ceil(parallelism - 0.25)));
}

PinningPlan plan_pinning(CpuMode mode, const std::vector<int>& requested, const std::string& origin,
                         const MachineFacts& facts, const std::optional<std::vector<int>>& allocated) {
  PinningPlan plan;
  switch (mode) {
    case CpuMode::none:
      plan.warmup = {{}, PinningSource::none, "not pinned (cpus: none)", 0.0};
      return plan;
    case CpuMode::list:
      plan.warmup = {requested, PinningSource::requested,
                     fmt::format("CPU {}: from {}", format_cpu_list(requested), origin), 0.0};
      return plan;
    case CpuMode::automatic:
      break;
  }
  if (allocated && !allocated->empty()) {
    plan.warmup = {*allocated, PinningSource::ctest,
                   fmt::format("CPU {}: allocated by CTest (resource \"cpus\")", format_cpu_list(*allocated)),
                   0.0};
    return plan;
  }
  // Warm up on every candidate, so that a multi-threaded benchmark can show how many CPUs
  // it keeps busy; the measured rounds then get a set of that size.
  const auto found = candidates(facts);
  plan.warmup = {found.pool, found.isolated ? PinningSource::isolated : PinningSource::automatic,
                 fmt::format("CPU {}: every candidate, for the warm-up", format_cpu_list(found.pool)), 0.0};
  plan.resize_after_warmup = true;
  return plan;
}

Pinning settle_pinning(const PinningPlan& plan, const MachineFacts& facts, double parallelism,
                       int benchmark_threads, int counted_at_once) {
  if (!plan.resize_after_warmup) {
    Pinning pinning = plan.warmup;
    pinning.parallelism = parallelism;
    return pinning;
  }
  const int timed = std::max(cpus_needed(parallelism), benchmark_threads);
  Pinning pinning = choose_cpus(facts, std::max(timed, counted_at_once));
  pinning.parallelism = parallelism;
  if (counted_at_once > timed) {
    pinning.reason +=
        fmt::format("; {} runs counted at a time (a count does not depend on contention)", counted_at_once);
  } else if (benchmark_threads > cpus_needed(parallelism)) {
    pinning.reason += fmt::format("; a benchmark runs {} threads (by its name)", benchmark_threads);
  } else if (parallelism <= 0) {
    pinning.reason +=
        "; no warm-up round showed how many CPUs the benchmark uses: if it runs threads, set cpus: to a list";
  } else if (pinning.cpus.size() > 1 || cpus_needed(parallelism) > 1) {
    pinning.reason += fmt::format("; the warm-up kept {:.1f} CPUs busy", parallelism);
  }
  return pinning;
}

util::Expected<PinningPlan> plan_duet_pinning(const PinningPlan& plan, const MachineFacts& facts) {
  using Result = util::Expected<PinningPlan>;
  PinningPlan duet;
  if (plan.warmup.source == PinningSource::none) {
    return Result::failure(
        "order: duet pins each side to a CPU of its own, but pinning is off (cpus: none): give two CPUs "
        "(cpus: 1,2) or leave cpus at auto");
  }
  if (plan.resize_after_warmup) {
    duet.warmup = choose_cpus(facts, 2);
    if (duet.warmup.cpus.size() < 2) {
      return Result::failure(fmt::format("order: duet needs two CPUs, but this process may use only CPU {}",
                                         format_cpu_list(duet.warmup.cpus)));
    }
    duet.warmup.reason += "; one per side (order: duet)";
    return duet;
  }
  const auto& cpus = plan.warmup.cpus;
  if (cpus.size() < 2) {
    return Result::failure(fmt::format(
        "order: duet needs two CPUs, one per side, but {} (give the gate CPUS 2, or list two in cpus:)",
        plan.warmup.reason));
  }
  // The first CPU, and the first after it on another core.
  const auto siblings = smt_siblings(facts, cpus.front());
  const auto other_core =
      std::find_if(cpus.begin() + 1, cpus.end(), [&](int cpu) { return !contains(siblings, cpu); });
  duet.warmup = plan.warmup;
  duet.warmup.cpus = {cpus.front(), other_core == cpus.end() ? cpus[1] : *other_core};
  duet.warmup.reason +=
      fmt::format("; CPUs {} and {}, one per side (order: duet{})", duet.warmup.cpus[0], duet.warmup.cpus[1],
                  other_core == cpus.end() ? ", SMT siblings of one core: no two cores in the set"
                  : cpus.size() > 2        ? ", two cores"
                                           : "");
  return duet;
}

std::string resource_spec_json(const std::vector<int>& cpus) {
  nlohmann::ordered_json resources = nlohmann::ordered_json::array();
  for (const int cpu : cpus) {
    resources.push_back({{"id", std::to_string(cpu)}, {"slots", 1}});
  }
  nlohmann::ordered_json spec;
  spec["version"] = {{"major", 1}, {"minor", 0}};
  spec["local"] = nlohmann::ordered_json::array({{{"cpus", resources}}});
  return spec.dump(2) + "\n";
}

}  // namespace perfduel
