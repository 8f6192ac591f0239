// HAZARD: H39  VARIANT: fixed  OWNER: cuda-host-owning-object-in-device-code
// EXPECT: the class keeps a device copy of its cells (cudaMalloc, cudaMemcpy)
// and the lambda captures a pointer to it instead of [*this]: every output
// is 2.
#include "common.cuh"
#include <vector>

class Grid {
public:
  explicit Grid(int n) : cells_(n, 2.0f), n_(n) {
    cudaMalloc(&device_cells_, n * sizeof(float));
    cudaMemcpy(device_cells_, cells_.data(), n * sizeof(float),
               cudaMemcpyHostToDevice);
  }
  void copy_to(float *d) const {
    const float *cells = device_cells_;
    launch(n_, [cells, d] __device__ (int i) { d[i] = cells[i]; });
  }

private:
  std::vector<float> cells_;
  float *device_cells_ = nullptr;
  int n_;
};

int main() {
  const int n = 1 << 16;
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  Grid grid(n);
  grid.copy_to(out);
  return report_device_values("cuda-host-owning-object-in-device-code.star-this.fixed",
                              out, n, 2.0f);
}
