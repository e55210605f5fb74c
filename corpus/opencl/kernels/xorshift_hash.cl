__kernel void xorshift_hash(__global const uint* seed, __global uint* out, int rounds) {
  int i = get_global_id(0);
  uint x = seed[i] ^ (uint)i * 0x9E3779B9u;
  for (int r = 0; r < rounds; ++r) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    x = x * 0x85ebca6bu + (x >> 16);
  }
  out[i] = x;
}
