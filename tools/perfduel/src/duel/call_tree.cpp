#include "duel/call_tree.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "count/profile.hpp"

namespace perfduel {

namespace {

// One side's calls by caller: callee → the instructions of those calls.
using Callees = std::map<std::string, std::map<std::string, double>>;

Callees callees_of(const Profile& profile) {
  Callees callees;
  for (const auto& [call, cost] : profile.calls) {
    if (call.first != call.second && cost > 0) {
      callees[call.first][call.second] += cost;
    }
  }
  return callees;
}

double inclusive_of(const Profile& profile, const std::string& name) {
  const auto found = profile.functions.find(name);
  return found == profile.functions.end() ? 0.0 : found->second.inclusive;
}

class TreeBuilder {
 public:
  TreeBuilder(const Profile& baseline, const Profile& candidate, std::size_t most_nodes)
      : m_profiles{&baseline, &candidate},
        m_callees{callees_of(baseline), callees_of(candidate)},
        m_most(most_nodes) {}

  std::vector<CallTreeNode> build() {
    const std::array<double, 2> totals{total_instructions(*m_profiles[0]),
                                       total_instructions(*m_profiles[1])};
    if (totals[0] <= 0 && totals[1] <= 0) {
      return {};
    }
    m_least = k_call_tree_least_share * std::max(totals[0], totals[1]);
    m_nodes.push_back({"all", -1, totals[0], totals[1]});
    // The roots: functions no function of the window called.
    std::set<std::string> called;
    for (const auto& side : m_callees) {
      for (const auto& [caller, callees] : side) {
        for (const auto& [callee, cost] : callees) {
          called.insert(callee);
        }
      }
    }
    std::vector<std::pair<std::string, std::array<double, 2>>> roots;
    for (const auto* profile : m_profiles) {
      for (const auto& entry : profile->functions) {
        const std::string& name = entry.first;  // a lambda may not capture a structured binding (clang 14)
        if (!called.contains(name) && std::none_of(roots.begin(), roots.end(), [&name](const auto& root) {
              return root.first == name;
            })) {
          roots.push_back({name, {inclusive_of(*m_profiles[0], name), inclusive_of(*m_profiles[1], name)}});
        }
      }
    }
    std::sort(roots.begin(), roots.end(), [](const auto& a, const auto& b) {
      return std::max(a.second[0], a.second[1]) > std::max(b.second[0], b.second[1]);
    });
    std::set<std::string> path;
    for (const auto& [name, amounts] : roots) {
      grow(name, amounts, 0, 1, path);
    }
    return std::move(m_nodes);
  }

 private:
  // Adds `name` with `amounts` under node `parent`, then its callees, shared out in proportion.
  void grow(const std::string& name, const std::array<double, 2>& amounts, int parent, int depth,
            std::set<std::string>& path) {
    if (std::max(amounts[0], amounts[1]) < m_least || m_nodes.size() >= m_most || depth > k_call_tree_depth) {
      return;
    }
    const int index = static_cast<int>(m_nodes.size());
    m_nodes.push_back({name, parent, amounts[0], amounts[1]});
    path.insert(name);
    std::map<std::string, std::array<double, 2>> children;
    for (std::size_t side = 0; side < 2; ++side) {
      const auto callees = m_callees[side].find(name);
      const double inclusive = inclusive_of(*m_profiles[side], name);
      if (callees == m_callees[side].end() || inclusive <= 0) {
        continue;
      }
      for (const auto& [callee, cost] : callees->second) {
        children[callee][side] += cost * std::min(1.0, amounts[side] / inclusive);
      }
    }
    std::vector<std::pair<std::string, std::array<double, 2>>> ordered(children.begin(), children.end());
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
      return std::max(a.second[0], a.second[1]) > std::max(b.second[0], b.second[1]);
    });
    for (const auto& [callee, child] : ordered) {
      if (!path.contains(callee)) {
        grow(callee, child, index, depth + 1, path);
      }
    }
    path.erase(name);
  }

  std::array<const Profile*, 2> m_profiles;
  std::array<Callees, 2> m_callees;
  std::size_t m_most;
  double m_least = 0;
  std::vector<CallTreeNode> m_nodes;
};

}  // namespace

std::vector<CallTreeNode> differential_call_tree(const Profile& baseline, const Profile& candidate,
                                                 std::size_t most_nodes) {
  return TreeBuilder(baseline, candidate, most_nodes).build();
}

}  // namespace perfduel
