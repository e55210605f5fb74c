__kernel void vload_vstore(__global const float* in, __global float* out) {
  int i = get_global_id(0);
  float3 v = vload3(i, in);
  vstore3(v.zxy * 2.0f, i, out);
}
