// perfduel_validate: the statistical validation of the gate, reproducible with fixed seeds.
//
// Simulates many gates under several noise models and runs each through the REAL decision
// code (perfduel::analyze, the function the driver calls after every round), side by side with
// the two methods perfduel replaces: unpaired Welch on randomly ordered runs (cbdr) and
// A-then-B with a fixed N. Every method sees the same simulated machine (same seed per gate),
// so the comparison is paired. A real-process part runs a program whose run time follows the
// drift model in wall-clock time through the perfduel binary and through an A-then-B loop.
// Prints Markdown tables; docs/validation.md holds the results and the command.
//
// The parts, a file each: machine (the noise models), gates (one simulated gate per method,
// tallies), models, suites, drift, zeros (the sections' tables), real_processes (--real),
// targets (the closing table and the exit status).

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "drift.hpp"
#include "gates.hpp"
#include "models.hpp"
#include "options.hpp"
#include "real_processes.hpp"
#include "suites.hpp"
#include "targets.hpp"
#include "zeros.hpp"

namespace {

using namespace perfduel::validation;

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    parts.push_back(part);
  }
  return parts;
}

// The options of `argv`; exits with status 2 on a bad command line.
Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "perfduel_validate: " << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--gates") {
      options.gates = std::stol(value());
    } else if (arg == "--detection-gates") {
      options.detection_gates = std::stol(value());
    } else if (arg == "--models") {
      options.models = split(value());
    } else if (arg == "--threads") {
      g_threads = std::max(1, std::stoi(value()));
    } else if (arg == "--real") {
      options.perfduel = value();
      options.drift_program = value();
    } else if (arg == "--real-rounds") {
      options.real_rounds = std::stoi(value());
    } else if (arg == "--real-seconds") {
      options.real_seconds = std::stod(value());
    } else if (arg == "--methods") {
      options.methods = split(value());
    } else if (arg == "--sections") {
      options.sections = split(value());
    } else if (arg == "--trace") {
      options.trace = value();
    } else if (arg == "--min-rounds") {
      g_min_rounds = std::max(2, std::stoi(value()));
    } else if (arg == "--real-repeats") {
      options.real_repeats = std::stoi(value());
    } else {
      std::cerr
          << "usage: perfduel_validate [--gates N] [--detection-gates N] [--models a,b,...] [--threads N]\n"
             "                         [--real PERFDUEL DRIFT_PROGRAM] [--real-rounds N] [--real-seconds S]\n"
             "                         [--real-repeats R] [--min-rounds N]\n"
             "                         [--methods default,width,median,min,anytime,cbdr,a-then-b]\n"
             "                         [--sections models,family,drift,zeros,wide,suite] [--trace "
             "FILE.csv]\n";
      std::exit(2);
    }
  }
  return options;
}

// Runs the sections `options` selects, each printing its tables; what they found.
Results run_sections(const Options& options) {
  Results results;
  if (selected(options.sections, "models")) {
    for (std::size_t m = 0; m < k_models.size(); ++m) {
      if (selected(options.models, k_models[m].name)) {
        results.summaries.push_back(validate_model(m, options));
      }
    }
  }
  if (selected(options.sections, "family")) {
    results.family = validate_family(options);
  }
  if (selected(options.sections, "drift")) {
    results.accuracy = validate_drift_accuracy();
    results.drift_rounds = validate_drift_rounds(options);
  }
  if (selected(options.sections, "zeros")) {
    validate_zeros(options);
  }
  if (selected(options.sections, "wide")) {
    results.wide = validate_wide(options);
  }
  if (selected(options.sections, "suite")) {
    results.suites = validate_suites(options);
  }
  return results;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  if (!options.trace.empty()) {
    g_trace.open(options.trace);
    g_trace << "model,gate,rounds,batch_size,lag1,verdict\n";
  }
  const auto start = std::chrono::steady_clock::now();
  fmt::print(
      "## Simulated gates\n\nα = 0.05 (95 % intervals), min rounds {}, budget {} rounds, one warm-up round, "
      "random order per round. A/A: {} gates per model and method; detection: {} gates per δ. "
      "Seeds fixed (gate i of model m and δ j uses the same machine for every method).\n",
      g_min_rounds, k_max_rounds, options.gates, options.detection_gates);
  const bool missed = print_targets(run_sections(options));
  if (!options.perfduel.empty()) {
    validate_real(options);
  }
  fmt::print("\nTotal time {:.0f} s on {} threads.\n",
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), g_threads);
  if (missed) {
    fmt::print(stderr, "perfduel_validate: a false-alarm target is missed beyond binomial noise\n");
    return 1;
  }
  return 0;
}