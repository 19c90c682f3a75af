// `perfduel doctor`: is this machine fit to benchmark? The facts come from machine/facts, the
// checks live in machine/doctor;
// this file only reads the options, prints the findings and sets the exit code.
#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "machine/doctor.hpp"
#include "machine/pinning.hpp"
#include "util/json_file.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

namespace {

struct DoctorOptions {
  std::string cpus;
  std::optional<std::string> json;
  std::optional<std::string> resource_spec;
};

// Writes a CTest resource spec listing the CPUs fit for benchmarking, one slot each, so that
// `ctest --resource-spec-file` gives each perf gate (add_perf_gate CPUS) CPUs of its own.
void write_resource_spec(const std::string& path, const MachineFacts& facts) {
  const auto cpus = benchmark_cpus(facts, true);
  std::ofstream out(path);
  out << resource_spec_json(cpus);
  if (!out) {
    throw Error(fmt::format("--resource-spec: cannot write {}", path));
  }
  fmt::print("wrote {}: CTest resource \"cpus\" = CPU {} ({})\n", path, format_cpu_list(cpus),
             isolated_cpus(facts).empty() ? "CPU 0 and SMT siblings left out" : "isolated, one per core");
}

// The CPUs a doctor run looks at, and whether the user named them.
struct Scope {
  std::vector<int> cpus;
  CpuSelection selection = CpuSelection::all_online;
};

void print_findings(const Scope& scope, const std::vector<Finding>& findings) {
  fmt::print("perfduel doctor: CPU {} ({})\n", format_cpu_list(scope.cpus),
             scope.selection == CpuSelection::requested ? "from --cpus" : "all online");
  std::size_t width = 0;
  for (const auto& finding : findings) {
    width = std::max(width, finding.check.size());
  }
  for (const auto& finding : findings) {
    fmt::print("  {:<4}  {:<{}}  {}\n", to_string(finding.status), finding.check, width, finding.finding);
    if (!finding.fix.empty()) {
      fmt::print("  {:<4}  {:<{}}  fix: {}\n", "", "", width, finding.fix);
    }
  }
  const auto count = [&](CheckStatus status) {
    return std::count_if(findings.begin(), findings.end(),
                         [&](const Finding& f) { return f.status == status; });
  };
  const auto failed = count(CheckStatus::fail);
  const auto warned = count(CheckStatus::warn);
  fmt::print("{} failed, {} warning{}: {}\n", failed, warned, warned == 1 ? "" : "s",
             failed > 0   ? "not fit to benchmark"
             : warned > 0 ? "fit to benchmark, with caveats"
                          : "fit to benchmark");
}

nlohmann::ordered_json findings_to_json(const Scope& scope, const std::vector<Finding>& findings,
                                        int exit_code) {
  nlohmann::ordered_json json;
  json["perfduel_version"] = PERFDUEL_VERSION;
  json["started"] = util::now_iso8601();
  json["cpus"] = scope.cpus;
  json["cpu_selection"] = scope.selection == CpuSelection::requested ? "requested" : "all_online";
  json["status"] = std::string(to_string(worst_status(findings)));
  json["exit_code"] = exit_code;
  auto checks = nlohmann::ordered_json::array();
  for (const auto& finding : findings) {
    checks.push_back({{"check", finding.check},
                      {"status", std::string(to_string(finding.status))},
                      {"finding", finding.finding},
                      {"fix", finding.fix}});
  }
  json["checks"] = checks;
  return json;
}

int run_doctor(const DoctorOptions& options) {
  std::vector<int> cpus;
  if (!options.cpus.empty()) {
    auto parsed = util::parse_cpu_list(options.cpus);
    if (!parsed) {
      throw Error(fmt::format("--cpus: {}", parsed.error()));
    }
    cpus = std::move(parsed).value();
  }
  const auto facts = read_machine_facts("/", Probing::full, cpus);
  const Scope scope{cpus.empty() ? facts.online_cpus : cpus,
                    cpus.empty() ? CpuSelection::all_online : CpuSelection::requested};
  if (options.resource_spec) {
    write_resource_spec(*options.resource_spec, facts);
  }
  const auto findings = diagnose(facts, scope.cpus, scope.selection);
  // Warnings and remarks alone do not fail, so a CI job can run `doctor` as a gate in front of
  // `ctest -L perf` (k_doctor_exit_code_table).
  const int exit_code =
      to_int(worst_status(findings) == CheckStatus::fail ? ExitCode::regression : ExitCode::pass);
  print_findings(scope, findings);
  if (options.json) {
    util::write_json_file(*options.json, findings_to_json(scope, findings, exit_code));
  }
  return exit_code;
}

}  // namespace

void add_doctor_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<DoctorOptions>(subcommand, exit_code, run_doctor);
  command->add_option("--cpus", options->cpus, "check these CPUs, e.g. 2-3 (default: all online CPUs)")
      ->type_name("LIST");
  command->add_option("--json", options->json, "also write the findings to this file as JSON")
      ->type_name("FILE");
  command
      ->add_option(
          "--resource-spec", options->resource_spec,
          "also write a CTest resource spec file (JSON 1.0, resource \"cpus\") with the CPUs fit for "
          "benchmarking, for ctest --resource-spec-file")
      ->type_name("FILE");
  command->footer(exit_codes_help(k_doctor_exit_code_table));
}

}  // namespace perfduel::cli
