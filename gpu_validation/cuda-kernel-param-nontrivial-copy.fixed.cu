// HAZARD: H31  VARIANT: fixed  OWNER: cuda-kernel-param-nontrivial-copy
// EXPECT: the owner stays on the host and the kernel receives a non-owning
// view (pointer and size); the buffer is freed once, by its owner, and the
// caller reads back the values the kernel wrote.
#include "common.cuh"

struct DeviceSpan {
  float *data;
  int size;
};

struct DeviceBuffer {
  float *data = nullptr;
  int size = 0;
  explicit DeviceBuffer(int n) : size(n) {
    REQUIRE_CUDA(cudaMalloc(&data, n * sizeof(float)));
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { cudaFree(data); }
  DeviceSpan view() const { return {data, size}; }
};

__global__ void fill(DeviceSpan b, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.size)
    b.data[i] = v;
}

int main() {
  const int n = 1024;
  DeviceBuffer buffer(n);
  fill<<<(n + 127) / 128, 128>>>(buffer.view(), 2.0f);
  std::string error = sync_error();
  float host[n], expected[n];
  for (int i = 0; i < n; ++i)
    expected[i] = 2.0f;
  REQUIRE_CUDA(cudaMemcpy(host, buffer.data, n * sizeof(float),
                          cudaMemcpyDeviceToHost));
  int bad = count_mismatches(host, expected, n);
  bool ok = report("cuda-kernel-param-nontrivial-copy.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
