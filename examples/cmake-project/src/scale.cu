// Scaling kernels: one bad capture, one good.
#include "demo/launch.cuh"

void scaleBad(float *data, int n, float factor) {
  demo::launch(n, [&factor, data] __device__(int i) { data[i] *= factor; });
}

void scaleGood(float *data, int n, float factor) {
  demo::launch(n, [=] __device__(int i) { data[i] *= factor; });
}
