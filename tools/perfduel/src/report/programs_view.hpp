#pragma once

#include <optional>
#include <string>

#include "duel/analysis.hpp"
#include "duel/programs.hpp"
#include "report_format/json_report.hpp"

// How the reports show what the two sides were found to run (duel/programs.hpp): for identical
// programs, in place of the table of a duel that did not run, what was compared and its hash;
// for a measured duel, a note saying why the programs were measured.
namespace perfduel {

// What a fingerprint covered, in words: "the same executable, 6 shared libraries and 1 file
// named by an argument, with the same arguments, environment settings and working directory".
std::string compared_text(const ProgramFingerprint& fingerprint);

// The lines a terminal shows for a duel of identical programs in `summary` (instead of its
// table): that nothing was measured and every metric is no change, what was compared, each side's
// command and the fingerprint's SHA-256; with `files` every file with its path and SHA-256.
enum class FileList { hidden, shown };
std::string identical_programs_text(const RunSummary& summary, FileList files);

// The same as Markdown, the files folded in a <details> table.
std::string identical_programs_markdown(const RunSummary& summary);

}  // namespace perfduel
