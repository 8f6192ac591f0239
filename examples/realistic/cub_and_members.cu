// Correct code: cub with a host-device transform functor, libcu++, a class
// template whose member functions launch extended lambdas the right way, and
// a project macro for lambdas. No cuda-* check may fire on it.
// NVCC: accepted
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/array>
#include <cuda/std/functional>
#include <cstdio>

#define APP_LAMBDA [=] __host__ __device__

template <typename F>
__global__ void for_each_index(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

template <typename F> void parallel_for(int n, F f) {
  for_each_index<<<(n + 255) / 256, 256>>>(n, f);
}

template <typename T> class Field {
public:
  Field(T *data, int size, T scale) : data_(data), size_(size), scale_(scale) {}

  // [=, *this]: the closure holds a copy of this small, trivially copyable
  // object, not the host pointer 'this'.
  void scale() {
    parallel_for(size_, [=, *this] __device__ (int i) { data_[i] *= scale_; });
  }

  // Copy members into locals first: the other fix.
  void shift(T by) {
    T *data = data_;
    parallel_for(size_, [=] __device__ (int i) { data[i] += by; });
  }

  static void clear(T *data, int n) {
    parallel_for(n, [=] __device__ (int i) { data[i] = T(0); });
  }

private:
  T *data_;
  int size_;
  T scale_;
};

struct Clamp {
  float lo, hi;
  __host__ __device__ float operator()(float v) const {
    return v < lo ? lo : (v > hi ? hi : v);
  }
};

void prefix_sums(const float *in, float *out, int n) {
  void *temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n);
  cudaFree(temp);
}

void max_of(const int *in, int *out, int n) {
  void *temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Max(temp, temp_bytes, in, out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Max(temp, temp_bytes, in, out, n);
  cudaFree(temp);
}

__device__ float dot3(const cuda::std::array<float, 3> &a,
                      const cuda::std::array<float, 3> &b) {
  // Lambdas inside device code may capture by reference.
  float sum = 0;
  auto accumulate = [&](int k) { sum += a[k] * b[k]; };
  for (int k = 0; k < 3; ++k)
    accumulate(k);
  return sum;
}

__global__ void dots(int n, const float *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cuda::std::array<float, 3> a{v[i], v[i] + 1, v[i] + 2};
    out[i] = dot3(a, a);
  }
}

void normalize(float *values, int n, float lo, float hi) {
  Clamp clamp{lo, hi};
  auto apply = APP_LAMBDA (int i) { values[i] = clamp(values[i]); };
  parallel_for(n, apply);
}

int main() {
  const int n = 1024;
  float *a, *b;
  int *ints, *result;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&ints, n * sizeof(int));
  cudaMalloc(&result, sizeof(int));
  Field<float> field(a, n, 2.0f);
  Field<float>::clear(a, n);
  field.shift(1.0f);
  field.scale();
  prefix_sums(a, b, n);
  max_of(ints, result, n);
  dots<<<4, 256>>>(n, a, b);
  normalize(b, n, 0.0f, 1.0f);
  cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
