// Built by the DEMO_BUILDABLE configuration (test/launcher_e2e.py): nvcc
// compiles this file without a word, and the kernel it launches reads the
// object through a host pointer. cuda-lambda-tidy-launcher fails the build
// here; with '[=, *this]' the closure carries a copy of the object instead,
// and the build passes.
#include "demo/launch.cuh"

struct Particles {
  float *position;
  const float *velocity;
  float dt;
  int n;

  void advance() {
    demo::launch(n, [=] __device__(int i) { position[i] += velocity[i] * dt; });
  }
};

void step(float *position, const float *velocity, float dt, int n) {
  Particles p{position, velocity, dt, n};
  p.advance();
}
