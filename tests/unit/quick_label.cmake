# Included by CTest after Catch2's discovered-tests file (tests/CMakeLists.txt): every unit test
# gets the label quick beside unit, which catch_discover_tests cannot give (its PROPERTIES take
# one value per property).
foreach(test IN LISTS perfduel_unit_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "unit;quick")
endforeach()
