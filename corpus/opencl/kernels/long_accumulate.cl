__kernel void long_accumulate(__global const uint* a, __global ulong* out) {
  int i = get_global_id(0);
  ulong acc = 0;
  for (int k = 0; k < 8; ++k)
    acc += (ulong)a[(i + k) & 255] * (ulong)(k + 0xfffff);
  out[i] = acc ^ ((ulong)i << 40);
}
