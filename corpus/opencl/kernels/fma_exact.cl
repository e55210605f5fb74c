// Correctly rounded operations: fma, add, mul, fmin, fmax, floor, ceil, rint, fabs, copysign.
__kernel void fma_exact(__global const float* a, __global const float* b, __global const float* c, __global float* out) {
  int i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  out[6 * i + 0] = fma(x, y, z);
  out[6 * i + 1] = x * y - z;
  out[6 * i + 2] = fmin(x, y) + fmax(y, z);
  out[6 * i + 3] = floor(x) + ceil(y);
  out[6 * i + 4] = rint(z * 3.0f);
  out[6 * i + 5] = copysign(fabs(x), y) + trunc(z);
}
