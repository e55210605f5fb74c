// 64-bin histogram: local atomics per group, then merged with global atomics.
__kernel void histogram_local(__global const uchar* data, __global uint* hist, int n) {
  __local uint bins[64];
  int l = get_local_id(0);
  for (int i = l; i < 64; i += get_local_size(0)) bins[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&bins[data[i] & 63]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = l; i < 64; i += get_local_size(0)) atomic_add(&hist[i], bins[i]);
}
