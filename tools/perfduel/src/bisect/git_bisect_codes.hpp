#pragma once

#include "exit_codes.hpp"

// `perfduel compare --exit-codes git-bisect`: the duel as the test of `git bisect run`, whose
// script must exit 0 for a good commit, 1-127 (not 125) for a bad one, 125 to skip one it
// cannot judge, and 128 or more to stop the bisection.
namespace perfduel::bisect {

// The exit code for `git bisect run` of a duel that ended with `code`: pass 0 (good),
// regression 1 (bad), inconclusive 125 (skip: git tries a neighbour, as for a commit that does
// not build), a failed benchmark 125 (skip: this commit cannot be measured), a usage or
// configuration error 128 (abort: it would fail at every commit, and as 2 git would take it
// for "bad"), interrupted 130 (abort).
ExitCode git_bisect_exit_code(ExitCode code);

// Whether the command line `argv` asks for git bisect's exit codes (`--exit-codes git-bisect`
// or `--exit-codes=git-bisect`), so that even an error in parsing it aborts the bisection
// instead of marking the commit bad.
bool asks_for_git_bisect_codes(int argc, const char* const* argv);

}  // namespace perfduel::bisect
