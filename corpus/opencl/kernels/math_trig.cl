__kernel void math_trig(__global const float* x, __global float* s, __global float* c, __global float* t) {
  int i = get_global_id(0);
  s[i] = sin(x[i]);
  c[i] = cos(x[i]);
  t[i] = atan2(x[i], 1.5f);
}
