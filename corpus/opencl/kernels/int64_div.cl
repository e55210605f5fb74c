__kernel void int64_div(__global const long* a, __global const long* b, __global long* q, __global ulong* ur) {
  int i = get_global_id(0);
  q[i] = a[i] / b[i];
  ur[i] = (ulong)a[i] % (ulong)b[i];
}
