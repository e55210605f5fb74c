__kernel void math_pow(__global const float* a, __global const float* b, __global float* p) {
  int i = get_global_id(0);
  p[i] = pow(a[i], b[i]) + pown(a[i], 3);
}
