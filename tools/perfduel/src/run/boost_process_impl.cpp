// Boost.Process v2's compiled part. Boost 1.81's header-only mode leaves
// process_environment::on_setup undefined, so the library is built here once, with
// BOOST_PROCESS_V2_SEPARATE_COMPILATION defined for every user (see the CMakeLists).
#include <boost/process/v2/src.hpp>
