__kernel void int_div_mod(__global const int* a, __global const int* b, __global int* q, __global int* r, __global uint* uq) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  uq[i] = (uint)x / (uint)y + (uint)x % (uint)y;
}
