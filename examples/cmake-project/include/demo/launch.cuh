// Launch helper shared by the demo sources.
#pragma once

#include <cuda_runtime.h>

namespace demo {

template <typename F>
__global__ void forEach(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

template <typename F>
void launch(int n, F f) {
  forEach<<<(n + 255) / 256, 256>>>(n, f);
}

} // namespace demo
