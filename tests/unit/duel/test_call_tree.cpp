// The differential call tree of two profiles (duel/call_tree.hpp): paths from the functions no one
// called down through their callees, each path's cost on both sides, callees shared out over
// their callers in proportion, recursion and small paths left out.
#include <string>

#include <catch2/catch.hpp>

#include "duel/call_tree.hpp"

using namespace perfduel;

namespace {

Profile two_callers(double shared_cost) {
  Profile profile;
  profile.functions["main"] = {10, 10 + 400 + 600, 0, "", 0, {}, 0};
  profile.functions["parse"] = {100, 400, 0, "", 0, {}, 0};
  profile.functions["render"] = {300, 600, 0, "", 0, {}, 0};
  profile.functions["alloc"] = {shared_cost, shared_cost, 0, "", 0, {}, 0};
  profile.calls[{"main", "parse"}] = 400;
  profile.calls[{"main", "render"}] = 600;
  profile.calls[{"parse", "alloc"}] = 300;
  profile.calls[{"render", "alloc"}] = 300;
  return profile;
}

const CallTreeNode* find(const std::vector<CallTreeNode>& tree, const std::string& name,
                         const std::string& parent) {
  for (const auto& node : tree) {
    if (node.name == name && node.parent >= 0 && tree[static_cast<std::size_t>(node.parent)].name == parent) {
      return &node;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a call tree: the root, each path, both sides", "[call_tree]") {
  Profile candidate = two_callers(600);
  candidate.functions["render"].inclusive = 900;
  candidate.functions["main"].inclusive = 1310;
  candidate.calls[{"main", "render"}] = 900;
  candidate.calls[{"render", "alloc"}] = 600;
  candidate.calls[{"parse", "alloc"}] = 300;
  candidate.functions["alloc"] = {900, 900, 0, "", 0, {}, 0};
  const auto tree = differential_call_tree(two_callers(600), candidate);
  REQUIRE(tree.size() == 6);
  CHECK(tree[0].name == "all");
  CHECK(tree[0].parent == -1);
  CHECK(tree[0].baseline == 10.0 + 100 + 300 + 600);
  CHECK(tree[1].name == "main");
  const auto* render = find(tree, "render", "main");
  REQUIRE(render != nullptr);
  CHECK(render->baseline == 600.0);
  CHECK(render->candidate == 900.0);
  const auto* alloc_render = find(tree, "alloc", "render");
  REQUIRE(alloc_render != nullptr);
  CHECK(alloc_render->baseline == 300.0);
  CHECK(alloc_render->candidate == 600.0);
  const auto* alloc_parse = find(tree, "alloc", "parse");
  REQUIRE(alloc_parse != nullptr);
  CHECK(alloc_parse->candidate == 300.0);
  // A parent comes before its children.
  for (std::size_t i = 1; i < tree.size(); ++i) {
    CHECK(tree[i].parent < static_cast<int>(i));
  }
}

TEST_CASE("a call tree follows no recursion and leaves out small paths", "[call_tree]") {
  Profile profile;
  profile.functions["main"] = {1, 100001, 0, "", 0, {}, 0};
  profile.functions["walk"] = {99000, 100000, 0, "", 0, {}, 0};
  profile.functions["tiny"] = {100, 100, 0, "", 0, {}, 0};
  profile.functions["log"] = {900, 900, 0, "", 0, {}, 0};
  profile.calls[{"main", "walk"}] = 100000;
  profile.calls[{"walk", "walk"}] = 50000;  // a call of itself: in its own cost already
  profile.calls[{"walk", "tiny"}] = 100;    // 0.1 % of the total: left out
  profile.calls[{"walk", "log"}] = 900;
  const auto tree = differential_call_tree(profile, profile);
  REQUIRE(tree.size() == 4);
  CHECK(tree[3].name == "log");
  CHECK(differential_call_tree(Profile{}, Profile{}).empty());
}
