// HAZARD: H30  VARIANT: fixed  OWNER: cuda-static-in-host-device-function
// EXPECT: the counter lives in a __managed__ variable that the host and the
// device share: after three host calls the kernel's call returns 4.
#include "common.cuh"

__managed__ int issued = 0;

__host__ __device__ int next_ticket() { return ++issued; }

__global__ void take_ticket(int *out) { *out = next_ticket(); }

int main() {
  int host_last = 0;
  for (int i = 0; i < 3; ++i)
    host_last = next_ticket();
  int *d;
  REQUIRE_CUDA(cudaMalloc(&d, sizeof(int)));
  take_ticket<<<1, 1>>>(d);
  std::string error = sync_error();
  int device_ticket = 0;
  REQUIRE_CUDA(cudaMemcpy(&device_ticket, d, sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = host_last == 3 && device_ticket == 4;
  report("cuda-static-in-host-device-function.fixed",
         "host count 3, kernel's ticket 4",
         "host count " + std::to_string(host_last) + ", kernel's ticket " +
             std::to_string(device_ticket) + ", " + error,
         ok);
  return ok ? 0 : 1;
}
