// The fields of the report's "explanations": a metric's change attributed to functions
// (duel/explanation.hpp), beside the other sections' (report_format/report_fields.cpp).
#include "config/names.hpp"
#include "report_format/report_fields.hpp"

namespace perfduel::report_field {

namespace {

// The call tree compactly, a node a row: name, parent's index, baseline, candidate.
Json call_tree_json(const Explanation& explanation) {
  auto tree = Json::array();
  for (const CallTreeNode& node : explanation.tree) {
    tree.push_back(Json::array({node.name, node.parent, node.baseline, node.candidate}));
  }
  return tree;
}

// The rows of a call tree as written; a row of another shape is left out.
void read_call_tree(const Json& value, Explanation& explanation) {
  for (const auto& row : value.is_array() ? value : Json::array()) {
    if (row.is_array() && row.size() == 4 && row[0].is_string() && row[1].is_number_integer() &&
        row[2].is_number() && row[3].is_number()) {
      explanation.tree.push_back(
          {row[0].get<std::string>(), row[1].get<int>(), row[2].get<double>(), row[3].get<double>()});
    }
  }
}

}  // namespace

// A function's part in a change ("functions" items, "culprit").
const FieldTable<FunctionShare> k_function_share_fields{
    member("name", &FunctionShare::name),
    member("source_file", &FunctionShare::file),
    member("source_line", &FunctionShare::line),
    named("change", &FunctionShare::change, k_function_change_names, FunctionChange::changed),
    member("baseline", &FunctionShare::baseline),
    member("candidate", &FunctionShare::candidate),
    member("baseline_inclusive", &FunctionShare::baseline_inclusive),
    member("candidate_inclusive", &FunctionShare::candidate_inclusive),
    member("moved", &FunctionShare::moved),
    member("share", &FunctionShare::share),
};

const FieldTable<FunctionShare>& Table<FunctionShare>::fields() {
  return k_function_share_fields;
}

// Cost that moved from one function into another ("moves" items).
const FieldTable<CostMove> k_cost_move_fields{
    member("from", &CostMove::from),
    member("into", &CostMove::into),
    member("amount", &CostMove::amount),
    named("change", &CostMove::from_change, k_function_change_names, FunctionChange::changed),
};

const FieldTable<CostMove>& Table<CostMove>::fields() {
  return k_cost_move_fields;
}

// One explanation ("explanations" items): the metric's change, then its functions and moves.
const FieldTable<Explanation> k_explanation_fields{
    member("metric", &Explanation::metric),
    member("benchmark", &Explanation::benchmark),
    named("event", &Explanation::event, config::k_counted_events, CountedEvent::instructions),
    named("basis", &Explanation::basis, k_profile_basis_names, ProfileBasis::counted),
    member("metric_change", &Explanation::metric_change),
    member("instructions_change", &Explanation::instructions_change),
    member("cycles_change", &Explanation::cycles_change),
    named("reading", &Explanation::attribution, &Attribution::reading, k_reading_names,
          ProfileReading::explained),
    member("baseline_total", &Explanation::attribution, &Attribution::baseline_total),
    member("candidate_total", &Explanation::attribution, &Attribution::candidate_total),
    member("culprit", &Explanation::attribution, &Attribution::culprit),
    member("functions", &Explanation::attribution, &Attribution::functions),
    member("moves", &Explanation::attribution, &Attribution::moves),
    {"tree", call_tree_json, read_call_tree},
};

const FieldTable<Explanation>& Table<Explanation>::fields() {
  return k_explanation_fields;
}

}  // namespace perfduel::report_field
