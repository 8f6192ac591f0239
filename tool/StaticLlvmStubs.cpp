//===--- StaticLlvmStubs.cpp - cuda-lambda-tidy -------------------------===//
//
// Only in the self-contained binary.
//
//===----------------------------------------------------------------------===//
