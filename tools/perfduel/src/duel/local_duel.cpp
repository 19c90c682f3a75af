#include "duel/local_duel.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "count/heap_executor.hpp"
#include "count/valgrind.hpp"
#include "count/valgrind_executor.hpp"
#include "duel/profiling.hpp"
#include "duel/run_plan.hpp"
#include "error.hpp"
#include "run/process_executor.hpp"
#include "run/signals.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// Every requested CPU must be one this process may run on (`allowed`, its affinity), or the
// child's affinity call would fail on every run.
void check_cpus(const std::vector<int>& cpus, const std::vector<int>& allowed, const std::string& origin) {
  if (allowed.empty()) {
    return;  // unknown: the runs will tell
  }
  for (const int cpu : cpus) {
    if (std::find(allowed.begin(), allowed.end(), cpu) == allowed.end()) {
      throw Error(fmt::format("{}: CPU {} is not available to this process (usable: {})", origin, cpu,
                              format_cpu_list(allowed)));
    }
  }
}

// Where the runs go: the CPUs of `config` (from `cpus_origin`) checked against this machine's
// `facts` and CTest's resource allocation, planned for the warm-up and the order; the warm-up's
// CPUs become the configuration's.
PinningPlan plan_compare_pinning(Config& config, const MachineFacts& facts, const std::string& cpus_origin) {
  if (config.cpu_mode == CpuMode::list) {
    check_cpus(config.cpus, facts.allowed_cpus, cpus_origin);
  }
  auto allocated = ctest_allocated_cpus([](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
  });
  if (!allocated) {
    throw Error(allocated.error());
  }
  if (const char* required = std::getenv("PERFDUEL_REQUIRE_CTEST_CPUS"); required != nullptr && !*allocated) {
    // add_perf_gate(CPUS) with a resource spec file drops RUN_SERIAL: unpinned by CTest, this
    // gate could share its CPUs with another one running at the same time.
    throw Error(fmt::format(
        "this perf gate runs in parallel with others and needs {} CPU(s) from CTest, but CTest allocated "
        "none: run ctest with --resource-spec-file FILE (perfduel doctor --resource-spec FILE writes one), "
        "or unset PERFDUEL_RESOURCE_SPEC_FILE to run the gates one at a time",
        required));
  }
  if (*allocated && config.cpu_mode == CpuMode::automatic) {
    check_cpus(**allocated, facts.allowed_cpus, "CTest's resource allocation");
  }
  PinningPlan pinning_plan = plan_pinning(config.cpu_mode, config.cpus, cpus_origin, facts, *allocated);
  if (is_duet(config.order)) {
    auto duet = plan_duet_pinning(pinning_plan, facts);
    if (!duet) {
      throw Error(duet.error(), ExitCode::usage);
    }
    pinning_plan = std::move(duet).value();
  }
  config.cpus = pinning_plan.warmup.cpus;
  return pinning_plan;
}

// perfduel-exec when `config` needs it, else empty. A gated max RSS must be the programs' own:
// start the runs through perfduel-exec, whose small address space is what Linux counts as a
// run's starting max RSS (see exec_stub.cpp). Order duet needs it too: each stub holds its
// run at a barrier until both are started.
std::filesystem::path exec_stub_for(const Config& config) {
  const bool rss_gated = std::any_of(config.metrics.begin(), config.metrics.end(), [](const MetricSpec& m) {
    return m.source == MetricSource::max_rss && m.gating == Gating::gated;
  });
  if (!rss_gated && !is_duet(config.order)) {
    return {};
  }
  std::string searched;
  std::filesystem::path exec_stub = find_exec_stub(searched);
  if (exec_stub.empty()) {
    throw Error(fmt::format(
        "{}, which needs perfduel-exec; not found (looked for {})",
        rss_gated ? "max_rss is gated (the programs' own peak)" : "order: duet starts both runs together",
        searched));
  }
  return exec_stub;
}

}  // namespace

LocalDuel run_local_duel(Config& config, const std::string& cpus_origin, const ProgressCallback& progress,
                         const NoteCallback& on_note) {
  LocalDuel duel;
  duel.facts = read_machine_facts();
  const PinningPlan pinning_plan = plan_compare_pinning(config, duel.facts, cpus_origin);
  // Hardware counters and valgrind are checked before anything runs.
  const std::filesystem::path valgrind = check_run_plan(config, plan_runs(config));
  install_interrupt_handlers();
  const std::filesystem::path exec_stub = exec_stub_for(config);
  duel.exec_stub = !exec_stub.empty();
  ProcessExecutor executor(exec_stub);
  const RunPlan runs = plan_runs(config);
  std::optional<ValgrindExecutor> simulator;
  if (!valgrind.empty()) {
    simulator.emplace(executor, valgrind, runs.cache, runs.framework, find_allocation_counter(config, runs));
  }
  // Heap metrics: the plain runs with the allocation counter preloaded, counting natively.
  std::optional<HeapExecutor> heap;
  if (runs.heap) {
    heap.emplace(executor, find_allocation_counter(config, runs));
  }
  Executor& plain = heap ? static_cast<Executor&>(*heap) : executor;
  // Counted runs and nothing timed: two runs at a time (a suite's two processes, or both sides).
  const int counted_at_once = runs.valgrind && !runs.plain ? 2 : 0;
  bool settled = false;
  duel.outcome = run_duel_unless_identical(
      config, plain, simulator ? &*simulator : nullptr, *config.seed, progress,
      [&](double parallelism, int benchmark_threads) {
        duel.pinning =
            settle_pinning(pinning_plan, duel.facts, parallelism, benchmark_threads, counted_at_once);
        settled = true;
        return duel.pinning.cpus;
      },
      on_note);
  if (!settled) {  // the duel ended in its warm-up
    duel.pinning = pinning_plan.warmup;
    duel.pinning.parallelism = duel.outcome.warmup_parallelism;
  }
  // Where a timed regression happened: one counted run a side, Valgrind looked up only then.
  if (!timed_to_explain(config.explain, duel.outcome.analysis).empty()) {
    const auto found = valgrind.empty() ? find_valgrind() : util::Expected<std::filesystem::path>(valgrind);
    explain_timed_changes(config, duel.outcome, executor, found ? *found : std::filesystem::path(),
                          duel.pinning.cpus);
  }
  return duel;
}

}  // namespace perfduel
