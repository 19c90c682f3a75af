#pragma once

#include <string_view>

#include "run/profile.hpp"
#include "util/expected.hpp"

// Profiles (run/profile.hpp) read from Valgrind's output files, and combined: the difference of
// two windows, a scaled one, the sum of a run's processes.
namespace perfduel {

// The profile in a callgrind dump or a cachegrind output file `text`: every cost line added to its
// function (compressed names and files, "(12) name" then "(12)", and relative positions, "+3",
// "-1", "*", as callgrind writes them), a cost line after "calls=" to the call instead. The error
// names the cost line that is malformed.
util::Expected<Profile> parse_profile(std::string_view text);

// `larger` less `smaller`, divided by `divisor` (> 0): the cost per iteration of the iterations
// `larger` ran beyond `smaller`. A function or call in one only counts 0 in the other; where they
// are named in either, the file and line are `larger`'s, else `smaller`'s.
Profile profile_difference(const Profile& larger, const Profile& smaller, double divisor);

// `profile` with every cost divided by `divisor` (> 0).
Profile scaled_profile(Profile profile, double divisor);

// Adds `from`'s costs to `into`'s (the processes of one run).
void add_profile(Profile& into, const Profile& from);

// The sum of every function's own instructions: the window's total.
double total_instructions(const Profile& profile);

}  // namespace perfduel
