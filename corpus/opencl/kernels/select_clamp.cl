__kernel void select_clamp(__global const float* a, __global const int* b, __global float* f, __global int* n) {
  int i = get_global_id(0);
  f[i] = select(clamp(a[i], -1.0f, 1.0f), a[i] * 0.5f, b[i] > 0) + step(0.25f, a[i]) + sign(a[i]);
  n[i] = clamp(b[i], -50, 50) + min(b[i], 7) * max(b[i], -3) + (int)isgreater(a[i], 0.0f);
}
