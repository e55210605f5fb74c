// Inclusive scan of each work-group's slice (Hillis-Steele, double-buffered).
__kernel void scan_hillis_steele(__global const int* in, __global int* out) {
  __local int a[128];
  __local int b[128];
  int l = get_local_id(0), n = get_local_size(0);
  __local int* src = a;
  __local int* dst = b;
  a[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    dst[l] = l >= off ? src[l] + src[l - off] : src[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int* t = src; src = dst; dst = t;
  }
  out[get_global_id(0)] = src[l];
}
