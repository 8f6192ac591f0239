// HAZARD: H39  VARIANT: fixed  OWNER: cuda-host-owning-object-in-device-code
// EXPECT: the boundary records are copied to device memory and the lambda
// captures a pointer to them; every low face is read correctly.
#include "common.cuh"
#include <vector>

template <class T> class Vector : public std::vector<T> {
public:
  using std::vector<T>::vector;
  const T *dataPtr() const { return this->data(); }
};

struct BCRec {
  int lo[3], hi[3];
};

__host__ __device__ int low_face(const BCRec *bcs, int comp) {
  return bcs[comp].lo[0];
}

int main() {
  const int n = 1 << 16;
  Vector<BCRec> bcs(n);
  for (int i = 0; i < n; ++i)
    bcs[i] = BCRec{{i, i, i}, {-i, -i, -i}};
  BCRec *device_bcs = nullptr;
  int *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&device_bcs, n * sizeof(BCRec)));
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(int)));
  REQUIRE_CUDA(cudaMemcpy(device_bcs, bcs.dataPtr(), n * sizeof(BCRec),
                          cudaMemcpyHostToDevice));
  const BCRec *bcr = device_bcs;
  launch(n, [=] __device__ (int comp) { out[comp] = low_face(bcr, comp); });
  std::string error = sync_error();
  std::vector<int> got(n), want(n);
  REQUIRE_CUDA(cudaMemcpy(got.data(), out, n * sizeof(int),
                          cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    want[i] = i;
  int bad = count_mismatches(got.data(), want.data(), n);
  bool ok = error == "cudaSuccess" && bad == 0;
  report("cuda-host-owning-object-in-device-code.fixed",
         "cudaSuccess, all values right",
         error + ", " + std::to_string(bad) + " mismatches", ok);
  cudaFree(device_bcs);
  cudaFree(out);
  return ok ? 0 : 1;
}
