__kernel void prefix_bits(__global const uint* flags, __global uint* pos, __global uint* total) {
  __local uint cnt[64];
  int l = get_local_id(0);
  uint f = flags[get_global_id(0)] & 1;
  cnt[l] = f;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint before = 0;
  for (int j = 0; j < l; ++j) before += cnt[j];
  pos[get_global_id(0)] = before;
  if (l == get_local_size(0) - 1) atomic_add(total, before + f);
}
