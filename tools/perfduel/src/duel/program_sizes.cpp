#include "duel/program_sizes.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "duel/size_growth.hpp"
#include "error.hpp"
#include "run/program_path.hpp"

namespace perfduel {

namespace {

// The sizes of `command`'s program, for metric `metric`.
util::ElfSize read_program(const CommandSpec& command, const MetricSpec& metric) {
  if (command.launch == Launch::shell) {
    throw Error(fmt::format("metric \"{}\" reads the program's file: the command must be the program, not a "
                            "shell script (drop --shell / shell: true)",
                            metric.name),
                ExitCode::usage);
  }
  const auto program = resolve_program(command.argv.front(), command.working_directory);
  if (!program) {
    throw Error(fmt::format("metric \"{}\": {}", metric.name, program.error()), ExitCode::benchmark_failed);
  }
  auto size = util::read_elf_size(*program);
  if (!size) {
    throw Error(fmt::format("metric \"{}\": {}", metric.name, size.error()), ExitCode::benchmark_failed);
  }
  return std::move(size).value();
}

}  // namespace

ProgramSizes::ProgramSizes(const Config& config) {
  const auto metric = std::find_if(config.metrics.begin(), config.metrics.end(),
                                   [](const MetricSpec& m) { return m.source == MetricSource::binary_size; });
  if (metric == config.metrics.end() || !config.baseline || !config.candidate) {
    return;
  }
  m_sizes[0] = read_program(*config.baseline, *metric);
  m_sizes[1] = read_program(*config.candidate, *metric);
}

double ProgramSizes::bytes(Side side) const {
  const auto& size = m_sizes[side == Side::baseline ? 0 : 1];
  return size ? static_cast<double>(size->bytes) : 0.0;
}

void ProgramSizes::note_growth(const Analysis& analysis, std::vector<Note>& notes) const {
  if (!m_sizes[0] || !m_sizes[1]) {
    return;
  }
  for (const auto& result : analysis.metrics) {
    if (result.spec.source != MetricSource::binary_size ||
        !(result.verdict == Verdict::regression || result.likely_regression)) {
      continue;
    }
    const auto grown = grown_symbols(*m_sizes[0], *m_sizes[1]);
    const auto change = static_cast<long long>(m_sizes[1]->bytes) - static_cast<long long>(m_sizes[0]->bytes);
    notes.push_back({NoteWeight::key, fmt::format("{}: {:+} B: {}", result.spec.name, change,
                                                  grown.empty() ? std::string("no symbol grew (sections did)")
                                                                : "grew most: " + describe_growth(grown))});
  }
}

}  // namespace perfduel
