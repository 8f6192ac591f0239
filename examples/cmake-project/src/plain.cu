// A target without --extended-lambda: plain kernels only.
#include "demo/launch.cuh"

__global__ void fill(float *data, int n, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value;
}
