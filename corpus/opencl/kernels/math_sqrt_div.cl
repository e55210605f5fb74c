__kernel void math_sqrt_div(__global const float* a, __global const float* b, __global float* s, __global float* q, __global float* r) {
  int i = get_global_id(0);
  s[i] = sqrt(a[i]);
  q[i] = a[i] / b[i];
  r[i] = rsqrt(a[i]);
}
