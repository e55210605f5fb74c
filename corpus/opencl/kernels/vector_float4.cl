__kernel void vector_float4(__global const float4* a, __global const float4* b, __global float4* out, __global float* d) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  out[i] = x * y.wzyx + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  d[i] = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}
