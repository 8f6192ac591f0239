// Deliberately wrong: a CHECK-FIXES line that no fix-it writes (this
// diagnostic offers none), so the runner must still run --fix and fail.
void f(int x, int y) {
  auto l = [&, x] __device__ () { return x + y; };
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: {{.*}} [cuda-lambda-reference-capture]
  // CHECK-FIXES: auto l = [=] __device__ () { return x + y; };
  (void)l;
}
