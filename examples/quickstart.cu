// A small CUDA file with mistakes that cuda-lambda-tidy finds. Run:
//   bash scripts/lint-example.sh
//
// None of the faulty lambdas below is launched, so clang compiles this file
// without a word; nvcc rejects it, and the linter says why, with fixes.
#include <cstdio>

template <typename F>
__global__ void for_each_index(int n, F body) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(i);
}

// Correct: everything is captured by value.
void saxpy(int n, float a, const float *x, float *y) {
  auto body = [=] __device__ (int i) { y[i] = a * x[i] + y[i]; };
  for_each_index<<<(n + 255) / 256, 256>>>(n, body);
}

struct Pipeline {
  float scale_factor = 2.0f;
  float *data = nullptr;
  int size = 0;

  // Wrong: '[&]' captures 'size' (and 'this') by reference; references into
  // the host's stack, which the GPU cannot read.
  auto make_bound_check() {
    int limit = size;
    return [&] __device__ (int i) { return i < limit; };
  }
};

void scale(int n, float factor, float *data) {
  // Wrong: one by-reference capture in a host-device lambda.
  auto times = [&factor, data] __host__ __device__ (int i) { data[i] *= factor; };
  (void)times;
}

int main() {
  const int n = 1 << 20;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy(n, 2.0f, x, y);
  scale(n, 0.5f, y);
  cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(x);
  cudaFree(y);
}
