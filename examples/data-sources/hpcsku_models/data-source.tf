# Every mixture-of-experts model: memory is set by all parameters, compute
# per token by the active ones.
data "hpcsku_models" "moe" {
  kinds = ["moe"]
}

output "moe_models" {
  value = {
    for m in data.hpcsku_models.moe.models : m.id => {
      total_b   = m.parameters_billion
      active_b  = m.active_parameters_billion
      experts   = "${m.active_experts} of ${m.experts}"
      precision = m.precision
    }
  }
}

# One model's architecture, for a KV-cache estimate per token:
# 2 (K and V) x layers x KV heads x head dimension x 2 bytes (bf16).
data "hpcsku_models" "llama" {
  name_regex = "^llama-3\\.1-8b$"
}

locals {
  llama = data.hpcsku_models.llama.models[0]
}

output "llama_kv_bytes_per_token" {
  value = 2 * local.llama.layers * local.llama.kv_heads * local.llama.head_dim * 2
}
