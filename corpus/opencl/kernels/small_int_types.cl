__kernel void small_int_types(__global const char* a, __global const short* b, __global uchar* c, __global short* d) {
  int i = get_global_id(0);
  char x = a[i];
  short y = b[i];
  c[i] = (uchar)(x * 3 + (y >> 2));
  d[i] = (short)(y * x) ^ (short)(x << 4);
}
