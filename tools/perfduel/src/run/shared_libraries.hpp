#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "run/executor.hpp"
#include "util/expected.hpp"

// The shared libraries a dynamically linked program loads, as its own dynamic loader resolves
// them (what ldd shows), with the environment and working directory it would run with.
namespace perfduel {

// One library the loader maps at start: the name it was asked for (a DT_NEEDED entry such as
// "libc.so.6", or a path: the loader itself, an LD_PRELOAD entry) and the file it found.
struct SharedLibrary {
  std::string name;
  std::filesystem::path path;
};

// The libraries in `output`, what a glibc or musl loader prints in list mode (ld.so --list,
// as ldd runs it), in load order: "name => path (address)" and "path (address)" lines; the vDSO,
// which is no file, is left out. An error names a library that was "not found".
util::Expected<std::vector<SharedLibrary>> parse_loader_list(std::string_view output);

// The libraries `program` (an absolute path) loads: runs its dynamic loader `interpreter` (its
// PT_INTERP) in list mode through `executor`, in `working_directory` with `environment` added
// to the inherited one, as the program itself would start (LD_LIBRARY_PATH, LD_PRELOAD, a
// relative RUNPATH all apply). The loader resolves and maps them but runs none of their code.
// An error says why the list could not be had.
util::Expected<std::vector<SharedLibrary>> list_shared_libraries(
    Executor& executor, const std::filesystem::path& program, const std::string& interpreter,
    const std::map<std::string, std::string>& environment, const std::filesystem::path& working_directory);

}  // namespace perfduel
