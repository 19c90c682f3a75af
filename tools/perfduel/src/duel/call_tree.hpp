#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "run/profile.hpp"

// A differential call tree of two profiles, what an icicle (or flame) graph draws: each node a
// function on one call path, with its inclusive instructions on that path on either side.
// Callgrind records calls between functions, not whole stacks, so a function's callees are
// shared out over its callers in proportion to what each caller's calls of it cost (as gprof
// does): exact one level down, an estimate deeper where one function is called from several
// places.
namespace perfduel {

struct CallTreeNode {
  std::string name;
  int parent = -1;      // index of the parent node, -1 for the root
  double baseline = 0;  // inclusive instructions on this path, per iteration (or per run)
  double candidate = 0;
};

// The nodes kept: a path whose cost is below `least_share` of the larger total on both sides is
// left out, and so is a path deeper than k_call_tree_depth.
inline constexpr double k_call_tree_least_share = 0.005;
inline constexpr int k_call_tree_depth = 24;

// The tree of `baseline` and `candidate` in depth-first order (a parent before its children),
// at most `most_nodes` nodes: the root "all" (every function's own cost), below it the functions
// that no other function called in the window, and their callees down each path. A recursive
// call is not followed again. Empty when both profiles are.
std::vector<CallTreeNode> differential_call_tree(const Profile& baseline, const Profile& candidate,
                                                 std::size_t most_nodes = 400);

}  // namespace perfduel
