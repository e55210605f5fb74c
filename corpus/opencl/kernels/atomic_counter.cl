// Counts positive elements with a global atomic; the order of increments does not matter.
__kernel void atomic_counter(__global const int* in, __global int* count, __global int* sum) {
  int v = in[get_global_id(0)];
  if (v > 0) atomic_inc(count);
  atomic_add(sum, v);
}
