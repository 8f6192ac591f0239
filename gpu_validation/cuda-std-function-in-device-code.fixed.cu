// HAZARD: H17  VARIANT: fixed  OWNER: cuda-std-function-in-device-code
// EXPECT: the kernel takes its operation as a template parameter instead of a
// std::function; the host still chooses the operation with a std::function
// that is never copied to the device. Results match.
#include "common.cuh"
#include <functional>
#include <vector>

template <typename Op> __global__ void apply(int n, int *data, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = op(data[i]);
}

int main(int argc, char **) {
  const int n = 1000;
  std::vector<int> host(n), expected(n);
  for (int i = 0; i < n; ++i) {
    host[i] = i - 300;
    expected[i] = 3 * (i - 300) + 1;
  }
  int *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(int)));
  REQUIRE_CUDA(cudaMemcpy(d, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  auto triple_plus_one = [] __device__ (int v) { return 3 * v + 1; };
  auto negate = [] __device__ (int v) { return -v; };
  std::function<void()> run = [&] { apply<<<(n + 127) / 128, 128>>>(n, d, triple_plus_one); };
  if (argc > 5) // never true here: a host-side choice between launches
    run = [&] { apply<<<(n + 127) / 128, 128>>>(n, d, negate); };
  run();
  std::string error = sync_error();
  REQUIRE_CUDA(cudaMemcpy(host.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = count_mismatches(host.data(), expected.data(), n, 0.0);
  bool ok = report("cuda-std-function-in-device-code.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
