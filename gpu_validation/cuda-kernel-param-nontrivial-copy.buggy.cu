// HAZARD: H31  VARIANT: buggy  OWNER: cuda-kernel-param-nontrivial-copy
// EXPECT: an owning buffer whose destructor calls cudaFree and whose copy
// constructor is the implicit shallow one is passed to a kernel by value; the
// parameter copy's destructor runs on the host right after the launch and
// frees the caller's buffer, so the caller's next cudaMemcpy from it fails
// with cudaErrorInvalidValue. nvcc compiles this silently.
#include "common.cuh"

struct DeviceBuffer {
  float *data = nullptr;
  int size = 0;
  explicit DeviceBuffer(int n) : size(n) {
    REQUIRE_CUDA(cudaMalloc(&data, n * sizeof(float)));
  }
  ~DeviceBuffer() { cudaFree(data); }
};

__global__ void fill(DeviceBuffer b, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.size)
    b.data[i] = v;
}

int main() {
  const int n = 1024;
  DeviceBuffer buffer(n);
  fill<<<(n + 127) / 128, 128>>>(buffer, 2.0f);
  std::string launch_error = sync_error();
  float host[n];
  std::string error =
      cudaGetErrorName(cudaMemcpy(host, buffer.data, n * sizeof(float),
                                  cudaMemcpyDeviceToHost));
  std::printf("launch: %s\n", launch_error.c_str());
  bool ok = report("cuda-kernel-param-nontrivial-copy.buggy",
                   "cudaErrorInvalidValue", error,
                   error == "cudaErrorInvalidValue");
  return ok ? 0 : 1;
}
