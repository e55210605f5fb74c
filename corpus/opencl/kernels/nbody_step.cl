__kernel void nbody_step(__global const float4* pos, __global float4* acc, int n) {
  int i = get_global_id(0);
  float4 p = pos[i];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
    float inv = native_rsqrt(r2);
    a += d * (q.w * inv * inv * inv);
  }
  acc[i] = (float4)(a, 0.0f);
}
