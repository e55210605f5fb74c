__kernel void vec_add_int(__global const int* a, __global const int* b, __global int* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
