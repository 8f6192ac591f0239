//===--- PluginAnchor.cpp - cuda-lambda-tidy ----------------------------===//
//
// The only source of libCudaLambdaTidy.so: pulls the module in from the
// checks' static library. clang-tidy's own symbols come from the executable
// that loads the plugin.
//
//===----------------------------------------------------------------------===//

#include "CudaModuleAnchor.h"
