#include "cli/report_output.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <unistd.h>

#include "error.hpp"
#include "report/duel_plot.hpp"
#include "report/html_run.hpp"
#include "report/table.hpp"
#include "util/file.hpp"
#include "util/json_file.hpp"

namespace perfduel::cli {

void add_output_options(CLI::App& command, ReportOutputs& outputs) {
  command.add_option("--json", outputs.json, "write the full report, raw samples included, to this file");
  command.add_option("--markdown", outputs.markdown,
                     "write a Markdown summary (pull-request comment, job summary)");
  command.add_option("--svg", outputs.svg,
                     "write an SVG plot of every run and the change per round, one panel per metric");
  command.add_option("--html", outputs.html,
                     "write a self-contained HTML page of the duel: the table, every run and the change per "
                     "round as charts (values on hover), the notes");
  command.add_flag("--ctest-measurements", outputs.ctest_measurements,
                   "print <CTestMeasurement> tags so CDash shows the numbers");
  command.add_flag("--verbose", outputs.verbose,
                   "print every note under the table (levels, settings, how each metric settled), not only "
                   "those that change how to read the verdict");
}

void check_output_paths(const ReportOutputs& outputs) {
  const std::pair<const char*, const std::string*> files[] = {{"--json", &outputs.json},
                                                              {"--markdown", &outputs.markdown},
                                                              {"--svg", &outputs.svg},
                                                              {"--html", &outputs.html}};
  for (const auto& [option, file] : files) {
    if (file->empty()) {
      continue;
    }
    const std::filesystem::path path(*file);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      throw Error(fmt::format("{} {}: is a directory, expected a file name", option, *file));
    }
    const std::filesystem::path directory = path.has_parent_path() ? path.parent_path() : ".";
    if (!std::filesystem::is_directory(directory, ec)) {
      throw Error(fmt::format("{} {}: the directory {} does not exist", option, *file, directory.string()));
    }
    if (::access(directory.c_str(), W_OK) != 0) {
      throw Error(fmt::format("{} {}: the directory {} is not writable", option, *file, directory.string()));
    }
  }
}

void write_outputs(const RunSummary& summary, const ReportOutputs& outputs) {
  // The JSON goes first: it is the record that must survive whatever happens next.
  if (!outputs.json.empty()) {
    util::write_json_file(outputs.json, report_to_json(summary));
  }
  // The measurements first: what ctest --output-on-failure shows last is the table and the verdict.
  if (outputs.ctest_measurements) {
    fmt::print("{}", format_ctest_measurements(summary));
  }
  fmt::print("{}", format_table(summary, outputs.verbose ? Verbosity::verbose : Verbosity::normal));
  std::fflush(stdout);
  if (!outputs.markdown.empty() &&
      !util::write_file_atomically(outputs.markdown, format_markdown(summary)).empty()) {
    throw Error(fmt::format("{}: cannot write the Markdown report", outputs.markdown));
  }
  if (!outputs.svg.empty() &&
      !util::write_file_atomically(outputs.svg, render_duel_svg(*summary.config, *summary.outcome)).empty()) {
    throw Error(fmt::format("{}: cannot write the SVG plot (does the directory exist?)", outputs.svg));
  }
  if (!outputs.html.empty()) {
    const auto name = std::filesystem::path(outputs.html).stem().string();
    if (const auto error = util::write_file_atomically(
            outputs.html,
            render_html_page(duel_page(report_from_json_lenient(report_to_json(summary)), name)));
        !error.empty()) {
      throw Error(fmt::format("{}: cannot write the HTML page: {}", outputs.html, error));
    }
  }
}

}  // namespace perfduel::cli
