// Part of the 'plain' target, whose nvcc command lacks --extended-lambda:
// nvcc rejects this file (cuda-extended-lambda-flag says so, once).
#include "demo/launch.cuh"

void offset(int *data, int n, int by) {
  demo::launch(n, [=] __device__(int i) { data[i] += by; });
}

void negate(int *data, int n) {
  demo::launch(n, [data] __device__(int i) { data[i] = -data[i]; });
}
