// Sorts each work-group's slice (a power of two) in local memory.
__kernel void bitonic_sort_local(__global int* data) {
  __local int s[128];
  int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  s[l] = data[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int p = l ^ j;
      if (p > l) {
        int a = s[l], b = s[p];
        bool up = (l & k) == 0;
        if ((a > b) == up) { s[l] = b; s[p] = a; }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  data[g] = s[l];
}
