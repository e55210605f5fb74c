__kernel void convert_sat(__global const float* f, __global const int* n, __global uchar* u8, __global char* s8, __global short* s16, __global int* s32, __global ushort* u16) {
  int i = get_global_id(0);
  u8[i] = convert_uchar_sat(f[i]);
  s8[i] = convert_char_sat_rte(f[i]);
  s16[i] = convert_short_sat(n[i]);
  s32[i] = convert_int_sat(f[i] * 1.0e8f);
  u16[i] = convert_ushort_sat(n[i]);
}
