// Exclusive work-efficient scan of 2*local_size elements per group.
__kernel void scan_blelloch(__global const uint* in, __global uint* out, __local uint* t) {
  int l = get_local_id(0), n = 2 * get_local_size(0), base = get_group_id(0) * n;
  t[2 * l] = in[base + 2 * l];
  t[2 * l + 1] = in[base + 2 * l + 1];
  int off = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) { int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1; t[bi] += t[ai]; }
    off <<= 1;
  }
  if (l == 0) t[n - 1] = 0;
  for (int d = 1; d < n; d <<= 1) {
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      uint v = t[ai]; t[ai] = t[bi]; t[bi] += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * l] = t[2 * l];
  out[base + 2 * l + 1] = t[2 * l + 1];
}
